import { CommandBus } from '@nestjs/cqrs';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { parse } from 'yaml';
import { generateCatalog, writeCatalog } from '../bench/lib/synthetic-catalog';
import { CategoryCatalog } from '../src/catalog/category-catalog';
import { EventStore } from '../src/event-store/event-store.service';
import { PublishErrorEntryCommand } from '../src/error-reference/commands/publish-error-entry/publish-error-entry.command';
import { parseErrorEntry } from '../src/error-reference/error-entry.document';
import { PublishListingCommand } from '../src/listings/commands/publish-listing/publish-listing.command';
import { WithdrawListingCommand } from '../src/listings/commands/withdraw-listing/withdraw-listing.command';
import { parseListing } from '../src/listings/listing.document';
import { GenerationProjector } from '../src/projections/generation-projector';
import { Generations } from '../src/projections/generations';
import { ProjectionRunner } from '../src/projections/projection-runner.service';
import { ReadModelReader } from '../src/projections/read-model.reader';
import { RedisConnection } from '../src/redis/redis-connection';
import { commandsDuring, REDIS_URL, RunningService, startService } from './support/harness';
import { dumpGeneration } from './support/read-model-dump';

/**
 * A rebuild parses, indexes and renders listings on worker threads (PROJECTOR_WORKERS) and loads the
 * index with RESTORE: whatever the number of threads, and on none, it must write the very same generation
 * the service projected event by event (with ZADD), dictionary included, and the same again where Redis
 * refuses RESTORE; and a build that fails must leave the live generation alone and its own keys gone.
 */
let service: RunningService;
let store: EventStore;
const redis = new Redis(REDIS_URL);
const folder = mkdtempSync(join(tmpdir(), 'rebuild-'));

beforeAll(async () => {
  service = await startService('rebuild', { PROJECTOR_WORKERS: '3' });
  store = service.app.get(EventStore);
  writeCatalog(generateCatalog(200), folder);
  const report = await service.ingest(['fixtures', folder]);
  expect(report.problems).toEqual([]);
  expect(await service.app.get(ProjectionRunner).waitUntilProjected(await store.lastPosition(), 60_000)).toBe(true);
}, 120_000);

afterAll(async () => {
  await service.close();
  await redis.quit();
  rmSync(folder, { recursive: true, force: true });
});

/** A runner like the service's, with another number of build threads (and listings per rendering chunk). */
function runnerWith(workers: number, batch = 500): ProjectionRunner {
  const app = service.app;
  return new ProjectionRunner(
    app.get(RedisConnection),
    store,
    service.config.with({ projectorWorkers: workers, projectorBatchSize: batch }),
    app.get(CategoryCatalog),
    app.get(ReadModelReader),
  );
}

const current = async () => Number(await redis.get(`{${service.namespace}:rm}:current`));
const dump = async (generation: number) => {
  const all = await dumpGeneration(redis, service.namespace, generation, true);
  expect(Object.keys(all).length).toBeGreaterThan(1000);
  return all;
};

it('writes the same generation on 3 worker threads, on 1 and on none, in one rendering chunk or many', async () => {
  const live = await dump(await current());
  // 327 listings in chunks of 20: each of 3 builders renders 5 or more, at most two in hand at a time.
  for (const [workers, batch] of [[3, 500], [3, 20], [1, 500], [0, 500]]) {
    const report = await runnerWith(workers, batch).rebuild();
    expect(report.generation).toBe(await current());
    expect(await dump(report.generation)).toEqual(live);
  }
}, 120_000);

it('keeps no copy of the documents in the read models: the event store is their only copy', async () => {
  const names = Object.keys(await dump(await current())).filter((name) => !/^(t|del|browse):/.test(name));
  // What the API serves and the projector's bookkeeping, nothing else (listings were once copied into `src`).
  expect(names.sort()).toEqual(['applied', 'browse', 'categories', 'checkpoint', 'compare', 'detail', 'errors', 'summary', 'terms']);
});

it('loads the working memory of a generation at the start without asking the store about each aggregate', async () => {
  const connection = service.app.get(RedisConnection);
  const { keys } = connection;
  const client = connection.dedicatedClient() as Redis;
  const categories = service.app.get(CategoryCatalog);
  // A generation number nobody has used: its checkpoint is the start, so no event can be at or before it.
  const unused = Number(await redis.get(`{${service.namespace}:rm}:seq`)) + 1000;
  const fresh = new GenerationProjector(client, unused, keys, categories);
  const { result, commands } = await commandsDuring(client, () => fresh.load());
  expect(result).toBe('0-0');
  expect(fresh.state.cards.size).toBe(0);
  // The checkpoint, the aggregates' names and the dictionary: no script call per aggregate (327 here).
  expect(commands.map(([name]) => name.toLowerCase()).sort()).toEqual(['get', 'hkeys', 'zrange']);

  // The live generation, at its checkpoint, does read them: every listing is in its memory.
  const live = new GenerationProjector(client, await current(), keys, categories);
  await live.load();
  expect(live.state.cards.size).toBe(await redis.hlen(keys.generation(await current()).summaries));
  await client.quit();
});

