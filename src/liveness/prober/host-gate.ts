import { setTimeout as sleep } from 'node:timers/promises';

/**
 * One request at a time per host, with a pause between two: every request of the prober (redirects
 * included, whichever target they come from) takes the gate of its host first and lets it go when its
 * answer is read.
 */
export class HostGate {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly lastDone = new Map<string, number>();

  constructor(private readonly spacingMs: number) {}

  /** Waits for the host's turn (and the spacing after the last request to it); returns the release. */
  async take(host: string): Promise<() => void> {
    const key = host.toLowerCase();
    const before = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = before.then(() => mine);
    this.tails.set(key, tail);
    await before;
    const wait = (this.lastDone.get(key) ?? -Infinity) + this.spacingMs - Date.now();
    if (wait > 0) await sleep(wait);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.lastDone.set(key, Date.now());
      if (this.tails.get(key) === tail) this.tails.delete(key);
      release();
    };
  }
}
