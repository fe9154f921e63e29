import type { ErrorEntryDocument } from '../error-reference/write/error-entry.document';
import { ERROR_ENTRY_AGGREGATE } from '../error-reference/write/error-entry.aggregate';
import { ERROR_ENTRY_PUBLISHED, ERROR_ENTRY_REVISED, ERROR_ENTRY_WITHDRAWN } from '../error-reference/write/events/error-entry-events';
import { PublishedData, RevisedData, valuesOf, WithdrawnData } from '../event-store/document-aggregate';
import { UNPUBLISHED_ERROR_ENTRY_FIELDS, UNPUBLISHED_LISTING_FIELDS, UNPUBLISHED_MODEL_ENTRY_FIELDS } from '../contract/listing-views';
import type { StoredEvent } from '../event-store/event-envelope';
import { LISTING_AGGREGATE } from '../listings/write/listing.aggregate';
import { LIVENESS_AGGREGATE, LIVENESS_CHANGED, LIVENESS_CLEARED, LIVENESS_PUBLISHED } from '../liveness/rules/liveness.aggregate';
import { LISTING_PUBLISHED, LISTING_REVISED, LISTING_WITHDRAWN } from '../listings/write/events/listing-events';
import type { ListingDocument } from '../listings/write/listing.document';
import { MODEL_ENTRY_AGGREGATE, MODEL_ENTRY_PUBLISHED, MODEL_ENTRY_REVISED, MODEL_ENTRY_WITHDRAWN } from '../models/write/model-entry.aggregate';
import type { ModelEntryDocument } from '../models/write/model-entry.document';
import type { Change, ChangeKind, ChangeType } from '../contract/responses';
import { API_PREFIX } from '../listings/views/listing-views';
import { encodeChangeCursor } from './change-cursor';

/** A change with what a feed reader shows of it besides: the event's own id and the thing's name. */
export interface DescribedChange {
  change: Change;
  /** The event's id in the log (a UUID): never reused, so the Atom entry's id. */
  eventId: string;
  /** The listing's name, or the error entry's title; null for a withdrawal (its document is gone). */
  name: string | null;
}

/** What each event type of the log means in the feed. Types not named here are not shown. */
const MEANINGS: Record<string, { kind: ChangeKind; aggregateType: string; type: ChangeType }> = {
  [LISTING_PUBLISHED]: { kind: 'listing', aggregateType: LISTING_AGGREGATE, type: 'published' },
  [LISTING_REVISED]: { kind: 'listing', aggregateType: LISTING_AGGREGATE, type: 'revised' },
  [LISTING_WITHDRAWN]: { kind: 'listing', aggregateType: LISTING_AGGREGATE, type: 'withdrawn' },
  [ERROR_ENTRY_PUBLISHED]: { kind: 'error-entry', aggregateType: ERROR_ENTRY_AGGREGATE, type: 'published' },
  [ERROR_ENTRY_REVISED]: { kind: 'error-entry', aggregateType: ERROR_ENTRY_AGGREGATE, type: 'revised' },
  [ERROR_ENTRY_WITHDRAWN]: { kind: 'error-entry', aggregateType: ERROR_ENTRY_AGGREGATE, type: 'withdrawn' },
  // A listing's liveness: first published, then each change of its state or a target's (id: the listing's slug).
  [LIVENESS_PUBLISHED]: { kind: 'liveness', aggregateType: LIVENESS_AGGREGATE, type: 'published' },
  [LIVENESS_CHANGED]: { kind: 'liveness', aggregateType: LIVENESS_AGGREGATE, type: 'revised' },
  [LIVENESS_CLEARED]: { kind: 'liveness', aggregateType: LIVENESS_AGGREGATE, type: 'withdrawn' },
  [MODEL_ENTRY_PUBLISHED]: { kind: 'model', aggregateType: MODEL_ENTRY_AGGREGATE, type: 'published' },
  [MODEL_ENTRY_REVISED]: { kind: 'model', aggregateType: MODEL_ENTRY_AGGREGATE, type: 'revised' },
  [MODEL_ENTRY_WITHDRAWN]: { kind: 'model', aggregateType: MODEL_ENTRY_AGGREGATE, type: 'withdrawn' },
};

/** Whether the feed shows this event, and as what. */
export function meaningOf(event: Pick<StoredEvent, 'type' | 'aggregateType'>): { kind: ChangeKind; type: ChangeType } | null {
  const meaning = MEANINGS[event.type];
  return meaning && meaning.aggregateType === event.aggregateType ? meaning : null;
}

