import { Query } from '@nestjs/cqrs';
import type { ComparedRateUnit } from '../../../contract/vocabulary';
import type { StoredBody } from '../../../http/stored-body';
import { API_PREFIX } from '../../../listings/views/listing-views';

/** GET /api/v1/models/{id}: one model with every offer (cheapest first in `priceUnit`, when given) and its history. */
export class GetModelQuery extends Query<StoredBody> {
  constructor(
    readonly id: string,
    readonly priceUnit: ComparedRateUnit | null = null,
  ) {
    super();
  }

  /** The canonical URL of the answer: its `_links.self`, and its key in the read cache. */
  get url(): string {
    return `${API_PREFIX}/models/${this.id}${this.priceUnit ? `?priceUnit=${this.priceUnit}` : ''}`;
  }
}
