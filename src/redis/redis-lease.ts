import { randomUUID } from 'node:crypto';
import type { RedisClient } from './redis-connection';

const RENEW_LUA = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const DELETE_IF_HOLDS_LUA = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/** Deletes `key` only if it still holds `value` (what someone else wrote there since is left alone). */
export async function deleteIfHolds(client: RedisClient, key: string, value: string): Promise<void> {
  await client.eval(DELETE_IF_HOLDS_LUA, 1, key, value);
}

/**
 * A lease in Redis: `key` holds its holder's token, and expires by itself `ttlMs` after it was taken or
 * last renewed, so a holder that dies lets it go. Renewing and releasing touch it only while it is still
 * this holder's.
 */
export class RedisLease {
  readonly token = `${process.pid}-${randomUUID()}`;

  constructor(
    private readonly client: RedisClient,
    private readonly key: string,
    readonly ttlMs: number,
  ) {}

  async tryAcquire(): Promise<boolean> {
    return (await this.client.set(this.key, this.token, 'PX', this.ttlMs, 'NX')) === 'OK';
  }

  async renew(): Promise<boolean> {
    return Number(await this.client.eval(RENEW_LUA, 1, this.key, this.token, this.ttlMs)) === 1;
  }

  async release(): Promise<void> {
    await deleteIfHolds(this.client, this.key, this.token);
  }

  /** The token of whoever holds it, or null when nobody does. */
  async holder(): Promise<string | null> {
    return this.client.get(this.key);
  }
}
