import { connect, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { getJson, REDIS_URL, RunningService, startService } from './support/harness';
import { parseResponses, rawExchange } from './support/raw-http';
import { hostAndPort, SlowProxy } from './support/slow-proxy';

/**
 * The service against a hostile client and a busy store: requests that never finish or carry what
 * nothing reads, connection floods, and /readyz staying quick while Redis is slow.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const portOf = (url: string) => Number(new URL(url).port);

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

  it('holds no more connections than MAX_CONNECTIONS', async () => {
    const capped = await startService('capped', { MAX_CONNECTIONS: '20' });
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
      const beyond = await Promise.all(Array.from({ length: 5 }, open));
      expect(beyond.filter((s) => s.closedBy === 'server')).toHaveLength(5);
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
  it('stays quick while Redis is slow to answer', async () => {
    const proxy = new SlowProxy(...hostAndPort(REDIS_URL));
    const service = await startService('slow-redis', { REDIS_URL: await proxy.start() });
    try {
      expect((await service.ingest(['fixtures'])).problems).toEqual([]);
      expect((await getJson(`${service.baseUrl}/readyz`)).status).toBe(200);
      proxy.delayMs = 800;
      const started = performance.now();
      const read = getJson(`${service.baseUrl}/api/v1/tools/stripe`).then(() => performance.now() - started);
      await sleep(100);
      const probeStarted = performance.now();
      const ready = await getJson(`${service.baseUrl}/readyz`);
      const probeMs = performance.now() - probeStarted;
      expect(ready.status).toBe(200);
      // The read waits for Redis (800 ms); the probe does not. 100 ms is 8 times less than Redis's delay
      // and many times what an idle probe takes.
      expect(await read).toBeGreaterThanOrEqual(800);
      expect(probeMs).toBeLessThan(100);
    } finally {
      proxy.delayMs = 0;
      await service.close();
      await proxy.stop();
    }
  }, 60_000);
});
