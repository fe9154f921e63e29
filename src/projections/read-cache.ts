import { LRUCache } from 'lru-cache';
import type { StoredBody } from '../http/stored-body';

/** Answers that something does not exist (an unknown slug, a search that finds nothing), kept apart. */
const NEGATIVE_ANSWERS = 4096;
/** Details and comparison rows kept at most (besides the byte bound). */
const DOCUMENTS = 20_000;

/** The negative section's mark for "no such listing". */
const MISSING = Object.freeze({ missing: true });
type Negative = StoredBody | typeof MISSING;

/** What the cache holds, for the hit and miss counts. */
export type ReadCacheSection = 'detail' | 'response' | 'row';

export interface ReadCacheOptions {
  enabled: boolean;
  /** Responses (searches, comparisons, error lists, lists) kept at most. */
  responses: number;
  /** Bytes of bodies kept at most, half for details and half for responses. */
  bytes: number;
}

/**
 * What this process keeps of the read models between two changes: details, comparison rows, whole
 * responses and the values read whole (categories, the error list), the least recently used going first, bounded in bytes as well as in number. Answers that
 * something does not exist (an unknown slug, a search that finds nothing) live in a section of their own,
 * so a stream of made-up slugs or queries cannot push out the entries that are in use.
 *
 * Every change of the read models clears it; a read that started before a change never fills it with
 * what it read (an epoch). Requests that miss it together for the same key share one read. Off
 * (READ_CACHE=off), every request reads for itself.
 */
export class ReadCache {
  private epoch = 0;
  private readonly details: LRUCache<string, StoredBody> | null;
  private readonly responses: LRUCache<string, StoredBody> | null;
  private readonly rows: LRUCache<string, string> | null;
  private readonly negative: LRUCache<string, Negative> | null;
  /** Values read whole (the categories body, the error list), by key. */
  private readonly wholes = new Map<string, unknown>();
  /** Reads and builds under way, by key: a request that misses while one runs joins it. */
  private readonly underWay = new Map<string, Promise<StoredBody | null>>();
  /** Lookups answered from the cache (negative answers included) and not, since the start (for /metrics). */
  readonly hits: Record<ReadCacheSection, number> = { detail: 0, response: 0, row: 0 };
  readonly misses: Record<ReadCacheSection, number> = { detail: 0, response: 0, row: 0 };

  constructor(private readonly options: ReadCacheOptions) {
    const half = Math.floor(options.bytes / 2);
    const bodies = (max: number) =>
      options.enabled && max > 0 && half > 0 ? new LRUCache<string, StoredBody>({ max, maxSize: half, sizeCalculation: storedBodyBytes }) : null;
    this.details = bodies(DOCUMENTS);
    this.responses = bodies(options.responses);
    this.rows = options.enabled ? new LRUCache<string, string>({ max: DOCUMENTS }) : null;
    this.negative = options.enabled ? new LRUCache<string, Negative>({ max: NEGATIVE_ANSWERS }) : null;
  }

  /** A detail (null: no such listing) from the cache, or from `read` (one read for all who ask together). */
  detail(slug: string, read: () => Promise<StoredBody | null>): Promise<StoredBody | null> {
    return this.cached('detail', `d:${slug}`, this.details, read, () => false);
  }

  /** A whole response from the cache, or from `build`; `isEmpty` tells the answers that found nothing. */
  async response(key: string, build: () => Promise<StoredBody>, isEmpty: (body: StoredBody) => boolean = () => false): Promise<StoredBody> {
    return (await this.cached('response', `r:${key}`, this.responses, build, isEmpty))!;
  }

  /** A whole response if the cache holds it (counted as a hit), without building it. */
  cachedResponse(key: string): StoredBody | undefined {
    const found = this.responses?.get(`r:${key}`) ?? (this.negative?.get(`r:${key}`) as StoredBody | undefined);
    if (found) this.hits.response++;
    return found;
  }

