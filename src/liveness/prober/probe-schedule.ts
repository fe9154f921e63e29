import { Injectable, Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppConfig, LivenessSettings } from '../../config/app-config';
import { RedisConnection } from '../../redis/redis-connection';
import { RedisLease } from '../../redis/redis-lease';
import { Census, LivenessProber } from './liveness-prober';

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
  private readonly lease: RedisLease;
  private held = false;

  constructor(
    private readonly prober: LivenessProber,
    redis: RedisConnection,
    config: AppConfig,
  ) {
    this.settings = config.liveness;
    this.lease = new RedisLease(redis.client, redis.keys.livenessLease, this.settings.leaseMs);
  }

  /** Runs passes until `signal` aborts; `onPass` is told each census. Releases the lease on the way out. */
  async run(signal: AbortSignal, onPass: (census: Census) => void, random: () => number = Math.random): Promise<void> {
    const beat = Math.max(100, Math.floor(this.settings.leaseMs / 3));
    let due = 0;
    try {
      while (!signal.aborted) {
        this.held = this.held ? await this.lease.renew() : await this.lease.tryAcquire();
        if (this.held && Date.now() >= due) {
          const renewing = setInterval(() => void this.lease.renew().then((held) => (this.held = held), () => (this.held = false)), beat);
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
      if (this.held) await this.lease.release().then(() => (this.held = false)).catch(() => undefined);
    }
  }

  /** Whether this process holds the lease now. */
  get holdsLease(): boolean {
    return this.held;
  }
}
