import { parentPort, workerData } from 'node:worker_threads';
import type { BuilderSettings } from './listing-builder';
import { ListingBuilder } from './listing-builder';

/**
 * A worker thread of BuildPool: one ListingBuilder, driven by messages `{ id, method, args }`, answering
 * `{ id, result }` or `{ id, error }`. The encoded commands it returns are transferred, not copied.
 */
const builder = new ListingBuilder(workerData as BuilderSettings);
const methods = {
  indexEvents: builder.indexEvents.bind(builder),
  setCatalog: builder.setCatalog.bind(builder),
  render: builder.render.bind(builder),
} as Record<string, (...args: unknown[]) => unknown>;

parentPort!.on('message', ({ id, method, args }: { id: number; method: string; args: unknown[] }) => {
  try {
    const result = methods[method](...args) as { writes?: { bytes: Uint8Array } } | undefined;
    const transfer = result?.writes ? [result.writes.bytes.buffer as ArrayBuffer] : [];
    parentPort!.postMessage({ id, result }, transfer);
  } catch (error) {
    parentPort!.postMessage({ id, error: (error as Error).stack ?? String(error) });
  }
});