/** Fields of listings and error entries that are never published (the editor's note, a listing's domains): not named as changes. */
const UNPUBLISHED_FIELDS: Record<ChangeKind, ReadonlySet<string>> = {
  listing: new Set(UNPUBLISHED_LISTING_FIELDS),
  'error-entry': new Set(UNPUBLISHED_ERROR_ENTRY_FIELDS),
  liveness: new Set(),
  model: new Set(UNPUBLISHED_MODEL_ENTRY_FIELDS),
};

/** Where a reader finds the changed thing now: the listing's detail, or its provider's error list and listing. */
export function changeLinks(kind: ChangeKind, id: string, provider: string | null): Change['_links'] {
  if (kind === 'listing') return { self: `${API_PREFIX}/tools/${id}` };
  if (kind === 'liveness') return { self: `${API_PREFIX}/tools/${id}`, liveness: `${API_PREFIX}/liveness` };
  if (kind === 'model') return { self: `${API_PREFIX}/models/${id}` };
  if (provider === null) return { self: `${API_PREFIX}/errors` };
  return { self: `${API_PREFIX}/errors?provider=${encodeURIComponent(provider)}`, listing: `${API_PREFIX}/tools/${encodeURIComponent(provider)}` };
}

/**
 * The change an event of the log makes, or null for an event the feed does not show. `previous` is the
 * document before the event, read by the caller when `needsPrevious` says so: the values before an older
 * revision, and the provider of a withdrawn error entry (the withdrawal does not carry its document).
 */
export function describeEvent(event: StoredEvent, previous: object | null = null): DescribedChange | null {
  const meaning = meaningOf(event);
  if (!meaning) return null;
  const revised = meaning.type === 'revised' ? (event.data as RevisedData<object>) : null;
  const changedFields = revised ? (revised.changedFields ?? []).filter((field) => !UNPUBLISHED_FIELDS[meaning.kind].has(field)) : null;
  // A revision of nothing a reader sees (an editor's note only) is not a change to them.
  if (changedFields !== null && changedFields.length === 0) return null;
  const document = meaning.type === 'withdrawn' ? null : (event.data as PublishedData<object>).document;
  const listing = meaning.kind === 'listing' ? (document as ListingDocument | null) : null;
  const entry = meaning.kind === 'error-entry' ? (document as ErrorEntryDocument | null) : null;
  const model = meaning.kind === 'model' ? (document as ModelEntryDocument | null) : null;
  const name = listing?.name ?? entry?.title ?? model?.name ?? null;
  const entryProvider = entry?.provider ?? (previous as ErrorEntryDocument | null)?.provider ?? null;
  const change: Change = {
    cursor: encodeChangeCursor(event.position),
    type: meaning.type,
    kind: meaning.kind,
    id: event.aggregateId,
    version: event.version,
    occurredAt: event.occurredAt,
    changedFields,
    changes: revised && changedFields ? beforeAndAfter(revised, changedFields, previous) : null,
    reason: meaning.type === 'withdrawn' ? ((event.data as WithdrawnData).reason ?? null) : null,
    replacedBy: meaning.type === 'withdrawn' ? ((event.data as WithdrawnData).replacedBy ?? null) : null,
    _links: changeLinks(meaning.kind, event.aggregateId, entryProvider),
  };
  return { change, eventId: event.id, name };
}

/**
 * Each changed public field's value before and after a revision: `before` from the event (recorded since
 * it was added) or, for an older event, from the document before it (`previous`, read by the caller).
 */
function beforeAndAfter(revised: RevisedData<object>, fields: string[], previous: object | null): Change['changes'] {
  const before = revised.before ?? (previous ? valuesOf(previous, fields) : null);
  const after = valuesOf(revised.document, fields);
  return fields.map((field) => ({ field, before: before ? (before[field] ?? null) : null, after: after[field] }));
}

/** Whether describing this event needs the document before it: an older revision without `before`, or an error entry's withdrawal. */
export function needsPrevious(event: StoredEvent): boolean {
  const meaning = meaningOf(event);
  if (meaning?.type === 'withdrawn') return meaning.kind === 'error-entry';
  return meaning?.type === 'revised' && (event.data as RevisedData<object>).before === undefined;
}
