import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { Categories } from '../categories/categories';
import { AppConfig } from '../config/app-config';
import { EventStore, START_POSITION } from '../event-store/event-store.service';
import { RedisClient, RedisConnection } from '../redis/redis-connection';
import { GenerationProjector, READ_MODEL_VERSION } from './generation-projector';
import { BuiltGeneration, GenerationRebuild, RebuildProgress, RebuildReport } from './generation-rebuild';
import { Generations } from './generations';
import { ProjectionFailures, retryPause } from './projection-failures';
import { ProjectorLease } from './projector-lease';
import { ReadModelChanges } from './read-model-changes';

/** What the projection runner was told when it was registered. */
export const PROJECTION_OPTIONS = Symbol('PROJECTION_OPTIONS');
export interface ProjectionOptions {
  /** Start the runner with the application and stop it with it (the API process, unless PROJECTOR=off). */
  runInBackground: boolean;
}

/**
 * Keeps the read models up to date: reads the global stream from the live generation's checkpoint and
 * applies it in batches (see GenerationProjector). Holds a lease so that one runner is active at a time;
 * resumes from the stored checkpoint after a crash. Runs rebuilds too (see GenerationRebuild), when asked or
 * when far behind.
 *
 * A step that fails is retried with a growing pause (up to a minute), and recorded (see ProjectionFailures)
 * so that every process's /readyz reports the projection as stuck.
 */
