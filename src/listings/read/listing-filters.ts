import { LISTING_FILTERS, ListingFilters } from '../../contract/listing-filters';
import { filterParams, pairedPrice, parseFilterParams } from '../../http/filter-kinds';

export { filterParams };

/**
 * The filters of a request's query parameters (see LISTING_FILTERS; each kind is read as
 * src/http/filter-kinds.ts says). Each narrows the result; an unknown category finds nothing (it is not
 * an error), any other bad value is a 400 naming the parameter.
 */
export function parseFilters(params: Parameters<typeof parseFilterParams>[1]): ListingFilters {
  const filters = parseFilterParams(LISTING_FILTERS, params) as ListingFilters;
  pairedPrice(filters);
  return filters;
}
