import { MODEL_FILTERS, MODEL_SORT, MODEL_SORTS, type ModelFilters, type ModelSort } from '../../contract/model-filters';
import { COMPARED_RATE_UNITS, type ComparedRateUnit } from '../../contract/vocabulary';
import { filterParams, pairedPrice, parseFilterParams } from '../../http/filter-kinds';
import { badRequest } from '../../http/problem';
import { type QueryParams, single } from '../../http/query-params';

export { filterParams };

/** The catalog's filters of a request (see MODEL_FILTERS); a bad value is a 400 naming its parameter. */
export function parseModelFilters(params: QueryParams): ModelFilters {
  const filters = parseFilterParams(MODEL_FILTERS, params) as ModelFilters;
  pairedPrice(filters, { unitAlone: true });
  return filters;
}

/** `sort`: relevance with q, popular without; price needs priceUnit (and maxPrice is not needed with it). */
export function parseModelSort(params: QueryParams, filters: ModelFilters): ModelSort {
  const raw = single(params, 'sort')?.trim().toLowerCase();
  if (!raw) return filters.q ? 'relevance' : 'popular';
  if (!(MODEL_SORTS as readonly string[]).includes(raw)) throw badRequest(`'sort' must be ${MODEL_SORT.expected}, got '${single(params, 'sort')}'`, { parameter: 'sort' });
  if (raw === 'price' && filters.priceUnit === null) {
    throw badRequest(`'sort=price' needs 'priceUnit', the unit prices are compared in (e.g. priceUnit=1m-input-tokens)`, { parameter: 'priceUnit' });
  }
  if (raw === 'relevance' && !filters.q) throw badRequest(`'sort=relevance' needs 'q', the words to rank by`, { parameter: 'sort' });
  return raw as ModelSort;
}

/** `priceUnit` on its own (a model's offers, a comparison): a rate unit but other, or null. */
export function parsePriceUnit(params: QueryParams): ComparedRateUnit | null {
  const raw = single(params, 'priceUnit')?.trim().toLowerCase();
  if (!raw) return null;
  if ((COMPARED_RATE_UNITS as readonly string[]).includes(raw)) return raw as ComparedRateUnit;
  throw badRequest(`'priceUnit' must be ${MODEL_FILTERS.priceUnit.expected}, got '${single(params, 'priceUnit')}'`, { parameter: 'priceUnit' });
}
