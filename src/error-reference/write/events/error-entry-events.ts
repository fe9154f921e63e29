/** Stable event type strings of the ErrorEntry aggregate. */
export const ERROR_ENTRY_PUBLISHED = 'ErrorEntryPublished';
export const ERROR_ENTRY_REVISED = 'ErrorEntryRevised';
export const ERROR_ENTRY_WITHDRAWN = 'ErrorEntryWithdrawn';
