import { Injectable } from '@nestjs/common';
import { deleteMatching } from '../redis/delete-matching';
import { RedisClient, RedisConnection } from '../redis/redis-connection';
import type { RedisKeys } from '../redis/redis-keys';

/** How long a replaced generation stays readable, for readers that still point at it. */
export const RETIRED_GENERATION_GRACE_MS = 30_000;
/** How long a generation may stay in the making before it counts as abandoned. */
export const BUILD_TIMEOUT_MS = 6 * 60 * 60 * 1000;

/**
 * Read models live in numbered generations; one pointer names the live one. A rebuild fills a new
 * generation from the whole log and then moves the pointer in one SET, so readers never see a half-built
 * generation. Replaced generations are deleted after a grace period.
 */
@Injectable()
export class Generations {
  private readonly client: RedisClient;
  private readonly keys: RedisKeys;

  constructor(redis: RedisConnection) {
    this.client = redis.client;
    this.keys = redis.keys;
  }

  async current(): Promise<number | null> {
    const value = await this.client.get(this.keys.currentGeneration);
    return value === null ? null : Number(value);
  }

  /**
   * A fresh generation number, never used before. Until it goes live it is scheduled for deletion
   * BUILD_TIMEOUT_MS from now, so a rebuild that dies half-way leaves nothing behind for long.
   */
  async allocate(): Promise<number> {
    const generation = await this.client.incr(this.keys.generationCounter);
    await this.client.zadd(this.keys.retiredGenerations, Date.now() + BUILD_TIMEOUT_MS, String(generation));
    return generation;
  }

  /** Makes `generation` live if no generation is live yet; returns the live one. */
  async adoptIfNone(generation: number): Promise<number> {
    if (await this.client.set(this.keys.currentGeneration, generation, 'NX')) {
      await this.client.zrem(this.keys.retiredGenerations, String(generation));
    }
    return (await this.current())!;
  }

  /** Makes `generation` live and retires the previous one. */
  async switchTo(generation: number): Promise<void> {
    const previous = await this.client.getset(this.keys.currentGeneration, String(generation));
    await this.client.zrem(this.keys.retiredGenerations, String(generation));
    if (previous !== null && Number(previous) !== generation) {
      await this.client.zadd(this.keys.retiredGenerations, Date.now(), previous);
    }
  }

  /** Marks a generation that will never go live (an abandoned rebuild) for deletion. */
  async discard(generation: number): Promise<void> {
    await this.client.zadd(this.keys.retiredGenerations, Date.now() - RETIRED_GENERATION_GRACE_MS, String(generation));
  }

  /** Deletes generations retired longer ago than the grace period. Returns how many were deleted. */
  async deleteRetired(now = Date.now()): Promise<number> {
    const due = await this.client.zrangebyscore(this.keys.retiredGenerations, '-inf', now - RETIRED_GENERATION_GRACE_MS);
    const live = await this.current();
    for (const generation of due) {
      if (Number(generation) === live) {
        await this.client.zrem(this.keys.retiredGenerations, generation);
        continue;
      }
      await deleteMatching(this.client, `${this.keys.generation(Number(generation)).tag}:*`);
      await this.client.zrem(this.keys.retiredGenerations, generation);
    }
    return due.length;
  }
}
