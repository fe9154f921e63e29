import { Query } from '@nestjs/cqrs';
import { API_PREFIX } from '../../views/listing-views';
import type { StoredBody } from '../../../http/stored-body';

/** GET /api/v1/tools/compare: the comparison rows of 2 to 10 listings, and which were not found. */
export class CompareToolsQuery extends Query<StoredBody> {
  constructor(readonly ids: string[]) {
    super();
  }

  /** The canonical URL of the answer: its `_links.self`, and its key in the read cache. */
  get url(): string {
    // Each id as a URL component: an unknown id may hold any text (`google gemini`, `x&ids=y`).
    return `${API_PREFIX}/tools/compare?ids=${this.ids.map(encodeURIComponent).join(',')}`;
  }
}
