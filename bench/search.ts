import { Redis } from 'ioredis';
import { dropNamespace, measureIngest, syntheticFolder } from './lib/catalogs';
import { load } from './lib/load';
import { startRedis, startService, stop } from './lib/processes';
import { longTailPaths } from './lib/long-tail';
import { searchPaths } from './lib/scenarios';

/**
 * `npm run bench:search`: search throughput and latency as the catalog grows, with the read cache off: the
 * search mix of lib/scenarios.ts at 1, 10 and 100 connections, and the long tail of lib/long-tail.ts (240
 * distinct queries, each asked once a pass) at 1 and 10 connections, where the search targets are set; over
 * the 127 real listings, then synthetic catalogs (lib/synthetic-catalog.ts) of 10,000 and 100,000 listings
 * plus the real ones.
 * Options: --sizes=10000,100000 --seconds=5
 */
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const SIZES = [0, ...(args.sizes ?? '10000,100000').split(',').filter(Boolean).map(Number)];
const SECONDS = Number(args.seconds ?? 5);
const log = (line: string) => console.error(`[bench:search] ${line}`);

async function main(): Promise<void> {
  const redis = await startRedis();
  const admin = new Redis(redis.url);
  const rows: string[] = ['| listings | queries | conns | search rps | p50 ms | p99 ms | errors + non-2xx |', '|---:|---|---:|---:|---:|---:|---:|'];
  for (const size of SIZES) {
    const namespace = `search${size}`;
    const env = { REDIS_URL: redis.url, REDIS_NAMESPACE: namespace };
    const paths = size === 0 ? ['fixtures'] : ['fixtures', syntheticFolder(size, log)];
    await measureIngest(admin, env, paths, `${size + 127} listings`, size + 127, log);
    // Read cache off: every request runs the query, so the figures are the engine's.
    const service = await startService({ ...env, PROJECTOR: 'off', READ_CACHE: 'off' });
    const runs = [
      ...[1, 10, 100].map((connections) => ({ queries: 'mix', paths: searchPaths(), connections })),
      ...[1, 10].map((connections) => ({ queries: 'long tail', paths: longTailPaths(), connections })),
    ];
    for (const { queries, paths: requests, connections } of runs) {
      const result = await load(service.url, requests, connections, SECONDS);
      rows.push(`| ${(size + 127).toLocaleString('en')} | ${queries} | ${connections} | ${Math.round(result.rps)} | ${result.p50} | ${result.p99} | ${result.errors + result.non2xx} |`);
      log(rows[rows.length - 1]);
    }
    await stop(service.child);
    await dropNamespace(admin, namespace);
  }
  await admin.quit();
  await stop(redis.child);
  console.log(rows.join('\n'));
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
