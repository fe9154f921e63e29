import { Redis } from 'ioredis';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { RedisKeys } from '../src/redis/redis-keys';
import { dropNamespace, REDIS_URL, uniqueNamespace } from './support/harness';
import { errorLines, startServiceProcess } from './support/service-process';
import { hostAndPort, SlowProxy } from './support/slow-proxy';

/**
 * SIGTERM to the real process (node dist/src/main.js): it stops accepting connections, lets the request
 * in flight finish, releases the projector lease and exits 0. A request in flight is made slow by holding
 * back Redis's replies (a proxy between the service and Redis).
 */
const redis = new Redis(REDIS_URL);
const proxy = new SlowProxy(...hostAndPort(REDIS_URL));
let proxyUrl: string;
const namespaces: string[] = [];

beforeAll(async () => {
  proxyUrl = await proxy.start();
});
afterAll(async () => {
  await proxy.stop();
  await Promise.all(namespaces.map(dropNamespace));
  await redis.quit();
});

/**
 * GET over a kept-alive connection of its own, as a browser or an HTTP client library sends it; resolves
 * with the status and body, or the error that ended it.
 */
function get(url: string): Promise<{ status?: number; body?: string; error?: string }> {
  return new Promise((resolve) => {
    const failed = (error: Error) => resolve({ error: error.message });
    request(url, { agent: new Agent({ keepAlive: true }) }, (response) => {
      let body = '';
      response.on('data', (d) => (body += d));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
      response.on('error', failed);
    })
      .on('error', failed)
      .end();
  });
}

/** Whether a new TCP connection to the service is accepted. */
function accepts(url: string): Promise<boolean> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The service's read of a listing's detail, as it reaches Redis. */
const detailRead = (slug: string) => new RegExp(`hget[\\s\\S]*:detail\\r\\n[\\s\\S]*${slug}`, 'i');

/** Whether `promise` has settled yet (looked at on the next turn of the event loop). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true), () => (done = true));
  await new Promise((r) => setImmediate(r));
  return done;
}

async function startOnProxy(extra: Record<string, string>) {
  const namespace = uniqueNamespace('shutdown');
  namespaces.push(namespace);
  const service = await startServiceProcess({ REDIS_URL: proxyUrl, REDIS_NAMESPACE: namespace, RATE_LIMIT_PER_MINUTE: '0', ...extra });
  const lease = new RedisKeys(namespace).projectorLease;
  await until(async () => (await redis.exists(lease)) === 1, 20_000);
  // Ready too: until the first projection of the seeded store lands there is no live generation, a detail
  // is answered without reading Redis, and the read the test waits for would never come.
  await until(async () => (await fetch(`${service.url}/readyz`)).status === 200, 20_000);
  return { service, lease };
}

/** A GET of a listing's detail whose read has reached Redis, whose replies are now held (see SlowProxy). */
async function requestHeldInRedis(url: string) {
  const reached = proxy.holdFrom(detailRead('openai'));
  const inFlight = get(`${url}/api/v1/tools/openai`);
  await reached;
  return { inFlight };
}

it('on SIGTERM stops accepting, finishes the request in flight, releases the projector lease and exits 0', async () => {
  const { service, lease } = await startOnProxy({ SHUTDOWN_TIMEOUT_MS: '20000' });
  const { inFlight } = await requestHeldInRedis(service.url);
  service.child.kill('SIGTERM');
  await service.logged(/SIGTERM: no new connections/);
  // No longer accepting, and still answering the first request: Redis has not answered its read yet.
  await until(async () => !(await accepts(service.url)), 20_000);
  expect(await settled(inFlight)).toBe(false);
  proxy.release();
  const { status, body, error } = await inFlight;
  expect(error).toBeUndefined();
  expect(status).toBe(200);
  expect(JSON.parse(body!).tool.slug).toBe('openai');
  // The connection the answer came on is kept alive by the client: the process does not wait for the
  // client to close it (72 s of keep-alive, past the 20 s deadline, which would cut it) but closes it once idle.
  const code = await service.exited;
  // (What the process said, when it did not stop cleanly: the reason is in its log.)
  expect({ code, log: code === 0 ? '' : service.output() }).toEqual({ code: 0, log: '' });
  expect(service.output()).not.toContain('were cut');
  expect(await redis.exists(lease)).toBe(0);
  expect(errorLines(service.output())).toEqual([]);
}, 90_000);

it('cuts a request that outlasts SHUTDOWN_TIMEOUT_MS, and still exits 0 with the lease released', async () => {
  const { service, lease } = await startOnProxy({ SHUTDOWN_TIMEOUT_MS: '1000' });
  const { inFlight } = await requestHeldInRedis(service.url);
  service.child.kill('SIGTERM');
  // The request is cut at the deadline while Redis still holds its reply.
  expect((await inFlight).error).toMatch(/socket hang up|ECONNRESET/);
  // Redis answers in order: the rest of the shutdown (releasing the lease) waits for the held replies.
  proxy.release();
  expect(await service.exited).toBe(0);
  expect(service.output()).toContain('were cut');
  expect(await redis.exists(lease)).toBe(0);
}, 90_000);
