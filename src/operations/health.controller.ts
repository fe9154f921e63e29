import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AppConfig } from '../config/app-config';
import { ApiProblem, sendProblem } from '../http/problem';
import { ProjectionState, type ReadModelsStatus } from '../projections/projection-state';
import { EventLoopLag } from './event-loop-lag';
import { storeProblem } from '../projections/store-watch';

/** Redis must have answered this process's background check within this long. */
export const REDIS_SILENCE_MS = 5000;
/** An event-loop delay this long in the last seconds is named as the cause of a silence from Redis. */
export const EVENT_LOOP_LATE_MS = 2000;

/** One check's outcome: up or down, with its facts (and, when down, a message saying why). */
export type Check = { status: 'up' | 'down'; message?: string } & Record<string, unknown>;
const up = (facts: Record<string, unknown> = {}): Check => ({ status: 'up', ...facts });
const down = (message: string, facts: Record<string, unknown> = {}): Check => ({ status: 'down', ...facts, message });

/**
 * The checks' report: every check in `details`, those up in `info`, those down in `error` (the shape
 * orchestrators and dashboards read from health endpoints since this service used @nestjs/terminus).
 */
function report(checks: Record<string, Check>) {
  const pick = (status: Check['status']) => Object.fromEntries(Object.entries(checks).filter(([, check]) => check.status === status));
  const error = pick('down');
  return { status: Object.keys(error).length === 0 ? ('ok' as const) : ('error' as const), info: pick('up'), error, details: checks };
}

/**
 * Redis's check: up while its last answer is recent. A silence the event loop's own delay explains (the
 * process was blocked, so it read nothing) is named as the process's, not Redis's.
 */
export function redisCheck(silentMs: number | null, eventLoopDelayMs: number): Check {
  if (silentMs === null) return down('Redis has not answered yet');
  if (silentMs <= REDIS_SILENCE_MS) return up();
  const seconds = Math.round(silentMs / 1000);
  if (eventLoopDelayMs >= EVENT_LOOP_LATE_MS && silentMs - eventLoopDelayMs <= REDIS_SILENCE_MS) {
    return down(`no answer read from Redis for ${seconds} s, while this process's event loop was blocked for ${(eventLoopDelayMs / 1000).toFixed(1)} s: the process was late, not Redis (a long synchronous task, or a starved CPU)`);
  }
  return down(`no answer from Redis for ${seconds} s`);
}

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
    private readonly state: ProjectionState,
    private readonly config: AppConfig,
    private readonly loop: EventLoopLag,
  ) {}

  @Get('healthz')
  live(@Res() reply: FastifyReply): FastifyReply {
    return reply.header('cache-control', 'no-store').send(report({}));
  }

  /** 200 with every check's facts; 503 as a problem document whose `checks` say which failed and why. */
  @Get('readyz')
  ready(@Res() reply: FastifyReply): FastifyReply {
    const checks = report(this.readiness());
    if (checks.status === 'ok') return reply.header('cache-control', 'no-store').send(checks);
    const reasons = Object.entries(checks.error).map(([name, { message }]) => `${name}: ${message ?? 'down'}`);
    return sendProblem(reply, '/readyz', new ApiProblem(503, 'not-ready', 'Not ready', `not ready to serve: ${reasons.join('; ')}`, { checks }));
  }

  private readiness(): Record<string, Check> {
    const status = this.state.status();
    const silentMs = Date.now() - status.lastContact;
    const problem = storeProblem(status.store);
    // A process whose event loop was blocked read nothing from Redis meanwhile: the silence is its own.
    const lagMs = Math.round(this.loop.recentMaxMs());
    return {
      redis: redisCheck(status.lastContact === 0 ? null : silentMs, lagMs),
      // A fact, not a condition of its own: a long pause (a large rebuild, a starved CPU) passes, and what
      // it made late (Redis's answers, the projection) is checked above and below.
      eventLoop: up({ maxDelayMs: lagMs }),
      store: problem === null ? up() : down(problem, { since: status.store.since }),
      readModels: status.generation === null ? down('no read models yet') : up(),
      search: status.searchReady ? up() : down('the search index is loading'),
      projection: this.projection(status),
    };
  }

  private projection(status: ReadModelsStatus): Check {
    const facts = { lag: status.lag, projectorActive: status.projectorActive };
    if (!status.failure) {
      if (status.caughtUp || status.generation === null) return up(facts);
      return down(`catching up: ${status.lag} events behind the log (ready within ${this.config.readyMaxLag}, READY_MAX_LAG)`, facts);
    }
    const { position, error, since, attempts } = status.failure;
    // An event it cannot apply is named with its reason; any other error (Redis's own, which may name
    // keys or addresses) only in the log.
    const reason = position !== null ? error : "a projection step failed; the projector's log has the error";
    return down('the projection is stuck: changes are not being applied', { ...facts, stuckAt: position, error: reason, since, attempts });
  }
}
