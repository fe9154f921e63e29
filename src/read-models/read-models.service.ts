import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CategoryCatalog } from '../catalog/category-catalog';
import { AppConfig } from '../config/app-config';
import { EventStore, newStoreIdentity } from '../event-store/event-store.service';
import type { ProjectionFailure } from '../projections/projection-runner.service';
import { ReadModelChanges } from '../projections/read-model-changes';
import { RedisClient, RedisConnection } from '../redis/redis-connection';
import type { GenerationKeys } from '../redis/redis-keys';
import { splitEtag, StoredBody } from '../rendering/stored-body';
import { IndexFollower } from '../search/index-follower';
import type { SearchIndex } from '../search/search-index';
import { ReadCache } from './read-cache';
import { StoreStatus, storeProblem, StoreWatch } from './store-watch';


/** What this process knows of the read models, kept up to date in the background (see status()). */
export interface ReadModelsStatus {
  /** When Redis last answered this process's check (ms since the epoch; 0: never). */
  lastContact: number;
  generation: number | null;
  checkpoint: string | null;
  /** Events of the log the live read models have not applied yet. */
  lag: number;
  /** Whether a projector holds the lease. */
  projectorActive: boolean;
  /** Set while the projector cannot go on. */
  failure: ProjectionFailure | null;
  /** Whether the search index has caught up with the read models at least once. */
  searchReady: boolean;
  /** Whether the read models have been within READY_MAX_LAG of the log since this process started (or its store changed). */
  caughtUp: boolean;
  /** Whether Redis holds the store this process serves. */
  store: StoreStatus;
}

/**
 * The query side's access to the read models: the live generation in Redis (details, comparison rows,
 * categories, the error reference) with this process's read cache in front, and the search index held in
 * memory (see IndexFollower).
 *
 * The read models change only when the projector commits a batch or a rebuild switches generations. Both
 * publish on a channel (and tell this process's readers at once); every reader then brings its search
 * index up to the new checkpoint and clears its cache. It also checks the live generation every second
 * (READ_POLL_MS) in case a message was missed, and keeps what it learns (lag, failures) for /readyz.
 */
