import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { RedisClient, RedisConnection } from '../redis/redis-connection';
import type { GenerationKeys } from '../redis/redis-keys';
import { SearchRequest } from '../search/search-query';
import { BoundedCache } from './bounded-cache';
import { splitEtag, StoredBody } from './read-model-body';

export type { StoredBody };

/** Safety net behind the change notifications: how often a reader re-checks the live generation. */
const POLL_MS = 1000;

export interface SearchHit {
  slug: string;
  score: string;
  mask: number;
  summary: string;
}
export interface SearchAnswer {
  total: number;
  hits: SearchHit[];
  notes: string;
}

/**
 * The read side's access to the live generation of read models, with an in-process cache in front.
 *
 * The read models change only when the projector commits a batch or a rebuild switches generations. Both
 * publish on a channel; every reader clears its cache when it hears one, and also checks the live
 * generation and its checkpoint every second in case a notification was missed. So a request served
 * from the cache is at most one notification old, and a cache miss costs one Redis round trip.
 * An epoch counter keeps a read that started before a change from filling the cache with old data.
 */
@Injectable()
export class ReadModelReader implements OnApplicationShutdown {
  private readonly logger = new Logger(ReadModelReader.name);
  private generation: number | null = null;
  private checkpoint: string | null = null;
  private epoch = 0;
  private refreshCalls = 0;
  private started: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private subscriber: RedisClient | null = null;

  private readonly details: BoundedCache<StoredBody | null>;
  private readonly rows: BoundedCache<string | null>;
  private readonly responses: BoundedCache<StoredBody>;
  private categoriesBody: StoredBody | null | undefined;
  private errorList: string[] | undefined;
  /**
   * Reads and builds under way, by cache and key: a request that misses the cache while the same value is
   * being read joins that read instead of starting its own. Clients in loops ask the same things at once:
   * after every change, a hundred connections asking for the same search all missed the cache together and
   * ran the query (and compressed the response) a hundred times.
   */
  private readonly underWay = new Map<object, Map<string, Promise<unknown>>>();

  constructor(
    private readonly redis: RedisConnection,
    private readonly config: AppConfig,
  ) {
    const on = config.readCache;
    // Bodies are bounded in bytes as well as in number: a search page of 100 results is 70 KB, and a
    // hundred thousand listings do not fit a small machine's memory twice.
    const half = (config.readCacheMb * 1024 * 1024) / 2;
    this.details = new BoundedCache(on ? 20_000 : 0, half, storedBodyBytes);
    this.rows = new BoundedCache(on ? 20_000 : 0);
    this.responses = new BoundedCache<StoredBody>(on ? config.searchCacheSize : 0, half, storedBodyBytes);
  }

  /** Keys of the live generation, or null when nothing has been projected yet. */
  async keys(): Promise<GenerationKeys | null> {
    await this.ready();
    return this.generation === null ? null : this.redis.keys.generation(this.generation);
  }

