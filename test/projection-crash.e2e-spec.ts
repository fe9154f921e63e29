import { ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { parse } from 'yaml';
import { EventStore, comparePositions } from '../src/event-store/event-store.service';
import { ERROR_ENTRY_AGGREGATE } from '../src/error-reference/write/error-entry.aggregate';
import { ERROR_ENTRY_PUBLISHED } from '../src/error-reference/write/events/error-entry-events';
import { errorEntryId, parseErrorEntry } from '../src/error-reference/write/error-entry.document';
import { LISTING_AGGREGATE } from '../src/listings/write/listing.aggregate';
import { LISTING_PUBLISHED, LISTING_REVISED, LISTING_WITHDRAWN } from '../src/listings/write/events/listing-events';
import { parseListing } from '../src/listings/write/listing.document';
import { RedisConnection } from '../src/redis/redis-connection';
import { runCli } from './support/cli';
import { dropNamespace, REDIS_URL, testConfig, uniqueNamespace } from './support/harness';
import { dumpGeneration } from './support/read-model-dump';

const namespace = uniqueNamespace('crash');
const redis = new Redis(REDIS_URL);
const connection = new RedisConnection(testConfig(namespace));
const store = new EventStore(connection);
const children: ChildProcess[] = [];

afterAll(async () => {
  children.forEach((c) => c.kill('SIGKILL'));
  await connection.onApplicationShutdown();
  await dropNamespace(namespace);
  await redis.quit();
});

function startProjector(): ChildProcess {
  const child = spawn(process.execPath, ['dist/ingest/main.js', 'project'], {
    env: { ...process.env, REDIS_URL, REDIS_NAMESPACE: namespace, PROJECTOR_BATCH_SIZE: '1', PROJECTOR_LEASE_MS: '1000' },
    stdio: 'ignore',
  });
  children.push(child);
  return child;
}

async function checkpoint(): Promise<string | null> {
  const generation = await redis.get(`{${namespace}:rm}:current`);
  return generation === null ? null : redis.get(`{${namespace}:g${generation}}:checkpoint`);
}

async function waitFor(predicate: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(() => connection.onModuleInit());

it('a projector killed between events resumes to the same read models as a clean rebuild', async () => {
  // A history with publications, revisions (popularity and category changes reorder comparisons), withdrawals.
  const files = readdirSync('fixtures/listings').sort();
  for (const file of files) {
    const listing = parseListing(parse(readFileSync(`fixtures/listings/${file}`, 'utf8'))).listing!;
    await store.append(LISTING_AGGREGATE, listing.slug, 0, [{ type: LISTING_PUBLISHED, data: { document: listing } }], 'seed');
  }
  for (const file of readdirSync('fixtures/errors')) {
    const entry = parseErrorEntry(parse(readFileSync(`fixtures/errors/${file}`, 'utf8'))).entry!;
    await store.append(ERROR_ENTRY_AGGREGATE, errorEntryId(entry), 0, [{ type: ERROR_ENTRY_PUBLISHED, data: { document: entry } }], 'seed');
  }
  for (let round = 1; round <= 3; round++) {
    for (const file of files.filter((_, i) => i % (round + 1) === 0)) {
      const listing = parseListing(parse(readFileSync(`fixtures/listings/${file}`, 'utf8'))).listing!;
      const events = await store.readAggregate(LISTING_AGGREGATE, listing.slug);
      const document = { ...listing, popularity: (listing.popularity + round * 7) % 101, category: round === 2 ? 'tools' : listing.category };
      await store.append(LISTING_AGGREGATE, listing.slug, events.length, [{ type: LISTING_REVISED, data: { document, changedFields: ['popularity', 'category'] } }], 'editor');
    }
  }
  for (const slug of ['groq', 'stripe', 'openai']) {
    const events = await store.readAggregate(LISTING_AGGREGATE, slug);
    await store.append(LISTING_AGGREGATE, slug, events.length, [{ type: LISTING_WITHDRAWN, data: { reason: 'test' } }], 'editor');
  }
  const last = await store.lastPosition();
  const total = await store.count();
  expect(total).toBeGreaterThan(250);

  // Kill the runner hard once it is part-way through.
  const first = startProjector();
  const middle = (await store.readAll('0-0', Math.floor(total / 3)))[Math.floor(total / 3) - 1].position;
  await waitFor(async () => {
    const position = await checkpoint();
    return position !== null && comparePositions(position, middle) >= 0;
  }, 30_000);
  first.kill('SIGKILL');
  await new Promise((r) => first.once('exit', r));
  const stoppedAt = (await checkpoint())!;
  expect(comparePositions(stoppedAt, last)).toBeLessThan(0);

  // A new runner takes over once the dead one's lease expires, and finishes from the checkpoint.
  const second = startProjector();
  await waitFor(async () => (await checkpoint()) === last, 60_000);
  second.kill('SIGTERM');
  await new Promise((r) => second.once('exit', r));

  const resumedGeneration = Number(await redis.get(`{${namespace}:rm}:current`));
  const resumed = await dumpGeneration(redis, namespace, resumedGeneration);

  const rebuild = await runCli(namespace, ['rebuild']);
  expect(rebuild.code).toBe(0);
  const rebuiltGeneration = Number(await redis.get(`{${namespace}:rm}:current`));
  expect(rebuiltGeneration).not.toBe(resumedGeneration);
  const rebuilt = await dumpGeneration(redis, namespace, rebuiltGeneration);

  expect(Object.keys(resumed.detail as object).length).toBeGreaterThan(100);
  expect(resumed).toEqual(rebuilt);
}, 120_000);
