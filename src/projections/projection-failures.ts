import { Logger } from '@nestjs/common';
import { UnknownEventTypeError } from '../event-store/document-aggregate';
import { RedisConnection } from '../redis/redis-connection';

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
 * The projection runner's failures: each said once per event and error (the retries say nothing more),
 * and recorded in Redis so that every process's /readyz reports the projection as stuck.
 */
export class ProjectionFailures {
  private readonly logger = new Logger('ProjectionRunner');
  private failure: ProjectionFailure | null = null;

  constructor(private readonly redis: RedisConnection) {}

  /**
   * A step failed for the `attempts`-th time in a row. Returns whether the working memory may be kept: only
   * when the batch failed before changing anything (an event of an unknown type).
   */
  async failed(error: Error, attempts: number): Promise<boolean> {
    const unknownType = error instanceof UnknownEventTypeError;
    const position = unknownType ? (error.position ?? null) : null;
    const same = this.failure && this.failure.position === position && this.failure.error === error.message;
    if (!same) {
      if (unknownType) this.logger.error(`projection stopped: ${error.message}; retrying with a growing pause`);
      else this.logger.error(`projection step failed, retrying with a growing pause: ${error.stack ?? error.message}`);
      this.failure = { position, error: error.message, since: new Date().toISOString(), attempts };
    } else {
      this.failure!.attempts = attempts;
      this.logger.debug(`projection still failing (attempt ${attempts}): ${error.message}`);
    }
    await this.redis.client.set(this.redis.keys.projectionFailure, JSON.stringify(this.failure), 'PX', MAX_BACKOFF_MS * 3).catch(() => undefined);
    return unknownType;
  }

  /** A step succeeded after failures: said once, and the record cleared. */
  async recovered(): Promise<void> {
    if (this.failure) this.logger.log(`projection going on after ${this.failure.attempts} failed attempt(s)`);
    this.failure = null;
    await this.redis.client.del(this.redis.keys.projectionFailure);
  }
}
