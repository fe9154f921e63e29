import { Query } from '@nestjs/cqrs';
import { API_PREFIX } from '../../views/listing-views';
import type { StoredBody } from '../../../http/stored-body';
import type { ListingFilters, ListingSort } from '../../../contract/listing-filters';
import { filterParams } from '../listing-filters';

/** GET /api/v1/tools/search: ranked listings for `q` (browse by popularity without it), narrowed by filters. */
export class SearchToolsQuery extends Query<StoredBody> {
  constructor(
    /** The query text (null: browse). */
    readonly q: string | null,
    readonly filters: ListingFilters,
    readonly limit: number,
    /** The order asked for (null: relevance, or the order the words of q ask for). */
    readonly sort: ListingSort | null = null,
    /** Where the page starts in the ranking (from a cursor). */
    readonly offset = 0,
    /** The cursor as sent (it names the page in the canonical URL). */
    readonly cursor: string | null = null,
  ) {
    super();
  }

  /** Who asked (the client's address), whose budget a search the cache cannot answer spends; null: no budget. */
  client: string | null = null;

  /** The request without its page: what a cursor is bound to. */
  get request(): string {
    const params = new URLSearchParams([...(this.q ? [['q', this.q] as [string, string]] : []), ...filterParams(this.filters), ...(this.sort ? [['sort', this.sort] as [string, string]] : []), ['limit', String(this.limit)]]);
    return `${API_PREFIX}/tools/search?${params}`;
  }

  /** The canonical URL of the answer: its `_links.self`, and its key in the read cache. */
  get url(): string {
    return this.cursor === null ? this.request : `${this.request}&cursor=${this.cursor}`;
  }
}