@Injectable()
export class ProjectionRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ProjectionRunner.name);
  private transactions: RedisClient | null = null;
  private blocking: RedisClient | null = null;
  private projector: GenerationProjector | null = null;
  private checkpoint = START_POSITION;
  private holding = false;
  private running: Promise<void> | null = null;
  /** Aborted by stop(): ends the loop and the pause under way at once. */
  private stopping = new AbortController();
  private lastCleanup = 0;
  private readonly failures: ProjectionFailures;
  private readonly rebuilds: GenerationRebuild;
  /** The step, catch-up or rebuild under way: they share the working memory, so they run one at a time. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly redis: RedisConnection,
    private readonly store: EventStore,
    private readonly config: AppConfig,
    private readonly categories: Categories,
    private readonly generations: Generations,
    private readonly lease: ProjectorLease,
    private readonly changes: ReadModelChanges,
    @Inject(PROJECTION_OPTIONS) private readonly options: ProjectionOptions,
  ) {
    this.failures = new ProjectionFailures(redis);
    this.rebuilds = new GenerationRebuild(redis, store, config, generations, lease, (generation) => this.projectorOf(generation));
  }

  onApplicationBootstrap(): void {
    if (this.options.runInBackground) this.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  /** Starts the background loop (the API process does this unless PROJECTOR=off). */
  start(): void {
    if (this.running) return;
    this.stopping = new AbortController();
    this.running = this.loop(this.stopping.signal);
    this.lease.keepRenewing(() => this.holding, () => this.loseLease());
  }

  /** Stops the loop, waits for the step under way and releases the lease. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.lease.stopRenewing();
    await this.running;
    this.running = null;
    if (this.holding) await this.lease.release().catch(() => undefined);
    this.holding = false;
  }

  /**
   * Projects everything up to the end of the stream in this process, if no other runner holds the lease.
   * Returns false when another runner is active (it will apply the events).
   */
  async catchUp(): Promise<boolean> {
    return this.whileHoldingLease(async () => {
      while (this.holding && (await this.step(0))) {
        /* until the stream is drained, or the lease is lost (then the new holder finishes) */
      }
    });
  }

  /** Runs `work` holding the lease (renewed on a timer), if it is free; false when another runner holds it. */
  private whileHoldingLease(work: () => Promise<void>): Promise<boolean> {
    return this.exclusive(async () => {
      if (this.holding || !(await this.lease.tryAcquire())) return false;
      this.holding = true;
      this.projector = null;
      this.lease.keepRenewing(() => this.holding, () => this.loseLease());
      try {
        await work();
        return true;
      } finally {
        if (!this.running) this.lease.stopRenewing();
        await this.lease.release();
        this.holding = false;
      }
    });
  }

  /** Runs `work` once no other step, catch-up or rebuild of this runner is under way. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.turn.then(work);
    this.turn = result.catch(() => undefined);
    return result;
  }

  /**
   * Builds a new generation from the whole log and makes it live in one step, holding the projector lease
   * so that no other runner builds or applies meanwhile. When another runner holds it (a running
   * service), asks that runner to rebuild and waits until it has.
   */
  async rebuild(onProgress?: RebuildProgress, timeoutMs = 30 * 60_000): Promise<RebuildReport> {
    let report: RebuildReport | null = null;
    const built = await this.whileHoldingLease(async () => {
      report = (await this.buildGeneration(onProgress)).report;
    });
    if (built) return report!;
    return this.rebuilds.askRunningProjector(timeoutMs, () => this.whileHoldingLease(async () => undefined));
  }

  /** Builds a new generation (see GenerationRebuild.build) and tells every reader it is live. */
  private async buildGeneration(onProgress?: RebuildProgress): Promise<BuiltGeneration> {
    const built = await this.rebuilds.build(onProgress);
    this.checkpoint = built.checkpoint;
    await this.notifyChanged();
    return built;
  }

  /** Goes on with a generation this runner has just built (see buildGeneration). */
  private adopt(built: BuiltGeneration): GenerationProjector {
    this.projector = built.projector;
    this.checkpoint = built.checkpoint;
    return built.projector;
  }

  private async loop(signal: AbortSignal): Promise<void> {
    let attempts = 0;
    while (!signal.aborted) {
      try {
        const holding = await this.exclusive(async () => {
          if (!(await this.ensureLease())) return false;
          if (await this.rebuilds.requested()) {
            this.logger.log('rebuild requested (ingest rebuild): building a new generation');
            this.adopt(await this.buildGeneration());
            await this.rebuilds.answered();
          } else {
            await this.step(Math.min(1000, Math.floor(this.config.projectorLeaseMs / 3)));
          }
          return true;
        });
        if (!holding) {
          await sleep(Math.min(1000, this.config.projectorLeaseMs / 2), undefined, { signal }).catch(() => undefined);
          continue;
        }
        if (attempts > 0) await this.failures.recovered();
        attempts = 0;
        if (Date.now() - this.lastCleanup > 10_000) {
          this.lastCleanup = Date.now();
          await this.generations.deleteRetired();
        }
      } catch (error) {
        attempts++;
        if (!(await this.failures.failed(error as Error, attempts))) this.projector = null;
        await sleep(retryPause(attempts), undefined, { signal }).catch(() => undefined);
      }
    }
  }

  private loseLease(): void {
    if (!this.holding) return;
    this.holding = false;
    this.projector = null;
    this.logger.warn('projector lease lost (expired or taken over); standing by');
  }

  private async ensureLease(): Promise<boolean> {
    if (this.holding) {
      if (!(await this.lease.renew())) this.loseLease();
      return this.holding;
    }
    this.holding = await this.lease.tryAcquire();
    if (this.holding) this.projector = null;
    return this.holding;
  }

  /** One batch: returns true when events were applied. `blockMs` 0 means do not wait for new events. */
  private async step(blockMs: number): Promise<boolean> {
    const projector = await this.ensureProjector();
    const batch = this.config.projectorBatchSize;
    const events =
      blockMs > 0
        ? await this.store.waitForEvents(this.blockingClient(), this.checkpoint, batch, blockMs)
        : await this.store.readAll(this.checkpoint, batch);
    if (events.length === 0) return false;
    if (events.length === batch && (await projector.lag(await this.store.count())) > this.config.projectorRebuildLag) {
      // Far behind (a bulk import): building a new generation renders each document once, where
      // replaying would render documents again and again as what they show arrives.
      this.logger.log(`projection is more than ${this.config.projectorRebuildLag} events behind: rebuilding instead of replaying`);
      this.adopt(await this.buildGeneration());
      return true;
    }
    if (await projector.applyBatch(events, this.checkpoint)) {
      this.checkpoint = events[events.length - 1].position;
      await this.notifyChanged();
    } else {
      this.projector = null;
    }
    return true;
  }

  /** The projector of the live generation, (re)loaded when the live generation changed. */
  private async ensureProjector(): Promise<GenerationProjector> {
    let generation = await this.generations.current();
    if (generation === null) {
      const fresh = await this.generations.allocate();
      await this.projectorOf(fresh).initialise();
      generation = await this.generations.adoptIfNone(fresh);
      if (generation !== fresh) await this.generations.discard(fresh);
    }
    if (this.projector?.generation === generation) return this.projector;
    const projector = this.projectorOf(generation);
    const version = await projector.readModelVersion();
    if (version !== READ_MODEL_VERSION) {
      this.logger.warn(`generation ${generation} was built by read-model version ${version}; rebuilding as ${READ_MODEL_VERSION}`);
      return this.adopt(await this.buildGeneration());
    }
    this.checkpoint = await projector.load();
    this.projector = projector;
    return projector;
  }

  private projectorOf(generation: number): GenerationProjector {
    return new GenerationProjector(this.txClient(), generation, this.redis.keys.generation(generation), this.store, this.categories);
  }

  /** Tells every reader (this process's at once, the others by pub/sub) that the read models changed. */
  private async notifyChanged(): Promise<void> {
    await this.changes.notify(this.checkpoint);
    await this.redis.client.publish(this.redis.keys.changesChannel, this.checkpoint).catch(() => undefined);
  }

  private txClient(): RedisClient {
    return (this.transactions ??= this.redis.dedicatedClient());
  }

  private blockingClient(): RedisClient {
    return (this.blocking ??= this.redis.dedicatedClient());
  }
}
