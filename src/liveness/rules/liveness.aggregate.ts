import type { Liveness } from '../liveness.schema';
import { DocumentAggregate } from '../../event-store/document-aggregate';

/** Aggregate type of a listing's liveness in the event store; the aggregate id is the listing's slug. */
export const LIVENESS_AGGREGATE = 'liveness';

/** Stable event type strings of liveness. Never derived from class names. */
/** The first liveness the prober published for a listing; carries it whole. */
export const LIVENESS_PUBLISHED = 'LivenessPublished';
/** A change of a listing's state or of a target's; carries the whole new liveness, the fields changed and their values before. */
export const LIVENESS_CHANGED = 'LivenessChanged';
/** A listing's liveness no longer published (not written by this version; reserved so the log stays readable). */
export const LIVENESS_CLEARED = 'LivenessCleared';

/**
 * A listing's liveness as published: a document like a listing's, written by the prober instead of an
 * editor, so the event store, the projector, the search index and the change feed read it the way they
 * read the others (DocumentAggregate.documentAfter).
 */
export const livenessAggregate = new DocumentAggregate<Liveness>(LIVENESS_AGGREGATE, {
  published: LIVENESS_PUBLISHED,
  revised: LIVENESS_CHANGED,
  withdrawn: LIVENESS_CLEARED,
});
