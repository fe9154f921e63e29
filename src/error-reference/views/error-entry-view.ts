import { ERROR_ENTRY_VIEW_FIELDS } from '../../contract/listing-views';
import { ErrorEntryDocument, errorEntryId } from '../write/error-entry.document';
import type { RenderState } from '../../listings/views/render-state';
import { API_PREFIX } from '../../listings/views/listing-views';

/** The keys of a served entry, in order (the editor's note is not among them). */
const SERVED_FIELDS = Object.keys(ERROR_ENTRY_VIEW_FIELDS);

/** An entry of GET /api/v1/errors, with its id and the provider's display name resolved from its listing. */
export function renderErrorEntry(entry: ErrorEntryDocument, state: RenderState): string {
  const view = {
    ...entry,
    id: errorEntryId(entry),
    providerName: state.cards.get(entry.provider)?.name ?? null,
    rateLimitsUrl: entry.status === 429 && state.cards.get(entry.provider)?.hasRateLimits ? `${API_PREFIX}/tools/${entry.provider}` : null,
  };
  return JSON.stringify(view, SERVED_FIELDS);
}
