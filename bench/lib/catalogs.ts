import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { collectFiles } from '../../src/catalog/content/content-files';
import { deleteMatching } from '../../src/redis/delete-matching';
import { runCli } from './processes';
import { generateCatalog, writeCatalog } from '../../test/support/synthetic-catalog';
import { parse } from 'yaml';
import { AppConfig } from '../../src/config/app-config';
import { EventStore } from '../../src/event-store/event-store.service';
import { LISTING_AGGREGATE } from '../../src/listings/write/listing.aggregate';
import { LISTING_PUBLISHED, LISTING_REVISED } from '../../src/listings/write/events/listing-events';
import { parseListing } from '../../src/listings/write/listing.document';
import { RedisConnection } from '../../src/redis/redis-connection';

export interface WriteRow {
  catalog: string;
  listings: number;
  events: number;
  ingestMs: number;
  /** The ingest's own account of its time (its `time:` line): reading and validating, appending, projecting. */
  phasesMs: [number, number, number];
  rebuildMs: number;
  /** The same files ingested again (nothing changed): what an editor waits for after editing a few. */
  reimportMs: number;
  memoryBytes: number;
}

/**
 * The folder of a synthetic catalog of `size` listings, generated once (same seed, same catalog); with
 * `modelsPerListing`, each listing serves that many models (see generateCatalog).
 */
export function syntheticFolder(size: number, log: (line: string) => void, modelsPerListing?: number): string {
  const folder = join('bench', '.data', modelsPerListing ? `synthetic-${size}-models-${modelsPerListing}` : `synthetic-${size}`);
  let count = -1;
  try {
    count = readdirSync(folder).length;
  } catch {
    /* not generated yet */
  }
  if (count !== size) {
    log(`generating ${size} synthetic listings in ${folder}`);
    writeCatalog(generateCatalog(size, 42, undefined, modelsPerListing), folder);
  }
  return folder;
}

/**
 * Ingest with projection (the CLI applies the projections itself: no service is running), a rebuild, then
 * the same files again.
 */
export async function measureIngest(
  admin: Redis,
  env: Record<string, string>,
  paths: string[],
  catalog: string,
  listings: number,
  log: (line: string) => void,
): Promise<WriteRow> {
  const before = await usedMemory(admin);
  // Every file read once first, so that the figures are the import's own work rather than the disk's
  // (reading 100,000 files took 11 s or 29 s on one host, depending on what its page cache still held).
  for (const file of collectFiles(paths).files) readFileSync(file);
  log(`ingesting ${catalog}`);
  const ingest = await runCli(paths, env);
  const phases = /time: reading and validating (\d+) ms, appending (\d+) ms, projecting (\d+) ms/.exec(ingest.stdout);
  if (!phases) throw new Error(`ingest of ${catalog} printed no time line: ${ingest.stdout.slice(-300)}`);
  const events = await admin.xlen(`{${env.REDIS_NAMESPACE}:es}:events`);
  const memoryBytes = (await usedMemory(admin)) - before;
  log(`rebuilding ${catalog}`);
  const rebuild = await runCli(['rebuild'], env);
  const rebuildMs = Number(/in (\d+) ms/.exec(rebuild.stdout)?.[1] ?? rebuild.ms);
  log(`re-importing ${catalog} unchanged`);
  const again = await runCli(paths, env);
  if (!/listings: \d+ unchanged;/.test(again.stdout)) throw new Error(`re-import of ${catalog} was not a no-op: ${again.stdout.slice(-300)}`);
  return { catalog, listings, events, ingestMs: ingest.ms, phasesMs: [Number(phases[1]), Number(phases[2]), Number(phases[3])], rebuildMs, reimportMs: again.ms, memoryBytes };
}

async function usedMemory(admin: Redis): Promise<number> {
  return Number(/used_memory:(\d+)/.exec(await admin.info('memory'))![1]);
}

export async function dropNamespace(admin: Redis, namespace: string): Promise<void> {
  await deleteMatching(admin, `{${namespace}:*`);
}



/**
 * One listing (`slug`, made from the Mistral fixture) with `versions` versions, appended straight to the
 * event store (each a revision of its popularity, with the whole listing in the event as any revision has).
 * Returns a moment after each hundred versions, for asOf.
 */
export async function appendLongHistory(env: Record<string, string>, slug: string, versions: number): Promise<string[]> {
  const connection = new RedisConnection(new AppConfig(env));
  await connection.onModuleInit();
  try {
    const store = new EventStore(connection);
    const document = parseListing(parse(readFileSync('fixtures/listings/mistral.yaml', 'utf8'))).listing!;
    const own = { ...document, slug, name: 'Long History API', aliases: [] };
    const moments: string[] = [];
    await store.append(LISTING_AGGREGATE, slug, 0, [{ type: LISTING_PUBLISHED, data: { document: own } }], 'bench');
    for (let version = 1; version < versions; version += 100) {
      const batch = [];
      for (let v = version; v < Math.min(version + 100, versions); v++) {
        batch.push({ type: LISTING_REVISED, data: { document: { ...own, popularity: v % 100 }, changedFields: ['popularity'], before: { popularity: (v - 1) % 100 } } });
      }
      const stored = await store.append(LISTING_AGGREGATE, slug, version, batch, 'bench');
      moments.push(new Date(Number(stored[0].position.split('-')[0])).toISOString());
    }
    return moments;
  } finally {
    await connection.onApplicationShutdown();
  }
}
