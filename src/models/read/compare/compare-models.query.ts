import { Query } from '@nestjs/cqrs';
import type { ComparedRateUnit } from '../../../contract/vocabulary';
import type { StoredBody } from '../../../http/stored-body';
import { API_PREFIX } from '../../../listings/views/listing-views';

/** GET /api/v1/models/compare: 2 to 10 models side by side, with their lowest rates in one unit. */
export class CompareModelsQuery extends Query<StoredBody> {
  constructor(
    readonly ids: string[],
    readonly priceUnit: ComparedRateUnit,
  ) {
    super();
  }

  get url(): string {
    return `${API_PREFIX}/models/compare?ids=${this.ids.join(',')}&priceUnit=${this.priceUnit}`;
  }
}
