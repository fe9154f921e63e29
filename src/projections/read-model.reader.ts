import { Injectable } from '@nestjs/common';
import { RedisConnection } from '../redis/redis-connection';
import type { GenerationKeys } from '../redis/redis-keys';
import { SearchRequest } from '../search/search-query';
import { splitEtag } from './read-model-body';

/** How long a reader trusts its idea of the live generation before asking Redis again. */
const GENERATION_TTL_MS = 1000;

export interface SearchHit {
  slug: string;
  score: string;
  mask: number;
  summary: string;
}

/**
 * The read side's access to the live generation of read models: one Redis round trip per call. The
 * number of the live generation is cached for a second (a replaced generation stays readable for 30 s).
 */
@Injectable()
export class ReadModelReader {
  private generation: number | null = null;
  private checkedAt = 0;

  constructor(private readonly redis: RedisConnection) {}

  /** Keys of the live generation, or null when nothing has been projected yet. */
  async keys(): Promise<GenerationKeys | null> {
    const now = Date.now();
    if (this.generation === null || now - this.checkedAt > GENERATION_TTL_MS) {
      const value = await this.redis.client.get(this.redis.keys.currentGeneration);
      this.generation = value === null ? null : Number(value);
      this.checkedAt = now;
    }
    return this.generation === null ? null : this.redis.keys.generation(this.generation);
  }

  /** Forget the cached generation (after a rebuild in this process). */
  refresh(): void {
    this.checkedAt = 0;
  }

  async detail(slug: string): Promise<{ etag: string; body: string } | null> {
    const keys = await this.keys();
    const stored = keys && (await this.redis.client.hget(keys.details, slug));
    return stored ? splitEtag(stored) : null;
  }

  async categories(): Promise<{ etag: string; body: string } | null> {
    const keys = await this.keys();
    const stored = keys && (await this.redis.client.get(keys.categoriesBody));
    return stored ? splitEtag(stored) : null;
  }

  /** Comparison rows of the given slugs, null for each one not in the directory. */
  async comparisons(slugs: string[]): Promise<Array<string | null>> {
    const keys = await this.keys();
    if (!keys) return slugs.map(() => null);
    return this.redis.client.hmget(keys.comparisons, ...slugs);
  }

  async errorEntries(): Promise<string[]> {
    const keys = await this.keys();
    return keys ? this.redis.client.hvals(keys.errorEntries) : [];
  }

  /** Runs one search (one round trip); `notes` says how each query term matched (see interpret()). */
  async search(request: SearchRequest): Promise<{ total: number; hits: SearchHit[]; notes: string }> {
    const keys = await this.keys();
    if (!keys) return { total: 0, hits: [], notes: '[]' };
    const reply = (await this.redis.client.searchQuery(keys.tag, JSON.stringify(request))) as Array<string | number>;
    const hits: SearchHit[] = [];
    for (let i = 2; i < reply.length; i += 4) {
      hits.push({ slug: String(reply[i]), score: String(reply[i + 1]), mask: Number(reply[i + 2]), summary: String(reply[i + 3]) });
    }
    return { total: Number(reply[0]), hits, notes: String(reply[1]) };
  }
}