  /** A value read whole (the categories body, the error list) from the cache, or from `read`. */
  async whole<T>(key: string, read: () => Promise<T>): Promise<T> {
    if (this.wholes.has(key)) return this.wholes.get(key) as T;
    const epoch = this.epoch;
    const value = await read();
    if (epoch === this.epoch && this.options.enabled) this.wholes.set(key, value);
    return value;
  }

  /** Comparison rows (null where no such listing): cached ones, and the others from `read` in one go. */
  async rowsOf(slugs: string[], read: (missing: string[]) => Promise<Array<string | null>>): Promise<Array<string | null>> {
    const known = slugs.map((slug) => this.rows?.get(slug) ?? (this.negative?.has(`c:${slug}`) ? null : undefined));
    const missing = slugs.filter((_, i) => known[i] === undefined);
    this.hits.row += slugs.length - missing.length;
    this.misses.row += missing.length;
    if (missing.length === 0) return known as Array<string | null>;
    const epoch = this.epoch;
    const found = await read(missing);
    if (epoch === this.epoch) {
      missing.forEach((slug, i) => {
        const row = found[i];
        if (row === null) this.negative?.set(`c:${slug}`, MISSING);
        else this.rows?.set(slug, row);
      });
    }
    let next = 0;
    return known.map((row) => (row === undefined ? found[next++] : row));
  }

  /** Forgets everything (the read models changed); reads under way are not joined any more. */
  clear(): void {
    this.epoch++;
    this.details?.clear();
    this.responses?.clear();
    this.rows?.clear();
    this.negative?.clear();
    this.wholes.clear();
    this.underWay.clear();
  }

  /** What each section holds, in entries and (for bodies) bytes: for tests and metrics. */
  usage(): Record<'details' | 'responses' | 'rows' | 'negative', { entries: number; bytes: number }> {
    return {
      details: { entries: this.details?.size ?? 0, bytes: this.details?.calculatedSize ?? 0 },
      responses: { entries: this.responses?.size ?? 0, bytes: this.responses?.calculatedSize ?? 0 },
      rows: { entries: this.rows?.size ?? 0, bytes: 0 },
      negative: { entries: this.negative?.size ?? 0, bytes: 0 },
    };
  }

  private cached(
    section: ReadCacheSection,
    key: string,
    cache: LRUCache<string, StoredBody> | null,
    read: () => Promise<StoredBody | null>,
    isEmpty: (body: StoredBody) => boolean,
  ): Promise<StoredBody | null> {
    const hit = cache?.get(key);
    if (hit) {
      this.hits[section]++;
      return Promise.resolve(hit);
    }
    const miss = this.negative?.get(key);
    if (miss) {
      this.hits[section]++;
      return Promise.resolve(miss === MISSING ? null : (miss as StoredBody));
    }
    this.misses[section]++;
    if (!this.options.enabled) return read();
    const running = this.underWay.get(key);
    if (running) return running;
    const epoch = this.epoch;
    const started = read().then((value) => {
      if (epoch === this.epoch) {
        if (value === null) this.negative?.set(key, MISSING);
        else if (isEmpty(value)) this.negative?.set(key, value);
        else cache?.set(key, value);
      }
      return value;
    });
    this.underWay.set(key, started);
    // Settled either way: the next miss reads again (a failure is not kept). Only this run is removed:
    // after a change the map may hold a newer one for the key.
    const done = () => {
      if (this.underWay.get(key) === started) this.underWay.delete(key);
    };
    started.then(done, done);
    return started;
  }
}

/**
 * What a cached body costs: its bytes, room for the compressed forms clients may ask for (brotli and
 * gzip together come to half to three quarters of a JSON body: see compression.ts), and the entry itself.
 */
export function storedBodyBytes(stored: StoredBody): number {
  return Math.ceil(stored.body.length * 1.75) + stored.etag.length + 64;
}
