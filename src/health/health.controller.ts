import { Controller, Get, Res, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import { AppConfig } from '../config/app-config';
import { ApiProblem, sendProblem } from '../http/problem';
import { ReadModels } from '../read-models/read-models.service';
import { storeProblem } from '../read-models/store-watch';

/** Redis must have answered this process's background check within this long. */
export const REDIS_SILENCE_MS = 5000;

/**
 * /healthz: the process is up. /readyz: it can serve what the directory holds: Redis answered lately and
 * holds the store this process serves (not emptied, not another), read models are live and, since the
 * process started, have been within READY_MAX_LAG events of the log (a dead projector's lease counts for
 * nothing), the search index has loaded, and the projection is not stuck. It answers from what the
 * process keeps (checked every second in the background), never
 * from a round trip of its own, so it stays quick when Redis is busy. Anyone may read it: it names no
 * key, address or generation, and of a projection failure only the event it stopped at and why (the
 * full error is in the projector's log).
 */
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicator: HealthIndicatorService,
    private readonly readModels: ReadModels,
    private readonly config: AppConfig,
  ) {}

  @Get('healthz')
  async live(@Res() reply: FastifyReply): Promise<FastifyReply> {
    return reply.header('cache-control', 'no-store').send(await this.health.check([]));
  }

  /** 200 with every check's facts; 503 as a problem document whose `checks` say which failed and why. */
  @Get('readyz')
  async ready(@Res() reply: FastifyReply): Promise<FastifyReply> {
    try {
      return reply.header('cache-control', 'no-store').send(await this.readiness());
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      const checks = error.getResponse() as { error?: Record<string, { message?: string }> };
      const reasons = Object.entries(checks.error ?? {}).map(([name, { message }]) => `${name}: ${message ?? 'down'}`);
      return sendProblem(reply, '/readyz', new ApiProblem(503, 'not-ready', 'Not ready', `not ready to serve: ${reasons.join('; ')}`, { checks }));
    }
  }

  private readiness() {
    const status = this.readModels.status();
    return this.health.check([
      () => {
        const check = this.indicator.check('redis');
        const silentMs = Date.now() - status.lastContact;
        if (status.lastContact === 0) return check.down({ message: 'Redis has not answered yet' });
        return silentMs <= REDIS_SILENCE_MS ? check.up() : check.down({ message: `no answer from Redis for ${Math.round(silentMs / 1000)} s` });
      },
      () => {
        const check = this.indicator.check('store');
        const problem = storeProblem(status.store);
        return problem === null ? check.up() : check.down({ message: problem, since: status.store.since });
      },
      () => {
        const check = this.indicator.check('readModels');
        return status.generation === null ? check.down({ message: 'no read models yet' }) : check.up();
      },
      () => {
        const check = this.indicator.check('search');
        return status.searchReady ? check.up() : check.down({ message: 'the search index is loading' });
      },
      () => {
        const check = this.indicator.check('projection');
        const facts = { lag: status.lag, projectorActive: status.projectorActive };
        if (!status.failure) {
          if (status.caughtUp || status.generation === null) return check.up(facts);
          return check.down({ ...facts, message: `catching up: ${status.lag} events behind the log (ready within ${this.config.readyMaxLag}, READY_MAX_LAG)` });
        }
        const { position, error, since, attempts } = status.failure;
        // An event it cannot apply is named with its reason; any other error (Redis's own, which may name
        // keys or addresses) only in the log.
        const reason = position !== null ? error : "a projection step failed; the projector's log has the error";
        return check.down({ ...facts, message: 'the projection is stuck: changes are not being applied', stuckAt: position, error: reason, since, attempts });
      },
    ]);
  }
}
