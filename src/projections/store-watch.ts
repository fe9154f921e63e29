/** Whether the store Redis holds is the one this process serves. */
export type StoreState = 'serving' | 'emptied' | 'replaced';

export interface StoreStatus {
  state: StoreState;
  /** When the store this process serves began (from its identity); null before it has seen one. */
  begun: string | null;
  /** When this process saw the store emptied or replaced; null while serving. */
  since: string | null;
  /** Of a replacement: when the store Redis holds now began. */
  otherBegun: string | null;
}

/** The time in an identity (`<uuid> <when>`). */
const begunOf = (identity: string) => identity.split(' ')[1] ?? null;

/**
 * Remembers which store (its identity, written with its first event) this process serves, and tells
 * when Redis holds none any more (restarted without its data, or flushed) or another one (REDIS_URL
 * now leads to another directory). A store emptied and then filled again (the operator seeded it) is
 * served from then on; a store replaced by another is not, until the process is restarted (a deliberate
 * act) or its own store is back (a failover to a replica of it).
 */
export class StoreWatch {
  private identity: string | null = null;
  private current: StoreStatus = { state: 'serving', begun: null, since: null, otherBegun: null };

  constructor(private readonly changed: (now: StoreStatus, before: StoreStatus) => void) {}

  get status(): StoreStatus {
    return this.current;
  }

  /** Whether the process has a store of its own yet (an old store may have no identity: see ReadModels). */
  get hasIdentity(): boolean {
    return this.identity !== null;
  }

  /** One look at Redis: the identity it holds (null: none) and how many events its log has. */
  observe(identity: string | null, events: number): void {
    if (this.identity === null) {
      if (identity !== null) this.adopt(identity);
      return;
    }
    if (identity === this.identity) return this.become({ state: 'serving', begun: begunOf(identity), since: null, otherBegun: null });
    if (identity === null) {
      // (No identity but events: not ours either.)
      if (events === 0) return this.become({ state: 'emptied', begun: this.current.begun, since: this.current.since ?? new Date().toISOString(), otherBegun: null });
      return this.become({ state: 'replaced', begun: this.current.begun, since: this.current.since ?? new Date().toISOString(), otherBegun: null });
    }
    // Emptied, then filled again: the operator seeded it (or RESEED_EMPTY_STORE did).
    if (this.current.state === 'emptied') return this.adopt(identity);
    this.become({ state: 'replaced', begun: this.current.begun, since: this.current.since ?? new Date().toISOString(), otherBegun: begunOf(identity) });
  }

  private adopt(identity: string): void {
    this.identity = identity;
    this.become({ state: 'serving', begun: begunOf(identity), since: null, otherBegun: null });
  }

  private become(next: StoreStatus): void {
    const before = this.current;
    this.current = next;
    if (before.state !== next.state || before.begun !== next.begun || before.otherBegun !== next.otherBegun) this.changed(next, before);
  }
}

/** What is wrong with the store, and what to do, in a sentence; null while serving. */
export function storeProblem(status: StoreStatus): string | null {
  switch (status.state) {
    case 'serving':
      return null;
    case 'emptied':
      return (
        'the store this process was serving is empty (Redis restarted without its data, or was flushed): seed it again ' +
        "(npm run ingest -- fixtures, or RESEED_EMPTY_STORE=on), or restore Redis's data; not ready until then"
      );
    case 'replaced':
      return (
        `Redis now holds another directory (${status.otherBegun ? `begun ${status.otherBegun}` : 'one without an identity'}) than the one this ` +
        `process was serving (begun ${status.begun}): restart this process to serve it, or point REDIS_URL back at its own store; not ready until then`
      );
  }
}
