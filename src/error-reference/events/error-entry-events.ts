import type { PublishedData, RevisedData, WithdrawnData } from '../../event-store/document-aggregate';
import type { ErrorEntryDocument } from '../error-entry.document';

/** Stable event type strings of the ErrorEntry aggregate. */
export const ERROR_ENTRY_PUBLISHED = 'ErrorEntryPublished';
export const ERROR_ENTRY_REVISED = 'ErrorEntryRevised';
export const ERROR_ENTRY_WITHDRAWN = 'ErrorEntryWithdrawn';

export type ErrorEntryPublishedData = PublishedData<ErrorEntryDocument>;
export type ErrorEntryRevisedData = RevisedData<ErrorEntryDocument>;
export type ErrorEntryWithdrawnData = WithdrawnData;
