import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { CategoryCatalog } from '../catalog/category-catalog';
import { AppConfig } from '../config/app-config';
import { comparePositions, EventStore } from '../event-store/event-store.service';
import { RedisClient, RedisConnection } from '../redis/redis-connection';
import { GenerationProjector, READ_MODEL_VERSION, START_POSITION } from './generation-projector';
import { restoreAccepted } from '../redis/sorted-set-dump';
import { BuildPool } from './build/build-pool';
import { Generations } from './generations';
import { ProjectorLease } from './projector-lease';
import { ReadModelReader } from './read-model.reader';

export interface RebuildReport {
  generation: number;
  events: number;
  milliseconds: number;
  /** Where the time went, for operators: reading and indexing, rendering, catching up with new events. */
  phases: { indexMs: number; renderMs: number; catchUpMs: number };
}

/** Aggregates a rebuild hands to a builder at a time. */
const REBUILD_SHARE = 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Keeps the read models up to date: reads the global stream from the live generation's checkpoint and
 * applies it in batches (see GenerationProjector). Holds a lease so that one runner is active at a time;
 * resumes from the stored checkpoint after a crash. Also rebuilds a new generation from the whole log.
 */
@Injectable()
export class ProjectionRunner implements OnApplicationShutdown {
  private readonly logger = new Logger(ProjectionRunner.name);
  private readonly generations: Generations;
  private readonly lease: ProjectorLease;
  private transactions: RedisClient | null = null;
  private blocking: RedisClient | null = null;
  private projector: GenerationProjector | null = null;
  private checkpoint = START_POSITION;
  private holding = false;
  private running: Promise<void> | null = null;
  private stopping = false;
  private lastCleanup = 0;
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    private readonly redis: RedisConnection,
    private readonly store: EventStore,
    private readonly config: AppConfig,
    private readonly categories: CategoryCatalog,
    private readonly reader: ReadModelReader,
  ) {
    this.generations = new Generations(redis.client, redis.keys);
    this.lease = new ProjectorLease(redis.client, redis.keys.projectorLease, config.projectorLeaseMs);
  }

  /** Starts the background loop (the API process does this unless PROJECTOR=off). */
  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.running = this.loop();
    this.startHeartbeat();
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

  async stop(): Promise<void> {
    this.stopping = true;
    this.stopHeartbeat();
    await this.running;
    this.running = null;
    if (this.holding) await this.lease.release().catch(() => undefined);
    this.holding = false;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  get isHoldingLease(): boolean {
    return this.holding;
  }

  /**
   * Projects everything up to the end of the stream in this process, if no other runner holds the lease.
   * Returns false when another runner is active (it will apply the events).
   */
  async catchUp(): Promise<boolean> {
    if (!(await this.lease.tryAcquire())) return false;
    this.holding = true;
    this.startHeartbeat();
    try {
      while (this.holding && (await this.step(0))) {
        /* until the stream is drained, or the lease is lost (then the new holder finishes) */
      }
      return true;
    } finally {
      this.stopHeartbeat();
      await this.lease.release();
      this.holding = false;
    }
  }

  /** Waits until the live generation has applied the event at `position`. */
  async waitUntilProjected(position: string, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const generation = await this.generations.current();
      if (generation !== null) {
        const checkpoint = await this.redis.client.get(this.redis.keys.generation(generation).checkpoint);
        if (checkpoint && comparePositions(checkpoint, position) >= 0) {
          // Callers in this process read right after: make sure this process's cache shows it.
          await this.reader.refresh(true);
          return true;
        }
      }
      await sleep(50);
    }
    return false;
  }

  /**
   * Builds a new generation from the whole log, then makes it live in one step. Every event carries its
   * aggregate's full document, so the build reads the newest event of each aggregate (up to the log's
   * end when the rebuild starts), renders each document once, then catches up with what was appended
   * meanwhile, event by event, before switching.
   */
  async rebuild(onProgress?: (applied: number, total: number) => void): Promise<RebuildReport> {
    return (await this.buildGeneration(onProgress)).report;
  }

  /**
   * rebuild(), keeping what the build leaves: the new generation's projector, whose working memory is
   * complete (every card, error entry and dependency), and the checkpoint it caught up to. The runner
   * that holds the lease goes on with them: loading that memory again from the store took a 100,127-listing
   * import 5 s more.
   */
  private async buildGeneration(
    onProgress?: (applied: number, total: number) => void,
  ): Promise<{ report: RebuildReport; projector: GenerationProjector; checkpoint: string }> {
    const started = Date.now();
    await this.generations.deleteRetired();
    const { position: upTo, count: total } = await this.store.head();
    const generation = await this.generations.allocate();
    const projector = new GenerationProjector(this.txClient(), generation, this.redis.keys, this.categories);
    await projector.initialise();
    let applied = 0;
    const phases = { indexMs: 0, renderMs: 0, catchUpMs: 0 };
    const pool = BuildPool.start(
      { config: { ...this.config }, generation, categories: this.categories.all },
      this.config.projectorWorkers,
    );
    let checkpoint = upTo;
    try {
      const restore = await this.restoreAccepted(generation);
      const streams = await this.store.aggregateStreams();
      for (let i = 0; i < streams.length; i += REBUILD_SHARE) {
        await projector.buildChunk(streams.slice(i, i + REBUILD_SHARE), upTo, pool, (events) => {
          applied += events;
          onProgress?.(applied, total);
        });
      }
      const indexed = Date.now();
      phases.indexMs = indexed - started;
      await projector.renderDeferred(upTo, total, pool, restore, this.config.projectorBatchSize);
      await pool.close();
      const rendered = Date.now();
      phases.renderMs = rendered - indexed;
      for (;;) {
        const events = await this.store.readAll(checkpoint, this.config.projectorBatchSize);
        if (events.length === 0) break;
        if (!(await projector.applyBatch(events, checkpoint))) {
          throw new Error(`generation ${generation} was written by someone else during the rebuild`);
        }
        checkpoint = events[events.length - 1].position;
      }
      phases.catchUpMs = Date.now() - rendered;
      onProgress?.(total, total);
    } catch (error) {
      await pool.close();
      await projector.settle();
      await this.generations.discard(generation);
      throw error;
    }
    await this.generations.switchTo(generation);
    await this.notifyChanged();
    const report = { generation, events: total, milliseconds: Date.now() - started, phases };
    return { report, projector, checkpoint };
  }

  /** Goes on with a generation this runner has just built (see buildGeneration); its dictionary is in memory too. */
  private adopt(built: { projector: GenerationProjector; checkpoint: string }): GenerationProjector {
    this.projector = built.projector;
    this.checkpoint = built.checkpoint;
    return built.projector;
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      try {
        if (!(await this.ensureLease())) {
          await sleep(Math.min(1000, this.config.projectorLeaseMs / 2));
          continue;
        }
        await this.step(Math.min(1000, Math.floor(this.config.projectorLeaseMs / 3)));
        if (Date.now() - this.lastCleanup > 10_000) {
          this.lastCleanup = Date.now();
          await this.generations.deleteRetired();
        }
      } catch (error) {
        this.logger.error(`projection step failed, reloading: ${(error as Error).stack ?? error}`);
        this.projector = null;
        await sleep(1000);
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
      await new GenerationProjector(this.txClient(), fresh, this.redis.keys, this.categories).initialise();
      generation = await this.generations.adoptIfNone(fresh);
      if (generation !== fresh) await this.generations.discard(fresh);
    }
    if (this.projector?.generation === generation) return this.projector;
    const projector = new GenerationProjector(this.txClient(), generation, this.redis.keys, this.categories);
    const version = await projector.readModelVersion();
    if (version !== READ_MODEL_VERSION) {
      this.logger.warn(`generation ${generation} was built by read-model version ${version}; rebuilding as ${READ_MODEL_VERSION}`);
      return this.adopt(await this.buildGeneration());
    }
    this.checkpoint = await projector.load();
    this.projector = projector;
    return projector;
  }

  /** Tells every reader (this process's at once, the others by pub/sub) that the read models changed. */
  private async notifyChanged(): Promise<void> {
    this.reader.invalidate();
    await this.redis.client.publish(this.redis.keys.changesChannel, this.checkpoint).catch(() => undefined);
  }

  /** Whether Redis takes the index whole with RESTORE (said once when it does not: ZADD is several times slower). */
  private async restoreAccepted(generation: number): Promise<boolean> {
    const accepted = await restoreAccepted(this.txClient(), this.redis.keys.generation(generation).restoreProbe);
    if (!accepted && !this.restoreRefusalReported) {
      this.restoreRefusalReported = true;
      this.logger.warn('Redis refuses RESTORE (an ACL or a renamed command?): rebuilds write the search index with ZADD, several times slower');
    }
    return accepted;
  }
  private restoreRefusalReported = false;

  private txClient(): RedisClient {
    return (this.transactions ??= this.redis.dedicatedClient());
  }

  private blockingClient(): RedisClient {
    return (this.blocking ??= this.redis.dedicatedClient());
  }
}
