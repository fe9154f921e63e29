import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { RedisConnection } from '../redis/redis-connection';
import { clientKey } from './client-address';
import { Metrics } from './metrics';
import { RateBudgets, rateLimited, refusalPause } from './rate-budgets';

/**
 * The second, smaller budget: searches a client may make a minute that the read cache cannot answer
 * (each runs the search engine; an answer from the cache costs next to nothing). The search handler
 * spends it after a cache miss, before it runs a search or joins the same search under way, so one
 * client's refusal is never another's; so do the renders as costly as a search (llms-full.txt, the
 * sitemap). Past the budget the client gets 429 until its window closes.
 */
@Injectable()
export class SearchBudget {
  private readonly limit: number;

  constructor(
    private readonly budgets: RateBudgets,
    private readonly redis: RedisConnection,
    private readonly metrics: Metrics,
    config: AppConfig,
  ) {
    this.limit = config.searchRateLimitPerMinute;
  }

  /**
   * Spends one search if the client has one left, without refusing: for work a request may go without (an
   * unknown slug's suggestions). False when the budget is spent.
   */
  async trySpend(client: string | null): Promise<boolean> {
    if (client === null || this.limit === 0) return true;
    const key = clientKey(client);
    const state = await this.budgets.spend(`searches ${key}`, () => this.redis.keys.searchBudget(key), this.limit);
    return !state || state.allowed;
  }

  /** Spends one search of `client` (its address; null: not an HTTP client, no budget); throws 429 past it. */
  async spend(client: string | null): Promise<void> {
    if (client === null || this.limit === 0) return;
    const key = clientKey(client);
    const state = await this.budgets.spend(`searches ${key}`, () => this.redis.keys.searchBudget(key), this.limit);
    if (state && !state.allowed) {
      this.metrics.rateLimited('searches');
      await refusalPause();
      throw rateLimited(state, 'searches that the cache could not answer');
    }
  }
}
