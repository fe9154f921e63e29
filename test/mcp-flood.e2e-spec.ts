import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { dropNamespace, REDIS_URL, uniqueNamespace } from './support/harness';
import { errorLines, ServiceProcess, startServiceProcess } from './support/service-process';

/**
 * The MCP amplification and the batched search flood of issue 31, replayed against the real process
 * (node dist/src/main.js), from 127.0.0.2, while a polite client (127.0.0.3) reads listings and an
 * orchestrator (127.0.0.4) asks /readyz. Before: twenty POSTs of resources/list x 100 made 638 MB of
 * answers and held the event loop for 27 s; /readyz timed out.
 *
 * Latency is compared, not bounded once: the polite client's p99 during the flood against its own p99
 * just before, on the same machine, with a generous multiple. The exact figures are printed and kept in
 * docs/operations.md.
 */

/** The flooding client, as a process of its own: the amplification, then batches of distinct searches until its time is up. */
const FLOOD = `
const http = require('node:http');
const [url, ms] = [process.argv[1], Number(process.argv[2])];
const agent = new http.Agent({ keepAlive: true, maxSockets: 40, localAddress: '127.0.0.2' });
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
const summary = { amplification: { statuses: {}, bytes: 0 }, search: { statuses: {}, posts: 0, answered: 0 } };
function post(body, into) {
  return new Promise((resolve) => {
    const req = http.request(url + '/mcp', { method: 'POST', agent, headers }, (res) => {
      into.statuses[res.statusCode] = (into.statuses[res.statusCode] || 0) + 1;
      const chunks = [];
      res.on('data', (d) => { chunks.push(d); if (into.bytes !== undefined) into.bytes += d.length; });
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', (e) => { into.statuses[e.code] = (into.statuses[e.code] || 0) + 1; resolve({}); });
    req.end(JSON.stringify(body));
  });
}
const batch = (n, make) => Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, ...make(i) }));
let n = 0;
const end = Date.now() + ms;
async function searches() {
  while (Date.now() < end) {
    const answer = await post(batch(100, () => ({ method: 'tools/call', params: { name: 'search_tools', arguments: { query: 'zq' + process.pid + 'x' + n++ + ' gpu speech' } } })), summary.search);
    summary.search.posts++;
    if (answer.status === 200) summary.search.answered += JSON.parse(answer.text).filter((a) => a.result && !a.result.isError).length;
  }
}
const started = Date.now();
Promise.all([
  Promise.all(Array.from({ length: 20 }, () => post(batch(100, () => ({ method: 'resources/list' })), summary.amplification))).then(() => (summary.amplification.ms = Date.now() - started)),
  ...Array.from({ length: 10 }, searches),
]).then(() => { console.log(JSON.stringify(summary)); agent.destroy(); });
`;

/** GET from a local address over a connection of its own: status and milliseconds (status 0: no answer within 5 s). */
function timedGet(url: string, localAddress: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(url, { localAddress, agent: false, timeout: 5000 }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode!, ms: performance.now() - started }));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end();
  });
}

const p99 = (times: number[]) => [...times].sort((a, b) => a - b)[Math.ceil(times.length * 0.99) - 1];
const SLUGS = ['openai', 'stripe', 'anthropic', 'github', 'twilio', 'google-maps', 'aws', 'huggingface'];

/**
 * The polite client: reads of listings, one at a time and 20 a second at most (well within its budget of
 * 600 a minute), until `until` resolves, and at least `min` of them.
 */
async function politeReads(url: string, until: Promise<unknown>, min: number): Promise<number[]> {
  let done = false;
  void until.then(() => (done = true));
  const times: number[] = [];
  for (let i = 0; !done || i < min; i++) {
    const pace = new Promise((r) => setTimeout(r, 50));
    const answer = await timedGet(`${url}/api/v1/tools/${SLUGS[i % SLUGS.length]}`, '127.0.0.3');
    expect(answer.status).toBe(200);
    times.push(answer.ms);
    await pace;
  }
  return times;
}

