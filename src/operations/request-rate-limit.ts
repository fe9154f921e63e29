import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from '../http/problem';
import type { RedisKeys } from '../redis/redis-keys';
import { clientKey } from './client-address';
import type { Metrics } from './metrics';
import { RateBudgets, rateLimited, rateLimitHeaders, refusalPause } from './rate-budgets';

/** Probes and scrapes are never limited: an orchestrator or Prometheus must always get through. */
export const UNLIMITED_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * An onRequest hook: every request (unknown routes too) spends one from its client's budget of `limit`
 * a minute, and its answer carries the RateLimit headers; past the budget, 429 with Retry-After, sent
 * from here after the refusal pause.
 */
export function requestRateLimit(budgets: RateBudgets, keys: RedisKeys, metrics: Metrics, limit: number) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> => {
    if (UNLIMITED_ROUTES.has(request.routeOptions.url as string)) return;
    const state = await budgets.spend(keys.requestBudget(clientKey(request.ip)), limit);
    if (!state) return;
    if (state.allowed) {
      reply.headers(rateLimitHeaders(state));
      return;
    }
    metrics.rateLimited('requests');
    await refusalPause();
    return sendProblem(reply, request.url, rateLimited(state, 'requests'));
  };
}
