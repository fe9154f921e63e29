import { Injectable } from '@nestjs/common';
import type { ReadCacheSection } from '../projections/read-cache';
import { ProjectionState, type ReadModelsStatus } from '../projections/projection-state';
import { ReadModels } from '../projections/read-models.service';
import { LiveSearchIndex } from '../search/live-search-index';
import { RedisConnection } from '../redis/redis-connection';

/** What one scrape of /metrics reports of this process and the store: read once, before the registry renders. */
export interface ScrapeState {
  cache: { hits: Record<ReadCacheSection, number>; misses: Record<ReadCacheSection, number> };
  projection: ReadModelsStatus;
  /** How long the oldest event not yet applied has waited (0: none waits; NaN: Redis did not answer). */
  lagSeconds: number;
  /** Listings by liveness state as this process's search index holds them. */
  liveness: Record<string, number>;
  /** The prober's counts in Redis (empty when Redis does not answer). */
  prober: Record<string, string>;
}

/** Reads the ScrapeState from the read models, the search index and Redis. */
@Injectable()
export class ScrapeStateReader {
  constructor(
    private readonly readModels: ReadModels,
    private readonly search: LiveSearchIndex,
    private readonly projection: ProjectionState,
    private readonly redis: RedisConnection,
  ) {}

  async read(): Promise<ScrapeState> {
    const projection = this.projection.status();
    const [lagSeconds, index, prober] = await Promise.all([this.lagSeconds(projection), this.search.current(), this.proberStats()]);
    const { hits, misses } = this.readModels.cache;
    return { cache: { hits, misses }, projection, lagSeconds, liveness: index.liveCounts(), prober };
  }

  private async proberStats(): Promise<Record<string, string>> {
    try {
      return await this.redis.client.hgetall(this.redis.keys.livenessStats);
    } catch {
      return {};
    }
  }

  /** Age of the first event after the live checkpoint (a stream id starts with its append time in ms). */
  private async lagSeconds({ lag, checkpoint }: ReadModelsStatus): Promise<number> {
    if (lag === 0) return 0;
    try {
      const [first] = await this.redis.client.xrange(this.redis.keys.events, checkpoint ? `(${checkpoint}` : '-', '+', 'COUNT', 1);
      return first ? Math.max(0, (Date.now() - Number(first[0].split('-')[0])) / 1000) : 0;
    } catch {
      return NaN;
    }
  }
}
