import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { load, LoadResult } from './lib/load';
import { freePort, httpAnswers, start, startRedis, startService, stop, waitFor } from './lib/processes';
import { scenarios, searchPaths } from './lib/scenarios';
import { longTailPaths } from './lib/long-tail';
import { dropNamespace, measureIngest, syntheticFolder, WriteRow } from './lib/catalogs';
import { loadFixtureListings } from '../test/support/synthetic-catalog';

/**
 * `npm run bench`: everything measured side by side in one run on this machine, because absolute numbers
 * drift on shared machines while ratios hold.
 *   read side:  the limit (bare Node http, same bodies), this service, json-server (the peer) on the same
 *               127 listings, for search / detail / compare / categories at 1, 10 and 100 connections;
 *   write side: ingest with projection of the fixtures and of synthetic catalogs, full rebuild, an unchanged re-import, memory;
 *   growth:     search at 127 listings and at each synthetic size, read cache off: the 20-query mix, and the
 *               long tail (240 distinct queries, each asked once per pass);
 *   scaling:    at the first synthetic size, the long tail on two serving processes against one.
 * Prints the tables and writes them into bench/README.md between the result markers.
 * Options: --sizes=10000,100000  --seconds=5  --connections=1,10,100  --no-readme
 */
const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
);
const SIZES = (args.sizes ?? '10000,100000').split(',').filter(Boolean).map(Number);
const SECONDS = Number(args.seconds ?? 5);
const CONNECTIONS = (args.connections ?? '1,10,100').split(',').map(Number);

interface ReadRow {
  scenario: string;
  connections: number;
  limit: LoadResult;
  ours: LoadResult;
  peer: LoadResult;
  /** Whether the requests asked for compression (ACCEPT_ENCODING). */
  compressed: boolean;
}
interface GrowthRow {
  listings: number;
  /** How long a serving process took from start to ready (its search index loaded from the log). */
  readyMs: number;
  /** One client: the latency of a query. */
  single: LoadResult;
  /** Ten connections: throughput, with queueing in the latency. */
  search: LoadResult;
  /** The long tail (lib/long-tail.ts), one client and ten connections. */
  longTailSingle: LoadResult;
  longTail: LoadResult;
}
/** The long tail at ten connections on one serving process, and split over two (five each). */
interface ScalingRow {
  listings: number;
  one: LoadResult;
  two: LoadResult;
}

const log = (line: string) => console.error(`[bench] ${line}`);

/** What the compressed read rows send: the service answers brotli, the limit the same bytes, json-server gzip. */
const ACCEPT_ENCODING = 'br, gzip';
/** The service's response to a path as sent (compressed when asked), read without decompressing. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; encoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, encoding: response.headers['content-encoding'], body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    }).on('error', reject);
  });
}

async function main(): Promise<void> {
  const machine = machineInfo();
  log(`${machine.date}: ${machine.cores} cores, Node ${machine.node}, Redis ${machine.redis}`);
  const redis = await startRedis();
  const admin = new Redis(redis.url);
  const env = (namespace: string) => ({ REDIS_URL: redis.url, REDIS_NAMESPACE: namespace });

  // Write side on the real content first: this is also the data the read side serves.
  const fixtures = await measureIngest(admin, env('dir'), ['fixtures'], 'fixtures (127)', 127, log);
  const writeRows: WriteRow[] = [fixtures];

  const service = await startService(env('dir'));
  const reads = await readSide(service.url);
  await stop(service.child);
  // Growth measures the search engine itself: the read cache is off, every request runs the query.
  const growth: GrowthRow[] = [await measureSearch(env('dir'), 127)];
  let scaling: ScalingRow | null = null;

  for (const size of SIZES) {
    const folder = syntheticFolder(size, log);
    const namespace = `syn${size}`;
    const row = await measureIngest(admin, env(namespace), ['fixtures', folder], `synthetic ${size.toLocaleString('en')} + fixtures`, size + 127, log);
    writeRows.push(row);
    growth.push(await measureSearch(env(namespace), size + 127));
    scaling ??= await measureScaling(env(namespace), size + 127);
    await dropNamespace(admin, namespace);
  }

  await admin.quit();
  await stop(redis.child);
  const report = renderReport(machine, reads, writeRows, growth, scaling);
  console.log(report);
  if (args['no-readme'] !== 'true') writeReadme(report);
}

function machineInfo() {
  const redisVersion = /v=([\d.]+)/.exec(execFileSync('redis-server', ['--version']).toString())?.[1] ?? 'unknown';
  return { date: new Date().toISOString().slice(0, 10), cores: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version, redis: redisVersion };
}

async function measureSearch(env: Record<string, string>, listings: number): Promise<GrowthRow> {
  const service = await startService({ ...env, PROJECTOR: 'off', READ_CACHE: 'off' });
  log(`growth: search over ${listings} listings (ready after ${service.readyMs} ms)`);
  const single = await load(service.url, searchPaths(), 1, SECONDS);
  const search = await load(service.url, searchPaths(), 10, SECONDS);
  const longTailSingle = await load(service.url, longTailPaths(), 1, SECONDS);
  const longTail = await load(service.url, longTailPaths(), 10, SECONDS);
  await stop(service.child);
  return { listings, readyMs: service.readyMs, single, search, longTailSingle, longTail };
}

/**
 * Search capacity as serving processes are added: the long tail at ten connections on one process, then
 * on two (five connections each, driven at once). Each process answers from its own index, so nothing
 * they share (Redis) is in the way; on two cores the load generator takes a share of the CPU the second
 * process would use.
 */
