import { Injectable } from '@nestjs/common';
import { comparePositions, EventStore, START_POSITION } from '../event-store/event-store.service';
import { RedisConnection } from '../redis/redis-connection';
import { Generations } from './generations';
import type { ProjectionFailure } from './projection-failures';
import { ProjectionRunner } from './projection-runner.service';
import { ProjectorLease } from './projector-lease';
import { ReadModelChanges } from './read-model-changes';
import { setTimeout as sleep } from 'node:timers/promises';

/** Whether the read models show what a use case wrote: projected here, by a running service, or not yet. */
export type ProjectionOutcome = 'applied' | 'applied-by-service' | 'pending';


/**
 * The use cases' wait for the read models to show what they wrote (ingest and withdraw alike): projected
 * here when no other runner holds the projector lease, else by the runner that does; should that runner
 * go away (its lease expires), this process takes over and projects.
 */
@Injectable()
export class ProjectionWait {
  constructor(
    private readonly redis: RedisConnection,
    private readonly store: EventStore,
    private readonly generations: Generations,
    private readonly lease: ProjectorLease,
    private readonly runner: ProjectionRunner,
    private readonly changes: ReadModelChanges,
  ) {}

  /**
   * Makes the read models show everything in the log now, waiting at most `timeoutMs` (or until `signal`
   * fires); when they do not, `pendingBecause` says why in a sentence.
   */
  async untilProjected(timeoutMs: number, signal?: AbortSignal): Promise<{ projection: ProjectionOutcome; pendingBecause?: string }> {
    const last = await this.store.lastPosition();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (await this.runner.catchUp()) return { projection: 'applied' };
      if (await this.waitUntilProjected(last, Math.min(500, Math.max(0, deadline - Date.now())))) return { projection: 'applied-by-service' };
      if (signal?.aborted) return { projection: 'pending', pendingBecause: `the wait for the read models was stopped (${String(signal.reason)})` };
      if (Date.now() >= deadline) {
        const why = await this.whyNotProjecting();
        return { projection: 'pending', pendingBecause: `no projector applied the new events within ${Math.round(timeoutMs / 1000)} s, and this process could not take over: ${why}` };
      }
    }
  }

  /** Whether the live generation has applied every event of the log (an empty log has nothing to apply). */
  async isCaughtUp(): Promise<boolean> {
    const last = await this.store.lastPosition();
    return last === START_POSITION || (await this.shows(last)) !== null;
  }

  /** Waits until the live generation has applied the event at `position`. */
  async waitUntilProjected(position: string, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const checkpoint = await this.shows(position);
      if (checkpoint !== null) {
        // Callers in this process read right after: this process's readers must show it now.
        await this.changes.notify(checkpoint);
        return true;
      }
      await sleep(50);
    }
    return false;
  }

  /** The live generation's checkpoint when it has applied the event at `position`, else null. */
  private async shows(position: string): Promise<string | null> {
    const generation = await this.generations.current();
    if (generation === null) return null;
    const checkpoint = await this.redis.client.get(this.redis.keys.generation(generation).checkpoint);
    return checkpoint !== null && comparePositions(checkpoint, position) >= 0 ? checkpoint : null;
  }

  /**
   * Why this process cannot project now, in a sentence: who holds the projector lease and for how much
   * longer, and the failure the holder recorded, if any.
   */
  private async whyNotProjecting(): Promise<string> {
    const keys = this.redis.keys;
    const [holder, remainingMs, failure] = await Promise.all([
      this.lease.holder(),
      this.redis.client.pttl(keys.projectorLease),
      this.redis.client.get(keys.projectionFailure),
    ]);
    const held =
      holder === null
        ? 'the projector lease is free now'
        : `another projector holds the lease (${holder}; it lapses in ${Math.ceil(Math.max(0, remainingMs) / 1000)} s unless renewed)`;
    if (!failure) return held;
    const recorded = JSON.parse(failure) as ProjectionFailure;
    return `${held}; it reports: ${recorded.error} (since ${recorded.since}, ${recorded.attempts} attempt(s))`;
  }
}
