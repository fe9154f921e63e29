import type { StoredBody } from '../http/stored-body';
import type { ReadCache } from './read-cache';

/**
 * Whole responses built from the read models (searches, lists, comparisons, error lists, history answers,
 * pages), kept in this process until the read models change. Built by ReadModels, which clears it on
 * every change; injected where a response is built.
 */
export class ResponseCache {
  constructor(
    private readonly cache: ReadCache,
    private readonly ready: () => Promise<void>,
    private readonly checkpoint: () => string | null,
  ) {}

  /**
   * The response under `key`, built by `build` when not kept. `key` must identify the response completely
   * (a canonical URL); `isEmpty` tells the answers that found nothing (kept apart, see ReadCache).
   */
  async response(key: string, build: () => Promise<StoredBody>, isEmpty?: (body: StoredBody) => boolean): Promise<StoredBody> {
    await this.ready();
    return this.cache.response(key, build, isEmpty);
  }

  /** The response kept under `key`, or undefined: nothing is read or built. */
  cachedResponse(key: string): StoredBody | undefined {
    return this.cache.cachedResponse(key);
  }

  /**
   * The position of the log the read models this process serves have applied (null: nothing projected
   * yet). Read it at the start of a `response` build: it moves in the same step that clears the cache, so
   * a response built from it is never kept past a change.
   */
  checkpointNow(): string | null {
    return this.checkpoint();
  }
}
