import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { newStoreIdentity } from '../event-store/event-store.service';
import type { ProjectionFailure } from './projection-failures';
import { ReadModelChanges } from './read-model-changes';
import { RedisClient, RedisConnection } from '../redis/redis-connection';
import { StoreStatus, storeProblem, StoreWatch } from './store-watch';

/** What this process knows of the read models and the projection, from its last look at Redis (see ReadModelWatcher). */
export interface ProjectionStatus {
  /** When Redis last answered this process's check (ms since the epoch; 0: never). */
  lastContact: number;
  generation: number | null;
  checkpoint: string | null;
  /** Events of the log the live read models have not applied yet. */
  lag: number;
  /** Whether a projector holds the lease. */
  projectorActive: boolean;
  /** Set while the projector cannot go on. */
  failure: ProjectionFailure | null;
  /** Whether the read models have been within READY_MAX_LAG of the log since this process started (or its store changed). */
  caughtUp: boolean;
  /** Whether Redis holds the store this process serves. */
  store: StoreStatus;
}

/** Told what one look at Redis found: the live generation and its checkpoint (`force`: a change was announced). */
export type ReadModelsLooked = (generation: number | null, checkpoint: string | null, force: boolean) => Promise<void>;

/**
 * Watches the read models for this process: hears the projector's announcements (this process's at once,
 * through ReadModelChanges; the others' on the Redis channel), and looks at Redis every READ_POLL_MS in
 * case one was missed. Each look is one read of the projection's state (live generation, checkpoint, lag,
 * lease, failure, the store's identity), kept for /readyz and /metrics, and handed to the reader.
 */
@Injectable()
export class ReadModelWatcher implements OnApplicationShutdown {
  private readonly logger = new Logger(ReadModelWatcher.name);
  private looks = 0;
  private timer: NodeJS.Timeout | null = null;
  private subscriber: RedisClient | null = null;
  private unsubscribe: (() => void) | null = null;
  private lastError: string | null = null;
  private known: Omit<ProjectionStatus, 'caughtUp' | 'store'> = { lastContact: 0, generation: null, checkpoint: null, lag: 0, projectorActive: false, failure: null };
  private readonly store = new StoreWatch((now, before) => this.storeChanged(now, before));
  /** Set once the read models are within READY_MAX_LAG of the log; until then the process is not ready. */
  private caughtUp = false;
  private readonly emptiedListeners: Array<() => void> = [];
  private looked: ReadModelsLooked = async () => undefined;

  constructor(
    private readonly redis: RedisConnection,
    private readonly config: AppConfig,
    private readonly changes: ReadModelChanges,
  ) {}

  /** Starts watching, telling `looked` after every look; resolves after the first. */
  async start(looked: ReadModelsLooked): Promise<void> {
    this.looked = looked;
    // A reader's failure is its own: it must not fail the projector that told it.
    this.unsubscribe ??= this.changes.subscribe(() => this.look(true).catch((error: Error) => this.failed(error)));
    this.timer ??= setInterval(() => void this.look().catch((error) => this.failed(error as Error)), this.config.readPollMs);
    this.timer.unref();
    await this.look();
    if (this.config.readCache && !this.subscriber) {
      this.subscriber = this.redis.dedicatedClient();
      this.subscriber.on('message', () => void this.look(true).catch((error) => this.failed(error as Error)));
      await this.subscriber.subscribe(this.redis.keys.changesChannel).catch((error) => {
        this.logger.warn(`no change notifications (${(error as Error).message}); checking every ${this.config.readPollMs} ms`);
      });
    }
  }

  /** What the last look found, without asking Redis. */
  status(): ProjectionStatus {
    return { ...this.known, caughtUp: this.caughtUp, store: this.store.status };
  }

  /** Whether Redis still holds the store this process serves: read on every request (no copy made). */
  storeStatus(): StoreStatus {
    return this.store.status;
  }

  /** Calls `listener` whenever the store this process serves is found emptied (RESEED_EMPTY_STORE). */
  onStoreEmptied(listener: () => void): void {
    this.emptiedListeners.push(listener);
  }

  /** Says why a look failed, once per error. */
  failed(error: Error): void {
    if (error.message === this.lastError) return;
    this.lastError = error.message;
    this.logger.warn(`cannot check the read models: ${error.message}`);
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.unsubscribe?.();
  }

  /** One look at the projection's state in Redis, handed to the reader (unless a newer look started meanwhile). */
  private async look(force = false): Promise<void> {
    const call = ++this.looks;
    const keys = this.redis.keys;
    // (Three commands in one round trip, not one: the event store and read-model control live in
    // different Redis Cluster slots.)
    const [[current, failure, holder], identity, length] = await Promise.all([
      this.redis.client.mget(keys.currentGeneration, keys.projectionFailure, keys.projectorLease),
      this.redis.client.get(keys.storeIdentity),
      this.redis.client.xlen(keys.events),
    ]);
    this.store.observe(identity, length);
    // A store written before stores had identities gets one now (any process may: the first wins).
    if (identity === null && length > 0 && !this.store.hasIdentity) await this.redis.client.set(keys.storeIdentity, newStoreIdentity(), 'NX');
    const generation = current === null ? null : Number(current);
    let checkpoint: string | null = null;
    let lag = 0;
    if (generation !== null) {
      const [stored, applied] = await this.redis.client.mget(keys.generation(generation).checkpoint, keys.generation(generation).appliedEvents);
      checkpoint = stored ?? null;
      lag = Math.max(0, length - Number(applied ?? 0));
    }
    if (call !== this.looks && !force) return; // a newer look started meanwhile: its answer wins
    if (!this.caughtUp && this.store.status.state === 'serving' && generation !== null && lag <= this.config.readyMaxLag) this.caughtUp = true;
    this.known = { lastContact: Date.now(), generation, checkpoint, lag, projectorActive: holder !== null, failure: failure ? (JSON.parse(failure) as ProjectionFailure) : null };
    this.lastError = null;
    await this.looked(generation, checkpoint, force);
  }

  /** Says what changed, and what to do; a changed store is caught up with again before the process is ready. */
  private storeChanged(now: StoreStatus, before: StoreStatus): void {
    if (before.begun === null) return;
    this.caughtUp = false;
    const problem = storeProblem(now);
    if (problem) this.logger.warn(problem);
    else if (before.state === 'emptied' && now.begun !== before.begun) this.logger.log(`the emptied store was seeded again (begun ${now.begun}): serving it once caught up`);
    else this.logger.log('Redis holds the store this process serves again: serving it once caught up');
    if (now.state === 'emptied') for (const listener of this.emptiedListeners) listener();
  }
}
