import { RedisConnection } from '../src/redis/redis-connection';
import { getJson, RunningService, startService } from './support/harness';

/**
 * Security headers for a JSON API on every kind of answer, HSTS only when asked for, and a /readyz that
 * anyone may read: it names no key, address or generation.
 */
let service: RunningService;

beforeAll(async () => {
  service = await startService('headers', { PROJECTOR: 'off' });
  expect((await service.ingest(['fixtures'])).problems).toEqual([]);
});
afterAll(() => service?.close());

const SECURITY = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'cross-origin',
  'x-frame-options': 'DENY',
};

function expectSecurityHeaders(headers: Headers): void {
  for (const [name, value] of Object.entries(SECURITY)) expect([name, headers.get(name)]).toEqual([name, value]);
  // Headers meant for HTML pages are not sent; HSTS is off by default.
  for (const name of ['strict-transport-security', 'cross-origin-opener-policy', 'origin-agent-cluster', 'x-xss-protection', 'x-dns-prefetch-control', 'x-powered-by']) {
    expect([name, headers.get(name)]).toEqual([name, null]);
  }
}

it('are on every answer: a body, a 304, a problem, a preflight, a probe and a scrape', async () => {
  const detail = await fetch(`${service.baseUrl}/api/v1/tools/openai`, { headers: { 'accept-encoding': 'br' } });
  expectSecurityHeaders(detail.headers);
  expect(detail.headers.get('content-encoding')).toBe('br');
  expectSecurityHeaders((await fetch(`${service.baseUrl}/api/v1/tools/openai`, { headers: { 'if-none-match': detail.headers.get('etag')!, 'accept-encoding': 'br' } })).headers);
  expectSecurityHeaders((await fetch(`${service.baseUrl}/api/v1/tools/nope`)).headers);
  expectSecurityHeaders((await fetch(`${service.baseUrl}/api/v1/tools/search`, { method: 'OPTIONS', headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' } })).headers);
  expectSecurityHeaders((await fetch(`${service.baseUrl}/readyz`)).headers);
  expectSecurityHeaders((await fetch(`${service.baseUrl}/metrics`)).headers);
});

it('send HSTS when HSTS=on (every client comes over HTTPS)', async () => {
  const tls = await startService('hsts', { HSTS: 'on' });
  try {
    expect((await fetch(`${tls.baseUrl}/healthz`)).headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  } finally {
    await tls.close();
  }
});

it('/readyz names no generation, key or address, not even of a failure', async () => {
  const ready = await getJson(`${service.baseUrl}/readyz`);
  expect(ready.status).toBe(200);
  expect(ready.body.info).toEqual({
    redis: { status: 'up' },
    store: { status: 'up' },
    readModels: { status: 'up' },
    search: { status: 'up' },
    projection: { status: 'up', lag: 0, projectorActive: false },
    eventLoop: { status: 'up', maxDelayMs: expect.any(Number) },
  });
  // A projection failure whose error (Redis's own) names a key and an address.
  const redis = service.app.get(RedisConnection);
  const error = `MOVED 1234 10.0.0.7:6379 while writing {${service.namespace}:g1}:detail`;
  await redis.client.set(redis.keys.projectionFailure, JSON.stringify({ position: null, error, since: new Date().toISOString(), attempts: 3 }));
  try {
    let stuck = await getJson(`${service.baseUrl}/readyz`);
    for (let i = 0; i < 50 && stuck.status !== 503; i++) {
      await new Promise((r) => setTimeout(r, 100));
      stuck = await getJson(`${service.baseUrl}/readyz`);
    }
    expect(stuck.status).toBe(503);
    expect(stuck.body.checks.error.projection).toMatchObject({ status: 'down', attempts: 3, error: "a projection step failed; the projector's log has the error" });
    expect(stuck.text).not.toMatch(/10\.0\.0\.7|\{[^}]*:(rm|es|g\d+)\}|generation/);
  } finally {
    await redis.client.del(redis.keys.projectionFailure);
  }
});
