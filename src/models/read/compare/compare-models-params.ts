import { badRequest } from '../../../http/problem';
import { type QueryParams, single } from '../../../http/query-params';
import { parsePriceUnit } from '../model-params';
import { CompareModelsQuery } from './compare-models.query';

export const MIN_COMPARE_MODELS = 2;
export const MAX_COMPARE_MODELS = 10;
/** The unit a comparison puts rates side by side in when the request names none. */
export const DEFAULT_COMPARE_UNIT = '1m-input-tokens';

/** `ids` (2 to 10 distinct model ids, comma-separated) and `priceUnit` (default 1m-input-tokens). */
export function compareModelsQueryOf(params: QueryParams): CompareModelsQuery {
  const raw = single(params, 'ids');
  if (raw === undefined || raw.trim() === '') {
    throw badRequest(`'ids' is required: ${MIN_COMPARE_MODELS} to ${MAX_COMPARE_MODELS} comma-separated model ids, e.g. ids=gpt-oss-120b,deepseek-v4-pro`, { parameter: 'ids' });
  }
  const ids = [...new Set(raw.split(',').map((id) => id.trim().toLowerCase()).filter(Boolean))];
  if (ids.length < MIN_COMPARE_MODELS || ids.length > MAX_COMPARE_MODELS) {
    throw badRequest(`'ids' must name ${MIN_COMPARE_MODELS} to ${MAX_COMPARE_MODELS} distinct model ids, got ${ids.length}`, { parameter: 'ids' });
  }
  return new CompareModelsQuery(ids, parsePriceUnit(params) ?? DEFAULT_COMPARE_UNIT);
}
