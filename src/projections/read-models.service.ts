import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Categories } from '../categories/categories';
import { AppConfig } from '../config/app-config';
import { EventStore } from '../event-store/event-store.service';
import { RedisConnection, type RedisClient } from '../redis/redis-connection';
import type { GenerationKeys } from '../redis/redis-keys';
import { splitEtag, StoredBody } from '../http/stored-body';
import { IndexFollower } from '../search/index-follower';
import type { SearchIndex } from '../search/search-index';
import type { ModelIndex } from '../search/model-index';
import { ReadCache } from './read-cache';
import { ProjectionStatus, ReadModelWatcher } from './read-model-watcher';
import { storeProblem } from './store-watch';

/** What this process knows of the read models (see status()). */
export interface ReadModelsStatus extends ProjectionStatus {
  /** Whether the search index has caught up with the read models at least once. */
  searchReady: boolean;
}

/**
 * The query side's access to the read models: the live generation in Redis (details, comparison rows,
 * categories, the error reference) with this process's read cache in front, and the search index held in
 * memory (see IndexFollower).
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
  private readonly follower: IndexFollower;
  private readonly movedListeners: Array<() => void> = [];

  constructor(
    private readonly redis: RedisConnection,
    private readonly config: AppConfig,
    private readonly watcher: ReadModelWatcher,
    store: EventStore,
    categories: Categories,
  ) {
    this.cache = new ReadCache({ enabled: config.readCache, responses: config.readCacheResponses, bytes: config.readCacheMb * 1024 * 1024 });
    this.follower = new IndexFollower(store, categories);
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

  /** The search index, once it has caught up with the read models (the first start waits for it). */
  async searchIndex(): Promise<SearchIndex> {
    await this.ready();
    if (!this.follower.isLoaded) await this.follower.catchUp(this.checkpoint);
    return this.follower.current;
  }

  /** The model catalog, fed with the search index and as current (see searchIndex). */
  async modelIndex(): Promise<ModelIndex> {
    await this.searchIndex();
    return this.follower.currentModels;
  }

  /**
   * A whole response built from the read models (search results, comparisons, error lists), kept until
   * they change. `key` must identify the response completely (a canonical URL); `isEmpty` tells the
   * answers that found nothing (kept apart, see ReadCache).
   */
  async response(key: string, build: () => Promise<StoredBody>, isEmpty?: (body: StoredBody) => boolean): Promise<StoredBody> {
    await this.ready();
    return this.cache.response(key, build, isEmpty);
  }

  /** A whole response the cache holds (see `response`), or undefined: nothing is read or built. */
  cachedResponse(key: string): StoredBody | undefined {
    return this.cache.cachedResponse(key);
  }

  /**
   * The position of the log the read models this process serves have applied (null: nothing projected
   * yet). Read it at the start of a `response` build: it moves in the same step that clears the cache, so
   * a response built from it is never kept past a change.
   */
  checkpointNow(): string | null {
    return this.checkpoint;
  }

  /** Resolves once the search index has caught up with the read models this process serves now. */
  searchCaughtUp(): Promise<void> {
    return this.follower.catchUp(this.checkpoint);
  }

  /** Calls `listener` once, the next time the read models this process serves move (a batch, a switch). */
  onceMoved(listener: () => void): void {
    this.movedListeners.push(listener);
  }

  /** What this process knows of the read models, without asking Redis (the watcher looks every second). */
  status(): ReadModelsStatus {
    return { ...this.watcher.status(), searchReady: this.follower.isLoaded };
  }

  /** Why this process cannot serve the store Redis holds now (emptied, replaced), or null: read on every request. */
  storeProblem(): string | null {
    return storeProblem(this.watcher.storeStatus());
  }

  /** Calls `listener` whenever the store this process serves is found emptied (RESEED_EMPTY_STORE). */
  onStoreEmptied(listener: () => void): void {
    this.watcher.onStoreEmptied(listener);
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
    if (!force && this.config.readCache && !moved && this.follower.hasReached(checkpoint)) return;
    this.generation = generation;
    this.checkpoint = checkpoint;
    this.cache.clear();
    for (const listener of this.movedListeners.splice(0)) listener();
    const caughtUp = this.follower.catchUp(checkpoint).then(() => {
      // Search responses built while the index was catching up showed the old catalog.
      this.cache.clear();
    });
    // The first load (seconds for a large catalog) goes on in the background: details need no index.
    if (this.follower.isLoaded) await caughtUp;
    else caughtUp.catch((error: Error) => this.watcher.failed(error));
  }
}
