import { Redis } from 'ioredis';
import { dropNamespace, measureIngest, syntheticFolder } from './lib/catalogs';
import { load } from './lib/load';
import { startRedis, startService, stop, waitUntilSettled } from './lib/processes';

/**
 * `npm run bench:models`: the model catalog (GET /api/v1/models) over a synthetic 10,000 listings that
 * serve 10 models each (100,000 models, lib/catalogs.ts), with the read cache off, so every request runs
 * its query: two filters and a price sort, each path distinct (the figure is distinct queries a second);
 * then words (q) by relevance; at 1 and 10 connections.
 * Options: --listings=10000 --models=10 --seconds=5
 */
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const LISTINGS = Number(args.listings ?? 10_000);
const PER_LISTING = Number(args.models ?? 10);
const SECONDS = Number(args.seconds ?? 5);
const log = (line: string) => console.error(`[bench:models] ${line}`);

const UNITS = ['1m-input-tokens', '1m-output-tokens'];

/** 1,200 distinct requests, each with two filters and sort=price in a unit. */
export function filteredPricePaths(): string[] {
  const paths: string[] = [];
  for (let i = 0; i < 300; i++) {
    const unit = UNITS[i % 2];
    const minContext = 8_000 + i * 1_000;
    const maxPrice = (0.05 + i * 0.05).toFixed(2);
    paths.push(`/api/v1/models?input=image&minContext=${minContext}&sort=price&priceUnit=${unit}`);
    paths.push(`/api/v1/models?tools=true&maxPrice=${maxPrice}&sort=price&priceUnit=${unit}`);
    paths.push(`/api/v1/models?openWeights=true&minContext=${minContext}&sort=price&priceUnit=${unit}`);
    paths.push(`/api/v1/models?kind=language&maxPrice=${maxPrice}&sort=price&priceUnit=${unit}&limit=${10 + (i % 40)}`);
  }
  return paths;
}

/** Words as agents type them: model names, families, prefixes and typos, each with a filter. */
export function wordPaths(): string[] {
  const words = ['gpt', 'gpt-oss', 'llama', 'qwen', 'deepseek', 'mistral', 'claude', 'gemini', 'embedding', 'whisper', 'flux', 'kimi', 'glm', 'lama', 'gemni', 'deepsek', 'qwen3', 'sonnet', 'mini', 'turbo'];
  const filters = ['', 'input=image', 'tools=true', 'kind=embedding', 'minContext=128k'];
  return words.flatMap((q) => filters.map((f) => `/api/v1/models?q=${encodeURIComponent(q)}${f ? `&${f}` : ''}`));
}

async function main(): Promise<void> {
  const redis = await startRedis();
  const admin = new Redis(redis.url);
  const namespace = 'models';
  const env = { REDIS_URL: redis.url, REDIS_NAMESPACE: namespace };
  const folder = syntheticFolder(LISTINGS, log, PER_LISTING);
  const ingest = await measureIngest(admin, env, ['fixtures', folder], `${LISTINGS} listings × ${PER_LISTING} models`, LISTINGS + 127, log);
  const service = await startService({ ...env, PROJECTOR: 'off', READ_CACHE: 'off' });
  const settledMs = await waitUntilSettled(service.url);
  const all = (await (await fetch(`${service.url}/api/v1/models?limit=1&includeRetired=true`)).json()) as { total: number };
  // The first query builds the catalog's orders; a warm-up pass, so the figures are the steady state.
  await load(service.url, filteredPricePaths(), 1, 2);
  const rows = [
    `${LISTINGS.toLocaleString('en')} synthetic listings + the fixtures: ${all.total.toLocaleString('en')} models; ingest ${(ingest.ingestMs / 1000).toFixed(1)} s, ready ${(service.readyMs / 1000).toFixed(1)} s, settled ${(settledMs / 1000).toFixed(1)} s later.`,
    '',
    '| requests | distinct paths | conns | rps | p50 ms | p99 ms | errors + non-2xx |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const [name, paths] of [['two filters, sort=price', filteredPricePaths()], ['q, relevance', wordPaths()]] as const) {
    for (const connections of [1, 10]) {
      const result = await load(service.url, paths, connections, SECONDS);
      rows.push(`| ${name} | ${paths.length} | ${connections} | ${Math.round(result.rps)} | ${result.p50} | ${result.p99} | ${result.errors + result.non2xx} |`);
      log(rows[rows.length - 1]);
    }
  }
  await stop(service.child);
  await dropNamespace(admin, namespace);
  await admin.quit();
  await stop(redis.child);
  console.log(rows.join('\n'));
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
