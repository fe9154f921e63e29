import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { datedSource } from '../../../contract/listing-facts';
import type { ModelDetail } from '../../../contract/model-views';
import { notFound } from '../../../http/problem';
import { storedBody, StoredBody } from '../../../http/stored-body';
import { ListingTimeline } from '../../../listings/read/timeline/listing-timeline';
import { API_PREFIX } from '../../../listings/views/listing-views';
import { ResponseCache } from '../../../projections/response-cache';
import { LiveSearchIndex } from '../../../search/live-search-index';
import { offersByPrice } from '../../views/model-views';
import { GetModelQuery } from './get-model.query';
import { modelHistory } from './model-history';

/**
 * One model: the catalog's view of it (every offer, its lifecycle and successors) from the model index,
 * and its history from the event log. An id no model has is a 404 that points to the catalog's search.
 */
@QueryHandler(GetModelQuery)
export class GetModelHandler implements IQueryHandler<GetModelQuery, StoredBody> {
  constructor(
    private readonly responses: ResponseCache,
    private readonly search: LiveSearchIndex,
    private readonly timeline: ListingTimeline,
  ) {}

  execute(query: GetModelQuery): Promise<StoredBody> {
    return this.responses.response(query.url, async () => {
      const view = (await this.search.currentModels()).get(query.id);
      if (!view) {
        throw notFound(`no model with id '${query.id}'; search the catalog with ${API_PREFIX}/models?q=${encodeURIComponent(query.id)}`, { id: query.id });
      }
      const { model } = view;
      const detail: ModelDetail = {
        ...model,
        offers: offersByPrice(model.offers, query.priceUnit),
        aliases: view.aliases,
        source: datedSource(view.entry?.source),
        history: await modelHistory(model.id, [...view.listings], this.timeline),
      };
      const links = {
        self: query.url,
        catalog: `${API_PREFIX}/models`,
        listings: model.offers.map((offer) => `${API_PREFIX}/tools/${offer.listing}`),
        ...(model.creatorListing ? { creator: `${API_PREFIX}/tools/${model.creatorListing}` } : {}),
        ...(model.lifecycle.replacedBy.length > 0 ? { successors: model.lifecycle.replacedBy.map((id) => `${API_PREFIX}/models/${id}`) } : {}),
      };
      return storedBody(JSON.stringify({ success: true, model: detail, _links: links }));
    });
  }
}
