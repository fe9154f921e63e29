import { CommandBus } from '@nestjs/cqrs';
import type Redis from 'ioredis';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { documentDigest } from '../src/event-store/content-digest';
import { EventStore } from '../src/event-store/event-store.service';
import type { ImportReport } from '../src/catalog/import/import-catalog.command';
import { WithdrawListingCommand } from '../src/listings/write/commands/withdraw-listing/withdraw-listing.command';
import { LISTING_AGGREGATE, listingAggregate } from '../src/listings/write/listing.aggregate';
import { LISTING_REVISED } from '../src/listings/write/events/listing-events';
import { ListingDocument, parseListing } from '../src/listings/write/listing.document';
import { RedisConnection } from '../src/redis/redis-connection';
import { commandsDuring, RunningService, startService } from './support/harness';
import { FIXTURES } from './support/fixtures';

/**
 * The event store keeps a digest of each aggregate's current document, and a publish command whose
 * document has that digest (at the version the import started from) is reported unchanged without reading
 * the aggregate's events. What must hold: a digest never outlives the document it was made from (or a
 * change would be taken for no change), and an import still finds changes when digests are missing.
 */
let service: RunningService;
let store: EventStore;
let redis: RedisConnection;
let work: string;
let reads = 0;

beforeAll(async () => {
  service = await startService('digest');
  store = service.app.get(EventStore);
  redis = service.app.get(RedisConnection);
  const readAggregate = store.readAggregate.bind(store);
  // Counts the aggregates read in full (what a command does when the digest does not settle it).
  store.readAggregate = ((...args: Parameters<typeof readAggregate>) => {
    reads++;
    return readAggregate(...args);
  }) as typeof store.readAggregate;
  work = mkdtempSync(join(tmpdir(), 'digest-'));
  expect((await service.ingest(['fixtures'])).problems).toEqual([]);
});
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await service?.close();
});

/** An import, and how many aggregates it read in full. */
async function ingestCounting(paths: string[], actor = 'test', options: { republish?: boolean; force?: boolean } = {}): Promise<{ report: ImportReport; reads: number }> {
  const before = reads;
  const report = await service.ingest(paths, actor, options);
  expect(report.problems).toEqual([]);
  return { report, reads: reads - before };
}

const outcomes = (report: ImportReport) => report.results.map((r) => `${r.aggregateId}:${r.outcome}`);
const digests = () => redis.client.hgetall(redis.keys.contentDigests);
const fixtureDoc = (slug: string) => parse(readFileSync(`fixtures/listings/${slug}.yaml`, 'utf8')) as Record<string, unknown>;

function writeListing(dir: string, slug: string, doc: Record<string, unknown>): string {
  const file = join(dir, `${slug}.yaml`);
  writeFileSync(file, stringify(doc));
  return file;
}

async function currentDocument(slug: string): Promise<ListingDocument | null> {
  return listingAggregate.fold(await store.readAggregate(LISTING_AGGREGATE, slug)).document;
}

/** What the store should record for a listing now: its version and the digest of its document. */
async function expectedRecord(slug: string): Promise<string> {
  const state = listingAggregate.fold(await store.readAggregate(LISTING_AGGREGATE, slug));
  return `${state.version}:${documentDigest(state.document!)}`;
}

it('records the digest of every document published, the digest of the document stored', async () => {
  const recorded = await digests();
  expect(Object.keys(recorded)).toHaveLength(FIXTURES.documents);
  for (const slug of ['openai', 'stripe', 'remove-bg']) {
    expect(recorded[`${LISTING_AGGREGATE}:${slug}`]).toBe(await expectedRecord(slug));
  }
});

it('re-importing unchanged files reads no aggregate and reports each unchanged at its version', async () => {
  const { report, reads: aggregatesRead } = await ingestCounting(['fixtures']);
  expect(aggregatesRead).toBe(0);
  expect(report.results).toHaveLength(FIXTURES.documents);
  expect(report.results.every((r) => r.outcome === 'unchanged' && r.version === 1)).toBe(true);
  expect(report.projection).toBe('not-needed');
});

it('re-importing unchanged files reads no document from the event store, not even to look for withdrawn ones', async () => {
  const { result, commands } = await commandsDuring(redis.client as Redis, () => ingestCounting(['fixtures']));
  expect(result.report.results.every((r) => r.outcome === 'unchanged')).toBe(true);
  // Every read of a document names its aggregate's list of events.
  const ofAnAggregate = redis.keys.aggregateEvents('');
  expect(commands.filter((args) => args.some((arg) => arg.startsWith(ofAnAggregate))).length).toBe(0);
});

it('takes the same content written in another key order for unchanged', async () => {
  const dir = mkdtempSync(join(work, 'order-'));
  const doc = fixtureDoc('mistral');
  const reversed = Object.fromEntries(Object.entries(doc).reverse());
  writeListing(dir, 'mistral', reversed);
  const { report, reads: aggregatesRead } = await ingestCounting([dir]);
  expect(outcomes(report)).toEqual(['mistral:unchanged']);
  expect(aggregatesRead).toBe(0);
});

