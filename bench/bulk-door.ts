import { Redis } from 'ioredis';
import { dropNamespace, measureIngest, syntheticFolder, WriteRow } from './lib/catalogs';
import { startRedis, stop } from './lib/processes';

/**
 * `npm run bench:bulk`: what the one piece kept for large imports (src/catalog/bulk/: files read and validated on
 * worker threads) gains. Each synthetic catalog is imported, rebuilt and re-imported unchanged with one
 * reading thread (IMPORT_READ_THREADS=1: the everyday path) and with the default threads.
 * Options: --sizes=10000,100000
 */
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const SIZES = (args.sizes ?? '10000,100000').split(',').filter(Boolean).map(Number);
const log = (line: string) => console.error(`[bench:bulk] ${line}`);

async function main(): Promise<void> {
  const redis = await startRedis();
  const admin = new Redis(redis.url);
  const rows = [
    '| listings | reading threads | ingest + projection | of which reading / appending / projecting | re-import, unchanged |',
    '|---:|---|---:|---:|---:|',
  ];
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  for (const size of SIZES) {
    const folder = syntheticFolder(size, log);
    for (const [threads, workers] of [['1 (main thread)', '1'], ['default (the cores, at most 4)', '']] as const) {
      const namespace = `bulk${size}`;
      const env: Record<string, string> = { REDIS_URL: redis.url, REDIS_NAMESPACE: namespace };
      if (workers) env.IMPORT_READ_THREADS = workers;
      const row: WriteRow = await measureIngest(admin, env, ['fixtures', folder], `${size} + fixtures`, size + 127, log);
      rows.push(`| ${(size + 127).toLocaleString('en')} | ${threads} | ${s(row.ingestMs)} | ${row.phasesMs.map((ms) => (ms / 1000).toFixed(1)).join(' / ')} s | ${s(row.reimportMs)} |`);
      log(rows[rows.length - 1]);
      await dropNamespace(admin, namespace);
    }
  }
  await admin.quit();
  await stop(redis.child);
  console.log(rows.join('\n'));
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
