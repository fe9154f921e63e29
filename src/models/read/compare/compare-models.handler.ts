import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { ModelOffer } from '../../../contract/model-views';
import { notFound } from '../../../http/problem';
import { storedBody, StoredBody } from '../../../http/stored-body';
import { API_PREFIX } from '../../../listings/views/listing-views';
import { ResponseCache } from '../../../projections/response-cache';
import { LiveSearchIndex } from '../../../search/live-search-index';
import { offersByPrice } from '../../views/model-views';
import { CompareModelsQuery } from './compare-models.query';

/**
 * Models side by side: each as the catalog shows it (offers cheapest first in the unit), and one rate per
 * model in that unit: its lowest current US-dollar rate, who charges it and the page that says so. Ids
 * that are no model are named in notFound, never dropped; none found is a 404.
 */
@QueryHandler(CompareModelsQuery)
export class CompareModelsHandler implements IQueryHandler<CompareModelsQuery, StoredBody> {
  constructor(
    private readonly responses: ResponseCache,
    private readonly search: LiveSearchIndex,
  ) {}

  execute(query: CompareModelsQuery): Promise<StoredBody> {
    return this.responses.response(query.url, async () => {
      const index = await this.search.currentModels();
      const found = query.ids.map((id) => index.get(id));
      const notFoundIds = query.ids.filter((_, i) => !found[i]);
      const views = found.filter((view) => view !== null);
      if (views.length === 0) throw notFound(`none of the models ${query.ids.join(', ')} is in the catalog; search it with ${API_PREFIX}/models?q=`, { notFound: notFoundIds });
      const compared = views.map(({ model }) => ({ ...model, score: 0, offers: offersByPrice(model.offers, query.priceUnit) }));
      const rates = compared.map((model) => {
        const lowest = model.lowestRates.find((rate) => rate.unit === query.priceUnit) ?? null;
        const offer: ModelOffer | undefined = lowest ? model.offers.find((o) => o.listing === lowest.listing && o.modelId === lowest.modelId) : undefined;
        const rate = lowest && offer?.prices.find((r) => r.unit === query.priceUnit && r.price === lowest.price);
        return {
          id: model.id,
          price: lowest?.price ?? null,
          listing: lowest?.listing ?? null,
          modelId: lowest?.modelId ?? null,
          appliesTo: lowest?.appliesTo ?? null,
          source: rate ? (rate.source ?? offer!.source) : null,
        };
      });
      const links = { self: query.url, detail: `${API_PREFIX}/models/{id}`, catalog: `${API_PREFIX}/models` };
      return storedBody(JSON.stringify({ success: true, priceUnit: query.priceUnit, compared, rates, notFound: notFoundIds, _links: links }));
    });
  }
}
