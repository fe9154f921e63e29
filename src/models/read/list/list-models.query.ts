import { Query } from '@nestjs/cqrs';
import type { ModelFilters, ModelSort } from '../../../contract/model-filters';
import type { StoredBody } from '../../../http/stored-body';
import { API_PREFIX } from '../../../listings/views/listing-views';
import { filterParams } from '../model-params';

/** GET /api/v1/models: the model catalog, filtered and ordered, a page at a time. */
export class ListModelsQuery extends Query<StoredBody> {
  constructor(
    readonly filters: ModelFilters,
    readonly sort: ModelSort,
    readonly limit: number,
    readonly offset = 0,
    /** The cursor as sent (it names the page in the canonical URL). */
    readonly cursor: string | null = null,
  ) {
    super();
  }

  /** The request without its page: what a cursor is bound to (filters in a fixed order). */
  get request(): string {
    return `${API_PREFIX}/models?${new URLSearchParams([...filterParams(this.filters), ['sort', this.sort], ['limit', String(this.limit)]])}`;
  }

  /** The canonical URL of the answer: its `_links.self`, and its key in the read cache. */
  get url(): string {
    return this.cursor === null ? this.request : `${this.request}&cursor=${this.cursor}`;
  }
}
