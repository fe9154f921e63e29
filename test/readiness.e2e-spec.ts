import { Redis } from 'ioredis';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStore } from '../src/event-store/event-store.service';
import { LISTING_AGGREGATE } from '../src/listings/write/listing.aggregate';
import { LISTING_PUBLISHED } from '../src/listings/write/events/listing-events';
import { RedisConnection } from '../src/redis/redis-connection';
import { RedisKeys } from '../src/redis/redis-keys';
import { runCli } from './support/cli';
import { dropNamespace, getJson, REDIS_URL, RunningService, startService, testConfig, uniqueNamespace } from './support/harness';
import { RedisServer, startRedisServer } from './support/redis-server';
import { errorLines, ServiceProcess, startServiceProcess } from './support/service-process';
import { generateCatalog } from './support/synthetic-catalog';
import { FIXTURES } from './support/fixtures';

/**
 * /readyz tells the truth: a process does not call itself ready while it serves a store that is gone
 * (Redis restarted empty) or another one than it was serving, or while its read models are far behind
 * the log after a crash, whatever projector lease a dead process left behind.
 */

const work = mkdtempSync(join(tmpdir(), 'readiness-'));
const servers: RedisServer[] = [];
const services: ServiceProcess[] = [];
afterAll(async () => {
  services.forEach((service) => service.child.kill('SIGKILL'));
  await Promise.all(servers.map((server) => server.stop()));
  rmSync(work, { recursive: true, force: true });
});

