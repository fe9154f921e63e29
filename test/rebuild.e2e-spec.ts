import { CommandBus } from '@nestjs/cqrs';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { parse } from 'yaml';
import { generateCatalog, writeCatalog } from './support/synthetic-catalog';
import { Categories } from '../src/categories/categories';
import { EventStore } from '../src/event-store/event-store.service';
import { PublishErrorEntryCommand } from '../src/error-reference/write/commands/publish-error-entry/publish-error-entry.command';
import { parseErrorEntry } from '../src/error-reference/write/error-entry.document';
import { PublishListingCommand } from '../src/listings/write/commands/publish-listing/publish-listing.command';
import { WithdrawListingCommand } from '../src/listings/write/commands/withdraw-listing/withdraw-listing.command';
import { GenerationProjector } from '../src/projections/generation-projector';
import { Generations } from '../src/projections/generations';
import { ProjectionRunner } from '../src/projections/projection-runner.service';
import { ProjectionWait } from '../src/projections/projection-wait';
import { ProjectorLease } from '../src/projections/projector-lease';
import { ReadModelChanges } from '../src/projections/read-model-changes';
import { RedisConnection } from '../src/redis/redis-connection';
import { commandsDuring, REDIS_URL, RunningService, startService, testConfig } from './support/harness';
import { dumpGeneration } from './support/read-model-dump';
import { fixtureListing } from './support/fixtures';

/**
 * A rebuild renders every listing once from the newest event of each aggregate: it must write the very
 * same generation the service projected event by event; and a build that fails must leave the live
 * generation alone and its own keys gone.
 */
let service: RunningService;
let store: EventStore;
const redis = new Redis(REDIS_URL);
const folder = mkdtempSync(join(tmpdir(), 'rebuild-'));

beforeAll(async () => {
  service = await startService('rebuild');
  store = service.app.get(EventStore);
  writeCatalog(generateCatalog(200), folder);
  const report = await service.ingest(['fixtures', folder]);
  expect(report.problems).toEqual([]);
  expect(await service.app.get(ProjectionWait).waitUntilProjected(await store.lastPosition(), 60_000)).toBe(true);
}, 120_000);

afterAll(async () => {
  await service.close();
  await redis.quit();
  rmSync(folder, { recursive: true, force: true });
});

/** A runner like the service's, with other settings (it runs nothing in the background). */
function runnerWith(overrides: Parameters<RunningService['config']['with']>[0] = {}, connection = service.app.get(RedisConnection)): ProjectionRunner {
  const config = service.config.with(overrides);
  return new ProjectionRunner(
    connection,
    store,
    config,
    service.app.get(Categories),
    new Generations(connection),
    new ProjectorLease(connection, config),
    new ReadModelChanges(),
    { runInBackground: false },
  );
}

/** A rebuild while the service's own runner holds the lease: it asks that runner, or builds itself when given. */
async function rebuildNow(runner = runnerWith()) {
  return runner.rebuild();
}

const current = async () => Number(await redis.get(`{${service.namespace}:rm}:current`));
const dump = async (generation: number) => {
  const all = await dumpGeneration(redis, service.namespace, generation);
  expect(Object.keys(all.detail as object).length).toBeGreaterThan(300);
  return all;
};

it('writes the same generation as the service projected event by event, whoever builds it', async () => {
  const live = await dump(await current());
  // Asked of the service's runner, which holds the lease.
  const asked = await rebuildNow();
  expect(asked.builtBy).toBe('running-projector');
  expect(asked.generation).toBe(await current());
  expect(await dump(asked.generation)).toEqual(live);
  // Built here, in batches of 20 for what is appended meanwhile, once the service's runner has stopped.
  await service.app.get(ProjectionRunner).stop();
  try {
    const built = await rebuildNow(runnerWith({ projectorBatchSize: 20 }));
    expect(built.builtBy).toBe('this-process');
    expect(built.generation).toBe(await current());
    expect(await dump(built.generation)).toEqual(live);
  } finally {
    service.app.get(ProjectionRunner).start();
  }
}, 120_000);

it('keeps no copy of the documents in the read models: the event store is their only copy', async () => {
  const names = Object.keys(await dump(await current()));
  // What the API serves and the projector's bookkeeping, nothing else (listings were once copied into `src`).
  expect(names.sort()).toEqual(['applied', 'categories', 'checkpoint', 'compare', 'detail', 'errors', 'models']);
});

it('loads the working memory of a generation at the start without asking the store about each aggregate', async () => {
  // A connection of its own, so that only this projector's commands are seen.
  const connection = new RedisConnection(service.config);
  await connection.onModuleInit();
  const { keys } = connection;
  const client = connection.dedicatedClient();
  const ownStore = new EventStore(connection);
  const categories = service.app.get(Categories);
  try {
    // A generation number nobody has used: its checkpoint is the start, so no event can be at or before it.
    const unused = Number(await redis.get(`{${service.namespace}:rm}:seq`)) + 1000;
    const fresh = new GenerationProjector(client, unused, keys.generation(unused), ownStore, categories);
    const { result, commands } = await commandsDuring(connection.client as Redis, () => fresh.load());
    expect(result).toBe('0-0');
    expect(fresh.state.cards.size).toBe(0);
    // The aggregates' names only (listings, error entries, liveness): no script call per aggregate (342 here).
    expect(commands.map(([name]) => name.toLowerCase())).toEqual(['hkeys', 'hkeys', 'hkeys']);

    // The live generation, at its checkpoint, does read them: every listing is in its memory.
    const live = new GenerationProjector(client, await current(), keys.generation(await current()), ownStore, categories);
    await live.load();
    expect(live.state.cards.size).toBe(await redis.hlen(keys.generation(await current()).details));
  } finally {
    await connection.onApplicationShutdown();
  }
});

