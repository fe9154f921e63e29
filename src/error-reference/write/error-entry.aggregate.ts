import { DocumentAggregate } from '../../event-store/document-aggregate';
import type { ErrorEntryDocument } from './error-entry.document';
import { ERROR_ENTRY_PUBLISHED, ERROR_ENTRY_REVISED, ERROR_ENTRY_WITHDRAWN } from './events/error-entry-events';

/** Aggregate type of error entries; the id is provider-status-title (see errorEntryId). */
export const ERROR_ENTRY_AGGREGATE = 'error-entry';

export const errorEntryAggregate = new DocumentAggregate<ErrorEntryDocument>(ERROR_ENTRY_AGGREGATE, {
  published: ERROR_ENTRY_PUBLISHED,
  revised: ERROR_ENTRY_REVISED,
  withdrawn: ERROR_ENTRY_WITHDRAWN,
});
