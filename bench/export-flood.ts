import { request } from 'node:http';
import { syntheticFolder } from './lib/catalogs';
import { rss, runCli, startRedis, startService, stop } from './lib/processes';

/**
 * `npm run bench:export-flood`: 150 whole-catalog exports asked for at once (brotli, as a browser or a
 * crawler asks), first from one client, then from 150 client addresses (127.0.0.2 ...), against a catalog
 * of synthetic listings plus the real ones. Counts the answers (200, 429 per client, 503 per process) and
 * reports the serving process's resident memory before, at its peak and after the flood. The target
 * (issue 46): resident memory after the flood within 300 MB of before.
 * Options: --size=5000 --exports=150
 */
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const SIZE = Number(args.size ?? 5000);
const EXPORTS = Number(args.exports ?? 150);
const log = (line: string) => console.error(`[bench:export-flood] ${line}`);
const mb = (n: number) => (n / 1024 / 1024).toFixed(0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One export, read to its end, from a given local address: its status and size. */
function exportFrom(url: string, localAddress: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve) => {
    const req = request(`${url}/api/v1/export`, { localAddress, headers: { 'accept-encoding': 'br' } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, bytes }));
    });
    req.on('error', () => resolve({ status: 0, bytes: 0 }));
    req.end();
  });
}

async function main(): Promise<void> {
  const redis = await startRedis();
  const env = { REDIS_URL: redis.url, REDIS_NAMESPACE: 'export-flood' };
  try {
    await runCli(['ingest', 'fixtures', syntheticFolder(SIZE, log)], env);
    const service = await startService(env);
    const pid = service.child.pid!;
    try {
      const single = await exportFrom(service.url, '127.0.0.1');
      log(`one export: ${single.status}, ${mb(single.bytes)} MB brotli`);
      const rows = ['| flood | answers | resident before | at most | after |', '|---|---|---:|---:|---:|'];
      for (const [name, address] of [
        ['from one client', () => '127.0.0.1'],
        [`from ${EXPORTS} client addresses`, (i: number) => `127.0.0.${2 + i}`],
      ] as const) {
        await sleep(2000);
        const before = rss(pid);
        let peak = before;
        let sampling = true;
        const sampler = (async () => {
          while (sampling) {
            peak = Math.max(peak, rss(pid));
            await sleep(100);
          }
        })();
        const answers = await Promise.all(Array.from({ length: EXPORTS }, (_, i) => exportFrom(service.url, address(i))));
        sampling = false;
        await sampler;
        // Memory given back: measured once the collector has had a few seconds with nothing to do.
        await sleep(5000);
        const after = rss(pid);
        const counts = new Map<number, number>();
        for (const { status } of answers) counts.set(status, (counts.get(status) ?? 0) + 1);
        const said = [...counts].sort(([a], [b]) => a - b).map(([status, n]) => `${n} × ${status}`).join(', ');
        rows.push(`| ${EXPORTS} at once ${name} | ${said} | ${mb(before)} MB | ${mb(peak)} MB | ${mb(after)} MB (${after - before >= 0 ? '+' : ''}${mb(after - before)}) |`);
        log(rows.at(-1)!);
      }
      console.log(rows.join('\n'));
    } finally {
      await stop(service.child);
    }
  } finally {
    await stop(redis.child);
  }
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