it('on a Redis that refuses RESTORE (here an ACL), writes the same generation with ZADD', async () => {
  const live = await dump(await current());
  const user = `rebuild-no-restore-${process.pid}`;
  await redis.acl('SETUSER', user, 'on', 'nopass', '~*', '&*', '+@all', '-restore');
  const url = new URL(REDIS_URL);
  url.username = user;
  url.password = 'unused';
  const config = service.config.with({ redisUrl: url.toString(), projectorWorkers: 2 });
  const connection = new RedisConnection(config);
  await connection.onModuleInit();
  try {
    const runner = new ProjectionRunner(connection, store, config, service.app.get(CategoryCatalog), service.app.get(ReadModelReader));
    const report = await runner.rebuild();
    expect(report.generation).toBe(await current());
    expect(await dump(report.generation)).toEqual(live);
  } finally {
    await connection.onApplicationShutdown();
    await redis.acl('DELUSER', user);
  }
}, 120_000);

it('a build that fails is discarded: the live generation stays and the failed one is deleted', async () => {
  const live = await current();
  const before = await dump(live);
  // An event no version of the projector knows stops the build (the stream is the truth: it is not skipped).
  await store.append('listing', 'from-the-future', 0, [{ type: 'ListingTeleported', data: {} }], 'test');
  const runner = runnerWith(2);
  await expect(runner.rebuild()).rejects.toThrow(/unknown type 'ListingTeleported'/);
  expect(await current()).toBe(live);
  expect(await dump(live)).toEqual(before);
  // Discarded: due for deletion now; once deleted, nothing of the failed build (a pipeline still in
  // flight, a builder still working) writes there again.
  const failed = Number(await redis.get(`{${service.namespace}:rm}:seq`));
  expect(failed).toBeGreaterThan(live);
  expect(await redis.keys(`{${service.namespace}:g${failed}}:*`)).not.toEqual([]);
  await new Generations(redis, service.app.get(RedisConnection).keys).deleteRetired();
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(await redis.keys(`{${service.namespace}:g${failed}}:*`)).toEqual([]);
}, 120_000);

it('a runner far behind builds a generation, then goes on event by event from the memory the build left: the same as a clean rebuild', async () => {
  const behind = await startService('rebuild-behind', { PROJECTOR_REBUILD_LAG: '50', PROJECTOR_BATCH_SIZE: '20' });
  const bus = behind.app.get(CommandBus);
  const behindStore = behind.app.get(EventStore);
  const runner = behind.app.get(ProjectionRunner);
  const projected = async () => expect(await runner.waitUntilProjected(await behindStore.lastPosition(), 60_000)).toBe(true);
  const live = async () => Number(await redis.get(`{${behind.namespace}:rm}:current`));
  const loads = jest.spyOn(GenerationProjector.prototype, 'load');
  try {
    const initial = await live();
    // 142 events, more than 50 behind: the runner builds a new generation instead of replaying.
    expect((await behind.ingest(['fixtures'])).problems).toEqual([]);
    await projected();
    const built = await live();
    expect(built).toBeGreaterThan(initial);
    // Then changes it applies event by event, each needing what the build left in memory: a listing
    // others show (their details are re-rendered), one that tops its category (comparisons filled from
    // it), a withdrawal, and an error entry (its provider's detail).
    const listing = (slug: string) => parseListing(parse(readFileSync(`fixtures/listings/${slug}.yaml`, 'utf8'))).listing!;
    const anthropic = listing('anthropic');
    await bus.execute(new PublishListingCommand({ ...anthropic, description: `${anthropic.description} Revised after the build.` }, 'test'));
    await bus.execute(new PublishListingCommand({ ...listing('pinecone'), popularity: 100 }, 'test'));
    await bus.execute(new WithdrawListingCommand('mistral', 'test', 'gone'));
    const entry = parseErrorEntry(parse(readFileSync('fixtures/errors/anthropic-429-rate-limited.yaml', 'utf8'))).entry!;
    await bus.execute(new PublishErrorEntryCommand({ ...entry, fix: `${entry.fix} Revised after the build.` }, 'test'));
    await projected();
    // It went on from the build's memory, without loading it again from the store (the runner loaded
    // only the empty generation it started with).
    expect(await live()).toBe(built);
    expect(loads.mock.contexts.map((projector) => (projector as GenerationProjector).generation)).not.toContain(built);

    // Several events of one listing in one batch: each is diffed against the version the generation holds.
    await runner.stop();
    const openai = listing('openai');
    await bus.execute(new PublishListingCommand({ ...openai, tags: [...openai.tags, 'first-revision'] }, 'test'));
    await bus.execute(new PublishListingCommand({ ...openai, tags: [...openai.tags, 'second-revision'] }, 'test'));
    await bus.execute(new PublishListingCommand({ ...listing('qdrant'), description: 'Revised, then withdrawn in the same batch.' }, 'test'));
    await bus.execute(new WithdrawListingCommand('qdrant', 'test', 'gone'));
    await bus.execute(new PublishListingCommand(listing('mistral'), 'test'));
    await bus.execute(new PublishListingCommand({ ...listing('mistral'), popularity: 99 }, 'test'));
    expect(await runner.catchUp()).toBe(true);
    expect(await live()).toBe(built);

    const served = await dumpGeneration(redis, behind.namespace, built);
    const rebuilt = await runner.rebuild();
    expect(await dumpGeneration(redis, behind.namespace, rebuilt.generation)).toEqual(served);
    const details = JSON.stringify(served.detail);
    expect(details).toContain('Revised after the build.');
    expect(details).toContain('second-revision');
    expect(details).not.toContain('first-revision');
  } finally {
    loads.mockRestore();
    await behind.close();
  }
}, 120_000);
