import { LIVE_FILTER_VALUES, LiveFilterValue } from '../liveness.schema';
import { badRequest } from '../../http/problem';
import { MAX_LIMIT, parseLimit, QueryParams, single } from '../../http/query-params';
import { browsePositionOf } from '../../http/paging-cursor';
import { ListLivenessQuery } from './list-liveness.query';

/** The parameters of GET /api/v1/liveness: `state` (a listing state or unchecked), `limit` (default 100), `cursor`. */
export function listLivenessQueryOf(params: QueryParams): ListLivenessQuery {
  const state = parseState(single(params, 'state'));
  const first = new ListLivenessQuery(state, parseLimit(single(params, 'limit'), MAX_LIMIT));
  const cursor = single(params, 'cursor')?.trim() || null;
  const after = browsePositionOf(cursor, first.request);
  return after ? new ListLivenessQuery(state, first.limit, after, cursor) : first;
}

function parseState(given: string | undefined): LiveFilterValue | null {
  const raw = given?.trim().toLowerCase();
  if (!raw) return null;
  if ((LIVE_FILTER_VALUES as readonly string[]).includes(raw)) return raw as LiveFilterValue;
  throw badRequest(`'state' must be one of ${LIVE_FILTER_VALUES.join(', ')}, got '${given}'`, { parameter: 'state' });
}
