import { Query } from '@nestjs/cqrs';
import type { LiveFilterValue } from '../liveness.schema';
import { API_PREFIX } from '../../listings/views/listing-views';
import type { StoredBody } from '../../http/stored-body';
import type { BrowsePosition } from '../../search/search-index';

/** GET /api/v1/liveness: each listing's liveness, most popular first, narrowed to one state, a page at a time. */
export class ListLivenessQuery extends Query<StoredBody> {
  constructor(
    readonly state: LiveFilterValue | null,
    readonly limit: number,
    /** Where the page starts: after this listing of the browse order. */
    readonly after: BrowsePosition | null = null,
    readonly cursor: string | null = null,
  ) {
    super();
  }

  /** The request without its page: what a cursor is bound to. */
  get request(): string {
    return `${API_PREFIX}/liveness?${new URLSearchParams([...(this.state ? [['state', this.state]] : []), ['limit', String(this.limit)]])}`;
  }

  /** The canonical URL of the answer: its `_links.self`, and its key in the read cache. */
  get url(): string {
    return this.cursor === null ? this.request : `${this.request}&cursor=${this.cursor}`;
  }
}
