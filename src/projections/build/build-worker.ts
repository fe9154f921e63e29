import { parentPort, workerData } from 'node:worker_threads';
import type { BuilderSettings } from './listing-builder';
import { ListingBuilder } from './listing-builder';

/**
 * A worker thread of BuildPool: one ListingBuilder, driven by messages `{ id, method, args }` and answering
 * `{ id, result }` or `{ id, error }`. Calls run as they come: the pool sends the next share while this
 * one is being built, so its events are read from Redis meanwhile; it waits for what must come first
 * (the catalog before rendering, every write before flushing).
 */
const builder = new ListingBuilder(workerData as BuilderSettings);
const methods = {
  buildShare: builder.buildShare.bind(builder),
  setCatalog: builder.setCatalog.bind(builder),
  render: builder.render.bind(builder),
  flush: builder.flush.bind(builder),
  close: builder.close.bind(builder),
} as Record<string, (...args: unknown[]) => unknown>;

parentPort!.on('message', ({ id, method, args }: { id: number; method: string; args: unknown[] }) => {
  Promise.resolve()
    .then(() => methods[method](...args))
    .then(
      (result) => parentPort!.postMessage({ id, result }),
      (error: Error) => parentPort!.postMessage({ id, error: error?.stack ?? String(error) }),
    );
});
