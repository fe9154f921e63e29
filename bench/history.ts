import { Redis } from 'ioredis';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticFolder } from './lib/catalogs';
import { load } from './lib/load';
import { rss, runCli, startRedis, startService, stop } from './lib/processes';

/**
 * `npm run bench:history`: facts over time at scale. A catalog of 10,000 synthetic listings plus the 127
 * real ones, each revised until it has ten versions (about 101,000 events); then, with the read cache off,
 * one client asking listings' histories and listings as of a moment (p50 target under 20 ms), and the
 * whole-catalog export: how long it takes, how large it is, and how much the serving process's memory
 * grows while it streams (target: less than the export's size). With --asOf, the export asks for the
 * catalog as of a moment after the last round, with one listing revised since: the read models have moved
 * on from that moment, so it comes from the event store.
 * Options: --size=10000 --versions=10 --seconds=5 --asOf
 */
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const SIZE = Number(args.size ?? 10_000);
const VERSIONS = Number(args.versions ?? 10);
const SECONDS = Number(args.seconds ?? 5);
const AS_OF = 'asOf' in args;
const log = (line: string) => console.error(`[bench:history] ${line}`);

const mb = (n: number) => (n / 1024 / 1024).toFixed(1);

/** The collector's spaces in the serving process, from its /metrics (prom-client's default metrics). */
async function heapSpaces(url: string): Promise<{ newTotal: number; oldUsed: number; largeUsed: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (metric: string, space: string) => Number(new RegExp(`^${metric}\\{space="${space}"\\} (\\S+)`, 'm').exec(text)?.[1] ?? 0);
  return {
    newTotal: value('nodejs_heap_space_size_total_bytes', 'new'),
    oldUsed: value('nodejs_heap_space_size_used_bytes', 'old'),
    largeUsed: value('nodejs_heap_space_size_used_bytes', 'large_object'),
  };
}


async function main(): Promise<void> {
  const redis = await startRedis();
  const admin = new Redis(redis.url);
  const env = { REDIS_URL: redis.url, REDIS_NAMESPACE: 'history' };
  const source = syntheticFolder(SIZE, log);
  const folder = join('bench', '.data', `history-${SIZE}`);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const files = readdirSync(source).map((file) => ({ file, listing: JSON.parse(readFileSync(join(source, file), 'utf8')) as Record<string, unknown> }));
  let afterFirstRound = '';
  for (let version = 1; version <= VERSIONS; version++) {
    // Each round revises every listing (its pricing names the round): version n of each, n rounds in all.
    for (const { file, listing } of files) writeFileSync(join(folder, file), JSON.stringify(version === 1 ? listing : { ...listing, pricing: `${listing.pricing} (round ${version})` }));
    const run = await runCli(version === 1 ? ['fixtures', folder] : [folder], env);
    log(`round ${version}: ${run.ms} ms`);
    // The moment asOf asks for: every listing published, none revised yet.
    if (version === 1) afterFirstRound = new Date().toISOString();
  }
  let exportPath = '/api/v1/export';
  if (AS_OF) {
    // The moment the export asks for: every round ingested, and one listing revised after it.
    const moment = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const one = join('bench', '.data', `history-${SIZE}-one`);
    rmSync(one, { recursive: true, force: true });
    mkdirSync(one, { recursive: true });
    const { file, listing } = files[0];
    writeFileSync(join(one, file), JSON.stringify({ ...listing, pricing: `${listing.pricing} (after the moment)` }));
    await runCli([one], env);
    exportPath = `/api/v1/export?asOf=${moment}`;
    log(`export as of ${moment}, one listing revised since`);
  }
  const events = await admin.xlen('{history:es}:events');
  log(`${events} events`);
  const service = await startService({ ...env, PROJECTOR: 'off', READ_CACHE: 'off' });
  const slugs = files.map(({ listing }) => listing.slug as string).sort(() => Math.random() - 0.5).slice(0, 500);
  const midway = afterFirstRound;
  const rows = ['| read | listings | events | conns | rps | p50 ms | p99 ms | errors + non-2xx |', '|---|---:|---:|---:|---:|---:|---:|---:|'];
  for (const [name, paths] of [
    ['history', slugs.map((slug) => `/api/v1/tools/${slug}/history`)],
    ['asOf', slugs.map((slug) => `/api/v1/tools/${slug}?asOf=${midway}`)],
    ['detail (for scale)', slugs.map((slug) => `/api/v1/tools/${slug}`)],
  ] as const) {
    const result = await load(service.url, [...paths], 1, SECONDS);
    rows.push(`| ${name} | ${(SIZE + 127).toLocaleString('en')} | ${events.toLocaleString('en')} | 1 | ${Math.round(result.rps)} | ${result.p50} | ${result.p99} | ${result.errors + result.non2xx} |`);
    log(rows[rows.length - 1]);
  }
  // The export, twice in a row: its size, its time, the serving process's resident memory before and at
  // its peak, and the collector's spaces at their peak (from /metrics), to tell what the export holds from
  // the heap the collector keeps: the young generation's room and old space not yet collected.
  const pid = service.child.pid!;
  const exportRows: string[] = [];
  for (const run of ['first', 'second']) {
    const before = rss(pid);
    const spacesBefore = await heapSpaces(service.url);
    let peak = before;
    const peakSpaces = { ...spacesBefore };
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, rss(pid));
        const now = await heapSpaces(service.url);
        for (const key of Object.keys(now) as (keyof typeof now)[]) peakSpaces[key] = Math.max(peakSpaces[key], now[key]);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const started = Date.now();
    const response = await fetch(`${service.url}${exportPath}`);
    let bytes = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
    const ms = Date.now() - started;
    sampling = false;
    await sampler;
    const row =
      `| export${AS_OF ? ' asOf' : ''} (${run}) | ${(SIZE + 127).toLocaleString('en')} listings | ${mb(bytes)} MB in ${ms} ms | resident ${mb(before)} MB before, ${mb(peak)} MB at most: grew ${mb(peak - before)} MB ` +
      `| young generation ${mb(spacesBefore.newTotal)} → ${mb(peakSpaces.newTotal)} MB; old space used ${mb(spacesBefore.oldUsed)} → ${mb(peakSpaces.oldUsed)} MB; large objects ${mb(spacesBefore.largeUsed)} → ${mb(peakSpaces.largeUsed)} MB |`;
    log(row);
    exportRows.push(row);
  }
  await stop(service.child);
  await admin.quit();
  await stop(redis.child);
  console.log([...rows, '', '| export | catalog | size and time | serving process | collector\'s spaces at their peak |', '|---|---|---|---|---|', ...exportRows].join('\n'));
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
