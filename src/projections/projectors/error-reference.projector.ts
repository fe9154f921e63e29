import { ErrorEntryDocument, errorEntryId } from '../../error-reference/error-entry.document';
import type { CatalogState } from '../catalog-state';

/** An entry of GET /api/v1/errors, with the provider's display name resolved from its listing. */
export function renderErrorEntry(entry: ErrorEntryDocument, state: CatalogState): string {
  return JSON.stringify({
    id: errorEntryId(entry),
    status: entry.status,
    provider: entry.provider,
    providerName: state.cards.get(entry.provider)?.name ?? null,
    title: entry.title,
    titleCn: entry.titleCn,
    cause: entry.cause,
    causeCn: entry.causeCn,
    fix: entry.fix,
    fixCn: entry.fixCn,
    curlExample: entry.curlExample,
  });
}
