import { mkdirSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { measureIngest } from './lib/catalogs';
import { load, LoadResult } from './lib/load';
import { freePort, httpAnswers, start, startRedis, startService, stop, waitFor } from './lib/processes';

/**
 * `npm run bench:pages`: the pages from the read cache against the limit, a bare Node http server sending
 * the very same bytes (lib/limit-server.ts), in one run on this machine: a listing page and a search
 * results page (English and Chinese), plain and compressed (`Accept-Encoding: br, gzip`: the service sends
 * its stored brotli bytes, the limit the same bytes), throughput at 10 connections and p99 at 100.
 * Targets (issue 32): at least 0.8 times the limit's requests a second at 10 connections, a p99 at most
 * twice the limit's at 100. The machine is shared, so the two servers are measured in turns (limit,
 * service, limit, service...) and each figure is the median of the rounds: a burst of other work then
 * lands on one round of each rather than on one server. Options: --seconds=3 --rounds=3
 */
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const SECONDS = Number(args.seconds ?? 3);
const ROUNDS = Number(args.rounds ?? 3);
const PAGES = [
  ['listing', '/apis/openai'],
  ['listing (zh)', '/zh/apis/openai'],
  ['search results', '/search?q=text+to+speech'],
  ['search results (zh)', '/zh/search?q=%E8%AF%AD%E9%9F%B3%E5%90%88%E6%88%90'],
  // For reference: the JSON API's own reads of the same listing and query, measured the same way.
  ['JSON detail (reference)', '/api/v1/tools/openai'],
  ['JSON search (reference)', '/api/v1/tools/search?q=text+to+speech'],
] as const;
const HTML = 'text/html; charset=utf-8';
const log = (line: string) => console.error(`[bench:pages] ${line}`);

function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; encoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, encoding: response.headers['content-encoding'], body: Buffer.concat(chunks) }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

const ms = (value: number) => value.toFixed(1);

async function main(): Promise<void> {
  const redis = await startRedis();
  const admin = new Redis(redis.url);
  const env = { REDIS_URL: redis.url, REDIS_NAMESPACE: 'pages' };
  await measureIngest(admin, env, ['fixtures'], 'fixtures (127)', 127, log);
  const service = await startService(env);

  // The bytes the service sends for each page (after a first request has put it in the read cache).
  const bodies: Record<string, string> = {};
  const encoded: Record<string, { encoding: string; base64: string }> = {};
  const sizes: Record<string, { plain: number; compressed: number }> = {};
  for (const [, path] of PAGES) {
    const plain = await rawGet(`${service.url}${path}`, {});
    const compressed = await rawGet(`${service.url}${path}`, { 'accept-encoding': 'br, gzip' });
    if (plain.status !== 200 || compressed.status !== 200) throw new Error(`${path}: ${plain.status}, compressed ${compressed.status}`);
    bodies[path] = plain.body.toString();
    if (compressed.encoding) encoded[path] = { encoding: compressed.encoding, base64: compressed.body.toString('base64') };
    sizes[path] = { plain: plain.body.length, compressed: compressed.body.length };
  }
  mkdirSync(join('bench', '.data'), { recursive: true });
  const bodiesFile = join('bench', '.data', 'page-bodies.json');
  const encodedFile = join('bench', '.data', 'page-bodies-encoded.json');
  writeFileSync(bodiesFile, JSON.stringify(bodies));
  writeFileSync(encodedFile, JSON.stringify(encoded));
  const limitPort = await freePort();
  const limit = start(process.execPath, ['dist/bench/lib/limit-server.js', String(limitPort), bodiesFile, encodedFile], { LIMIT_CONTENT_TYPE: HTML });
  const limitUrl = `http://127.0.0.1:${limitPort}`;
  await waitFor(httpAnswers(`${limitUrl}${PAGES[0][1]}`), 10_000, 'the limit server');

  const rows = [
    '| page | bytes (br) | encoding | limit rps @10 | service rps @10 | service / limit | limit p99 @100 | service p99 @100 | p99 ratio | errors + non-2xx |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  /** The limit and the service in turns, ROUNDS times: the median of each. */
  const inTurns = async (path: string, connections: number, headers: Record<string, string>) => {
    const limitRuns: LoadResult[] = [];
    const serviceRuns: LoadResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      limitRuns.push(await load(limitUrl, [path], connections, SECONDS, headers));
      serviceRuns.push(await load(service.url, [path], connections, SECONDS, headers));
    }
    return {
      limitRps: median(limitRuns.map((r) => r.rps)),
      serviceRps: median(serviceRuns.map((r) => r.rps)),

      limitP99: median(limitRuns.map((r) => r.p99)),
      serviceP99: median(serviceRuns.map((r) => r.p99)),
      failed: serviceRuns.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
    };
  };
  for (const [name, path] of PAGES) {
    for (const compressed of [false, true]) {
      const headers: Record<string, string> = compressed ? { 'accept-encoding': 'br, gzip' } : {};
      log(`${name}${compressed ? ', compressed' : ''}`);
      const at10 = await inTurns(path, 10, headers);
      const at100 = await inTurns(path, 100, headers);
      const size = sizes[path];
      rows.push(
        `| ${name} | ${size.plain.toLocaleString('en')} (${size.compressed.toLocaleString('en')}) | ${compressed ? 'br' : 'none'} | ${Math.round(at10.limitRps).toLocaleString('en')} | ${Math.round(at10.serviceRps).toLocaleString('en')} | ${(at10.serviceRps / at10.limitRps).toFixed(2)}x | ${ms(at100.limitP99)} | ${ms(at100.serviceP99)} | ${(at100.serviceP99 / Math.max(at100.limitP99, 1)).toFixed(2)}x | ${at10.failed + at100.failed} |`,
      );
      log(rows[rows.length - 1]);
    }
  }
  await stop(limit);
  await stop(service.child);
  await admin.quit();
  await stop(redis.child);
  console.log(`Measured ${new Date().toISOString().slice(0, 10)}: ${ROUNDS} rounds of ${SECONDS} s per server and figure, medians; load generator, servers and Redis share the machine.\n`);
  console.log(rows.join('\n'));
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
