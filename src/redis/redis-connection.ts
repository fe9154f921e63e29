import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { RedisKeys } from './redis-keys';
import { createClient, RedisClient } from './create-client';

export type { RedisClient };

/** How long start-up waits for Redis before going on (requests then fail fast with 503 until it is back). */
const READY_TIMEOUT_MS = 5000;

/**
 * The one Redis connection of a process (ioredis, auto-pipelined so that concurrent commands share round
 * trips), the key builder, and extra connections for blocking reads and transactions.
 *
 * The shared connection does not queue commands while disconnected: a request fails at once (503) instead
 * of hanging through reconnection attempts; background work retries on its own schedule.
 */
@Injectable()
export class RedisConnection implements OnModuleInit, OnApplicationShutdown {
  readonly client: RedisClient;
  readonly keys: RedisKeys;
  private readonly extra: RedisClient[] = [];

  constructor(private readonly config: AppConfig) {
    this.client = createClient(config, true, false);
    this.keys = new RedisKeys(config.namespace);
  }

  async onModuleInit(): Promise<void> {
    if (this.client.status === 'ready') return;
    const ready = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS);
      this.client.once('ready', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!ready) new Logger('redis').warn(`Redis not reachable after ${READY_TIMEOUT_MS} ms; what needs it fails until it is (the API answers 503)`);
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
