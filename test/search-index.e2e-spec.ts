import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { generateCatalog, writeCatalog } from '../bench/lib/synthetic-catalog';
import { EventStore } from '../src/event-store/event-store.service';
import { LISTING_AGGREGATE } from '../src/listings/listing.aggregate';
import { LISTING_REVISED, LISTING_WITHDRAWN } from '../src/listings/events/listing-events';
import type { ListingDocument } from '../src/listings/listing.document';
import { ProjectionRunner } from '../src/projections/projection-runner.service';
import { ReadModelReader } from '../src/projections/read-model.reader';
import { buildSearchRequest, COMMON_TERM_POSTINGS } from '../src/search/search-query';
import { getJson, REDIS_URL, RunningService, startService } from './support/harness';
import { dumpGeneration } from './support/read-model-dump';

/**
 * Posting lists past the size where terms count as common (read in part: their best postings, ZMSCORE for
 * candidates): edits applied batch by batch must leave the same index as a rebuild, and search must read
 * it the same way.
 */
const SIZE = COMMON_TERM_POSTINGS + 120;
let service: RunningService;
let store: EventStore;
let runner: ProjectionRunner;
const redis = new Redis(REDIS_URL);
const folder = mkdtempSync(join(tmpdir(), 'search-index-'));
const catalog = generateCatalog(SIZE);

beforeAll(async () => {
  // No rebuild on lag: every event goes through the batch path (diffs against the stored postings).
  service = await startService('index', { PROJECTOR_BATCH_SIZE: '100', PROJECTOR_REBUILD_LAG: '1000000' });
  store = service.app.get(EventStore);
  runner = service.app.get(ProjectionRunner);
  writeCatalog(catalog, folder);
  const report = await service.ingest([folder]);
  expect(report.problems).toEqual([]);
  expect(report.results.length).toBe(SIZE);
  expect(await runner.waitUntilProjected((await store.lastPosition())!, 60_000)).toBe(true);
}, 120_000);

afterAll(async () => {
  await service.close();
  await redis.quit();
  rmSync(folder, { recursive: true, force: true });
});

const generation = async () => Number(await redis.get(`{${service.namespace}:rm}:current`));
const tag = async () => `{${service.namespace}:g${await generation()}}`;
const search = async (q: string) => {
  const { status, body } = await getJson(`${service.baseUrl}/api/v1/tools/search?q=${encodeURIComponent(q)}&limit=30`);
  expect(status).toBe(200);
  return body as { total: number; results: Array<{ slug: string; score: number; popularity: number }> };
};

it('edits applied batch by batch to common terms leave the same index and results as a rebuild', async () => {
  expect(await redis.zcard(`${await tag()}:t:api`)).toBeGreaterThan(COMMON_TERM_POSTINGS);

  // Revisions that change scores (description) and order (popularity), and withdrawals.
  const withdrawn = catalog.slice(0, 5).map((l) => l.slug);
  for (const slug of withdrawn) {
    await store.append(LISTING_AGGREGATE, slug, 1, [{ type: LISTING_WITHDRAWN, data: { reason: 'test' } }], 'editor');
  }
  for (const listing of catalog.slice(5, 60) as ListingDocument[]) {
    const document = { ...listing, popularity: (listing.popularity + 37) % 101, description: `API API ${listing.description}` };
    await store.append(LISTING_AGGREGATE, listing.slug, 1, [{ type: LISTING_REVISED, data: { document, changedFields: ['popularity', 'description'] } }], 'editor');
  }
  expect(await runner.waitUntilProjected((await store.lastPosition())!, 60_000)).toBe(true);

  // (a closed word, "api.": no completions, so the common term's best postings are the candidates; every
  // listing has the word, so the lower bound `total` is the whole catalog but the withdrawn)
  const afterEdits = await search('api.');
  expect(afterEdits.total).toBe(SIZE - withdrawn.length);
  expect(afterEdits.results.filter((r) => withdrawn.includes(r.slug))).toEqual([]);
  // the listings whose description now repeats the word rank first
  const boosted = new Set(catalog.slice(5, 60).map((l) => l.slug));
  expect(afterEdits.results.slice(0, 10).every((r) => boosted.has(r.slug))).toBe(true);
  const rareAndCommon = await search(`api ${catalog[70].name}`);

  const incremental = await dumpGeneration(redis, service.namespace, await generation());
  await runner.rebuild();
  const rebuilt = await dumpGeneration(redis, service.namespace, await generation());
  expect(incremental).toEqual(rebuilt);
  expect(await search('api.')).toEqual(afterEdits);
  expect(await search(`api ${catalog[70].name}`)).toEqual(rareAndCommon);
}, 120_000);

