import { Query } from '@nestjs/cqrs';
import type { StoredBody } from '../../../http/stored-body';
import { API_PREFIX } from '../../views/listing-views';

/** GET /api/v1/tools/{slug}/history: a listing's changes, newest first, a page at a time. */
export class ListingHistoryQuery extends Query<StoredBody> {
  constructor(
    readonly slug: string,
    readonly limit: number,
    /** The page starts below this version (null: from the newest). */
    readonly before: number | null,
  ) {
    super();
  }

  get url(): string {
    const params = new URLSearchParams([...(this.before !== null ? [['before', String(this.before)] as [string, string]] : []), ['limit', String(this.limit)]]);
    return `${API_PREFIX}/tools/${this.slug}/history?${params}`;
  }
}
