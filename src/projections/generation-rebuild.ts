import { setTimeout as sleep } from 'node:timers/promises';
import { AppConfig } from '../config/app-config';
import { EventStore } from '../event-store/event-store.service';
import { RedisConnection } from '../redis/redis-connection';
import { deleteIfHolds } from '../redis/redis-lease';
import type { GenerationProjector } from './generation-projector';
import { Generations } from './generations';
import { ProjectorLease } from './projector-lease';

export interface RebuildReport {
  generation: number;
  events: number;
  milliseconds: number;
  /** Where the time went: reading every document, rendering and writing, catching up with new events. */
  phases: { readMs: number; renderMs: number; catchUpMs: number };
  /** Who built it: this process, or the running projector that `ingest rebuild` asked. */
  builtBy: 'this-process' | 'running-projector';
}

export type RebuildProgress = (phase: 'read' | 'rendered', done: number, total: number) => void;

/** A generation built from the whole log and made live, with the projector that built it (its memory is complete). */
export interface BuiltGeneration {
  report: RebuildReport;
  projector: GenerationProjector;
  checkpoint: string;
}

/**
 * Builds a new generation of the read models from the whole log, or asks the running projector to (see
 * ProjectionRunner.rebuild, which decides which: only the lease holder builds).
 */
export class GenerationRebuild {
  constructor(
    private readonly redis: RedisConnection,
    private readonly store: EventStore,
    private readonly config: AppConfig,
    private readonly generations: Generations,
    private readonly lease: ProjectorLease,
    private readonly projectorOf: (generation: number) => GenerationProjector,
  ) {}

  /**
   * Builds a new generation from the documents as of the log's end when the rebuild starts (every event
   * carries its aggregate's whole document), catches up with what was appended meanwhile, event by event,
   * and switches the live pointer to it. The caller must hold the projector lease.
   */
  async build(onProgress?: RebuildProgress): Promise<BuiltGeneration> {
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
    const report: RebuildReport = { generation, events: total, milliseconds: Date.now() - started, phases, builtBy: 'this-process' };
    return { report, projector, checkpoint };
  }

  /**
   * Asks the runner that holds the lease (a running service) to rebuild, and waits until the live
   * generation changed. `leaseWasFree` takes the lease for a moment if nobody holds it: the runner asked
   * stopped, so nobody will rebuild.
   */
  async askRunningProjector(timeoutMs: number, leaseWasFree: () => Promise<boolean>): Promise<RebuildReport> {
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
      if (pending !== request && (await this.lease.holder()) === null && (await leaseWasFree())) {
        throw new Error('the running projector stopped before rebuilding; run `ingest rebuild` again');
      }
    }
    await deleteIfHolds(this.redis.client, this.redis.keys.rebuildRequest, request);
    throw new Error(`the running projector did not rebuild within ${Math.round(timeoutMs / 1000)} s`);
  }

  /** Whether a process (`ingest rebuild`) asked the lease holder to rebuild. */
  async requested(): Promise<boolean> {
    return (await this.redis.client.get(this.redis.keys.rebuildRequest)) !== null;
  }

  /** The request has been answered. */
  async answered(): Promise<void> {
    await this.redis.client.del(this.redis.keys.rebuildRequest);
  }
}