it('revises a changed file among unchanged ones and records the new digest', async () => {
  const dir = mkdtempSync(join(work, 'change-'));
  cpSync('fixtures/listings', dir, { recursive: true });
  writeListing(dir, 'cohere', { ...fixtureDoc('cohere'), popularity: 61 });
  const { report, reads: aggregatesRead } = await ingestCounting([dir]);
  // Only the changed one's events are read: once to see whether the file sets a field back (a stale
  // copy), once by its command.
  expect(aggregatesRead).toBe(2);
  expect(report.results.filter((r) => r.outcome !== 'unchanged').map((r) => `${r.aggregateId}:${r.outcome}`)).toEqual(['cohere:revised']);
  expect((await digests())[`${LISTING_AGGREGATE}:cohere`]).toBe(await expectedRecord('cohere'));
  // The original file is a change now, not a match of a digest left behind (one that sets popularity
  // back to its value before the last change: sent on purpose).
  const back = await ingestCounting(['fixtures/listings/cohere.yaml'], 'test', { force: true });
  expect(outcomes(back.report)).toEqual(['cohere:revised']);
  expect((await currentDocument('cohere'))!.popularity).toBe(fixtureDoc('cohere').popularity);
});

it('an append that names no digest drops the recorded one, so the next import compares in full', async () => {
  const original = (await currentDocument('groq'))!;
  const events = await store.readAggregate(LISTING_AGGREGATE, 'groq');
  const changed = { ...original, latency: 'Changed by a writer that records no digest.' };
  await store.append(LISTING_AGGREGATE, 'groq', events.length, [{ type: LISTING_REVISED, data: { document: changed, changedFields: ['latency'] } }], 'other');
  expect((await digests())[`${LISTING_AGGREGATE}:groq`]).toBeUndefined();
  const { report, reads: aggregatesRead } = await ingestCounting(['fixtures/listings/groq.yaml']);
  expect(outcomes(report)).toEqual(['groq:revised']);
  expect(aggregatesRead).toBe(2);
  expect(await currentDocument('groq')).toEqual(parseListing(fixtureDoc('groq')).listing);
});

it('a digest left behind at an older version (a writer that does not keep digests) counts for nothing', async () => {
  const stream = `${LISTING_AGGREGATE}:deepseek`;
  const left = (await digests())[stream];
  expect(left).toBe(await expectedRecord('deepseek'));
  const events = await store.readAggregate(LISTING_AGGREGATE, 'deepseek');
  const changed = { ...(await currentDocument('deepseek'))!, pricing: 'Changed by a writer that leaves the digest as it was.' };
  await store.append(LISTING_AGGREGATE, 'deepseek', events.length, [{ type: LISTING_REVISED, data: { document: changed, changedFields: ['pricing'] } }], 'older-writer');
  await redis.client.hset(redis.keys.contentDigests, stream, left); // as a writer that knows nothing of digests leaves it
  const { report, reads: aggregatesRead } = await ingestCounting(['fixtures/listings/deepseek.yaml']);
  expect(outcomes(report)).toEqual(['deepseek:revised']);
  expect(aggregatesRead).toBe(2);
  expect(await currentDocument('deepseek')).toEqual(parseListing(fixtureDoc('deepseek')).listing);
});

it('withdrawing drops the digest; publishing the file again is a publication', async () => {
  const withdrawn = await service.app.get(CommandBus).execute(new WithdrawListingCommand('replicate', 'test'));
  expect(withdrawn.outcome).toBe('withdrawn');
  expect((await digests())[`${LISTING_AGGREGATE}:replicate`]).toBeUndefined();
  // A withdrawn listing comes back only when the editor says so.
  expect((await ingestCounting(['fixtures/listings/replicate.yaml'])).report.refused).toEqual([
    { file: 'fixtures/listings/replicate.yaml', field: '(file)', reason: 'listing replicate was withdrawn: run ingest --republish to publish it again, or remove the file' },
  ]);
  const { report } = await ingestCounting(['fixtures/listings/replicate.yaml'], 'test', { republish: true });
  expect(outcomes(report)).toEqual(['replicate:published']);
  expect((await digests())[`${LISTING_AGGREGATE}:replicate`]).toBe(`3:${documentDigest(parseListing(fixtureDoc('replicate')).listing!)}`);
});

it('a store without digests: the first import compares in full and records them, the next reads no aggregate', async () => {
  await redis.client.del(redis.keys.contentDigests);
  const first = await ingestCounting(['fixtures']);
  expect(first.reads).toBe(FIXTURES.documents);
  expect(first.report.results.every((r) => r.outcome === 'unchanged')).toBe(true);
  expect(Object.keys(await digests())).toHaveLength(FIXTURES.documents);
  const second = await ingestCounting(['fixtures']);
  expect(second.reads).toBe(0);
  expect(second.report.results.every((r) => r.outcome === 'unchanged')).toBe(true);
});

it('records a digest only for the version it was compared with', async () => {
  const events = await store.readAggregate(LISTING_AGGREGATE, 'openai');
  const stream = `${LISTING_AGGREGATE}:openai`;
  await redis.client.hdel(redis.keys.contentDigests, stream);
  const stale = await store.recordDigests([{ aggregateType: LISTING_AGGREGATE, aggregateId: 'openai', version: events.length - 1, digest: 'stale' }]);
  expect(stale).toBe(0);
  expect(await redis.client.hget(redis.keys.contentDigests, stream)).toBeNull();
  const current = await store.recordDigests([{ aggregateType: LISTING_AGGREGATE, aggregateId: 'openai', version: events.length, digest: 'current' }]);
  expect(current).toBe(1);
  expect(await redis.client.hget(redis.keys.contentDigests, stream)).toBe(`${events.length}:current`);
});