  async detail(slug: string): Promise<StoredBody | null> {
    return this.cached(this.details, slug, async (keys) => {
      const stored = await this.redis.client.hget(keys.details, slug);
      return stored ? splitEtag(stored) : null;
    }, null);
  }

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
    if (slugs.every((slug) => this.rows.has(slug))) return slugs.map((slug) => this.rows.get(slug)!);
    // Read them all when any is missing: cached ones could be dropped while we wait.
    const epoch = this.epoch;
    const keys = await this.keys();
    const rows = keys ? await this.redis.client.hmget(keys.comparisons, ...slugs) : slugs.map(() => null);
    if (epoch === this.epoch && keys) slugs.forEach((slug, i) => this.rows.set(slug, rows[i]));
    return rows;
  }

  async errorEntries(): Promise<string[]> {
    await this.ready();
    if (this.errorList) return this.errorList;
    const epoch = this.epoch;
    const keys = await this.keys();
    const list = keys ? await this.redis.client.hvals(keys.errorEntries) : [];
    if (epoch === this.epoch && keys && this.config.readCache) this.errorList = list;
    return list;
  }

  /** Runs one search: one round trip; `notes` says how each query term matched (see interpret()). */
  async search(request: SearchRequest): Promise<SearchAnswer> {
    const keys = await this.keys();
    if (!keys) return { total: 0, hits: [], notes: '[]' };
    const reply = (await this.redis.client.searchQuery(keys.tag, JSON.stringify(request))) as Array<string | number>;
    const hits: SearchHit[] = [];
    for (let i = 2; i < reply.length; i += 4) {
      hits.push({ slug: String(reply[i]), score: String(reply[i + 1]), mask: Number(reply[i + 2]), summary: String(reply[i + 3]) });
    }
    return { total: Number(reply[0]), hits, notes: String(reply[1]) };
  }

  /**
   * A whole response built from the read models (search results, comparisons, error lists), kept until the
   * read models change. `key` must identify the response completely (a canonical URL, or the URL itself).
   */
  async response(key: string, build: () => Promise<StoredBody>): Promise<StoredBody> {
    await this.ready();
    if (this.responses.has(key)) return this.responses.get(key)!;
    return this.once(this.responses, key, async () => {
      const epoch = this.epoch;
      const value = await build();
      if (epoch === this.epoch) this.responses.set(key, value);
      return value;
    });
  }

  /** What each cache holds, in entries and bytes (see BoundedCache). */
  cacheUsage(): Record<'details' | 'rows' | 'responses', { entries: number; bytes: number }> {
    return { details: this.details.usage, rows: this.rows.usage, responses: this.responses.usage };
  }

  /** Forgets everything cached (the read models changed). */
  invalidate(): void {
    this.epoch++;
    this.details.clear();
    this.rows.clear();
    this.responses.clear();
    this.categoriesBody = undefined;
    this.errorList = undefined;
    // Reads under way may return what was there before the change: later requests must not join them.
    this.underWay.clear();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async cached<T>(cache: BoundedCache<T>, key: string, read: (keys: GenerationKeys) => Promise<T>, empty: T): Promise<T> {
    await this.ready();
    if (cache.has(key)) return cache.get(key)!;
    return this.once(cache, key, async () => {
      const epoch = this.epoch;
      const keys = await this.keys();
      if (!keys) return empty;
      const value = await read(keys);
      if (epoch === this.epoch) cache.set(key, value);
      return value;
    });
  }

  /**
   * Runs `read` for this cache and key unless a run is under way, whose result is then shared. With the
   * read cache off every request runs its own (the benchmarks measure the engine that way).
   */
  private once<T>(cache: object, key: string, read: () => Promise<T>): Promise<T> {
    if (!this.config.readCache) return read();
    let runs = this.underWay.get(cache);
    if (!runs) this.underWay.set(cache, (runs = new Map()));
    const running = runs.get(key) as Promise<T> | undefined;
    if (running) return running;
    const started = read();
    runs.set(key, started);
    // Settled either way: the next miss reads again (a failure is not kept). Only this run is removed:
    // after a change, the map may hold a newer run for the key.
    const done = () => {
      if (this.underWay.get(cache)?.get(key) === started) this.underWay.get(cache)!.delete(key);
    };
    started.then(done, done);
    return started;
  }

  /** Starts once; a failed start (Redis down) is retried by the next request instead of kept. */
  private ready(): Promise<void> {
    this.started ??= this.start().catch((error) => {
      this.started = null;
      throw error;
    });
    return this.started;
  }

  private async start(): Promise<void> {
    await this.refresh();
    if (this.config.readCache) {
      this.subscriber = this.redis.dedicatedClient();
      this.subscriber.on('message', () => void this.refresh(true));
      await this.subscriber.subscribe(this.redis.keys.changesChannel).catch((error) => {
        this.logger.warn(`no change notifications (${(error as Error).message}); polling every ${POLL_MS} ms`);
      });
    }
    this.timer = setInterval(() => void this.refresh().catch(() => undefined), POLL_MS);
    this.timer.unref();
  }

  /** Reads the live generation and its checkpoint; clears the cache when either moved (or when told to). */
  async refresh(force = false): Promise<void> {
    const call = ++this.refreshCalls;
    const value = await this.redis.client.get(this.redis.keys.currentGeneration);
    const generation = value === null ? null : Number(value);
    const checkpoint = generation === null ? null : await this.redis.client.get(this.redis.keys.generation(generation).checkpoint);
    if (call !== this.refreshCalls) return; // a newer refresh started meanwhile: its answer wins
    if (force || !this.config.readCache || generation !== this.generation || checkpoint !== this.checkpoint) {
      this.generation = generation;
      this.checkpoint = checkpoint;
      this.invalidate();
    }
  }
}

/**
 * What a cached body costs: its bytes, and room for the compressed forms clients may ask for (brotli and
 * gzip together come to half to three quarters of a JSON body: see compression.ts).
 */
export function storedBodyBytes(stored: StoredBody | null): number {
  return stored ? Math.ceil(stored.body.length * 1.75) + stored.etag.length : 0;
}
