import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { connect, Socket } from 'node:net';
import { createApp } from '../src/bootstrap';
import { Metrics } from '../src/operations/metrics';
import { dropNamespace, getJson, REDIS_URL, RunningService, startService, uniqueNamespace } from './support/harness';
import { parseResponses, rawExchange } from './support/raw-http';
import { errorLines, startServiceProcess } from './support/service-process';
import { hostAndPort, SlowProxy } from './support/slow-proxy';

/**
 * The service against a hostile client and a busy store: per-client rate limits shared by every process,
 * a smaller budget for searches the cache cannot answer, requests that never finish or carry what nothing
 * reads, connection floods, clients that go away, and /readyz staying quick through all of it.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const portOf = (url: string) => Number(new URL(url).port);

/** GET with the given headers (and local address), over a connection of its own. */
function get(url: string, headers: Record<string, string> = {}, localAddress?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any }> {
  return new Promise((resolve, reject) => {
    request(url, { headers, localAddress, agent: false }, (response) => {
      let text = '';
      response.on('data', (d) => (text += d));
      const json = /json/.test(String(response.headers['content-type']));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: json && text ? JSON.parse(text) : text }));
    })
      .on('error', reject)
      .end();
  });
}

/** Searches the service under test has refused so far (its metrics, read in process). */
let refusedSearches: () => Promise<number>;

function expectProblem(answer: { status: number; headers: Record<string, unknown>; body: any }, status: number): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(answer.body).toMatchObject({ success: false, status, type: expect.any(String), title: expect.any(String), detail: expect.any(String), instance: expect.any(String) });
}

