import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

/** How long one window of measurement lasts; the worst delay of this window and the last one is reported. */
const WINDOW_MS = 10_000;

/**
 * How late this process's event loop has been lately: the longest delay in the last 10 to 20 seconds
 * (Node's own histogram, sampled every 20 ms). /readyz reads it to tell a late Redis from a busy process:
 * while the loop is blocked, nothing is read from Redis either, and Redis would be blamed for it.
 */
@Injectable()
export class EventLoopLag implements OnApplicationShutdown {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 20 });
  private previousMaxMs = 0;
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.histogram.enable();
    this.timer = setInterval(() => {
      this.previousMaxMs = this.histogram.max / 1e6;
      this.histogram.reset();
    }, WINDOW_MS).unref();
  }

  /** The longest event-loop delay of the last 10 to 20 seconds, in milliseconds. */
  recentMaxMs(): number {
    const current = this.histogram.count > 0 ? this.histogram.max / 1e6 : 0;
    return Math.max(this.previousMaxMs, current);
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }
}
