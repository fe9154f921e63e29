import { offsetOf } from '../../../http/paging-cursor';
import { parseLimit, type QueryParams, single } from '../../../http/query-params';
import { parseModelFilters, parseModelSort } from '../model-params';
import { ListModelsQuery } from './list-models.query';

/** The catalog's parameters: the filters (q among them), `sort`, `limit` (default 20, at most 100), `cursor`. */
export function listModelsQueryOf(params: QueryParams): ListModelsQuery {
  const filters = parseModelFilters(params);
  const first = new ListModelsQuery(filters, parseModelSort(params, filters), parseLimit(single(params, 'limit')));
  const cursor = single(params, 'cursor')?.trim() || null;
  if (cursor === null) return first;
  return new ListModelsQuery(first.filters, first.sort, first.limit, offsetOf(cursor, first.request), cursor);
}
