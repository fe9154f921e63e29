import { badRequest } from '../../../http/problem';
import { parseLimit, QueryParams, single } from '../../../http/query-params';
import { parseFilters, parseListingSort } from '../listing-filters';
import { offsetOf } from '../../../http/paging-cursor';
import { SearchToolsQuery } from './search-tools.query';

export const MAX_QUERY_LENGTH = 200;

/** The search's parameters: `q` (at most 200 characters), the filters, `sort`, `limit`, `cursor`. Others are ignored. */
export function searchQueryOf(params: QueryParams): SearchToolsQuery {
  const q = parseSearchText(single(params, 'q'));
  const first = new SearchToolsQuery(q, parseFilters(params), parseLimit(single(params, 'limit')), parseListingSort(params, { search: true, q }));
  const cursor = single(params, 'cursor')?.trim() || null;
  if (cursor === null) return first;
  return new SearchToolsQuery(first.q, first.filters, first.limit, first.sort, offsetOf(cursor, first.request), cursor);
}

/**
 * `q` without leading blanks, and trailing blanks kept as one space: a last word followed by a space is
 * finished (`stri ` is not a prefix of stripe, `stri` is), so the two are different searches.
 */
export function parseSearchText(raw: string | undefined): string | null {
  const trimmed = raw?.trim() ?? '';
  // Characters as the OpenAPI document's maxLength counts them (code points: an emoji is one).
  const length = trimmed.length > MAX_QUERY_LENGTH ? [...trimmed].length : trimmed.length;
  if (length > MAX_QUERY_LENGTH) {
    throw badRequest(`'q' must be at most ${MAX_QUERY_LENGTH} characters, got ${length}`, { parameter: 'q' });
  }
  if (trimmed === '') return null;
  return /\s$/.test(raw!) ? `${trimmed} ` : trimmed;
}
