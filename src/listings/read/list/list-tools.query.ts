import { Query } from '@nestjs/cqrs';
import { API_PREFIX } from '../../views/listing-views';
import type { StoredBody } from '../../../http/stored-body';
import type { ListingFilters, ListingSort } from '../../../contract/listing-filters';
import type { BrowsePosition } from '../../../search/search-index';
import { filterParams } from '../listing-filters';
import type { OrderBy } from '../../../search/listing-order';

/** GET /api/v1/tools: every listing's summary, by popularity (or the order asked for), narrowed by filters, a page at a time. */
export class ListToolsQuery extends Query<StoredBody> {
  constructor(
    readonly filters: ListingFilters,
    readonly limit: number,
    /** The order asked for (null: by popularity). */
    readonly sort: ListingSort | null = null,
    /** Where the page starts: after this listing of the order. */
    readonly after: BrowsePosition | null = null,
    /** The cursor as sent (it names the page in the canonical URL). */
    readonly cursor: string | null = null,
  ) {
    super();
  }

  /** The order, as the index takes it (price in the unit of priceUnit). */
  get order(): OrderBy {
    return { by: this.sort ?? 'popular', priceUnit: this.sort === 'price' ? this.filters.priceUnit : null, modelKind: null };
  }

  /** The request without its page: what a cursor is bound to. */
  get request(): string {
    return `${API_PREFIX}/tools?${new URLSearchParams([...filterParams(this.filters), ...(this.sort ? [['sort', this.sort] as [string, string]] : []), ['limit', String(this.limit)]])}`;
  }

  /** The canonical URL of the answer: its `_links.self`, and its key in the read cache. */
  get url(): string {
    return this.cursor === null ? this.request : `${this.request}&cursor=${this.cursor}`;
  }
}