async function measureScaling(env: Record<string, string>, listings: number): Promise<ScalingRow> {
  const config = { ...env, PROJECTOR: 'off', READ_CACHE: 'off' };
  const first = await startService(config);
  log(`scaling: the long tail over ${listings} listings on one process, then two`);
  const one = await load(first.url, longTailPaths(), 10, SECONDS);
  const second = await startService(config);
  const halves = await Promise.all([first, second].map((service) => load(service.url, longTailPaths(), 5, SECONDS)));
  await Promise.all([stop(first.child), stop(second.child)]);
  const two: LoadResult = {
    rps: halves[0].rps + halves[1].rps,
    p50: Math.max(halves[0].p50, halves[1].p50),
    p99: Math.max(halves[0].p99, halves[1].p99),
    errors: halves[0].errors + halves[1].errors,
    non2xx: halves[0].non2xx + halves[1].non2xx,
    requests: halves[0].requests + halves[1].requests,
    bytes: (halves[0].bytes + halves[1].bytes) / 2,
  };
  return { listings, one, two };
}

async function readSide(serviceUrl: string): Promise<ReadRow[]> {
  const list = scenarios();
  // The limit answers every path with exactly the bytes the service sends for it.
  const bodies: Record<string, string> = {};
  const encoded: Record<string, { encoding: string; base64: string }> = {};
  for (const scenario of list) {
    for (const path of scenario.ours) {
      const plain = await rawGet(`${serviceUrl}${path}`, {});
      const compressed = await rawGet(`${serviceUrl}${path}`, { 'accept-encoding': ACCEPT_ENCODING });
      if (plain.status !== 200 || compressed.status !== 200) throw new Error(`${path}: ${plain.status}, compressed ${compressed.status}`);
      bodies[path] = plain.body.toString();
      if (compressed.encoding) encoded[path] = { encoding: compressed.encoding, base64: compressed.body.toString('base64') };
    }
  }
  mkdirSync(join('bench', '.data'), { recursive: true });
  const bodiesFile = join('bench', '.data', 'limit-bodies.json');
  writeFileSync(bodiesFile, JSON.stringify(bodies));
  const encodedFile = join('bench', '.data', 'limit-bodies-encoded.json');
  writeFileSync(encodedFile, JSON.stringify(encoded));
  const limitPort = await freePort();
  const limit = start(process.execPath, ['dist/bench/lib/limit-server.js', String(limitPort), bodiesFile, encodedFile]);
  const limitUrl = `http://127.0.0.1:${limitPort}`;
  await waitFor(httpAnswers(`${limitUrl}/`), 10_000, 'the limit server');

  const peer = await startPeer();
  const rows: ReadRow[] = [];
  const measure = async (scenario: (typeof list)[number], connections: number, compressed: boolean): Promise<ReadRow> => {
    log(`read${compressed ? ', compressed' : ''}: ${scenario.name} at ${connections} connection(s)`);
    const headers: Record<string, string> = compressed ? { 'accept-encoding': ACCEPT_ENCODING } : {};
    return {
      scenario: scenario.name,
      connections,
      limit: await load(limitUrl, scenario.ours, connections, SECONDS, headers),
      ours: await load(serviceUrl, scenario.ours, connections, SECONDS, headers),
      peer: await load(peer.url, scenario.peer, connections, SECONDS, headers),
      compressed,
    };
  };
  for (const scenario of list) for (const connections of CONNECTIONS) rows.push(await measure(scenario, connections, false));
  // What clients on a real network do: ask for compression (the service sends stored compressed bytes,
  // json-server compresses each response with gzip).
  for (const scenario of list) {
    for (const connections of CONNECTIONS.filter((c) => c > 1)) rows.push(await measure(scenario, connections, true));
  }
  await stop(limit);
  await stop(peer.child);
  return rows;
}

