import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { Categories } from '../categories/categories';
import { AppConfig } from '../config/app-config';
import { UnknownEventTypeError } from '../event-store/document-aggregate';
import { EventStore, START_POSITION } from '../event-store/event-store.service';
import { RedisClient, RedisConnection } from '../redis/redis-connection';
import { deleteIfHolds } from '../redis/redis-lease';
import { GenerationProjector, READ_MODEL_VERSION } from './generation-projector';
import { Generations } from './generations';
import { ProjectorLease } from './projector-lease';
import { ReadModelChanges } from './read-model-changes';

export interface RebuildReport {
  generation: number;
  events: number;
  milliseconds: number;
  /** Where the time went: reading every document, rendering and writing, catching up with new events. */
  phases: { readMs: number; renderMs: number; catchUpMs: number };
  /** Who built it: this process, or the running projector that `ingest rebuild` asked. */
  builtBy: 'this-process' | 'running-projector';
}

/** What the projection runner was told when it was registered. */
export const PROJECTION_OPTIONS = Symbol('PROJECTION_OPTIONS');
export interface ProjectionOptions {
  /** Start the runner with the application and stop it with it (the API process, unless PROJECTOR=off). */
  runInBackground: boolean;
}

/** What the runner records while it cannot go on (read by every process's /readyz). */
export interface ProjectionFailure {
  position: string | null;
  error: string;
  since: string;
  attempts: number;
}

/** Longest wait between two attempts at a step that keeps failing. */
const MAX_BACKOFF_MS = 60_000;

/** The pause after the `attempts`-th failure in a row: 1 s, doubling each time, at most a minute. */
export function retryPause(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(attempts - 1, 16));
}

