import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { RedisClient, RedisConnection } from '../redis/redis-connection';

const RENEW_LUA = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE_LUA = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/**
 * A lease in Redis so that one projection runner is active at a time. It expires by itself when its
 * holder dies; the holder renews it on every step. Correctness never rests on the lease alone: every
 * batch is also a compare-and-set on the checkpoint.
 */
@Injectable()
export class ProjectorLease {
  readonly token = `${process.pid}-${randomUUID()}`;
  private readonly client: RedisClient;
  private readonly key: string;
  readonly ttlMs: number;

  constructor(redis: RedisConnection, config: AppConfig) {
    this.client = redis.client;
    this.key = redis.keys.projectorLease;
    this.ttlMs = config.projectorLeaseMs;
  }

  async tryAcquire(): Promise<boolean> {
    return (await this.client.set(this.key, this.token, 'PX', this.ttlMs, 'NX')) === 'OK';
  }

  async renew(): Promise<boolean> {
    return Number(await this.client.eval(RENEW_LUA, 1, this.key, this.token, this.ttlMs)) === 1;
  }

  async release(): Promise<void> {
    await this.client.eval(RELEASE_LUA, 1, this.key, this.token);
  }

  async holder(): Promise<string | null> {
    return this.client.get(this.key);
  }
}
