import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Categories } from '../categories/categories';
import { AppConfig } from '../config/app-config';
import { EventStore } from '../event-store/event-store.service';
import { RedisConnection, type RedisClient } from '../redis/redis-connection';
import type { GenerationKeys } from '../redis/redis-keys';
import { splitEtag, StoredBody } from '../http/stored-body';
import { LiveSearchIndex } from '../search/live-search-index';
import { ProjectionState } from './projection-state';
import { ReadCache } from './read-cache';
import { ReadModelWatcher } from './read-model-watcher';
import { ResponseCache } from './response-cache';

/**
 * The query side's reads of the live generation in Redis (details, comparison rows, categories, the error
 * reference) with this process's read cache in front; and what keeps this process in step with the read
 * models. It builds the three other parts the query side reads by (each its own provider, see
 * ReadModelsModule): the ResponseCache, the LiveSearchIndex and the ProjectionState.
 *
 * The read models change only when the projector commits a batch or a rebuild switches generations; the
 * ReadModelWatcher tells of each change (and looks every READ_POLL_MS in case it missed one). When the
 * read models moved, the search index is brought up to the new checkpoint and the cache is cleared.
 */
@Injectable()
export class ReadModels implements OnApplicationBootstrap {
  private generation: number | null = null;
  private checkpoint: string | null = null;
  private started: Promise<void> | null = null;
  readonly cache: ReadCache;
  readonly responses: ResponseCache;
  readonly search: LiveSearchIndex;
  readonly state: ProjectionState;
  private readonly movedListeners: Array<() => void> = [];

  constructor(
    private readonly redis: RedisConnection,
    private readonly config: AppConfig,
    private readonly watcher: ReadModelWatcher,
    store: EventStore,
    categories: Categories,
  ) {
    this.cache = new ReadCache({ enabled: config.readCache, responses: config.readCacheResponses, bytes: config.readCacheMb * 1024 * 1024 });
    this.responses = new ResponseCache(this.cache, () => this.ready(), () => this.checkpoint);
    this.search = new LiveSearchIndex(store, categories, () => this.ready(), () => this.checkpoint);
    this.state = new ProjectionState(watcher, () => this.search.isLoaded);
  }

  /** Keys of the live generation, or null when nothing has been projected yet. */
  async keys(): Promise<GenerationKeys | null> {
    await this.ready();
    return this.generation === null ? null : this.redis.keys.generation(this.generation);
  }

  /** The body of GET /tools/{slug}, or null when there is no such listing. */
  async detail(slug: string): Promise<StoredBody | null> {
    await this.ready();
    return this.cache.detail(slug, async () => {
      const keys = await this.keys();
      const stored = keys && (await this.redis.client.hget(keys.details, slug));
      return stored ? splitEtag(stored) : null;
    });
  }

  /** The detail bodies of many listings at once (null for each not in the directory), not kept in the cache. */
  async details(slugs: string[]): Promise<Array<StoredBody | null>> {
    const keys = await this.keys();
    if (!keys || slugs.length === 0) return slugs.map(() => null);
    const stored = await this.redis.client.hmget(keys.details, ...slugs);
    return stored.map((value) => (value ? splitEtag(value) : null));
  }

  /**
   * Reads what `queue` asks of the live generation in one transaction with its checkpoint, so the replies
   * are the read models as of that checkpoint; null unless it is `position` (they moved on, or were replaced).
   */
  async readAt(position: string, queue: (tx: ReturnType<RedisClient['multi']>, keys: GenerationKeys) => void): Promise<unknown[] | null> {
    const keys = await this.keys();
    if (!keys) return null;
    const tx = this.redis.client.multi().get(keys.checkpoint);
    queue(tx, keys);
    const replies = await tx.exec();
    if (!replies || replies.some(([error]) => error) || replies[0][1] !== position) return null;
    return replies.slice(1).map(([, value]) => value);
  }

  /** The body of GET /tools/categories, or null before anything is projected. */
  async categories(): Promise<StoredBody | null> {
    const keys = await this.keys();
    if (!keys) return null;
    return this.cache.whole('categories', async () => {
      const stored = await this.redis.client.get(keys.categoriesBody);
      return stored ? splitEtag(stored) : null;
    });
  }

  /** Comparison rows of the given slugs, null for each one not in the directory. */
  async comparisons(slugs: string[]): Promise<Array<string | null>> {
    await this.ready();
    return this.cache.rowsOf(slugs, async (missing) => {
      const keys = await this.keys();
      return keys ? this.redis.client.hmget(keys.comparisons, ...missing) : missing.map(() => null);
    });
  }

  /** Every published error-reference entry, as served (JSON). */
  async errorEntries(): Promise<string[]> {
    const keys = await this.keys();
    if (!keys) return [];
    return this.cache.whole('errors', () => this.redis.client.hvals(keys.errorEntries));
  }

  /** Calls `listener` once, the next time the read models this process serves move (a batch, a switch). */
  onceMoved(listener: () => void): void {
    this.movedListeners.push(listener);
  }

  /** Starts following the read models with the application, so /readyz knows before the first request. */
  onApplicationBootstrap(): void {
    this.ready().catch((error: Error) => this.watcher.failed(error));
  }

  /** Starts once; a failed start (Redis down) is retried by the next request instead of kept. */
  private ready(): Promise<void> {
    this.started ??= this.watcher.start((generation, checkpoint, force) => this.follow(generation, checkpoint, force)).catch((error) => {
      this.started = null;
      throw error;
    });
    return this.started;
  }

  /**
   * What the watcher found: when the read models moved (or when told to), brings the search index up to
   * them and clears the cache.
   */
  private async follow(generation: number | null, checkpoint: string | null, force: boolean): Promise<void> {
    const moved = generation !== this.generation || checkpoint !== this.checkpoint;
    // Nothing moved and the index is there: done. A catch-up that failed (Redis went away as a change
    // arrived) left the index behind the checkpoint already recorded: the next look tries it again.
    if (!force && this.config.readCache && !moved && this.search.hasReached(checkpoint)) return;
    this.generation = generation;
    this.checkpoint = checkpoint;
    this.cache.clear();
    for (const listener of this.movedListeners.splice(0)) listener();
    const caughtUp = this.search.catchUp(checkpoint).then(() => {
      // Search responses built while the index was catching up showed the old catalog.
      this.cache.clear();
    });
    // The first load (seconds for a large catalog) goes on in the background: details need no index.
    if (this.search.isLoaded) await caughtUp;
    else caughtUp.catch((error: Error) => this.watcher.failed(error));
  }
}
