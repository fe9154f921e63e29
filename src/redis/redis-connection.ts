import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Cluster, Redis } from 'ioredis';
import { AppConfig } from '../config/app-config';
import { RedisKeys } from './redis-keys';
import { defineScripts } from './scripts';

export type RedisClient = Redis | Cluster;

/**
 * The one Redis connection of a process (ioredis, auto-pipelined so that concurrent commands share round
 * trips), the key builder, and extra connections for blocking reads.
 */
@Injectable()
export class RedisConnection implements OnApplicationShutdown {
  readonly client: RedisClient;
  readonly keys: RedisKeys;
  private readonly extra: RedisClient[] = [];

  constructor(private readonly config: AppConfig) {
    this.client = createClient(config);
    this.keys = new RedisKeys(config.namespace);
  }

  /**
   * A connection of its own, without auto-pipelining: for commands that block (XREAD BLOCK) and for
   * WATCH/MULTI transactions, which must not share a connection with unrelated commands.
   */
  dedicatedClient(): RedisClient {
    const client = createClient(this.config, false);
    this.extra.push(client);
    return client;
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.client, ...this.extra].map((c) => c.quit().catch(() => c.disconnect())));
  }
}

export function createClient(config: AppConfig, autoPipelining = true): RedisClient {
  const common = { enableAutoPipelining: autoPipelining, maxRetriesPerRequest: 3 };
  const client: RedisClient =
    config.redisClusterNodes.length > 0
      ? new Cluster(
          config.redisClusterNodes.map((node) => {
            const [host, port] = node.split(':');
            return { host, port: Number(port) };
          }),
          { redisOptions: common, enableAutoPipelining: autoPipelining },
        )
      : new Redis(config.redisUrl, common);
  client.on('error', () => {
    /* ioredis reconnects by itself; commands fail and are reported where they are issued */
  });
  defineScripts(client);
  return client;
}