/** json-server 0.17 serving the same 127 listings (id = slug) and the category counts from one file. */
async function startPeer() {
  const listings = loadFixtureListings().map((l) => ({ id: l.slug, ...l }));
  const counts = new Map<string, number>();
  for (const l of listings) counts.set(l.category, (counts.get(l.category) ?? 0) + 1);
  const db = { listings, categories: [...counts].map(([slug, count]) => ({ id: slug, slug, count })) };
  const file = join('bench', '.data', 'json-server-db.json');
  writeFileSync(file, JSON.stringify(db));
  const port = await freePort();
  const child = start(process.execPath, ['node_modules/json-server/lib/cli/bin.js', file, '--port', String(port), '--host', '127.0.0.1', '--quiet']);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(httpAnswers(`${url}/categories`), 20_000, 'json-server');
  return { url, child };
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}x` : 'n/a');

function renderReport(machine: ReturnType<typeof machineInfo>, reads: ReadRow[], writes: WriteRow[], growth: GrowthRow[], scaling: ScalingRow | null): string {
  const lines: string[] = [];
  lines.push(`Measured ${machine.date} on ${machine.cores} cores (${machine.cpu}), Node ${machine.node}, Redis ${machine.redis}; load generator, servers and Redis share the machine. ${SECONDS} s per measurement.`);
  lines.push('');
  lines.push('### Read side: requests per second (latency in ms)');
  lines.push('');
  lines.push('| endpoint | conns | limit rps | this service rps | json-server rps | service / limit | service / json-server | limit p99 | service p50 | service p99 | json-server p99 | errors + non-2xx (service) |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const plainReads = reads.filter((r) => !r.compressed);
  for (const r of plainReads) {
    lines.push(
      `| ${r.scenario} | ${r.connections} | ${fmt(r.limit.rps)} | ${fmt(r.ours.rps)} | ${fmt(r.peer.rps)} | ${ratio(r.ours.rps, r.limit.rps)} | ${ratio(r.ours.rps, r.peer.rps)} | ${fmt(r.limit.p99, 1)} | ${fmt(r.ours.p50, 1)} | ${fmt(r.ours.p99, 1)} | ${fmt(r.peer.p99, 1)} | ${r.ours.errors + r.ours.non2xx} |`,
    );
  }
  lines.push('');
  const compressedReads = reads.filter((r) => r.compressed);
  if (compressedReads.length > 0) {
    lines.push(`### Read side, compressed: requests with \`Accept-Encoding: ${ACCEPT_ENCODING}\``);
    lines.push('');
    lines.push(
      'The limit sends the compressed bytes the service sends; json-server compresses each response with gzip. Bytes are per response, headers included, against the same response uncompressed. ' +
        'autocannon decodes every response body as UTF-8 text, and compressed bodies are binary, its slow path: the bare limit server answers about 3.5 times fewer requests a second with them than with text bodies of the same sizes, so these rates are the load generator\'s; compare the columns.',
    );
    lines.push('');
    lines.push('| endpoint | conns | limit rps | this service rps | json-server rps | service / limit | service / json-server | service bytes (uncompressed) | json-server bytes | service p99 | errors + non-2xx (service) |');
    lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of compressedReads) {
      const plain = plainReads.find((p) => p.scenario === r.scenario && p.connections === r.connections);
      lines.push(
        `| ${r.scenario} | ${r.connections} | ${fmt(r.limit.rps)} | ${fmt(r.ours.rps)} | ${fmt(r.peer.rps)} | ${ratio(r.ours.rps, r.limit.rps)} | ${ratio(r.ours.rps, r.peer.rps)} | ${fmt(r.ours.bytes)} (${plain ? fmt(plain.ours.bytes) : 'n/a'}) | ${fmt(r.peer.bytes)} | ${fmt(r.ours.p99, 1)} | ${r.ours.errors + r.ours.non2xx} |`,
      );
    }
    lines.push('');
  }
  lines.push('### Write side: ingest with projection, rebuild, re-import, memory');
  lines.push('');
  lines.push('| catalog | listings | events | ingest + projection | of which reading / appending / projecting | events/s | full rebuild | re-import, unchanged | Redis memory | per listing |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const w of writes) {
    lines.push(
      `| ${w.catalog} | ${fmt(w.listings)} | ${fmt(w.events)} | ${fmt(w.ingestMs / 1000, 1)} s | ${w.phasesMs.map((ms) => fmt(ms / 1000, 1)).join(' / ')} s | ${fmt(w.events / (w.ingestMs / 1000))} | ${fmt(w.rebuildMs / 1000, 1)} s | ${fmt(w.reimportMs / 1000, 1)} s | ${fmt(w.memoryBytes / 1048576, 1)} MB | ${fmt(w.memoryBytes / w.listings / 1024, 1)} KB |`,
    );
  }
  lines.push('');
  lines.push('### Growth: search as the catalog grows (read cache off: every request runs the query)');
  lines.push('');
  lines.push(
    'One client measures the latency of a query; 10 connections its throughput (their latency includes queueing). ' +
      'The mix is the 20 searches of the read side; the long tail is 240 distinct queries (`lib/long-tail.ts`), each asked once per pass. ' +
      'Ready: from the start of a serving process to `/readyz` answering 200 (its search index loaded from the event log).',
  );
  lines.push('');
  lines.push('| listings | ready s | mix: 1 client p50 ms | p99 ms | mix: 10 conns rps | p99 ms | long tail: 1 client p50 ms | p99 ms | long tail: 10 conns rps | p50 ms | p99 ms | errors + non-2xx |');
  lines.push('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const g of growth) {
    const errors = [g.single, g.search, g.longTailSingle, g.longTail].reduce((n, r) => n + r.errors + r.non2xx, 0);
    lines.push(
      `| ${fmt(g.listings)} | ${fmt(g.readyMs / 1000, 1)} | ${fmt(g.single.p50, 1)} | ${fmt(g.single.p99, 1)} | ${fmt(g.search.rps)} | ${fmt(g.search.p99, 1)} | ${fmt(g.longTailSingle.p50, 1)} | ${fmt(g.longTailSingle.p99, 1)} | ${fmt(g.longTail.rps)} | ${fmt(g.longTail.p50, 1)} | ${fmt(g.longTail.p99, 1)} | ${errors} |`,
    );
  }
  lines.push('');
  if (scaling) {
    lines.push(`### Scaling: the long tail over ${fmt(scaling.listings)} listings on one serving process and on two (read cache off, 10 connections in all)`);
    lines.push('');
    lines.push('| serving processes | rps | p50 ms | p99 ms | errors + non-2xx |');
    lines.push('|---:|---:|---:|---:|---:|');
    for (const [n, r] of [[1, scaling.one], [2, scaling.two]] as const) {
      lines.push(`| ${n} | ${fmt(r.rps)} | ${fmt(r.p50, 1)} | ${fmt(r.p99, 1)} | ${r.errors + r.non2xx} |`);
    }
    lines.push('');
  }
  lines.push('### Targets');
  lines.push('');
  const at = (scenario: string, connections: number) => plainReads.find((r) => r.scenario === scenario && r.connections === connections);
  const check = (ok: boolean, text: string) => lines.push(`- ${ok ? 'met' : '**not met**'}: ${text}`);
  const s100 = at('search', 100);
  if (s100) {
    check(s100.ours.rps >= 0.5 * s100.limit.rps, `search >= 0.5 x the limit at 100 connections (${ratio(s100.ours.rps, s100.limit.rps)})`);
    check(s100.ours.p99 < 10, `search p99 < 10 ms at 100 connections on 127 listings (${fmt(s100.ours.p99, 1)} ms)`);
  }
  const d100 = at('detail', 100);
  if (d100) check(d100.ours.rps >= 0.7 * d100.limit.rps, `detail >= 0.7 x the limit at 100 connections (${ratio(d100.ours.rps, d100.limit.rps)})`);
  for (const r of reads) {
    if (r.ours.rps < 3 * r.peer.rps) {
      check(false, `${r.scenario}${r.compressed ? ', compressed,' : ''} at ${r.connections} connection(s) >= 3 x json-server (${ratio(r.ours.rps, r.peer.rps)})`);
    }
  }
  if (reads.every((r) => r.ours.rps >= 3 * r.peer.rps)) check(true, 'every read endpoint >= 3 x json-server at every concurrency, compressed or not');
  const errors =
    reads.reduce((n, r) => n + r.ours.errors + r.ours.non2xx, 0) +
    growth.reduce((n, g) => n + [g.single, g.search, g.longTailSingle, g.longTail].reduce((m, r) => m + r.errors + r.non2xx, 0), 0);
  check(errors === 0, `no errors and no non-2xx responses under load (${errors})`);
  const big = writes.find((w) => w.listings >= 100_000);
  if (big) {
    check(big.events / (big.ingestMs / 1000) >= 10_000, `100,000 listings: ingest with projection >= 10,000 events/s (${fmt(big.events / (big.ingestMs / 1000))})`);
    check(big.rebuildMs < 60_000, `100,000 listings: rebuild < 60 s (${fmt(big.rebuildMs / 1000, 1)} s)`);
  }
  const tenThousand = growth.find((g) => g.listings >= 10_000 && g.listings < 100_000);
  if (tenThousand) {
    check(
      tenThousand.longTail.rps >= 1000 && tenThousand.longTail.p99 < 30,
      `10,000 listings, read cache off: the long tail at 10 connections >= 1,000 searches/s with p99 < 30 ms (${fmt(tenThousand.longTail.rps)}/s, p99 ${fmt(tenThousand.longTail.p99, 1)} ms)`,
    );
  }
  const bigGrowth = growth.find((g) => g.listings >= 100_000);
  if (bigGrowth) {
    check(
      bigGrowth.single.p50 < 10 && bigGrowth.longTailSingle.p50 < 10,
      `100,000 listings: search p50 < 10 ms, one client (the mix ${fmt(bigGrowth.single.p50, 1)} ms, the long tail ${fmt(bigGrowth.longTailSingle.p50, 1)} ms)`,
    );
  }
  if (scaling) {
    check(
      scaling.two.rps > scaling.one.rps,
      `uncached search capacity grows with serving processes (two: ${ratio(scaling.two.rps, scaling.one.rps)} of one, on ${machine.cores} cores shared with the load generator)`,
    );
  }
  return lines.join('\n');
}

function writeReadme(report: string): void {
  const file = join('bench', 'README.md');
  const text = readFileSync(file, 'utf8');
  const start = '<!-- results:start -->';
  const end = '<!-- results:end -->';
  const before = text.slice(0, text.indexOf(start) + start.length);
  const after = text.slice(text.indexOf(end));
  writeFileSync(file, `${before}\n${report}\n${after}`);
  log(`wrote the results into ${file}`);
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
