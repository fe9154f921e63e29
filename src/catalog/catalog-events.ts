import { UnknownEventTypeError } from '../event-store/document-aggregate';
import type { EventEnvelope } from '../event-store/event-envelope';
import { ERROR_ENTRY_AGGREGATE, errorEntryAggregate } from '../error-reference/write/error-entry.aggregate';
import type { ErrorEntryDocument } from '../error-reference/write/error-entry.document';
import { LISTING_AGGREGATE, listingAggregate } from '../listings/write/listing.aggregate';
import type { ListingDocument } from '../listings/write/listing.document';
import type { Liveness } from '../liveness/liveness.schema';
import { LIVENESS_AGGREGATE, livenessAggregate } from '../liveness/rules/liveness.aggregate';
import { MODEL_ENTRY_AGGREGATE, modelEntryAggregate } from '../models/write/model-entry.aggregate';
import type { ModelEntryDocument } from '../models/write/model-entry.document';

/** An event (its envelope, and its position in the log when read back). */
export type CatalogEvent = Pick<EventEnvelope, 'type' | 'aggregateType' | 'aggregateId' | 'data'> & { position?: string };

/** What a batch of events leaves behind, per aggregate: the final document, or null when withdrawn. */
export interface CatalogChanges {
  listings: Map<string, ListingDocument | null>;
  errors: Map<string, ErrorEntryDocument | null>;
  /** A listing's liveness as the prober last published it (by slug). */
  liveness: Map<string, Liveness | null>;
  /** Model entries, by id. */
  models: Map<string, ModelEntryDocument | null>;
}

/** Folds events, oldest first, into the final document of each aggregate they touch (see DocumentAggregate.documentAfter). */
export function foldCatalogEvents(events: Iterable<CatalogEvent>): CatalogChanges {
  const changes: CatalogChanges = { listings: new Map(), errors: new Map(), liveness: new Map(), models: new Map() };
  for (const event of events) {
    switch (event.aggregateType) {
      case LISTING_AGGREGATE:
        changes.listings.set(event.aggregateId, listingAggregate.documentAfter(event));
        break;
      case ERROR_ENTRY_AGGREGATE:
        changes.errors.set(event.aggregateId, errorEntryAggregate.documentAfter(event));
        break;
      case LIVENESS_AGGREGATE:
        changes.liveness.set(event.aggregateId, livenessAggregate.documentAfter(event));
        break;
      case MODEL_ENTRY_AGGREGATE:
        changes.models.set(event.aggregateId, modelEntryAggregate.documentAfter(event));
        break;
      default:
        throw new UnknownEventTypeError(event.aggregateType, event.type, event.position);
    }
  }
  return changes;
}
