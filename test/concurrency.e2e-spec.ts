import { CommandBus } from '@nestjs/cqrs';
import { CommandResult, DocumentCommands } from '../src/event-store/command-runner';
import { NewEvent, StoredEvent } from '../src/event-store/event-envelope';
import { EventStore } from '../src/event-store/event-store.service';
import { PublishListingCommand } from '../src/listings/write/commands/publish-listing/publish-listing.command';
import { LISTING_AGGREGATE, listingAggregate } from '../src/listings/write/listing.aggregate';
import type { ListingDocument } from '../src/listings/write/listing.document';
import { RedisConnection } from '../src/redis/redis-connection';
import { ProjectionWait } from '../src/projections/projection-wait';
import { getJson, RunningService, startService } from './support/harness';
import { fixtureListing } from './support/fixtures';

let service: RunningService;
let bus: CommandBus;
let store: EventStore;

function fixture(slug: string): ListingDocument {
  return fixtureListing(slug);
}

beforeAll(async () => {
  service = await startService('concurrency');
  bus = service.app.get(CommandBus);
  store = service.app.get(EventStore);
});
afterAll(() => service?.close());

const publish = (listing: ListingDocument, actor: string, base?: number) =>
  bus.execute(new PublishListingCommand(listing, { actor, baseVersion: base }));

it('two concurrent revisions from the same version: one wins, the other is reported, nothing is overwritten', async () => {
  const original = fixture('openai');
  expect((await publish(original, 'seed', 0)).outcome).toBe('published');
  const alice = { ...original, pricing: 'Alice pricing text for the concurrent revision test.' };
  const bob = { ...original, pricing: 'Bob pricing text for the concurrent revision test.' };

  const results = await Promise.all([publish(alice, 'alice', 1), publish(bob, 'bob', 1)]);

  expect(results.map((r) => r.outcome).sort()).toEqual(['conflict', 'revised']);
  const loser = results.find((r) => r.outcome === 'conflict')!;
  expect(loser.detail).toMatch(/changed by someone else since version 1/);
  const history = await store.readAggregate(LISTING_AGGREGATE, 'openai');
  expect(history.map((e) => e.type)).toEqual(['ListingPublished', 'ListingRevised']);
  const winner = history[1].actor === 'alice' ? alice : bob;
  expect(listingAggregate.fold(history).document).toEqual(winner);
});

it('concurrent revisions without a base version are applied one after the other, none lost', async () => {
  const original = fixture('anthropic');
  await publish(original, 'seed');
  const revisions = ['one', 'two', 'three'].map((n) => ({ ...original, latency: `latency ${n}` }));
  const results = await Promise.all(revisions.map((r, i) => publish(r, `editor-${i}`)));
  expect(results.every((r) => r.outcome === 'revised')).toBe(true);
  const history = await store.readAggregate(LISTING_AGGREGATE, 'anthropic');
  expect(history.map((e) => e.version)).toEqual([1, 2, 3, 4]);
  const latencies = history.slice(1).map((e) => (e.data as { document: ListingDocument }).document.latency);
  expect(latencies.sort()).toEqual(['latency one', 'latency three', 'latency two']);
});

it('a command that keeps losing the append race is retried 3 times, then reported as a conflict', async () => {
  /** An event store where another writer always appends just before us: real appends, real conflicts. */
  class ContendedStore extends EventStore {
    interfering = 0;
    async append(type: string, id: string, expected: number, events: NewEvent[], actor: string, digest: string | null = null): Promise<StoredEvent[]> {
      this.interfering++;
      await super.append(type, id, expected, events, `rival-${this.interfering}`, digest);
      return super.append(type, id, expected, events, actor, digest);
    }
  }
  const contended = new ContendedStore(service.app.get(RedisConnection));
  const runner = new DocumentCommands(contended);
  const listing = fixture('mistral');

  const result = await runner.run(listingAggregate, 'mistral', (state) => listingAggregate.decidePublish(state, { ...listing, popularity: state.version }), 'me');

  expect(result.outcome).toBe('conflict');
  expect(result.detail).toMatch(/after 3 retries/);
  expect(contended.interfering).toBe(4);
  const history = await store.readAggregate(LISTING_AGGREGATE, 'mistral');
  expect(history.map((e) => e.actor)).toEqual(['rival-1', 'rival-2', 'rival-3', 'rival-4']);
});

it('a listing naming a similar API that does not exist yet shows it once it is published', async () => {
  const first = { ...fixture('qdrant'), similarApis: ['stripe', 'weaviate'] };
  expect((await publish(first, 'editor')).outcome).toBe('published');
  const projection = service.app.get(ProjectionWait);
  expect(await projection.waitUntilProjected(await store.lastPosition(), 10_000)).toBe(true);
  const before = await getJson(`${service.baseUrl}/api/v1/tools/qdrant`);
  expect(before.body.tool.similarApis).toEqual([]);

  // stripe is in another category, so nothing but the similarApis reference ties qdrant to it.
  expect((await publish(fixture('stripe'), 'editor')).outcome).toBe('published');
  expect(await projection.waitUntilProjected(await store.lastPosition(), 10_000)).toBe(true);
  const after = await getJson(`${service.baseUrl}/api/v1/tools/qdrant`);
  expect(after.body.tool.similarApis.map((s: { slug: string }) => s.slug)).toEqual(['stripe']);
  expect(after.body.tool.pricingComparison.map((s: { slug: string }) => s.slug)).toContain('stripe');
});