it('a rebuild asked of a runner that never answers gives up after its timeout and takes its request back', async () => {
  // A namespace of its own whose lease another runner holds and never rebuilds for (a stalled process).
  const connection = new RedisConnection(testConfig(`${service.namespace}-stalled`));
  await connection.onModuleInit();
  const { projectorLease, rebuildRequest } = connection.keys;
  try {
    await redis.set(projectorLease, 'a stalled runner', 'PX', 60_000);
    await expect(runnerWith({}, connection).rebuild(undefined, 1_000)).rejects.toThrow(/did not rebuild within 1 s/);
    // Its request is gone (taken back, or expired with the wait), and the other runner's lease is left alone.
    expect(await redis.exists(rebuildRequest)).toBe(0);
    expect(await redis.get(projectorLease)).toBe('a stalled runner');
  } finally {
    await redis.del(projectorLease, rebuildRequest);
    await connection.onApplicationShutdown();
  }
});

it('a build that fails is discarded: the live generation stays and the failed one is deleted', async () => {
  const live = await current();
  const before = await dump(live);
  // An event no version of the projector knows stops the build (the stream is the truth: it is not skipped).
  await store.append('listing', 'from-the-future', 0, [{ type: 'ListingTeleported', data: {} }], 'test');
  await service.app.get(ProjectionRunner).stop();
  await expect(runnerWith().rebuild()).rejects.toThrow(/unknown type 'ListingTeleported'/);
  expect(await current()).toBe(live);
  expect(await dump(live)).toEqual(before);
  // Discarded: due for deletion now; once deleted, nothing of the failed build writes there again (the
  // build answers only once its last pipeline has landed).
  const failed = Number(await redis.get(`{${service.namespace}:rm}:seq`));
  expect(failed).toBeGreaterThan(live);
  expect(await redis.keys(`{${service.namespace}:g${failed}}:*`)).not.toEqual([]);
  await new Generations(service.app.get(RedisConnection)).deleteRetired();
  expect(await redis.keys(`{${service.namespace}:g${failed}}:*`)).toEqual([]);
}, 120_000);

it('a runner far behind builds a generation, then goes on event by event from the memory the build left: the same as a clean rebuild', async () => {
  const behind = await startService('rebuild-behind', { PROJECTOR_REBUILD_LAG: '50', PROJECTOR_BATCH_SIZE: '20' });
  const bus = behind.app.get(CommandBus);
  const behindStore = behind.app.get(EventStore);
  const runner = behind.app.get(ProjectionRunner);
  const projected = async () => expect(await behind.app.get(ProjectionWait).waitUntilProjected(await behindStore.lastPosition(), 60_000)).toBe(true);
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
    const listing = fixtureListing;
    const anthropic = listing('anthropic');
    await bus.execute(new PublishListingCommand({ ...anthropic, description: `${anthropic.description} Revised after the build.` }, { actor: 'test' }));
    await bus.execute(new PublishListingCommand({ ...listing('pinecone'), popularity: 100 }, { actor: 'test' }));
    await bus.execute(new WithdrawListingCommand('mistral', 'test', 'gone'));
    const entry = parseErrorEntry(parse(readFileSync('fixtures/errors/anthropic-429-rate-limited.yaml', 'utf8'))).entry!;
    await bus.execute(new PublishErrorEntryCommand({ ...entry, fix: `${entry.fix} Revised after the build.` }, { actor: 'test' }));
    await projected();
    // It went on from the build's memory, without loading it again from the store (the runner loaded
    // only the empty generation it started with).
    expect(await live()).toBe(built);
    expect(loads.mock.contexts.map((projector) => (projector as GenerationProjector).generation)).not.toContain(built);

    // Several events of one listing in one batch: each is diffed against the version the generation holds.
    await runner.stop();
    const openai = listing('openai');
    await bus.execute(new PublishListingCommand({ ...openai, tags: [...openai.tags, 'first-revision'] }, { actor: 'test' }));
    await bus.execute(new PublishListingCommand({ ...openai, tags: [...openai.tags, 'second-revision'] }, { actor: 'test' }));
    await bus.execute(new PublishListingCommand({ ...listing('qdrant'), description: 'Revised, then withdrawn in the same batch.' }, { actor: 'test' }));
    await bus.execute(new WithdrawListingCommand('qdrant', 'test', 'gone'));
    await bus.execute(new PublishListingCommand(listing('mistral'), { actor: 'test' }));
    await bus.execute(new PublishListingCommand({ ...listing('mistral'), popularity: 99 }, { actor: 'test' }));
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
