import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Categories } from '../src/categories/categories';
import { NO_FILTERS } from '../src/contract/listing-filters';
import { EventStore } from '../src/event-store/event-store.service';
import { LISTING_AGGREGATE } from '../src/listings/write/listing.aggregate';
import { LISTING_PUBLISHED, LISTING_REVISED, LISTING_WITHDRAWN } from '../src/listings/write/events/listing-events';
import type { ListingDocument } from '../src/listings/write/listing.document';
import { ProjectionRunner } from '../src/projections/projection-runner.service';
import { ProjectionWait } from '../src/projections/projection-wait';
import { LiveSearchIndex } from '../src/search/live-search-index';
import { deleteMatching } from '../src/redis/delete-matching';
import { RedisConnection } from '../src/redis/redis-connection';
import { IndexFollower } from '../src/search/index-follower';
import type { SearchIndex } from '../src/search/search-index';
import { getJson, RunningService, startService } from './support/harness';
import { generateCatalog, writeCatalog } from './support/synthetic-catalog';

/**
 * Each serving process keeps its search index by following the event log up to the read models'
 * checkpoint: after publications, revisions and withdrawals, batch by batch, it must hold what an index
 * built from the whole log at once holds, and answer with exact totals.
 */
const SIZE = 620;
let service: RunningService;
let store: EventStore;
const folder = mkdtempSync(join(tmpdir(), 'search-index-'));
const catalog = generateCatalog(SIZE);

beforeAll(async () => {
  service = await startService('index', { PROJECTOR_BATCH_SIZE: '100', PROJECTOR_REBUILD_LAG: '1000000' });
  store = service.app.get(EventStore);
  writeCatalog(catalog, folder);
  const report = await service.ingest([folder]);
  expect(report.problems).toEqual([]);
  expect(report.results.length).toBe(SIZE);
}, 120_000);

afterAll(async () => {
  await service.close();
  rmSync(folder, { recursive: true, force: true });
});

const search = async (q: string) => {
  const { status, body } = await getJson(`${service.baseUrl}/api/v1/tools/search?q=${encodeURIComponent(q)}&limit=30`);
  expect(status).toBe(200);
  return body as { total: number; results: Array<{ slug: string; score: number; popularity: number }> };
};

/** What an index shows, comparable with toEqual: every listing in browse order, and the full answers of searches. */
function snapshot(index: SearchIndex) {
  return {
    browse: index.browse(NO_FILTERS, { limit: 100_000 }),
    searches: ['api', 'speech to text', `api ${catalog[70].name}`, '向量数据库', 'quok', 'quoka', 'stri'].map((q) => index.search(q, NO_FILTERS, { limit: 50, offset: 0 })),
  };
}

it('follows revisions and withdrawals batch by batch to what a fresh index of the whole log holds', async () => {
  const withdrawn = catalog.slice(0, 5).map((l) => l.slug);
  for (const slug of withdrawn) {
    await store.append(LISTING_AGGREGATE, slug, 1, [{ type: LISTING_WITHDRAWN, data: { reason: 'test' } }], 'editor');
  }
  for (const listing of catalog.slice(5, 60) as ListingDocument[]) {
    const document = { ...listing, popularity: (listing.popularity + 37) % 101, description: `Quokka quokka ${listing.description}` };
    await store.append(LISTING_AGGREGATE, listing.slug, 1, [{ type: LISTING_REVISED, data: { document, changedFields: ['popularity', 'description'] } }], 'editor');
  }
  expect(await service.app.get(ProjectionWait).waitUntilProjected(await store.lastPosition(), 60_000)).toBe(true);

  // Every listing has the word: the total is exact, however many match.
  const afterEdits = await search('api.');
  expect(afterEdits.total).toBe(SIZE - withdrawn.length);
  expect(afterEdits.results.filter((r) => withdrawn.includes(r.slug))).toEqual([]);
  // The revised descriptions are searched: a word only they have finds exactly them.
  const revised = await search('quokka');
  expect(revised.total).toBe(55);
  expect(revised.results.every((r) => catalog.slice(5, 60).some((l) => l.slug === r.slug))).toBe(true);

  const followed = await service.app.get(LiveSearchIndex).current();
  const fresh = new IndexFollower(store, service.app.get(Categories));
  await fresh.catchUp(await store.lastPosition());
  expect(snapshot(followed)).toEqual(snapshot(fresh.current));
}, 120_000);

it('catches up at the next check when catching up failed as a change arrived (search does not stay behind the details)', async () => {
  const follower = (service.app.get(LiveSearchIndex) as unknown as { follower: IndexFollower }).follower;
  const held = follower as unknown as { store: EventStore };
  const realStore = held.store;
  // Redis going away for a moment exactly as a change arrives cannot be had on demand: the follower's
  // reads of the log fail for half a second from its next one instead, as they would then (every
  // catch-up the change's notifications start fails; only a later check can bring the index there).
  let failures = 0;
  let downUntil = 0;
  held.store = Object.create(realStore, {
    readAll: {
      value: (...args: Parameters<EventStore['readAll']>) => {
        if (downUntil === 0) downUntil = Date.now() + 500;
        if (Date.now() < downUntil) {
          failures++;
          return Promise.reject(new Error('Connection is closed.'));
        }
        return realStore.readAll(...args);
      },
    },
  }) as EventStore;
  try {
    const listing = catalog[61] as ListingDocument;
    const document = { ...listing, description: `Wombatish ${listing.description}` };
    await store.append(LISTING_AGGREGATE, listing.slug, 1, [{ type: LISTING_REVISED, data: { document, changedFields: ['description'] } }], 'editor');
    expect(await service.app.get(ProjectionWait).waitUntilProjected(await store.lastPosition(), 60_000)).toBe(true);
    const detail = await getJson(`${service.baseUrl}/api/v1/tools/${listing.slug}`);
    expect(JSON.stringify(detail.body)).toContain('Wombatish');
    // The read models' checks (every READ_POLL_MS, 1 s here) bring the index there too.
    let found = 0;
    for (let waited = 0; found === 0 && waited < 10_000; waited += 200) {
      await new Promise((r) => setTimeout(r, 200));
      found = (await search('wombatish')).total;
    }
    expect(failures).toBeGreaterThan(0); // the reads did fail
    expect(found).toBe(1);
  } finally {
    held.store = realStore;
  }
}, 60_000);

it('starts again from the beginning of the log when the log no longer holds the last event it followed', async () => {
  const follower = new IndexFollower(store, service.app.get(Categories));
  await follower.catchUp(await store.lastPosition());
  expect(follower.current.size).toBe(SIZE - 5);
  // The store emptied and filled again with fewer listings (the last test: the service stops first).
  await service.app.get(ProjectionRunner).stop();
  const redis = service.app.get(RedisConnection);
  await deleteMatching(redis.client, `{${service.namespace}:es}:*`);
  for (const listing of catalog.slice(0, 10)) await store.append(LISTING_AGGREGATE, listing.slug, 0, [{ type: LISTING_PUBLISHED, data: { document: listing } }], 'editor');
  await follower.catchUp(await store.lastPosition());
  expect(follower.current.size).toBe(10);
});