/** /readyz every 100 ms from the orchestrator's address until `until` resolves. */
async function readinessProbes(url: string, until: Promise<unknown>): Promise<Array<{ status: number; ms: number }>> {
  let done = false;
  void until.then(() => (done = true));
  const probes: Array<{ status: number; ms: number }> = [];
  while (!done) {
    probes.push(await timedGet(`${url}/readyz`, '127.0.0.4'));
    await new Promise((r) => setTimeout(r, 100));
  }
  return probes;
}

/** The largest event loop delay since the last scrape (prom-client resets it at each). */
async function eventLoopLagMax(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text)![1]);
}

async function replay(service: ServiceProcess, floodMs: number) {
  const quiet = await politeReads(service.url, Promise.resolve(), 100);
  await eventLoopLagMax(service.url);
  const flood = spawn(process.execPath, ['-e', FLOOD, service.url, String(floodMs)]);
  let floodOutput = '';
  flood.stdout.on('data', (d) => (floodOutput += d));
  flood.stderr.on('data', (d) => (floodOutput += d));
  const flooded = new Promise((resolve) => flood.once('exit', resolve));
  const [during, probes] = await Promise.all([politeReads(service.url, flooded, 50), readinessProbes(service.url, flooded)]);
  const lagMax = await eventLoopLagMax(service.url);
  const figures = { quietP99: p99(quiet), floodP99: p99(during), reads: during.length, probes: probes.length, probeMaxMs: Math.max(...probes.map((p) => p.ms)), eventLoopLagMaxMs: lagMax * 1000, flood: JSON.parse(floodOutput) };
  console.log(JSON.stringify(figures, (_, v) => (typeof v === 'number' ? Math.round(v * 10) / 10 : v)));
  return { ...figures, probes };
}

describe('the amplification and a batched search flood over MCP, against the real process', () => {
  const namespaces: string[] = [];
  afterAll(() => Promise.all(namespaces.map(dropNamespace)));

  async function start(env: Record<string, string>): Promise<ServiceProcess> {
    const namespace = uniqueNamespace('mcp-flood');
    namespaces.push(namespace);
    return startServiceProcess({ REDIS_URL, REDIS_NAMESPACE: namespace, ...env });
  }

  it('with the default budgets: the flood is refused, the polite client stays within a small multiple of its quiet p99, /readyz answers throughout', async () => {
    const service = await start({});
    try {
      const figures = await replay(service, 10_000);
      expect(figures.probes.every((p) => p.status === 200)).toBe(true);
      // Each call of a batch spends the budget: of the 2,000 calls of the amplification, 600 a minute (at
      // most 6 POSTs; fewer when the 20 at once share the budget out and each runs out part-way).
      expect(figures.flood.amplification.statuses['200'] ?? 0).toBeLessThanOrEqual(6);
      expect(figures.flood.amplification.statuses['429']).toBeGreaterThanOrEqual(14);
      expect(figures.floodP99).toBeLessThan(Math.max(10 * figures.quietP99, 250));
    } finally {
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
    }
    expect(errorLines(service.output())).toEqual([]);
  }, 120_000);

  it('with no budgets at all: every call is answered, yet no request holds the event loop, and /readyz answers throughout', async () => {
    const service = await start({ RATE_LIMIT_PER_MINUTE: '0', SEARCH_RATE_LIMIT_PER_MINUTE: '0' });
    try {
      const figures = await replay(service, 10_000);
      expect(figures.flood.amplification.statuses).toEqual({ 200: 20 });
      // 2,000 pages of 100 resources: about 60 MB (638 MB when a page named 1,000).
      expect(figures.flood.amplification.bytes).toBeLessThan(100 * 1024 * 1024);
      expect(figures.flood.search.answered).toBeGreaterThan(0);
      expect(figures.probes.every((p) => p.status === 200)).toBe(true);
      // Before: 27 s. The bound is many times what a single call takes, and far below what held the loop.
      expect(figures.eventLoopLagMaxMs).toBeLessThan(500);
      expect(figures.floodP99).toBeLessThan(1000);
    } finally {
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
    }
    expect(errorLines(service.output())).toEqual([]);
  }, 120_000);
});
