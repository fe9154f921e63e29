import { badRequest } from '../../../http/problem';
import { parseLimit, QueryParams, single } from '../../../http/query-params';
import { ListingHistoryQuery } from './listing-history.query';

export const HISTORY_DEFAULT_LIMIT = 20;
export const HISTORY_MAX_LIMIT = 100;

/** `limit` (default 20, at most 100) and `before`: the version the page starts below (a page's `nextBefore`). */
export function historyQueryOf(slug: string, params: QueryParams): ListingHistoryQuery {
  const raw = single(params, 'before')?.trim();
  if (raw !== undefined && raw !== '' && !/^[1-9]\d{0,8}$/.test(raw)) throw badRequest(`'before' must be a version number (the nextBefore of a page), got '${raw}'`, { parameter: 'before' });
  return new ListingHistoryQuery(slug.toLowerCase(), parseLimit(single(params, 'limit'), HISTORY_DEFAULT_LIMIT, HISTORY_MAX_LIMIT), raw ? Number(raw) : null);
}
