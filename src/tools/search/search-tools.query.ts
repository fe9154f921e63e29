import { Query } from '@nestjs/cqrs';
import { API_PREFIX } from '../../rendering/listing-views';
import type { StoredBody } from '../../rendering/stored-body';

/** GET /api/v1/tools/search: ranked listings for `q` (browse by popularity without it), within a category. */
export class SearchToolsQuery extends Query<StoredBody> {
  constructor(
    /** The query text (null: browse). */
    readonly q: string | null,
    /** A category slug (null: all). */
    readonly category: string | null,
    readonly limit: number,
  ) {
    super();
  }

  /** The canonical URL of the answer: its `_links.self`, and its key in the read cache. */
  get url(): string {
    const params = new URLSearchParams({ ...(this.q ? { q: this.q } : {}), ...(this.category ? { category: this.category } : {}), limit: String(this.limit) });
    return `${API_PREFIX}/tools/search?${params}`;
  }
}
