import { DocumentAggregate } from '../../event-store/document-aggregate';
import type { ModelEntryDocument } from './model-entry.document';

/** Aggregate type of model entries; the id is the entry's id (`gpt-oss-120b`). */
export const MODEL_ENTRY_AGGREGATE = 'model';

/** Stable event type strings of model entries. Never derived from class names. */
export const MODEL_ENTRY_PUBLISHED = 'ModelPublished';
export const MODEL_ENTRY_REVISED = 'ModelRevised';
export const MODEL_ENTRY_WITHDRAWN = 'ModelWithdrawn';

export const modelEntryAggregate = new DocumentAggregate<ModelEntryDocument>(MODEL_ENTRY_AGGREGATE, {
  published: MODEL_ENTRY_PUBLISHED,
  revised: MODEL_ENTRY_REVISED,
  withdrawn: MODEL_ENTRY_WITHDRAWN,
});
