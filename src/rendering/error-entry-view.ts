import { ErrorEntryDocument, errorEntryId } from '../error-reference/error-entry.document';
import type { CatalogState } from './catalog-state';
import { servedErrorFields } from './listing-views';

/** An entry of GET /api/v1/errors, with the provider's display name resolved from its listing. */
export function renderErrorEntry(entry: ErrorEntryDocument, state: CatalogState): string {
  return JSON.stringify({
    id: errorEntryId(entry),
    provider: entry.provider,
    providerName: state.cards.get(entry.provider)?.name ?? null,
    ...servedErrorFields(entry),
  });
}
