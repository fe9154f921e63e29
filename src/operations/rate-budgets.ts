import { Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { ApiProblem } from '../http/problem';
import { RedisConnection } from '../redis/redis-connection';
import { setTimeout as sleep } from 'node:timers/promises';

/** Budgets are per minute: a window opens with a client's first request and closes 60 s later. */
export const BUDGET_WINDOW_MS = 60_000;

/**
 * Takes a share of what is left of a budget for one process: [granted, left after it, ms until the
 * window closes]. The share is a sixteenth of what is left (at least one), so it shrinks as the budget
 * runs out; nothing is granted once it has. The first grant opens the window.
 */
const GRANT_LUA = `
local spent = tonumber(redis.call('GET', KEYS[1]) or '0')
local left = tonumber(ARGV[1]) - spent
local ttl = redis.call('PTTL', KEYS[1])
if left <= 0 then
  if ttl == -1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]); ttl = tonumber(ARGV[2]) end
  return {0, 0, ttl}
end
local granted = math.max(1, math.floor(left / tonumber(ARGV[3])))
redis.call('INCRBY', KEYS[1], granted)
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]); ttl = tonumber(ARGV[2]) end
return {granted, left - granted, ttl}`;

/** A process takes 1/SHARE of what is left of a budget at a time. */
const SHARE = 16;

export interface BudgetState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window closes (and the budget is whole again). */
  resetSeconds: number;
}

type Granter = { grantBudget(key: string, limit: number, windowMs: number, share: number): Promise<[number, number, number]> };

/** What this process holds of a client's budget in the current window. */
interface Share {
  /** Requests it may still let through without asking Redis. */
  held: number;
  /** What Redis had left after the last grant (other processes may have taken some since). */
  left: number;
  /** When the window closes (ms since the epoch). */
  closes: number;
}

/**
 * A refusal goes out after this pause: a client that sends its next request only once it has the answer
 * to the one before (most do, one per connection) then costs a request per connection per second, not
 * as many as the service can refuse; so a flood from one client cannot crowd out the others, or /readyz.
 */
export const REFUSAL_PAUSE_MS = 1000;

/** Waits out the pause before a 429 (see REFUSAL_PAUSE_MS). */
export function refusalPause(): Promise<void> {
  return sleep(REFUSAL_PAUSE_MS);
}

/** Clients whose share this process keeps at most (the least recently seen forgotten first). */
const SHARES_KEPT = 50_000;

/**
 * Per-client budgets counted in Redis (fixed one-minute windows, one key per client and budget), so that
 * every API process of the directory shares them. A process does not ask Redis for every request: it
 * takes a share of what is left (a sixteenth, at least one) and lets that many through on its own, so a
 * client making many requests costs a Redis call every so often, and one near its limit a call per
 * request (the shares are down to one). Redis never grants more than the budget in a window; what a
 * process holds and does not use is lost with the window, so a client spreading its requests over several
 * processes may be refused a little early (by at most what the others hold, a sixteenth of the budget
 * each). A budget seen spent is refused here until its window closes without asking Redis again. When
 * Redis does not answer, requests go on: the reads they ask for fail on their own or are served from the
 * read cache.
 *
 * Why not `@fastify/rate-limit` with its Redis store: one Redis call per request cost 13-29% of the
 * throughput these shares reach at 100 connections, 3-45% at 10, over three runs on two cores
 * (bench/README.md, "Tried, measured, not kept").
 */
@Injectable()
export class RateBudgets {
  private readonly logger = new Logger('rate-limit');
  private readonly client: Granter;
  private lastFailure = '';
  /** Budget (its share key) -> this process's share of it. */
  private readonly shares = new LRUCache<string, Share>({ max: SHARES_KEPT });

  constructor(redis: RedisConnection) {
    redis.client.defineCommand('grantBudget', { numberOfKeys: 1, lua: GRANT_LUA });
    this.client = redis.client as unknown as Granter;
  }

  /**
   * Spends `cost` from a budget of `limit` a minute, one at a time (mostly from this process's share, so a
   * cost of 100 makes a few Redis calls); refused as soon as one is. Null when Redis could not tell.
   * `share` names the budget in this process; `key` gives its Redis key, asked for only when Redis is.
   */
  async spend(share: string, key: () => string, limit: number, cost = 1): Promise<BudgetState | null> {
    let state = await this.spendOne(share, key, limit);
    for (let spent = 1; spent < cost && state?.allowed; spent++) state = await this.spendOne(share, key, limit);
    return state;
  }

  private async spendOne(name: string, key: () => string, limit: number): Promise<BudgetState | null> {
    const now = Date.now();
    const share = this.shares.get(name);
    if (share && share.closes > now) {
      if (share.held > 0) {
        share.held--;
        return { allowed: true, limit, remaining: share.held + share.left, resetSeconds: secondsUntil(share.closes, now) };
      }
      if (share.left === 0) return { allowed: false, limit, remaining: 0, resetSeconds: secondsUntil(share.closes, now) };
    }
    let granted: number, left: number, ttl: number;
    try {
      [granted, left, ttl] = await this.client.grantBudget(key(), limit, BUDGET_WINDOW_MS, SHARE);
      this.lastFailure = '';
    } catch (error) {
      const message = (error as Error).message;
      if (message !== this.lastFailure) this.logger.warn(`rate limits not counted (requests go on): ${message}`);
      this.lastFailure = message;
      return null;
    }
    const closes = now + ttl;
    // Requests that asked together each got a grant: what they did not use is held together, and one
    // whose grant came back empty (the others' emptied the budget in Redis) spends from it.
    const current = this.shares.get(name);
    let held = (current && current.closes > now ? current.held : 0) + Math.max(0, granted - 1);
    const allowed = granted > 0 || held > 0;
    if (granted === 0 && allowed) held--;
    this.shares.set(name, { held, left, closes });
    if (!allowed) return { allowed: false, limit, remaining: 0, resetSeconds: secondsUntil(closes, now) };
    return { allowed: true, limit, remaining: held + left, resetSeconds: secondsUntil(closes, now) };
  }
}

function secondsUntil(closes: number, now: number): number {
  return Math.max(1, Math.ceil((closes - now) / 1000));
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
