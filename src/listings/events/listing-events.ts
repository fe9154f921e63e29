import type { PublishedData, RevisedData, WithdrawnData } from '../../event-store/document-aggregate';
import type { ListingDocument } from '../listing.document';

/** Stable event type strings of the Listing aggregate. Never derived from class names. */
export const LISTING_PUBLISHED = 'ListingPublished';
export const LISTING_REVISED = 'ListingRevised';
export const LISTING_WITHDRAWN = 'ListingWithdrawn';

/** A listing appeared (first time, or again after a withdrawal); carries the full document. */
export type ListingPublishedData = PublishedData<ListingDocument>;
/** A listing changed; carries the full new document and the names of the fields that changed. */
export type ListingRevisedData = RevisedData<ListingDocument>;
/** A listing was taken out of the directory. */
export type ListingWithdrawnData = WithdrawnData;
