import { Query } from '@nestjs/cqrs';
import { API_PREFIX } from '../../rendering/listing-views';
import type { StoredBody } from '../../rendering/stored-body';

/** GET /api/v1/tools/compare: the comparison rows of 2 to 10 listings, and which were not found. */
export class CompareToolsQuery extends Query<StoredBody> {
  constructor(readonly ids: string[]) {
    super();
  }

  /** The canonical URL of the answer: its `_links.self`, and its key in the read cache. */
  get url(): string {
    return `${API_PREFIX}/tools/compare?ids=${this.ids.join(',')}`;
  }
}
