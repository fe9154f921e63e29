import { Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { ApiProblem } from '../http/problem';
import { RedisConnection } from '../redis/redis-connection';

/** Budgets are per minute: a window opens with a client's first request and closes 60 s later. */
export const BUDGET_WINDOW_MS = 60_000;

/** Counts one spending and returns [spent in this window, ms until it closes]; the first one opens the window. */
const SPEND_LUA = `
local spent = redis.call('INCR', KEYS[1])
if spent == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {spent, ttl}`;

export interface BudgetState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window closes (and the budget is whole again). */
  resetSeconds: number;
}

type Spender = { spendBudget(key: string, windowMs: number): Promise<[number, number]> };

/**
 * A refusal goes out after this pause: a client that sends its next request only once it has the answer
 * to the one before (most do, one per connection) then costs a request per connection per second, not
 * as many as the service can refuse; so a flood from one client cannot crowd out the others, or /readyz.
 */
export const REFUSAL_PAUSE_MS = 1000;

/** Waits out the pause before a 429 (see REFUSAL_PAUSE_MS). */
export function refusalPause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, REFUSAL_PAUSE_MS));
}

/** Budgets this process knows to be spent, kept at most (the oldest forgotten first). */
const SPENT_REMEMBERED = 10_000;

/**
 * Per-client budgets counted in Redis (fixed one-minute windows, one key per client and budget, one
 * script call per spending), so every API process of the directory shares them. A budget this process
 * saw spent is refused here until its window closes, without asking Redis again: a flood from one client
 * costs a lookup per request. When Redis does not answer, requests go on: the reads they ask for fail on
 * their own or are served from the read cache.
 */
@Injectable()
export class RateBudgets {
  private readonly logger = new Logger('rate-limit');
  private readonly client: Spender;
  private lastFailure = '';
  /** Budget key -> when (ms) its window closes, for budgets seen spent. */
  private readonly spent = new LRUCache<string, number>({ max: SPENT_REMEMBERED });

  constructor(private readonly redis: RedisConnection) {
    redis.client.defineCommand('spendBudget', { numberOfKeys: 1, lua: SPEND_LUA });
    this.client = redis.client as unknown as Spender;
  }

  /** Spends one from a budget of `limit` a minute under `key`; null when Redis could not tell. */
  async spend(key: string, limit: number): Promise<BudgetState | null> {
    const closes = this.spent.get(key);
    if (closes !== undefined) {
      const left = closes - Date.now();
      if (left > 0) return { allowed: false, limit, remaining: 0, resetSeconds: Math.max(1, Math.ceil(left / 1000)) };
      this.spent.delete(key);
    }
    try {
      const [spent, ttl] = await this.client.spendBudget(key, BUDGET_WINDOW_MS);
      this.lastFailure = '';
      if (spent > limit) this.spent.set(key, Date.now() + ttl);
      return { allowed: spent <= limit, limit, remaining: Math.max(0, limit - spent), resetSeconds: Math.max(1, Math.ceil(ttl / 1000)) };
    } catch (error) {
      const message = (error as Error).message;
      if (message !== this.lastFailure) this.logger.warn(`rate limits not counted (requests go on): ${message}`);
      this.lastFailure = message;
      return null;
    }
  }
}

/** The draft IETF RateLimit headers of a budget (the one closest to running out). */
export function rateLimitHeaders(state: BudgetState): Record<string, string> {
  return { 'ratelimit-limit': String(state.limit), 'ratelimit-remaining': String(state.remaining), 'ratelimit-reset': String(state.resetSeconds) };
}

/** 429 for a spent budget, with Retry-After and the RateLimit headers. */
export function rateLimited(state: BudgetState, what: string): ApiProblem {
  return new ApiProblem(
    429,
    'rate-limited',
    'Too many requests',
    `more than ${state.limit} ${what} a minute from this client; retry in ${state.resetSeconds} s`,
    { limit: state.limit, retryAfter: state.resetSeconds },
    { ...rateLimitHeaders(state), 'retry-after': String(state.resetSeconds) },
  );
}
