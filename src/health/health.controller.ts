import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { ReadModels } from '../read-models/read-models.service';

/** Redis must have answered this process's background check within this long. */
export const REDIS_SILENCE_MS = 5000;

/**
 * /healthz: the process is up. /readyz: it can serve what the directory holds: Redis answered lately,
 * read models are live, the search index has loaded, and the projection is not stuck. It answers from
 * what the process keeps (checked every second in the background), never from a round trip of its own,
 * so it stays quick when Redis is busy.
 */
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicator: HealthIndicatorService,
    private readonly readModels: ReadModels,
  ) {}

  @Get('healthz')
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  @Get('readyz')
  @HealthCheck()
  ready() {
    const status = this.readModels.status();
    return this.health.check([
      () => {
        const check = this.indicator.check('redis');
        const silentMs = Date.now() - status.lastContact;
        if (status.lastContact === 0) return check.down({ message: 'Redis has not answered yet' });
        return silentMs <= REDIS_SILENCE_MS ? check.up() : check.down({ message: `no answer from Redis for ${Math.round(silentMs / 1000)} s` });
      },
      () => {
        const check = this.indicator.check('readModels');
        return status.generation === null ? check.down({ message: 'no read models yet' }) : check.up({ generation: status.generation });
      },
      () => {
        const check = this.indicator.check('search');
        return status.searchReady ? check.up() : check.down({ message: 'the search index is loading' });
      },
      () => {
        const check = this.indicator.check('projection');
        const facts = { lag: status.lag, projectorActive: status.projectorActive };
        if (!status.failure) return check.up(facts);
        const { position, error, since, attempts } = status.failure;
        return check.down({ ...facts, message: 'the projection is stuck: changes are not being applied', stuckAt: position, error, since, attempts });
      },
    ]);
  }
}