/**
 * Keeps the read models up to date: reads the global stream from the live generation's checkpoint and
 * applies it in batches (see GenerationProjector). Holds a lease so that one runner is active at a time;
 * resumes from the stored checkpoint after a crash. Also rebuilds a new generation from the whole log.
 *
 * A step that fails is retried with a growing pause (up to a minute), logged once per event and error,
 * and recorded in Redis so that every process's /readyz reports the projection as stuck.
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
  private heartbeat: NodeJS.Timeout | null = null;
  private failure: ProjectionFailure | null = null;
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
  ) {}

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
    this.startHeartbeat();
  }

  /** Stops the loop, waits for the step under way and releases the lease. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.stopHeartbeat();
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
      this.startHeartbeat();
      try {
        await work();
        return true;
      } finally {
        if (!this.running) this.stopHeartbeat();
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
  async rebuild(onProgress?: (phase: 'read' | 'rendered', done: number, total: number) => void, timeoutMs = 30 * 60_000): Promise<RebuildReport> {
    let report: RebuildReport | null = null;
    const built = await this.whileHoldingLease(async () => {
      report = (await this.buildGeneration(onProgress)).report;
    });
    if (built) return report!;
    return this.askRunningProjector(timeoutMs);
  }

  private async askRunningProjector(timeoutMs: number): Promise<RebuildReport> {
    const started = Date.now();
    const before = await this.generations.current();
    const request = `${this.lease.token} ${new Date().toISOString()}`;
    await this.redis.client.set(this.redis.keys.rebuildRequest, request, 'PX', timeoutMs);
    while (Date.now() - started < timeoutMs) {
      await sleep(200);
      const [pending, current] = await this.redis.client.mget(this.redis.keys.rebuildRequest, this.redis.keys.currentGeneration);
      if (pending !== request && current !== null && Number(current) !== before) {
        return { generation: Number(current), events: await this.store.count(), milliseconds: Date.now() - started, phases: { readMs: 0, renderMs: 0, catchUpMs: 0 }, builtBy: 'running-projector' };
      }
      if (pending !== request && (await this.lease.holder()) === null && (await this.whileHoldingLease(async () => undefined))) {
        throw new Error('the running projector stopped before rebuilding; run `ingest rebuild` again');
      }
    }
    await deleteIfHolds(this.redis.client, this.redis.keys.rebuildRequest, request);
    throw new Error(`the running projector did not rebuild within ${Math.round(timeoutMs / 1000)} s`);
  }

  /**
   * Builds a new generation from the documents as of the log's end when the rebuild starts (every event
   * carries its aggregate's whole document), catches up with what was appended meanwhile, event by event,
   * and switches the live pointer to it. Keeps the new generation's projector: its working memory is
   * complete, and the runner that holds the lease goes on with it.
   */
  private async buildGeneration(
    onProgress?: (phase: 'read' | 'rendered', done: number, total: number) => void,
  ): Promise<{ report: RebuildReport; projector: GenerationProjector; checkpoint: string }> {
    const started = Date.now();
    await this.generations.deleteRetired();
    const { position: upTo, count: total } = await this.store.head();
    const generation = await this.generations.allocate();
    const projector = this.projectorOf(generation);
    let checkpoint = upTo;
    const phases = { readMs: 0, renderMs: 0, catchUpMs: 0 };
    try {
      await projector.initialise();
      await projector.build(upTo, total, (phase, done, of) => {
        if (phase === 'read' && phases.readMs === 0) phases.readMs = Date.now() - started;
        onProgress?.(phase, done, of);
      });
      const rendered = Date.now();
      phases.renderMs = rendered - started - phases.readMs;
      for (;;) {
        const events = await this.store.readAll(checkpoint, this.config.projectorBatchSize);
        if (events.length === 0) break;
        if (!(await projector.applyBatch(events, checkpoint))) {
          throw new Error(`generation ${generation} was written by someone else during the rebuild`);
        }
        checkpoint = events[events.length - 1].position;
      }
      phases.catchUpMs = Date.now() - rendered;
    } catch (error) {
      await this.generations.discard(generation);
      throw error;
    }
    await this.generations.switchTo(generation);
    this.checkpoint = checkpoint;
    await this.notifyChanged();
    const report: RebuildReport = { generation, events: total, milliseconds: Date.now() - started, phases, builtBy: 'this-process' };
    return { report, projector, checkpoint };
  }

  /** Goes on with a generation this runner has just built (see buildGeneration). */
  private adopt(built: { projector: GenerationProjector; checkpoint: string }): GenerationProjector {
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
          if (await this.redis.client.get(this.redis.keys.rebuildRequest)) {
            this.logger.log('rebuild requested (ingest rebuild): building a new generation');
            this.adopt(await this.buildGeneration());
            await this.redis.client.del(this.redis.keys.rebuildRequest);
          } else {
            await this.step(Math.min(1000, Math.floor(this.config.projectorLeaseMs / 3)));
          }
          return true;
        });
        if (!holding) {
          await sleep(Math.min(1000, this.config.projectorLeaseMs / 2), undefined, { signal }).catch(() => undefined);
          continue;
        }
        if (attempts > 0) await this.recovered();
        attempts = 0;
        if (Date.now() - this.lastCleanup > 10_000) {
          this.lastCleanup = Date.now();
          await this.generations.deleteRetired();
        }
      } catch (error) {
        attempts++;
        await this.failed(error as Error, attempts).catch(() => undefined);
        await sleep(retryPause(attempts), undefined, { signal }).catch(() => undefined);
      }
    }
  }

  /**
   * A step failed: said once per event and error (the retries say nothing more), recorded for /readyz.
   * The working memory is kept when the batch failed before changing anything (an event of an unknown
   * type); after anything else it is reloaded on the next attempt.
   */
  private async failed(error: Error, attempts: number): Promise<void> {
    const position = error instanceof UnknownEventTypeError ? (error.position ?? null) : null;
    const same = this.failure && this.failure.position === position && this.failure.error === error.message;
    if (!same) {
      if (error instanceof UnknownEventTypeError) this.logger.error(`projection stopped: ${error.message}; retrying with a growing pause`);
      else this.logger.error(`projection step failed, retrying with a growing pause: ${error.stack ?? error.message}`);
      this.failure = { position, error: error.message, since: new Date().toISOString(), attempts };
    } else {
      this.failure!.attempts = attempts;
      this.logger.debug(`projection still failing (attempt ${attempts}): ${error.message}`);
    }
    if (!(error instanceof UnknownEventTypeError)) this.projector = null;
    await this.redis.client.set(this.redis.keys.projectionFailure, JSON.stringify(this.failure), 'PX', MAX_BACKOFF_MS * 3);
  }

  private async recovered(): Promise<void> {
    if (this.failure) this.logger.log(`projection going on after ${this.failure.attempts} failed attempt(s)`);
    this.failure = null;
    await this.redis.client.del(this.redis.keys.projectionFailure);
  }

  /** Renews the lease on a timer too, so a long batch or rebuild does not let it lapse. */
  private startHeartbeat(): void {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => {
      if (this.holding) void this.lease.renew().then((ok) => ok || this.loseLease()).catch(() => undefined);
    }, Math.max(100, Math.floor(this.config.projectorLeaseMs / 3)));
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
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