/** Runs a search with the script's thresholds set: `partial` reads common terms in part, `exhaustive` reads every posting. */
async function runScript(q: string, category: string | null, thresholds: { common: number; top: number }, limit = 10) {
  const { total, hits } = await service.app.get(ReadModelReader).search({ ...buildSearchRequest(q, category, limit), ...thresholds });
  const results = hits.map(({ slug, score, mask, summary }) => ({
    slug,
    score: Number(score),
    mask,
    popularity: (JSON.parse(summary) as { popularity: number }).popularity,
  }));
  return { total, results };
}

it('a query over terms read in part finds listings that have all its words, the most popular of equals, and their full field masks', async () => {
  // 620 listings with the thresholds scaled down (common past 30 postings, 10 best read) stand for a catalog
  // of hundreds of thousands; the exhaustive reading is the reference.
  const partial = { common: 30, top: 10 };
  const exhaustive = { common: 1e9, top: 1e9 };
  const queries: Array<[string, string | null]> = [
    ['api', null],
    ['serverless gpu', null],
    ['text to speech', null],
    ['vector database', null],
    ['语音识别', null],
    ['llm observability', null],
    ['speech', 'audio'],
  ];
  for (const [q, category] of queries) {
    const part = await runScript(q, category, partial);
    const full = await runScript(q, category, exhaustive);
    const reference = new Map(full.results.map((r) => [r.slug, r]));
    expect(full.results.length).toBe(10);
    // as many results: listings that have all the words are found though each word is read in part
    expect([q, part.results.length]).toEqual([q, 10]);
    expect(part.total).toBeGreaterThanOrEqual(10);
    expect(part.total).toBeLessThanOrEqual(full.total);
    // the fields each result matched, from every term, not only from those read for ranking
    for (const r of part.results) {
      const ref = reference.get(r.slug);
      if (ref) expect([q, r.slug, r.mask]).toEqual([q, r.slug, ref.mask]);
    }
    // as relevant as the reference's results, on average within the tie tolerance
    const mean = (rs: Array<{ score: number }>) => rs.reduce((sum, r) => sum + r.score, 0) / rs.length;
    expect([q, mean(part.results) >= 0.9 * mean(full.results)]).toEqual([q, true]);
  }
  // a word every listing has scores alike everywhere: the most popular come first, as in the reference
  const everywhere = await runScript('api', null, partial);
  const reference = await runScript('api', null, exhaustive);
  expect(everywhere.results.map((r) => r.popularity)).toEqual(reference.results.map((r) => r.popularity));
}, 60_000);

it('a page is the top of the whole ranking: a shorter page holds its first listings, ties in popularity order', async () => {
  // The script orders only the rows that can reach the page, and of a large group of equals only the most
  // popular: every page size must give the first listings of the ranking of all matches.
  const queries: Array<[string, string | null]> = [
    ['api', null],
    ['text to speech', null],
    ['vector database', null],
    ['llm observability', null],
    ['语音识别', null],
    ['speech', 'audio'],
  ];
  // requests outside what the API sends still end, as before: a group always takes its lead
  for (const odd of [{ tolerance: -0.1, limit: 2 }, { tolerance: 0.1, limit: 1.5 }, { tolerance: 0.1, limit: 0 }]) {
    const { hits } = await service.app.get(ReadModelReader).search({ ...buildSearchRequest('api', null, 10), ...odd });
    expect([odd, hits.length]).toEqual([odd, Math.max(0, Math.ceil(odd.limit))]);
  }
  for (const thresholds of [{ common: 1e9, top: 1e9 }, { common: 30, top: 10 }]) {
    for (const [q, category] of queries) {
      const all = (await runScript(q, category, thresholds, 5000)).results;
      expect([q, all.length > 10]).toEqual([q, true]);
      for (const limit of [1, 3, 10, 20].filter((n) => n < all.length)) {
        const page = (await runScript(q, category, thresholds, limit)).results;
        expect([q, limit, page]).toEqual([q, limit, all.slice(0, limit)]);
      }
    }
  }
}, 60_000);
