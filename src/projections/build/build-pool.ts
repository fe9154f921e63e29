import { Worker } from 'node:worker_threads';
import { workerScript } from '../../workers/worker-script';
import type { ErrorEntryDocument } from '../../error-reference/error-entry.document';
import type { ListingCard } from '../catalog-state';
import { BuilderSettings, BuiltShare, ListingBuilder, RenderedShare } from './listing-builder';

/** One share of the listings: a worker thread, or the builder itself when the pool has no threads. */
interface Share {
  call<T>(method: keyof ListingBuilder, args: unknown[]): Promise<T>;
  /** Tasks sent and not answered yet. */
  pending: number;
  close(): Promise<void>;
}

/**
 * Builders of a generation (see ListingBuilder) on worker threads, so that reading events, tokenising,
 * rendering and encoding run on every core, each builder with its own Redis connection, while the
 * projector's thread keeps the working memory. Each listing is indexed by one builder, which keeps it and
 * later renders it. With no threads (`size` 0) one builder runs in this thread.
 */
export class BuildPool {
  /** slug -> the share that indexed it (and so renders it). */
  private readonly owners = new Map<string, number>();

  private constructor(private readonly shares: Share[]) {}

  static start(settings: BuilderSettings, threads: number): BuildPool {
    if (threads <= 0) return new BuildPool([inThreadShare(new ListingBuilder(settings))]);
    return new BuildPool(Array.from({ length: threads }, () => workerShare(settings)));
  }

  get size(): number {
    return this.shares.length;
  }

  /** Builds the listings of these aggregate streams on the least busy builder. */
  async buildShare(streams: string[], upTo: string): Promise<BuiltShare> {
    let chosen = 0;
    for (let i = 1; i < this.shares.length; i++) if (this.shares[i].pending < this.shares[chosen].pending) chosen = i;
    const chunk = await this.shares[chosen].call<BuiltShare>('buildShare', [streams, upTo]);
    for (const card of chunk.cards) this.owners.set(card.slug, chosen);
    for (const slug of chunk.withdrawn) this.owners.delete(slug);
    return chunk;
  }

  /** Gives every builder the whole catalog, for rendering. */
  async setCatalog(cards: ListingCard[], errors: Map<string, ErrorEntryDocument>): Promise<void> {
    await Promise.all(this.shares.map((share) => share.call('setCatalog', [cards, [...errors.values()], [...errors.keys()]])));
  }

  /**
   * Renders listings in chunks of `chunkSize`, each on the builder that indexed it, and hands each chunk's
   * result to `onRendered`. Each builder has at most two chunks in hand (one rendering while the other is
   * written): sent all at once, every chunk was rendered long before Redis could take it, and the waiting
   * bodies filled the heap (1.6 GB a thread at 100,000 listings) and its collector.
   */
  async render(slugs: string[], chunkSize: number, onRendered: (rendered: RenderedShare) => void): Promise<void> {
    const byShare = this.shares.map(() => [] as string[]);
    for (const slug of slugs) {
      const owner = this.owners.get(slug);
      if (owner === undefined) throw new Error(`listing ${slug} was not indexed in this build`);
      byShare[owner].push(slug);
    }
    await Promise.all(
      this.shares.map(async (share, i) => {
        const mine = byShare[i];
        const inHand: Array<Promise<RenderedShare>> = [];
        for (let start = 0; start < mine.length; start += chunkSize) {
          if (inHand.length >= 2) onRendered(await inHand.shift()!);
          const chunk = share.call<RenderedShare>('render', [mine.slice(start, start + chunkSize)]);
          // Awaited in order below; after a failure the rest are not, and must not go unhandled.
          chunk.catch(() => undefined);
          inHand.push(chunk);
        }
        for (const chunk of inHand) onRendered(await chunk);
      }),
    );
  }

  /** Waits until Redis has confirmed every write of every builder. */
  async flush(): Promise<void> {
    await Promise.all(this.shares.map((share) => share.call('flush', [])));
  }

  /** Closes the builders' connections and stops their threads. */
  async close(): Promise<void> {
    await Promise.all(this.shares.map((share) => share.call('close', []).catch(() => undefined)));
    await Promise.all(this.shares.map((share) => share.close()));
  }
}

function inThreadShare(builder: ListingBuilder): Share {
  return {
    pending: 0,
    call<T>(method: keyof ListingBuilder, args: unknown[]): Promise<T> {
      return Promise.resolve((builder[method] as (...a: unknown[]) => T)(...args));
    },
    close: () => Promise.resolve(),
  };
}

function workerShare(settings: BuilderSettings): Share {
  const worker = new Worker(workerScript(__dirname, 'build-worker'), { workerData: settings });
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let failure: Error | null = null;
  const failAll = (error: Error) => {
    failure ??= error;
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  worker.on('message', ({ id, result, error }: { id: number; result?: unknown; error?: string }) => {
    const task = waiting.get(id);
    if (!task) return;
    waiting.delete(id);
    share.pending--;
    if (error !== undefined) task.reject(new Error(`build worker: ${error}`));
    else task.resolve(result);
  });
  worker.on('error', (error) => failAll(error));
  worker.on('exit', (code) => failAll(new Error(`build worker exited with code ${code}`)));
  const share: Share = {
    pending: 0,
    call<T>(method: keyof ListingBuilder, args: unknown[]): Promise<T> {
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      share.pending++;
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
        worker.postMessage({ id, method, args });
      });
    },
    async close() {
      failure ??= new Error('build pool closed');
      await worker.terminate();
    },
  };
  return share;
}
