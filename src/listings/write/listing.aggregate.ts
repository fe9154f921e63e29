import { DocumentAggregate } from '../../event-store/document-aggregate';
import { LISTING_PUBLISHED, LISTING_REVISED, LISTING_WITHDRAWN } from './events/listing-events';
import type { ListingDocument } from './listing.document';

/** Aggregate type of listings in the event store; the aggregate id is the slug. */
export const LISTING_AGGREGATE = 'listing';

/** The Listing aggregate: pure decide (publish, revise, withdraw) and evolve over its events. */
export const listingAggregate = new DocumentAggregate<ListingDocument>(LISTING_AGGREGATE, {
  published: LISTING_PUBLISHED,
  revised: LISTING_REVISED,
  withdrawn: LISTING_WITHDRAWN,
});