@Injectable()
export class ReadModels implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ReadModels.name);
  private generation: number | null = null;
  private checkpoint: string | null = null;
  private refreshCalls = 0;
  private started: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private subscriber: RedisClient | null = null;
  private unsubscribe: (() => void) | null = null;
  private known: Omit<ReadModelsStatus, 'searchReady' | 'caughtUp' | 'store'> = {
    lastContact: 0,
    generation: null,
    checkpoint: null,
    lag: 0,
    projectorActive: false,
    failure: null,
  };
  private lastRefreshError: string | null = null;
  readonly cache: ReadCache;
  private readonly follower: IndexFollower;
  private categoriesBody: StoredBody | null | undefined;
  private errorList: string[] | undefined;
  /** Bumped whenever the read models change: a value read under an older one is not kept. */
  private epoch = 0;
  private readonly store = new StoreWatch((now, before) => this.storeChanged(now, before));
  /** Set once the read models are within READY_MAX_LAG of the log; until then the process is not ready. */
  private caughtUp = false;
  private readonly emptiedListeners: Array<() => void> = [];

  constructor(
    private readonly redis: RedisConnection,
    private readonly config: AppConfig,
    store: EventStore,
    categories: CategoryCatalog,
    private readonly changes: ReadModelChanges,
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

  /** The body of GET /tools/categories, or null before anything is projected. */
  async categories(): Promise<StoredBody | null> {
    await this.ready();
    if (this.categoriesBody !== undefined) return this.categoriesBody;
    const epoch = this.epoch;
    const keys = await this.keys();
    const stored = keys && (await this.redis.client.get(keys.categoriesBody));
    const value = stored ? splitEtag(stored) : null;
    if (epoch === this.epoch && keys && this.config.readCache) this.categoriesBody = value;
    return value;
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
    await this.ready();
    if (this.errorList) return this.errorList;
    const epoch = this.epoch;
    const keys = await this.keys();
    const list = keys ? await this.redis.client.hvals(keys.errorEntries) : [];
    if (epoch === this.epoch && keys && this.config.readCache) this.errorList = list;
    return list;
  }

  /** The search index, once it has caught up with the read models (the first start waits for it). */
  async searchIndex(): Promise<SearchIndex> {
    await this.ready();
    if (!this.follower.isLoaded) await this.follower.catchUp(this.checkpoint);
    return this.follower.current;
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

  /** What this process knows of the read models, without asking Redis (it checks every second). */
  status(): ReadModelsStatus {
    return { ...this.known, searchReady: this.follower.isLoaded, caughtUp: this.caughtUp, store: this.store.status };
  }

  /** Calls `listener` whenever the store this process serves is found emptied (RESEED_EMPTY_STORE). */
  onStoreEmptied(listener: () => void): void {
    this.emptiedListeners.push(listener);
  }

  /** Starts following the read models with the application, so /readyz knows before the first request. */
  onApplicationBootstrap(): void {
    this.ready().catch((error: Error) => this.refreshFailed(error));
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.unsubscribe?.();
  }

  /** Starts once; a failed start (Redis down) is retried by the next request instead of kept. */
  private ready(): Promise<void> {
    this.started ??= this.begin().catch((error) => {
      this.started = null;
      throw error;
    });
    return this.started;
  }

  private async begin(): Promise<void> {
    // A reader's failure is its own: it must not fail the projector that told it.
    this.unsubscribe ??= this.changes.subscribe(() => this.refresh(true).catch((error: Error) => this.refreshFailed(error)));
    this.timer ??= setInterval(() => void this.refresh().catch((error) => this.refreshFailed(error as Error)), this.config.readPollMs);
    this.timer.unref();
    await this.refresh();
    if (this.config.readCache && !this.subscriber) {
      this.subscriber = this.redis.dedicatedClient();
      this.subscriber.on('message', () => void this.refresh(true).catch((error) => this.refreshFailed(error as Error)));
      await this.subscriber.subscribe(this.redis.keys.changesChannel).catch((error) => {
        this.logger.warn(`no change notifications (${(error as Error).message}); checking every ${this.config.readPollMs} ms`);
      });
    }
  }

  /**
   * Reads the live generation, its checkpoint and the projection's state; when the read models moved (or
   * when told to), brings the search index up to them and clears the cache.
   */
  async refresh(force = false): Promise<void> {
    const call = ++this.refreshCalls;
    const keys = this.redis.keys;
    // (Three commands in one round trip, not one: the event store and read-model control live in
    // different Redis Cluster slots.)
    const [[current, failure, holder], identity, length] = await Promise.all([
      this.redis.client.mget(keys.currentGeneration, keys.projectionFailure, keys.projectorLease),
      this.redis.client.get(keys.storeIdentity),
      this.redis.client.xlen(keys.events),
    ]);
    this.store.observe(identity, length);
    // A store written before stores had identities gets one now (any process may: the first wins).
    if (identity === null && length > 0 && !this.store.hasIdentity) await this.redis.client.set(keys.storeIdentity, newStoreIdentity(), 'NX');
    const generation = current === null ? null : Number(current);
    let checkpoint: string | null = null;
    let lag = 0;
    if (generation !== null) {
      const live = keys.generation(generation);
      const [stored, applied] = await this.redis.client.mget(live.checkpoint, live.appliedEvents);
      checkpoint = stored ?? null;
      lag = Math.max(0, length - Number(applied ?? 0));
    }
    if (!this.caughtUp && this.store.status.state === 'serving' && generation !== null && lag <= this.config.readyMaxLag) this.caughtUp = true;
    this.known = {
      lastContact: Date.now(),
      generation,
      checkpoint,
      lag,
      projectorActive: holder !== null,
      failure: failure ? (JSON.parse(failure) as ProjectionFailure) : null,
    };
    this.lastRefreshError = null;
    if (call !== this.refreshCalls && !force) return; // a newer refresh started meanwhile: its answer wins
    const moved = generation !== this.generation || checkpoint !== this.checkpoint;
    // Nothing moved and the index is there: done. A catch-up that failed (Redis went away as a change
    // arrived) left the index behind the checkpoint already recorded: the next check tries it again.
    if (!force && this.config.readCache && !moved && this.follower.hasReached(checkpoint)) return;
    this.generation = generation;
    this.checkpoint = checkpoint;
    this.forget();
    const caughtUp = this.follower.catchUp(checkpoint).then(() => {
      // Search responses built while the index was catching up showed the old catalog.
      this.forget();
    });
    // The first load (seconds for a large catalog) goes on in the background: details need no index.
    if (this.follower.isLoaded) await caughtUp;
    else caughtUp.catch((error: Error) => this.refreshFailed(error));
  }

  /** Says what changed, and what to do; a changed store is caught up with again before the process is ready. */
  private storeChanged(now: StoreStatus, before: StoreStatus): void {
    if (before.begun === null) return;
    this.caughtUp = false;
    const problem = storeProblem(now);
    if (problem) this.logger.warn(problem);
    else if (before.state === 'emptied' && now.begun !== before.begun) this.logger.log(`the emptied store was seeded again (begun ${now.begun}): serving it once caught up`);
    else this.logger.log('Redis holds the store this process serves again: serving it once caught up');
    if (now.state === 'emptied') for (const listener of this.emptiedListeners) listener();
  }

  private refreshFailed(error: Error): void {
    if (error.message === this.lastRefreshError) return;
    this.lastRefreshError = error.message;
    this.logger.warn(`cannot check the read models: ${error.message}`);
  }

  /** Forgets everything cached (the read models changed). */
  private forget(): void {
    this.cache.clear();
    this.categoriesBody = undefined;
    this.errorList = undefined;
    this.epoch++;
  }
}
