import { badRequest } from '../../http/problem';
import { parseCategory, parseLimit, QueryParams, single } from '../../http/query-params';
import { SearchToolsQuery } from './search-tools.query';

export const MAX_QUERY_LENGTH = 200;

/** The search's parameters: `q` (at most 200 characters), `category`, `limit`. Others are ignored. */
export function searchQueryOf(params: QueryParams): SearchToolsQuery {
  return new SearchToolsQuery(parseSearchText(single(params, 'q')), parseCategory(single(params, 'category')), parseLimit(single(params, 'limit')));
}

export function parseSearchText(raw: string | undefined): string | null {
  const q = raw?.trim() ?? '';
  if (q.length > MAX_QUERY_LENGTH) {
    throw badRequest(`'q' must be at most ${MAX_QUERY_LENGTH} characters, got ${q.length}`, { parameter: 'q' });
  }
  return q === '' ? null : q;
}
