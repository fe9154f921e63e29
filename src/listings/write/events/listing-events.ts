/** Stable event type strings of the Listing aggregate. Never derived from class names. */
export const LISTING_PUBLISHED = 'ListingPublished';
export const LISTING_REVISED = 'ListingRevised';
export const LISTING_WITHDRAWN = 'ListingWithdrawn';
