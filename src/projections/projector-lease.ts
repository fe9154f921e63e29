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
  constructor(redis: RedisConnection, config: AppConfig) {
    super(redis.client, redis.keys.projectorLease, config.projectorLeaseMs);
  }
}
