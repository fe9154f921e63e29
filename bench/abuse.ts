import { Agent, request } from 'node:http';
import { connect, Socket } from 'node:net';
import { appendLongHistory, syntheticFolder } from './lib/catalogs';
import { runCli, start, startRedis, startService, stop, waitUntilSettled } from './lib/processes';

/**
 * `npm run bench:abuse`: a polite client (127.0.0.1: one request at a time, listing details, cached searches,
 * a history page, 20 a second) measured quiet, then while each abuse of issue 46 runs from other client
 * addresses (127.0.0.2 and on), with the budgets at their defaults: made-up Hosts asking for the large
 * documents, deep pages of a 10,000-version history, exports from 150 addresses, and 11 addresses holding
 * 200 idle connections each. A third client asks /readyz four times a second throughout. The target: the
 * polite client's p99 within 3 times its quiet p99, and /readyz answering 200 throughout. Two phases measure
 * the machine's ceiling instead: a core kept busy by another process, and 8 workers asking for a cached
 * listing detail (the abuses' pressure without the abuse).
 * Options: --size=5000 --seconds=15 --only=exports (the phases whose name holds the word) --env=EXPORTS_IN_FLIGHT=2 (a setting of the service)
 */
const args = Object.fromEntries(process.argv.slice(2).map((a) => { const [name, ...value] = a.replace(/^--/, '').split('='); return [name, value.join('=')]; }));
const SIZE = Number(args.size ?? 5000);
const SECONDS = Number(args.seconds ?? 15);
const ONLY = args.only ?? '';
const SERVICE_ENV = Object.fromEntries((args.env ?? '').split(',').filter(Boolean).map((pair) => pair.split('=') as [string, string]));
const log = (line: string) => console.error(`[bench:abuse] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Keep-alive agents by local address: each attacker address is a client of its own to the service. */
const agents = new Map<string, Agent>();
const agentFor = (address: string) => agents.get(address) ?? agents.set(address, new Agent({ keepAlive: true, localAddress: address, maxSockets: 256 })).get(address)!;

/** One GET from a local address, read to its end: status (0 on a network error) and milliseconds. */
function get(url: string, address: string, headers: Record<string, string> = {}): Promise<{ status: number; ms: number }> {
  const started = process.hrtime.bigint();
  const done = (status: number) => ({ status, ms: Number(process.hrtime.bigint() - started) / 1e6 });
  return new Promise((resolve) => {
    const req = request(url, { agent: agentFor(address), headers, timeout: 30_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(done(res.statusCode ?? 0)));
      res.on('error', () => resolve(done(0)));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(done(0)));
    req.end();
  });
}

const percentile = (times: number[], q: number) => {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

interface Phase {
  name: string;
  /** Starts the abuse; returns what stops it. */
  start(url: string): () => Promise<void>;
}

/** Workers that each send `next()`'s path again as soon as the last answer came, until stopped. */
function loop(url: string, workers: number, next: (worker: number, i: number) => { path: string; address: string; headers?: Record<string, string> }): () => Promise<void> {
  let running = true;
  const all = Array.from({ length: workers }, async (_, worker) => {
    for (let i = 0; running; i++) {
      const { path, address, headers } = next(worker, i);
      const { status } = await get(url + path, address, headers);
      // A refusal says when to come back; an abuser does not listen, but does not spin either.
      if (status === 429 || status === 503 || status === 0) await sleep(50);
    }
  });
  return async () => {
    running = false;
    await Promise.all(all);
  };
}

const PHASES: Phase[] = [
  {
    name: 'made-up Hosts asking for sitemap.xml and llms-full.txt (8 at a time, 4 addresses)',
    start: (url) =>
      loop(url, 8, (worker, i) => ({ path: i % 2 ? '/sitemap.xml' : '/llms-full.txt', address: `127.0.0.${2 + (worker % 4)}`, headers: { host: `localhost:${10_000 + worker * 10_000 + i}` } })),
  },
  {
    name: 'deep pages of a 10,000-version history (8 at a time, 4 addresses)',
    start: (url) => loop(url, 8, (worker, i) => ({ path: `/api/v1/tools/long-history/history?before=${1 + ((worker * 7919 + i * 104_729) % 10_000)}&limit=100`, address: `127.0.0.${6 + (worker % 4)}` })),
  },
  {
    name: 'brotli exports from 150 addresses, each again as soon as it ends',
    start: (url) => loop(url, 150, (worker) => ({ path: '/api/v1/export', address: `127.0.1.${1 + worker}`, headers: { 'accept-encoding': 'br' } })),
  },
  {
    // Not an abuse: the machine's ceiling. Nothing is sent to the service; another process keeps one of the
    // two cores busy, as the abusers' own load generator does in every phase above.
    name: 'a busy core: another process spinning, nothing sent to the service',
    start: () => {
      const spinner = start(process.execPath, ['-e', 'for (;;) {}']);
      return () => stop(spinner);
    },
  },
  {
    // Not an abuse either: the same number of workers as the abuses above (8, from 4 addresses), each asking
    // for a cached listing detail again as soon as the last answer came. What any busy neighbour costs.
    name: 'no abuse, the same pressure: cached listing details (8 at a time, 4 addresses)',
    start: (url) => loop(url, 8, (worker) => ({ path: '/api/v1/tools/openai', address: `127.0.0.${10 + (worker % 4)}` })),
  },
  {
    name: '11 addresses holding 200 idle connections each',
    start: (url) => {
      const { port, hostname } = new URL(url);
      const sockets: Socket[] = [];
      for (let a = 0; a < 11; a++) {
        for (let c = 0; c < 200; c++) {
          const socket = connect({ port: Number(port), host: hostname, localAddress: `127.0.2.${1 + a}` });
          socket.on('error', () => undefined);
          sockets.push(socket);
        }
      }
      return async () => {
        for (const socket of sockets) socket.destroy();
      };
    },
  },
];

/** The polite client: one request at a time, 20 a second, for `seconds`; its latencies. */
async function polite(url: string, slugs: string[], seconds: number): Promise<{ times: number[]; failed: number }> {
  const paths = [...slugs.map((slug) => `/api/v1/tools/${slug}`), '/api/v1/tools/search?q=text%20to%20speech', '/api/v1/tools/search?q=vector%20database', '/api/v1/tools/openai/history'];
  const times: number[] = [];
  let failed = 0;
  const end = Date.now() + seconds * 1000;
  for (let i = 0; Date.now() < end; i++) {
    const { status, ms } = await get(url + paths[i % paths.length], '127.0.0.1');
    if (status === 200) times.push(ms);
    else failed++;
    await sleep(Math.max(0, 50 - ms));
  }
  return { times, failed };
}

/** /readyz four times a second until stopped: how many answers were not 200 or took over 2 s. */
function watchReadiness(url: string): () => Promise<{ asked: number; bad: number; slowest: number }> {
  let running = true;
  const seen = { asked: 0, bad: 0, slowest: 0 };
  const watching = (async () => {
    while (running) {
      const { status, ms } = await get(`${url}/readyz`, '127.0.3.1');
      seen.asked++;
      seen.slowest = Math.max(seen.slowest, ms);
      if (status !== 200 || ms > 2000) seen.bad++;
      await sleep(250);
    }
  })();
  return async () => {
    running = false;
    await watching;
    return seen;
  };
}

async function main(): Promise<void> {
  const redis = await startRedis();
  const env = { REDIS_URL: redis.url, REDIS_NAMESPACE: 'abuse' };
  if (Object.keys(SERVICE_ENV).length > 0) log(`service settings: ${JSON.stringify(SERVICE_ENV)}`);
  try {
    await runCli(['ingest', 'fixtures', syntheticFolder(SIZE, log)], env);
    await appendLongHistory(env, 'long-history', 10_000);
    const service = await startService({ ...env, ...SERVICE_ENV });
    try {
      log(`service settled ${((await waitUntilSettled(service.url)) / 1000).toFixed(1)} s after it was ready`);
      const slugs = ['openai', 'anthropic', 'stripe', 'elevenlabs', 'pinecone', 'deepseek', 'mistral', 'twilio'];
      // Warm-up: the polite client's paths compiled and cached, as a client that has been around would find them.
      await polite(service.url, slugs, 3);
      const quiet = await polite(service.url, slugs, SECONDS);
      const quietP99 = percentile(quiet.times, 0.99);
      const rows = [
        '| while | polite p50 | polite p99 | p99 / quiet p99 | polite failed | /readyz not 200 or over 2 s (asked) |',
        '|---|---:|---:|---:|---:|---:|',
        `| nothing (quiet) | ${percentile(quiet.times, 0.5).toFixed(1)} ms | ${quietP99.toFixed(1)} ms | 1.0 | ${quiet.failed} | – |`,
      ];
      log(rows.at(-1)!);
      for (const phase of PHASES.filter((p) => p.name.includes(ONLY))) {
        const stopReadiness = watchReadiness(service.url);
        const stopAbuse = phase.start(service.url);
        await sleep(1000);
        const measured = await polite(service.url, slugs, SECONDS);
        await stopAbuse();
        const readiness = await stopReadiness();
        const p99 = percentile(measured.times, 0.99);
        rows.push(`| ${phase.name} | ${percentile(measured.times, 0.5).toFixed(1)} ms | ${p99.toFixed(1)} ms | ${(p99 / quietP99).toFixed(1)} | ${measured.failed} | ${readiness.bad} (${readiness.asked}; slowest ${readiness.slowest.toFixed(0)} ms) |`);
        log(rows.at(-1)!);
        // The budgets' windows close and the process settles before the next abuse.
        await sleep(61_000);
      }
      console.log(rows.join('\n'));
    } finally {
      await stop(service.child);
    }
  } finally {
    for (const agent of agents.values()) agent.destroy();
    await stop(redis.child);
  }
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
