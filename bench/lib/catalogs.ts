import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { collectFiles } from '../../src/catalog/content/content-files';
import { deleteMatching } from '../../src/redis/delete-matching';
import { runCli } from './processes';
import { generateCatalog, writeCatalog } from '../../test/support/synthetic-catalog';

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

/** The folder of a synthetic catalog of `size` listings, generated once (same seed, same catalog). */
export function syntheticFolder(size: number, log: (line: string) => void): string {
  const folder = join('bench', '.data', `synthetic-${size}`);
  let count = -1;
  try {
    count = readdirSync(folder).length;
  } catch {
    /* not generated yet */
  }
  if (count !== size) {
    log(`generating ${size} synthetic listings in ${folder}`);
    writeCatalog(generateCatalog(size), folder);
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

