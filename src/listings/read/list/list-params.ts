import { MAX_LIMIT, parseLimit, QueryParams, single } from '../../../http/query-params';
import { parseFilters, parseListingSort } from '../listing-filters';
import { browsePositionOf } from '../../../http/paging-cursor';
import { ListToolsQuery } from './list-tools.query';

/** The list's default page: the whole page the public directory's list sends. */
export const LIST_DEFAULT_LIMIT = MAX_LIMIT;

/** The list's parameters: the filters, `sort`, `limit` (default 100), `cursor`. Others are ignored. */
export function listQueryOf(params: QueryParams): ListToolsQuery {
  const rawLimit = single(params, 'limit');
  const limit = rawLimit === undefined || rawLimit === '' ? LIST_DEFAULT_LIMIT : parseLimit(rawLimit);
  const first = new ListToolsQuery(parseFilters(params), limit, parseListingSort(params, { search: false, q: null }));
  const cursor = single(params, 'cursor')?.trim() || null;
  const after = browsePositionOf(cursor, first.request);
  return after ? new ListToolsQuery(first.filters, first.limit, first.sort, after, cursor) : first;
}
