import { Cluster, Redis, RedisOptions } from 'ioredis';
import { readFileSync } from 'node:fs';
import type { AppConfig } from '../config/app-config';

export type RedisClient = Redis | Cluster;

/**
 * What every connection to the configured Redis needs beyond its URL: the certificate authorities of
 * REDIS_TLS_CA for TLS (rediss://; the system's otherwise). The URL carries the rest: host, port,
 * database, and a password or an ACL user and password.
 */
export function connectionOptions(config: AppConfig): RedisOptions {
  const tls = config.redisUrl.startsWith('rediss:');
  return tls && config.redisTlsCa !== null ? { tls: { ca: readFileSync(config.redisTlsCa) } } : {};
}

/** A client for the configured Redis (one server, or a cluster). */
export function createClient(config: AppConfig, autoPipelining = true, offlineQueue = true): RedisClient {
  const common: RedisOptions = {
    ...connectionOptions(config),
    enableAutoPipelining: autoPipelining,
    maxRetriesPerRequest: 3,
    enableOfflineQueue: offlineQueue,
    // A connection closed while Redis is unreachable is destroyed after this long: the default, 2 s, kept
    // a stopping process (and the test runner) alive that long with nothing to wait for.
    disconnectTimeout: 200,
  };
  const client: RedisClient =
    config.redisClusterNodes.length > 0
      ? new Cluster(
          config.redisClusterNodes.map((node) => {
            const [host, port] = node.split(':');
            return { host, port: Number(port) };
          }),
          { redisOptions: common, enableAutoPipelining: autoPipelining, enableOfflineQueue: offlineQueue },
        )
      : new Redis(config.redisUrl, common);
  client.on('error', () => {
    /* ioredis reconnects by itself; commands fail and are reported where they are issued */
  });
  return client;
}
