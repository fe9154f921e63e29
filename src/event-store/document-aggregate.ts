import { documentDigest } from './content-digest';
import { EventEnvelope, NewEvent } from './event-envelope';

/**
 * The life of a versioned document that editors publish in full, revise in full, and withdraw: what
 * listings and error entries have in common. `decide*` and `evolve` are pure: no I/O, no clock.
 */
export interface DocumentState<D> {
  version: number;
  /** The current document; null when never published or withdrawn. */
  document: D | null;
}

export interface DocumentEventTypes {
  published: string;
  revised: string;
  withdrawn: string;
}

export interface PublishedData<D> {
  document: D;
}
export interface RevisedData<D> {
  document: D;
  changedFields: string[];
  /** The changed fields' values before the revision (events from before it was recorded lack it). */
  before?: Record<string, unknown>;
  /** The editor overwrote changes made since the version their file was based on, on purpose (`ingest --force`). */
  forced?: { basedOn: number; overwrote: number };
}
export interface WithdrawnData {
  reason: string | null;
  /** What replaces it: slugs of other documents (a listing's successors). */
  replacedBy?: string[] | null;
}

export type Outcome = 'published' | 'revised' | 'unchanged' | 'withdrawn' | 'not-found' | 'conflict' | 'refused';

export interface Decision {
  outcome: Outcome;
  events: NewEvent[];
  changedFields?: string[];
  detail?: string;
  /** With events: the documentDigest of the document after them, null when there is none (withdrawn). */
  contentDigest?: string | null;
}

export class DocumentAggregate<D extends object> {
  constructor(
    readonly aggregateType: string,
    readonly types: DocumentEventTypes,
  ) {}

  initial(): DocumentState<D> {
    return { version: 0, document: null };
  }

  evolve(state: DocumentState<D>, event: EventEnvelope): DocumentState<D> {
    return { version: event.version, document: this.documentAfter(event) };
  }

  /**
   * The document an event of this aggregate leaves: the one it carries (every publishing event carries
   * the whole document), or null when it withdraws it. The one place that reads documents out of
   * events: aggregates, projections, the search index and rebuilds all go through it.
   */
  documentAfter(event: Pick<EventEnvelope, 'type' | 'data'> & { position?: string }): D | null {
    switch (event.type) {
      case this.types.published:
      case this.types.revised:
        return (event.data as PublishedData<D>).document;
      case this.types.withdrawn:
        return null;
      default:
        throw new UnknownEventTypeError(this.aggregateType, event.type, event.position);
    }
  }

  fold(events: EventEnvelope[]): DocumentState<D> {
    return events.reduce((state, event) => this.evolve(state, event), this.initial());
  }

  /**
   * Publish or revise with a full document. `baseVersion`, when given, is the version the editor's
   * change was based on: if someone else changed the document since, that is a conflict to report,
   * never an overwrite. `digest` is the document's documentDigest when the caller has it already (a bulk
   * import works it out on its reading threads).
   */
  decidePublish(state: DocumentState<D>, document: D, baseVersion?: number, digest?: string, forcedFrom?: number): Decision {
    const changedFields = state.document ? diffFields(state.document, document) : null;
    if (changedFields && changedFields.length === 0) return { outcome: 'unchanged', events: [] };
    if (baseVersion !== undefined && baseVersion !== state.version) {
      return {
        outcome: 'conflict',
        events: [],
        detail: `changed by someone else since version ${baseVersion} (now version ${state.version})`,
      };
    }
    const contentDigest = digest ?? documentDigest(document);
    if (!changedFields) {
      return { outcome: 'published', events: [{ type: this.types.published, data: { document } }], contentDigest };
    }
    return {
      outcome: 'revised',
      changedFields,
      events: [{ type: this.types.revised, data: { document, changedFields, before: valuesOf(state.document!, changedFields), ...(forcedFrom !== undefined ? { forced: { basedOn: forcedFrom, overwrote: state.version } } : {}) } satisfies RevisedData<D> }],
      contentDigest,
    };
  }

  decideWithdraw(state: DocumentState<D>, reason: string | null, replacedBy: string[] | null = null): Decision {
    if (!state.document) return { outcome: 'not-found', events: [] };
    return {
      outcome: 'withdrawn',
      events: [{ type: this.types.withdrawn, data: { reason, ...(replacedBy?.length ? { replacedBy } : {}) } satisfies WithdrawnData }],
      contentDigest: null,
    };
  }
}

/** An event this version of the service does not know (a newer version may have written it). */
export class UnknownEventTypeError extends Error {
  constructor(
    readonly aggregateType: string,
    readonly type: string,
    readonly position?: string,
  ) {
    super(
      `${position ? `event ${position}` : 'an event'} has unknown type '${type}' (aggregate ${aggregateType}); ` +
        'is a newer version of the service writing to this store?',
    );
    this.name = 'UnknownEventTypeError';
  }
}

/** Names of the top-level fields whose values differ (order of `next`, then removed fields). */
export function diffFields(previous: object, next: object): string[] {
  const before = previous as Record<string, unknown>;
  const after = next as Record<string, unknown>;
  const changed: string[] = [];
  // A field a document did not have is null: a field added to the format changes nothing until it is given.
  for (const key of Object.keys(after)) {
    if (canonicalJson(before[key] ?? null) !== canonicalJson(after[key] ?? null)) changed.push(key);
  }
  for (const key of Object.keys(before)) {
    if (!(key in after)) changed.push(key);
  }
  return changed;
}

/** The values of some fields of a document (null for one it does not have). */
export function valuesOf(document: object, fields: string[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((field) => [field, (document as Record<string, unknown>)[field] ?? null]));
}

/** JSON with object keys sorted, so equal content compares equal whatever the key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return v;
  }) ?? 'undefined';
}
