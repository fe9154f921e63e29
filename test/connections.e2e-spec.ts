import { request } from 'node:http';
import { connect, Socket } from 'node:net';
import { RunningService, startService } from './support/harness';

/**
 * Fair connections: one address holding connections cannot take those another needs. Every test client
 * comes from loopback; distinct loopback addresses (127.0.0.2, 127.0.0.3...) stand for distinct clients.
 */

/** GET from a local address, over a connection of its own; the status, or the error's code. */
function get(url: string, localAddress: string): Promise<{ status?: number; body?: string; error?: string }> {
  return new Promise((resolve) => {
    request(url, { localAddress, agent: false }, (response) => {
      let body = '';
      response.on('data', (d) => (body += d));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    })
      .on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }))
      .end();
  });
}

/** The value of a counter in the Prometheus text, 0 when absent. */
function counter(metrics: string, series: string): number {
  const line = metrics.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

/** Resolves once `check` holds, polling; rejects after `timeoutMs` saying what it waited for. */
async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('connections one client may hold', () => {
  let service: RunningService;
  const held: Socket[] = [];

  beforeAll(async () => {
    // Held connections send nothing: the header timeout must not close them during the test.
    service = await startService('connections', { MAX_CONNECTIONS: '30', MAX_CONNECTIONS_PER_CLIENT: '10', HEADERS_TIMEOUT_MS: '60000', REQUEST_TIMEOUT_MS: '60000' });
    expect((await service.ingest(['fixtures'])).problems).toEqual([]);
  });
  afterAll(async () => {
    held.forEach((socket) => socket.destroy());
    await service?.close();
  });

  it('lets one address hold no more than its share, so that another is still served, and counts the connections refused', async () => {
    const { port } = new URL(service.baseUrl);
    // One client opens as many connections as the process holds, and keeps them.
    let closedByService = 0;
    for (let i = 0; i < 30; i++) {
      const socket = connect({ port: Number(port), host: '127.0.0.1', localAddress: '127.0.0.2' });
      socket.on('close', () => closedByService++);
      socket.on('error', () => undefined);
      held.push(socket);
    }
    // Beyond its 10, each is closed as it arrives.
    await until('20 of the 30 connections closed by the service', () => closedByService >= 20);
    const metrics = (await get(`${service.baseUrl}/metrics`, '127.0.0.3')).body!;
    expect(counter(metrics, 'directory_connections_refused_total{reason="per-client"}')).toBe(20);

    // Another client is served, however many requests it makes at once, and so is /readyz.
    const answers = await Promise.all(Array.from({ length: 10 }, () => get(`${service.baseUrl}/api/v1/tools/openai`, '127.0.0.3')));
    expect(answers.map((a) => a.status ?? a.error)).toEqual(Array(10).fill(200));
    expect((await get(`${service.baseUrl}/readyz`, '127.0.0.4')).status).toBe(200);
    // The first client's 10 are still open, and serve it.
    expect(closedByService).toBe(20);
    expect(held.filter((s) => !s.destroyed)).toHaveLength(10);
  }, 60_000);

  it('at MAX_CONNECTIONS, lets a new client in by closing idle connections of the clients holding the most, never past the cap', async () => {
    const { port } = new URL(service.baseUrl);
    // 10 held by 127.0.0.2 already; 127.0.0.5 and 127.0.0.6 take 10 each, all idle: the process is full
    // with every address within its share (eleven such addresses refused 55 of 59 polite requests before).
    const closedOf = new Map<string, number>();
    const open = (address: string) =>
      new Promise<Socket>((resolve) => {
        const socket = connect({ port: Number(port), host: '127.0.0.1', localAddress: address });
        socket.on('close', () => closedOf.set(address, (closedOf.get(address) ?? 0) + 1));
        socket.on('error', () => undefined);
        held.push(socket);
        socket.once('connect', () => resolve(socket));
      });
    for (const socket of held.filter((s) => !s.destroyed)) socket.on('close', () => closedOf.set('127.0.0.2', (closedOf.get('127.0.0.2') ?? 0) + 1));
    for (const address of ['127.0.0.5', '127.0.0.6']) for (let i = 0; i < 10; i++) await open(address);
    // A new client's 10 come in, each in place of an idle one of the heaviest holders (never its own).
    const newcomers = [];
    for (let i = 0; i < 10; i++) newcomers.push(await open('127.0.0.7'));
    const closed = () => [...closedOf.values()].reduce((a, b) => a + b, 0);
    await until('10 idle connections of the others closed', () => closed() >= 10);
    expect(closedOf.get('127.0.0.7') ?? 0).toBe(0);
    // Taken evenly from the three full holders (each now holding 6 or 7), not all from one.
    for (const address of ['127.0.0.2', '127.0.0.5', '127.0.0.6']) expect(closedOf.get(address) ?? 0).toBeGreaterThanOrEqual(3);
    // A polite client is served too, in place of one more (of 127.0.0.7 now: it holds the most).
    expect((await get(`${service.baseUrl}/api/v1/tools/openai`, '127.0.0.8')).status).toBe(200);
    await until('11 idle connections closed', () => closed() >= 11);
    const metrics = (await get(`${service.baseUrl}/metrics`, '127.0.0.9')).body!;
    expect(counter(metrics, 'directory_connections_refused_total{reason="evicted"}')).toBeGreaterThanOrEqual(11);
    expect(counter(metrics, 'directory_connections_refused_total{reason="process"}')).toBe(0);
  }, 60_000);
});
