import { appendLongHistory } from './lib/catalogs';
import { runCli, startRedis, startService, stop, waitUntilSettled } from './lib/processes';

/**
 * `npm run bench:long-history`: one listing with many versions (10,000 by default, appended straight to the
 * event store: each a revision of its popularity), then one client asking its history (first page, a page
 * deep in it) and the listing as of moments early, midway and late, with the read cache off. Prints p50
 * and p99 per request kind, after 100 warm-up requests of each (the
 * optimising compiler's work; their median and slowest are printed apart), once the service has settled. The target
 * (issue 46): p99 under 20 ms at 10,000 versions.
 * Options: --versions=10000 --requests=200
 */
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const VERSIONS = Number(args.versions ?? 10_000);
const REQUESTS = Number(args.requests ?? 200);
const WARM_UP = 100;
const log = (line: string) => console.error(`[bench:long-history] ${line}`);

async function main(): Promise<void> {
  const redis = await startRedis();
  const namespace = 'bench-long-history';
  const env = { REDIS_URL: redis.url, REDIS_NAMESPACE: namespace, READ_CACHE: 'off' };
  try {
    // The directory (so the listing has neighbours), then the versions of one listing.
    await runCli(['ingest', 'fixtures'], env);
    const slug = 'long-history';
    const started = Date.now();
    const moments = await appendLongHistory(env, slug, VERSIONS);
    log(`${VERSIONS} versions of ${slug} appended in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const service = await startService(env);
    try {
      log(`service settled ${(await waitUntilSettled(service.url) / 1000).toFixed(1)} s after it was ready`);
      const kinds: Record<string, string[]> = {
        'history, first page': [`/api/v1/tools/${slug}/history`],
        'history, a page deep in it': [`/api/v1/tools/${slug}/history?before=${Math.floor(VERSIONS / 2)}`],
        'asOf, early, midway, late': [moments[1], moments[Math.floor(moments.length / 2)], moments.at(-1)!].map((m) => `/api/v1/tools/${slug}?asOf=${encodeURIComponent(m)}`),
      };
      for (const [kind, paths] of Object.entries(kinds)) {
        // The first requests of a kind compile its code paths: measured apart, so the percentiles are the steady state's.
        const cold: number[] = [];
        for (let i = 0; i < WARM_UP; i++) {
          const t = process.hrtime.bigint();
          await (await fetch(service.url + paths[i % paths.length])).arrayBuffer();
          cold.push(Number(process.hrtime.bigint() - t) / 1e6);
        }
        cold.sort((a, b) => a - b);
        log(`${kind}: ${WARM_UP} warm-up requests (not counted): median ${cold[WARM_UP >> 1].toFixed(1)} ms, slowest ${cold.at(-1)!.toFixed(1)} ms`);
        const times: number[] = [];
        for (let i = 0; i < REQUESTS; i++) {
          const t = process.hrtime.bigint();
          const response = await fetch(service.url + paths[i % paths.length]);
          await response.arrayBuffer();
          if (response.status !== 200) throw new Error(`${paths[i % paths.length]}: ${response.status}`);
          times.push(Number(process.hrtime.bigint() - t) / 1e6);
        }
        times.sort((a, b) => a - b);
        const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
        log(`${kind}: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms (${REQUESTS} requests, one client, read cache off)`);
      }
    } finally {
      await stop(service.child);
    }
  } finally {
    await stop(redis.child);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
