import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { RedisConnection } from '../redis/redis-connection';
import { RedisLease } from '../redis/redis-lease';

/**
 * A lease in Redis so that one projection runner is active at a time. It expires by itself when its
 * holder dies; the holder renews it on every step. Correctness never rests on the lease alone: every
 * batch is also a compare-and-set on the checkpoint.
 */
@Injectable()
export class ProjectorLease extends RedisLease {
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(redis: RedisConnection, config: AppConfig) {
    super(redis.client, redis.keys.projectorLease, config.projectorLeaseMs);
  }

  /**
   * Renews the lease on a timer (a third of its time) while `holding()` says it is held, so a long batch
   * or rebuild does not let it lapse; calls `lost` when a renewal finds it gone.
   */
  keepRenewing(holding: () => boolean, lost: () => void): void {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => {
      if (holding()) void this.renew().then((ok) => ok || lost()).catch(() => undefined);
    }, Math.max(100, Math.floor(this.ttlMs / 3)));
    this.heartbeat.unref();
  }

  stopRenewing(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }
}
