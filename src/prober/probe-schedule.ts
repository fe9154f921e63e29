import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppConfig, LivenessSettings } from '../config/app-config';
import { RedisConnection } from '../redis/redis-connection';
import { Census, LivenessProber } from './liveness-prober';

const RENEW_LUA = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE_LUA = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/**
 * The prober on a schedule: a pass every LIVENESS_INTERVAL_MS plus a random part of LIVENESS_JITTER_MS
 * (so that replicas and restarts do not fall into step), by whichever process holds the prober's lease in
 * Redis, renewed every third of LIVENESS_LEASE_MS while it runs and waits. A process that does not hold
 * it waits for it to lapse (its holder stopped or died), then takes it over and probes at once.
 */
@Injectable()
export class ProbeSchedule {
  private readonly logger = new Logger(ProbeSchedule.name);
  private readonly settings: LivenessSettings;
  readonly token = `${process.pid}-${randomUUID()}`;
  private held = false;

  constructor(
    private readonly prober: LivenessProber,
    private readonly redis: RedisConnection,
    config: AppConfig,
  ) {
    this.settings = config.liveness;
  }

  /** Runs passes until `signal` aborts; `onPass` is told each census. Releases the lease on the way out. */
  async run(signal: AbortSignal, onPass: (census: Census) => void, random: () => number = Math.random): Promise<void> {
    const beat = Math.max(100, Math.floor(this.settings.leaseMs / 3));
    let due = 0;
    try {
      while (!signal.aborted) {
        this.held = this.held ? await this.renew() : await this.acquire();
        if (this.held && Date.now() >= due) {
          const renewing = setInterval(() => void this.renew().then((held) => (this.held = held), () => (this.held = false)), beat);
          try {
            onPass(await this.prober.pass());
          } catch (error) {
            this.logger.error(`a pass of the prober failed: ${(error as Error).message}`);
          } finally {
            clearInterval(renewing);
          }
          due = Date.now() + this.settings.intervalMs + Math.floor(random() * this.settings.jitterMs);
        }
        // Ends at once when `signal` aborts.
        await sleep(this.held ? Math.min(beat, Math.max(0, due - Date.now())) : beat, undefined, { signal }).catch(() => undefined);
      }
    } finally {
      if (this.held) await this.release().catch(() => undefined);
    }
  }

  /** Whether this process holds the lease now. */
  get holdsLease(): boolean {
    return this.held;
  }

  private async acquire(): Promise<boolean> {
    return (await this.redis.client.set(this.redis.keys.livenessLease, this.token, 'PX', this.settings.leaseMs, 'NX')) === 'OK';
  }

  private async renew(): Promise<boolean> {
    return Number(await this.redis.client.eval(RENEW_LUA, 1, this.redis.keys.livenessLease, this.token, this.settings.leaseMs)) === 1;
  }

  private async release(): Promise<void> {
    await this.redis.client.eval(RELEASE_LUA, 1, this.redis.keys.livenessLease, this.token);
    this.held = false;
  }
}
