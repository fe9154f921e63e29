/** What every stored event carries, whatever its aggregate. `type` strings are explicit and stable. */
export interface EventEnvelope<TData = unknown> {
  id: string;
  type: string;
  aggregateType: string;
  aggregateId: string;
  /** Version of the aggregate after this event, from 1. */
  version: number;
  occurredAt: string;
  actor: string;
  schemaVersion: number;
  data: TData;
}

/** An event as read back: the envelope plus its position (stream id) in the global order. */
export interface StoredEvent<TData = unknown> extends EventEnvelope<TData> {
  position: string;
}

/** An event a decision produced, before the store gives it an envelope. */
export interface NewEvent<TData = unknown> {
  type: string;
  data: TData;
}

export class ConcurrencyConflictError extends Error {
  constructor(
    readonly stream: string,
    readonly expectedVersion: number,
    readonly actualVersion: number,
  ) {
    super(`${stream}: expected version ${expectedVersion}, found ${actualVersion}`);
    this.name = 'ConcurrencyConflictError';
  }
}
