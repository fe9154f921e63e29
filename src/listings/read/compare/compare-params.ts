import { badRequest } from '../../../http/problem';
import { QueryParams, single } from '../../../http/query-params';
import { CompareToolsQuery } from './compare-tools.query';

export const MIN_COMPARE = 2;
export const MAX_COMPARE = 10;

/** The comparison's parameter: `ids`. Others are ignored. */
export function compareQueryOf(params: QueryParams): CompareToolsQuery {
  return new CompareToolsQuery(parseIds(single(params, 'ids')));
}

/** `ids`: required, comma-separated, 2 to 10 distinct slugs (case and spaces ignored, repeats merged). */
export function parseIds(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') {
    throw badRequest(`'ids' is required: ${MIN_COMPARE} to ${MAX_COMPARE} comma-separated tool slugs, e.g. ids=openai,anthropic`, {
      parameter: 'ids',
    });
  }
  const ids = [...new Set(raw.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean))];
  if (ids.length < MIN_COMPARE || ids.length > MAX_COMPARE) {
    throw badRequest(`'ids' must name ${MIN_COMPARE} to ${MAX_COMPARE} distinct tool slugs, got ${ids.length}`, { parameter: 'ids' });
  }
  return ids;
}
