import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { ReadModelReader } from '../../projections/read-model.reader';
import { RedisConnection } from '../../redis/redis-connection';

/** /healthz: the process is up. /readyz: Redis answers and a generation of read models is live. */
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicator: HealthIndicatorService,
    private readonly redis: RedisConnection,
    private readonly readModels: ReadModelReader,
  ) {}

  @Get('healthz')
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  @Get('readyz')
  @HealthCheck()
  ready() {
    return this.health.check([
      async () => {
        const check = this.indicator.check('redis');
        try {
          await this.redis.client.ping();
          return check.up();
        } catch (error) {
          return check.down({ message: (error as Error).message });
        }
      },
      async () => {
        const check = this.indicator.check('readModels');
        const keys = await this.readModels.keys().catch(() => null);
        return keys ? check.up({ generation: keys.tag }) : check.down({ message: 'no read models yet' });
      },
    ]);
  }
}