describe('rate limits', () => {
  let service: RunningService;
  let other: NestFastifyApplication;
  let otherUrl: string;

  beforeAll(async () => {
    // The proxy in front is 127.0.0.1: X-Forwarded-For names each test's client.
    service = await startService('limits', { RATE_LIMIT_PER_MINUTE: '20', SEARCH_RATE_LIMIT_PER_MINUTE: '5', TRUST_PROXY: '127.0.0.1' });
    expect((await service.ingest(['fixtures'])).problems).toEqual([]);
    // A second API process of the same directory (same Redis namespace), serving only.
    other = await createApp(service.config.with({ projectorEnabled: false }));
    await other.listen(0, '127.0.0.1');
    otherUrl = `http://127.0.0.1:${(other.getHttpServer().address() as { port: number }).port}`;
    const limited = service.app.get(Metrics).registry.getSingleMetric('directory_rate_limited_requests_total')!;
    refusedSearches = async () => (await limited.get()).values.find((v) => v.labels.budget === 'searches')?.value ?? 0;
  });
  afterAll(async () => {
    await other?.close();
    await service?.close();
  });

  it('counts every read of a client across every process; past the budget: 429, Retry-After and the RateLimit headers', async () => {
    const client = { 'x-forwarded-for': '198.51.100.1' };
    const remaining: number[] = [];
    for (let i = 0; i < 20; i++) {
      const answer = await get(`${i % 2 ? otherUrl : service.baseUrl}/api/v1/tools/openai`, client);
      expect(answer.status).toBe(200);
      expect(answer.headers['ratelimit-limit']).toBe('20');
      remaining.push(Number(answer.headers['ratelimit-remaining']));
    }
    expect(remaining).toEqual([19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);

    for (const url of [service.baseUrl, otherUrl]) {
      const refused = await get(`${url}/api/v1/tools/openai`, client);
      expectProblem(refused, 429);
      expect(refused.body).toMatchObject({ type: 'https://api-directory.dev/problems/rate-limited', title: 'Too many requests', limit: 20 });
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.headers).toMatchObject({ 'ratelimit-limit': '20', 'ratelimit-remaining': '0', 'ratelimit-reset': String(retryAfter) });
      expect(refused.headers['access-control-allow-origin']).toBe('*');
      expect(refused.headers['access-control-expose-headers']).toMatch(/Retry-After/);
    }
    // Unknown routes spend too; another client is not affected.
    expect((await get(`${service.baseUrl}/nowhere`, client)).status).toBe(429);
    expect((await get(`${service.baseUrl}/api/v1/tools/openai`, { 'x-forwarded-for': '198.51.100.2' })).status).toBe(200);
    // Probes and scrapes are never limited.
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      const probe = await get(`${service.baseUrl}${path}`, client);
      expect(probe.status).toBe(200);
      expect(probe.headers['ratelimit-limit']).toBeUndefined();
    }
  }, 60_000);

  it('counts an IPv6 client by its /64 network', async () => {
    for (let i = 0; i < 20; i++) {
      const address = `2001:db8:7:8::${(i + 1).toString(16)}`;
      expect((await get(`${service.baseUrl}/healthz/../api/v1/tools/stripe`, { 'x-forwarded-for': address })).status).toBe(200);
    }
    expect((await get(`${service.baseUrl}/api/v1/tools/stripe`, { 'x-forwarded-for': '2001:db8:7:8:ffff::1' })).status).toBe(429);
    expect((await get(`${service.baseUrl}/api/v1/tools/stripe`, { 'x-forwarded-for': '2001:db8:7:9::1' })).status).toBe(200);
  }, 60_000);

  it('believes X-Forwarded-For only from the trusted proxy', async () => {
    // From 127.0.0.2 (not the proxy): each request claims another address, all count as 127.0.0.2.
    for (let i = 0; i < 20; i++) {
      expect((await get(`${service.baseUrl}/api/v1/tools/anthropic`, { 'x-forwarded-for': `203.0.113.${i}` }, '127.0.0.2')).status).toBe(200);
    }
    expect((await get(`${service.baseUrl}/api/v1/tools/anthropic`, { 'x-forwarded-for': '203.0.113.99' }, '127.0.0.2')).status).toBe(429);
  }, 60_000);

  it('spends the smaller search budget only on searches the cache cannot answer', async () => {
    const client = { 'x-forwarded-for': '198.51.100.3' };
    for (const q of ['gpu', 'speech', 'vector', 'payments', 'email']) {
      expect((await get(`${service.baseUrl}/api/v1/tools/search?q=${q}`, client)).status).toBe(200);
    }
    // Answered from the read cache: free.
    expect((await get(`${service.baseUrl}/api/v1/tools/search?q=gpu`, client)).status).toBe(200);
    const refused = await get(`${service.baseUrl}/api/v1/tools/search?q=translation`, client);
    expectProblem(refused, 429);
    expect(refused.body.detail).toMatch(/more than 5 searches/);
    expect(refused.headers).toMatchObject({ 'ratelimit-limit': '5', 'ratelimit-remaining': '0' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Everything else still answers; so does the same search for a client with budget left.
    expect((await get(`${service.baseUrl}/api/v1/tools/openai`, client)).status).toBe(200);
    expect((await get(`${service.baseUrl}/api/v1/tools/search?q=translation`, { 'x-forwarded-for': '198.51.100.4' })).status).toBe(200);
  }, 60_000);
  it('does not pass one client\'s search refusal to another asking the same search at that moment', async () => {
    const spent = { 'x-forwarded-for': '198.51.100.5' };
    for (const q of ['ocr', 'sms', 'maps', 'webhooks', 'cron']) expect((await get(`${service.baseUrl}/api/v1/tools/search?q=${q}`, spent)).status).toBe(200);
    // The same uncached search: the spent client first (its refusal waits a second before it answers),
    // then, once the service has refused it and while that answer is under way, a client with budget left.
    const path = '/api/v1/tools/search?q=geocoding%20addresses';
    const before = await refusedSearches();
    const refused = get(`${service.baseUrl}${path}`, spent);
    while ((await refusedSearches()) === before) await new Promise((r) => setImmediate(r));
    const other = await get(`${service.baseUrl}${path}`, { 'x-forwarded-for': '198.51.100.6' });
    expect(other.status).toBe(200);
    expect((await refused).status).toBe(429);
  }, 60_000);
});

describe('slow and oversized requests', () => {
  let service: RunningService;
  let port: number;

  beforeAll(async () => {
    service = await startService('slow', { HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000' });
    port = portOf(service.baseUrl);
  });
  afterAll(() => service?.close());

  // Node checks the timeouts once a second: a request is cut between its timeout and a second later. The
  // bounds below leave seconds more for a loaded machine; without the timeouts nothing is cut at all.
  it('cuts a request whose headers never end, and a connection that sends nothing, with a 408 problem document', async () => {
    const [partial, silent] = await Promise.all([
      rawExchange(port, 'GET /api/v1/tools/openai HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n', 10_000),
      rawExchange(port, '', 10_000),
    ]);
    for (const exchange of [partial, silent]) {
      expect(exchange.closedAfterMs).not.toBeNull();
      expect(exchange.closedAfterMs!).toBeLessThan(6000);
      const [answer] = parseResponses(exchange.text);
      expect(answer.status).toBe(408);
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(answer.body)).toMatchObject({ status: 408, title: 'Request timeout' });
    }
  }, 30_000);

  it('refuses a GET or HEAD with a body at once, and closes the connection without reading it', async () => {
    const huge = 300 * 1024 * 1024;
    for (const method of ['GET', 'HEAD']) {
      const exchange = await rawExchange(port, `${method} /api/v1/tools/openai HTTP/1.1\r\nHost: x\r\nContent-Length: ${huge}\r\n\r\n${'x'.repeat(65536)}`, 10_000);
      expect(exchange.closedAfterMs).not.toBeNull();
      expect(exchange.closedAfterMs!).toBeLessThan(3000);
      const [answer] = parseResponses(exchange.text, method === 'HEAD');
      expect(answer.status).toBe(400);
      expect(answer.headers.connection).toBe('close');
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
      if (method === 'GET') expect(JSON.parse(answer.body).detail).toBe('a GET request carries no body');
    }
  }, 30_000);

  it('refuses an HTTP/1.1 request without Host with a problem document (HTTP/1.0 needs none)', async () => {
    const exchange = await rawExchange(port, 'GET /api/v1/tools/openai HTTP/1.1\r\nConnection: close\r\n\r\n');
    const [answer] = parseResponses(exchange.text, false);
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(JSON.parse(answer.body).detail).toBe('an HTTP/1.1 request must name its Host');
    const old = await rawExchange(port, 'GET /healthz HTTP/1.0\r\n\r\n');
    expect(parseResponses(old.text, false)[0].status).toBe(200);
  }, 30_000);

  it('answers a write at once with 405 and a body nobody reads with one answer only, closing the connection', async () => {
    const post = await rawExchange(port, 'POST /api/v1/tools/openai HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"a":', 10_000);
    expect(post.closedAfterMs!).toBeLessThan(3000);
    const [refused] = parseResponses(post.text);
    expect(refused).toMatchObject({ status: 405, headers: { allow: 'GET, HEAD, OPTIONS', connection: 'close' } });
    // An OPTIONS with a body that never comes: its 204, then the connection closes (no 408 after it).
    const options = await rawExchange(port, 'OPTIONS /api/v1/tools/openai HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc', 10_000);
    expect(options.closedAfterMs!).toBeLessThan(3000);
    expect(parseResponses(options.text).map((r) => r.status)).toEqual([204]);
  }, 30_000);

  it('holds no more connections than MAX_CONNECTIONS, letting new ones in in place of idle ones', async () => {
    // (Every connection comes from one address here: its own limit is off, the process's is tested.)
    const capped = await startService('capped', { MAX_CONNECTIONS: '20', MAX_CONNECTIONS_PER_CLIENT: '0' });
    const held: Socket[] = [];
    try {
      const open = () =>
        new Promise<{ socket: Socket; closedBy: 'server' | null }>((resolve) => {
          const socket = connect(portOf(capped.baseUrl), '127.0.0.1');
          held.push(socket);
          socket.on('connect', () => setTimeout(() => resolve({ socket, closedBy: null }), 300));
          socket.on('close', () => resolve({ socket, closedBy: 'server' }));
          socket.on('error', () => undefined);
        });
      const first = await Promise.all(Array.from({ length: 20 }, open));
      expect(first.filter((s) => s.closedBy === 'server')).toHaveLength(0);
      // Each further one is let in in place of an idle one (all 20 are idle): never more than 20 open.
      let closedOfFirst = 0;
      const evicted = new Promise<void>((resolve) => first.forEach(({ socket }) => socket.on('close', () => ++closedOfFirst === 5 && resolve())));
      const beyond = await Promise.all(Array.from({ length: 5 }, open));
      await evicted;
      expect(beyond.filter((s) => s.closedBy === 'server')).toHaveLength(0);
      expect(held.filter((socket) => !socket.destroyed)).toHaveLength(20);
      // Once connections are let go, the service serves again.
      first.forEach(({ socket }) => socket.destroy());
      await sleep(200);
      expect((await getJson(`${capped.baseUrl}/healthz`)).status).toBe(200);
    } finally {
      held.forEach((socket) => socket.destroy());
      await capped.close();
    }
  }, 30_000);
});

describe('/readyz answers from what the process keeps', () => {
  it('answers while Redis holds back its replies to a read', async () => {
    const proxy = new SlowProxy(...hostAndPort(REDIS_URL));
    const service = await startService('slow-redis', { REDIS_URL: await proxy.start() });
    try {
      expect((await service.ingest(['fixtures'])).problems).toEqual([]);
      expect((await getJson(`${service.baseUrl}/readyz`)).status).toBe(200);
      // The read reaches Redis, whose replies are then held: it cannot answer until they are released.
      const reached = proxy.holdFrom(/hget[\s\S]*:detail\r\n[\s\S]*stripe/i);
      let readAnswered = false;
      const read = getJson(`${service.baseUrl}/api/v1/tools/stripe`).finally(() => (readAnswered = true));
      await reached;
      // The probe answers from what the process keeps, while the read still waits for Redis.
      expect((await getJson(`${service.baseUrl}/readyz`)).status).toBe(200);
      expect(readAnswered).toBe(false);
      proxy.release();
      expect((await read).status).toBe(200);
    } finally {
      proxy.release();
      await service.close();
      await proxy.stop();
    }
  }, 60_000);
});

/** A flood of distinct searches (each a cache miss) from one client, as a process of its own. */
const FLOOD = `
const http = require('node:http');
const [url, connections, ms] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3])];
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const end = Date.now() + ms;
let n = 0;
const statuses = {};
function one() {
  if (Date.now() > end) return Promise.resolve();
  const q = 'w' + process.pid + 'x' + n++ + '+gpu+speech';
  return new Promise((resolve) => {
    http.get(url + '/api/v1/tools/search?q=' + q, { agent }, (res) => {
      statuses[res.statusCode] = (statuses[res.statusCode] || 0) + 1;
      res.resume();
      res.on('end', resolve);
    }).on('error', resolve);
  }).then(one);
}
Promise.all(Array.from({ length: connections }, one)).then(() => { console.log(JSON.stringify(statuses)); agent.destroy(); });
`;

describe('the real process under a flood and clients that go away', () => {
  it('answers /readyz through a flood of cache-missing searches, runs no more searches than the budget, and logs no error for aborted requests', async () => {
    const namespace = uniqueNamespace('flood');
    const service = await startServiceProcess({ REDIS_URL, REDIS_NAMESPACE: namespace, PROJECTOR: 'on' });
    try {
      const port = portOf(service.url);
      // Clients that go away: an upload cut off, a GET whose body never ends, a search left before its answer.
      await Promise.all([
        rawExchange(port, 'POST /api/v1/tools/search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1000\r\n' + 'a'.repeat(2000), 200),
        rawExchange(port, `GET /api/v1/tools/openai HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n${'a'.repeat(100_000)}`, 200),
        rawExchange(port, 'GET /api/v1/tools/search?limit=100 HTTP/1.1\r\nHost: x\r\n\r\n', 1),
        rawExchange(port, 'PUT /api/v1/tools/openai HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\nabc', 100),
      ]);

      // 200 connections of distinct searches for 8 s from another process; /readyz asked from this one,
      // again and again, until the flood ends.
      const flood = spawn(process.execPath, ['-e', FLOOD, service.url, '200', '8000']);
      let floodOutput = '';
      let floodOver = false;
      flood.stdout.on('data', (d) => (floodOutput += d));
      const floodDone = new Promise((resolve) => flood.once('exit', resolve)).then(() => (floodOver = true));
      let probes = 0;
      while (!floodOver) {
        // (The probe comes from another address, as an orchestrator's does: the flood holds its client's share of connections.)
        expect((await get(`${service.url}/readyz`, {}, '127.0.0.2')).status).toBe(200);
        probes++;
      }
      await floodDone;
      expect(probes).toBeGreaterThan(1);
      const statuses = JSON.parse(floodOutput);
      // The client got its searches (60 a minute, one of them spent above), then was refused.
      expect(statuses['200']).toBeGreaterThan(0);
      expect(statuses['200']).toBeLessThanOrEqual(60);
      expect(statuses['429']).toBeGreaterThan(0);
      // Without the limits the flood keeps the event loop busy with searches (/readyz took up to 1.4 s on
      // a 2-core machine); with them, the process ran no more searches than the budget, and the refusals
      // waited out their pause off the event loop.
      const metrics = (await get(`${service.url}/metrics`, {}, '127.0.0.2')).body as string;
      const searchesRun = Number(/^directory_search_duration_seconds_count (\d+)/m.exec(metrics)?.[1]);
      expect(searchesRun).toBeLessThanOrEqual(60);
      expect(Number(/^directory_rate_limited_requests_total\{budget="searches"\} (\d+)/m.exec(metrics)?.[1])).toBeGreaterThan(0);
    } finally {
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
      await dropNamespace(namespace);
    }
    expect(errorLines(service.output())).toEqual([]);
  }, 120_000);
});