/** Polls /readyz until `check` accepts an answer; every answer seen on the way is returned. */
async function readyzUntil(url: string, check: (answer: { status: number; body: any }) => boolean, timeoutMs = 60_000) {
  const seen: Array<{ status: number; body: any }> = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await getJson(`${url}/readyz`);
    seen.push(answer);
    if (check(answer)) return seen;
    if (Date.now() > deadline) throw new Error(`/readyz did not change within ${timeoutMs} ms; last: ${answer.status} ${answer.text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** /readyz of an in-process service once it is ready (its store seeded). */
async function service_ready(service: RunningService) {
  expect((await service.ingest(['fixtures'])).problems).toEqual([]);
  const seen = await readyzUntil(service.baseUrl, (answer) => answer.status === 200);
  return seen[seen.length - 1];
}

/** The value of a gauge series in the Prometheus text. */
async function gauge(url: string, series: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.split(' ')[1]) : NaN;
}

describe('a process started after a crash', () => {
  it('is not ready until its read models are within READY_MAX_LAG of the log, whatever lease a dead process left', async () => {
    const namespace = uniqueNamespace('ready-crash');
    const keys = new RedisKeys(namespace);
    const redis = new Redis(REDIS_URL);
    const connection = new RedisConnection(testConfig(namespace));
    await connection.onModuleInit();
    let service: ServiceProcess | null = null;
    try {
      expect((await runCli(namespace, ['ingest', 'fixtures'])).code).toBe(0);
      // The process that was projecting died: its lease stays until it lapses, and 2,000 events it never
      // applied wait in the log.
      await redis.set(keys.projectorLease, 'a-process-that-died', 'PX', 5000);
      const store = new EventStore(connection);
      const added = generateCatalog(2000, 31);
      for (const listing of added) await store.append(LISTING_AGGREGATE, listing.slug, 0, [{ type: LISTING_PUBLISHED, data: { document: listing } }], 'test');

      service = await startServiceProcess({ REDIS_URL, REDIS_NAMESPACE: namespace });
      const seen = await readyzUntil(service.url, (answer) => answer.status === 200, 90_000);
      const ready = seen[seen.length - 1];
      // Not ready while behind, saying so (the first answers may come before Redis has answered at all)...
      expect(seen.slice(0, -1).map((answer) => answer.status)).toEqual(seen.slice(0, -1).map(() => 503));
      expect(seen.some((answer) => /catching up: \d+ events? behind/.test(answer.body.detail ?? ''))).toBe(true);
      // ...and ready only within the documented lag, serving (nearly) everything.
      expect(ready.body.info.projection.lag).toBeLessThanOrEqual(100);
      const { body } = await getJson(`${service.url}/api/v1/tools/categories`);
      expect(body.totalListings).toBeGreaterThanOrEqual(FIXTURES.listings + 2000 - 100);
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
      expect(errorLines(service.output())).toEqual([]);
    } finally {
      // (Stopped before its namespace is dropped: its projector would write it again.)
      if (service && service.child.exitCode === null) {
        service.child.kill('SIGKILL');
        await service.exited;
      }
      await connection.onApplicationShutdown();
      await dropNamespace(namespace);
      await redis.quit();
    }
  }, 120_000);
});

describe('a store that is gone or replaced under a running process', () => {
  it('Redis restarted empty: not ready, saying so and what to do, with a metric; ready again once it is seeded', async () => {
    const redis = await startRedisServer(join(work, 'emptied'), []);
    servers.push(redis);
    const url = `redis://127.0.0.1:${redis.port}`;
    const namespace = uniqueNamespace('ready-emptied');
    const service = await startServiceProcess({ REDIS_URL: url, REDIS_NAMESPACE: namespace });
    services.push(service);
    await readyzUntil(service.url, (answer) => answer.status === 200);
    expect(await gauge(service.url, 'directory_store_changed{how="emptied"}')).toBe(0);

    // Redis restarts without its data (no persistence): the same address, an empty store.
    await redis.stop();
    const restarted = await startRedisServer(join(work, 'emptied-again'), [], { port: redis.port });
    servers.push(restarted);
    const seen = await readyzUntil(service.url, (answer) => answer.status === 503 && /store/.test(answer.body.detail));
    const notReady = seen[seen.length - 1];
    expect(notReady.body.detail).toMatch(/the store this process was serving is empty/);
    expect(notReady.body.detail).toMatch(/npm run ingest -- fixtures|RESEED_EMPTY_STORE/);
    expect(await gauge(service.url, 'directory_store_changed{how="emptied"}')).toBe(1);
    await service.logged(/the store this process was serving is empty/);
    // Never an empty directory served as the truth: every content read is a 503 to retry, not cached.
    for (const path of ['/api/v1/tools/search?q=tts', '/api/v1/tools/categories', '/api/v1/tools/openai', '/llms.txt', '/', '/zh/apis/openai']) {
      const answer = await fetch(service.url + path);
      const body = await answer.text();
      expect({ path, status: answer.status, retryAfter: answer.headers.get('retry-after'), cache: answer.headers.get('cache-control') }).toEqual({ path, status: 503, retryAfter: '30', cache: 'no-store' });
      expect(JSON.parse(body).detail).toMatch(/the store this process was serving is empty/);
    }
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${service.url}/metrics`)).status).toBe(200);

    // The operator seeds it: the process serves the new store once it has caught up.
    expect((await runCli(namespace, ['ingest', 'fixtures'], { REDIS_URL: url })).code).toBe(0);
    await readyzUntil(service.url, (answer) => answer.status === 200);
    expect((await getJson(`${service.url}/api/v1/tools/categories`)).body.totalListings).toBe(FIXTURES.listings);
    expect(await gauge(service.url, 'directory_store_changed{how="emptied"}')).toBe(0);
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  }, 120_000);

  it('with RESEED_EMPTY_STORE=on, a process seeds an emptied store itself and is ready again', async () => {
    const redis = await startRedisServer(join(work, 'reseed'), []);
    servers.push(redis);
    const namespace = uniqueNamespace('ready-reseed');
    const service = await startServiceProcess({ REDIS_URL: `redis://127.0.0.1:${redis.port}`, REDIS_NAMESPACE: namespace, RESEED_EMPTY_STORE: 'on' });
    services.push(service);
    await readyzUntil(service.url, (answer) => answer.status === 200);
    await redis.stop();
    servers.push(await startRedisServer(join(work, 'reseed-again'), [], { port: redis.port }));
    await service.logged(/seeding it again \(RESEED_EMPTY_STORE=on\)/);
    await readyzUntil(service.url, (answer) => answer.status === 200);
    expect((await getJson(`${service.url}/api/v1/tools/categories`)).body.totalListings).toBe(FIXTURES.listings);
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  }, 120_000);

  describe('a process whose event loop was blocked', () => {
    it("reports the event loop's longest delay of the last seconds, which /readyz weighs against a silence from Redis", async () => {
      const busy = await startService('ready-busy');
      try {
        expect((await service_ready(busy)).body.details.eventLoop.maxDelayMs).toEqual(expect.any(Number));
        // A long synchronous task in this process (the service runs in the test's own process), longer
        // than anything the seeding itself blocked for.
        const until = Date.now() + 4000;
        while (Date.now() < until);
        const { body } = await getJson(`${busy.baseUrl}/readyz`);
        expect(body.details.eventLoop.maxDelayMs).toBeGreaterThanOrEqual(3900);
      } finally {
        await busy.close();
      }
    });
  });

  describe('another store in its place', () => {
    let service: RunningService;
    beforeAll(async () => {
      service = await startService('ready-replaced');
      expect((await service.ingest(['fixtures'])).problems).toEqual([]);
    });
    afterAll(() => service?.close());

    it('is not ready while Redis holds another directory than the one it was serving, and says how to serve it', async () => {
      await readyzUntil(service.baseUrl, (answer) => answer.status === 200);
      const redis = new Redis(REDIS_URL);
      const key = new RedisKeys(service.namespace).storeIdentity;
      const mine = await redis.get(key);
      expect(mine).toEqual(expect.any(String));
      try {
        await redis.set(key, 'another-directory 2026-01-01T00:00:00.000Z');
        const seen = await readyzUntil(service.baseUrl, (answer) => answer.status === 503);
        expect(seen[seen.length - 1].body.detail).toMatch(/Redis now holds another directory .* restart this process/);
        expect(await gauge(service.baseUrl, 'directory_store_changed{how="replaced"}')).toBe(1);
        const read = await fetch(`${service.baseUrl}/api/v1/tools/search?q=tts`);
        expect({ status: read.status, retryAfter: read.headers.get('retry-after') }).toEqual({ status: 503, retryAfter: '30' });
      } finally {
        await redis.set(key, mine!);
        await redis.quit();
      }
      // Its own store back (a failover to a replica of it, say): ready again.
      await readyzUntil(service.baseUrl, (answer) => answer.status === 200);
      expect((await fetch(`${service.baseUrl}/api/v1/tools/search?q=tts`)).status).toBe(200);
      expect(await gauge(service.baseUrl, 'directory_store_changed{how="replaced"}')).toBe(0);
    }, 60_000);
  });
});

