import { Query } from '@nestjs/cqrs';
import { API_PREFIX } from '../../views/listing-views';
import type { StoredBody } from '../../../http/stored-body';
import type { ListingFilters } from '../../../contract/listing-filters';
import type { BrowsePosition } from '../../../search/search-index';
import { filterParams } from '../listing-filters';

/** GET /api/v1/tools: every listing's summary, by popularity, narrowed by filters, a page at a time. */
export class ListToolsQuery extends Query<StoredBody> {
  constructor(
    readonly filters: ListingFilters,
    readonly limit: number,
    /** Where the page starts: after this listing of the browse order. */
    readonly after: BrowsePosition | null = null,
    /** The cursor as sent (it names the page in the canonical URL). */
    readonly cursor: string | null = null,
  ) {
    super();
  }

  /** The request without its page: what a cursor is bound to. */
  get request(): string {
    return `${API_PREFIX}/tools?${new URLSearchParams([...filterParams(this.filters), ['limit', String(this.limit)]])}`;
  }

  /** The canonical URL of the answer: its `_links.self`, and its key in the read cache. */
  get url(): string {
    return this.cursor === null ? this.request : `${this.request}&cursor=${this.cursor}`;
  }
}
