import { Logger } from '@nestjs/common';
import { EventStore } from '../src/event-store/event-store.service';
import { LISTING_REVISED } from '../src/listings/write/events/listing-events';
import { GenerationProjector } from '../src/projections/generation-projector';
import { retryPause } from '../src/projections/projection-failures';
import { RedisConnection } from '../src/redis/redis-connection';
import { getJson, RunningService, startService } from './support/harness';
import { fixtureListing } from './support/fixtures';

/**
 * An event the projector cannot apply (an unknown type, written by a newer version of the service) stops
 * the projection at that event: the projector retries with a growing pause, says so once, keeps its
 * working memory, and every process's /readyz reports the projection as stuck, with its lag, until the
 * event can be applied.
 */
let service: RunningService;
let store: EventStore;

beforeAll(async () => {
  service = await startService('stuck', { PROJECTOR_LEASE_MS: '3000' });
  store = service.app.get(EventStore);
  expect((await service.ingest(['fixtures'])).problems).toEqual([]);
});
afterAll(() => service?.close());

const until = async <T>(what: () => Promise<T>, ok: (value: T) => boolean, ms = 20_000): Promise<T> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await what();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
};

it('stops at an event it cannot apply: backs off, says so once, keeps its memory, and /readyz reports it with the lag', async () => {
  const errors = jest.spyOn(Logger.prototype, 'error');
  const loads = jest.spyOn(GenerationProjector.prototype, 'load');
  try {
    const [poison] = await store.append('listing', 'from-the-future', 0, [{ type: 'ListingTeleported', data: {} }], 'newer-service');
    const openai = fixtureListing('openai');
    await store.append('listing', 'openai', 1, [{ type: LISTING_REVISED, data: { document: { ...openai, latency: 'after the poison' }, changedFields: ['latency'] } }], 'editor');

    const stuck = await until(() => getJson(`${service.baseUrl}/readyz`), (r) => r.status === 503);
    expect(stuck.status).toBe(503);
    expect(stuck.body.checks.error.projection).toMatchObject({ status: 'down', stuckAt: poison.position, lag: 2 });
    expect(stuck.body.checks.error.projection.error).toMatch(/unknown type 'ListingTeleported'/);
    // Nothing internal shows: no key names.
    expect(JSON.stringify(stuck.body)).not.toMatch(/\{[^}]*:(rm|es|g\d+)\}/);

    // It retries (with the pause retryPause gives, tested below): once a third attempt has failed, it has
    // said so once, and the working memory was not loaded again.
    const later = await until(() => getJson(`${service.baseUrl}/readyz`), (r) => r.body.checks?.error?.projection?.attempts >= 3);
    expect(later.body.checks.error.projection.attempts).toBeGreaterThanOrEqual(3);
    const said = errors.mock.calls.filter(([message]) => String(message).includes('ListingTeleported'));
    expect(said).toHaveLength(1);
    expect(loads).not.toHaveBeenCalled();
    // Reads go on from what was projected before the event.
    expect((await getJson(`${service.baseUrl}/api/v1/tools/openai`)).body.tool.latency).not.toBe('after the poison');

    // An operator removes the event (a newer service would apply it): the projection goes on, /readyz is green.
    const redis = service.app.get(RedisConnection);
    await redis.client.xdel(redis.keys.events, poison.position);
    const green = await until(() => getJson(`${service.baseUrl}/readyz`), (r) => r.status === 200, 90_000);
    expect(green.status).toBe(200);
    expect(green.body.info.projection.lag).toBe(0);
    expect((await getJson(`${service.baseUrl}/api/v1/tools/openai`)).body.tool.latency).toBe('after the poison');
  } finally {
    errors.mockRestore();
    loads.mockRestore();
  }
}, 120_000);

it('pauses 1 s after a first failure, twice as long after each next one, and never more than a minute', () => {
  expect([1, 2, 3, 4, 5, 6, 7, 8].map(retryPause)).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000]);
  expect(retryPause(10_000)).toBe(60_000);
});
