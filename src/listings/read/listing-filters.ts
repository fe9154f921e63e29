import { LISTING_FILTERS, LISTING_SORT, LISTING_SORTS, ListingFilters, type ListingSort } from '../../contract/listing-filters';
import { filterParams, pairedPrice, parseFilterParams } from '../../http/filter-kinds';
import { badRequest } from '../../http/problem';
import { type QueryParams, single } from '../../http/query-params';

export { filterParams };

/**
 * The filters of a request's query parameters (see LISTING_FILTERS; each kind is read as
 * src/http/filter-kinds.ts says). Each narrows the result; an unknown category finds nothing (it is not
 * an error), any other bad value is a 400 naming the parameter. `priceUnit` goes with `maxPrice`, or
 * alone with `sort=price`.
 */
export function parseFilters(params: QueryParams): ListingFilters {
  const filters = parseFilterParams(LISTING_FILTERS, params) as ListingFilters;
  pairedPrice(filters, { unitAlone: single(params, 'sort')?.trim().toLowerCase() === 'price' });
  return filters;
}

/**
 * `sort` (null when not given: search orders by relevance, or as its words ask; the list by popularity).
 * `price` needs `priceUnit`; `relevance` needs the words of a search.
 */
export function parseListingSort(params: QueryParams, { search, q }: { search: boolean; q: string | null }): ListingSort | null {
  const raw = single(params, 'sort')?.trim().toLowerCase();
  if (!raw) return null;
  if (!(LISTING_SORTS as readonly string[]).includes(raw)) throw badRequest(`'sort' must be ${LISTING_SORT.expected}, got '${single(params, 'sort')}'`, { parameter: 'sort' });
  if (raw === 'price' && !single(params, 'priceUnit')?.trim()) {
    throw badRequest(`'sort=price' needs 'priceUnit', the unit rates are compared in (e.g. priceUnit=1m-input-tokens)`, { parameter: 'priceUnit' });
  }
  if (raw === 'relevance' && !(search && q)) throw badRequest(`'sort=relevance' needs 'q', the words of a search to rank by`, { parameter: 'sort' });
  return raw as ListingSort;
}
