import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { ApiProblem, sendProblem } from '../http/problem';
import { RedisConnection } from '../redis/redis-connection';
import { clientKey } from './client-address';
import { Metrics } from './metrics';
import { RateBudgets, rateLimited, rateLimitHeaders, refusalPause } from './rate-budgets';

/** Probes and scrapes are never limited: an orchestrator or Prometheus must always get through. */
export const UNLIMITED_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The request budget: every request (unknown routes too) spends one from its client's budget of
 * RATE_LIMIT_PER_MINUTE, and its answer carries the RateLimit headers; past the budget, 429 with
 * Retry-After after the refusal pause. A request that carries several calls (an MCP batch) spends one
 * for each.
 */
@Injectable()
export class RequestBudget {
  readonly limit: number;
  /** How a refusal is answered where a problem document is not the answer (the pages'); see answerRefusalsWith. */
  private refusalAnswer: ((request: FastifyRequest, reply: FastifyReply, problem: ApiProblem) => boolean) | null = null;

  constructor(
    private readonly budgets: RateBudgets,
    private readonly redis: RedisConnection,
    private readonly metrics: Metrics,
    config: AppConfig,
  ) {
    this.limit = config.rateLimitPerMinute;
  }

  /** The onRequest hook that spends one for every request. */
  hook() {
    return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> => {
      if (UNLIMITED_ROUTES.has(request.routeOptions.url as string)) return;
      const refused = await this.spend(request, reply);
      if (!refused) return;
      if (this.refusalAnswer?.(request, reply, refused)) return reply;
      return sendProblem(reply, request.url, refused);
    };
  }

  /**
   * Lets a way in answer its own refusals (the pages answer a browser with a page): `answer` returns
   * true when it sent the answer, false to leave it to the problem document.
   */
  answerRefusalsWith(answer: (request: FastifyRequest, reply: FastifyReply, problem: ApiProblem) => boolean): void {
    this.refusalAnswer = answer;
  }

  /**
   * Spends `cost` from the budget of the request's client and puts the RateLimit headers on the reply;
   * the 429 problem (after the refusal pause) when the budget cannot cover it, else null (also when
   * Redis could not tell, or there is no limit).
   */
  async spend(request: FastifyRequest, reply: FastifyReply, cost = 1): Promise<ApiProblem | null> {
    if (this.limit === 0) return null;
    const client = clientKey(request.ip);
    const state = await this.budgets.spend(`requests ${client}`, () => this.redis.keys.requestBudget(client), this.limit, cost);
    if (!state) return null;
    if (state.allowed) {
      reply.headers(rateLimitHeaders(state));
      return null;
    }
    this.metrics.rateLimited('requests');
    await refusalPause();
    return rateLimited(state, 'requests');
  }
}
