import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { offsetCursor } from '../../../http/paging-cursor';
import { storedBody, StoredBody } from '../../../http/stored-body';
import { API_PREFIX } from '../../../listings/views/listing-views';
import { ResponseCache } from '../../../projections/response-cache';
import { LiveSearchIndex } from '../../../search/live-search-index';
import { modelSummaryJson } from '../../views/model-views';
import { ListModelsQuery } from './list-models.query';

/** A page of the model catalog, from this process's model index (see ModelIndex): filters and sorts answer from memory. */
@QueryHandler(ListModelsQuery)
export class ListModelsHandler implements IQueryHandler<ListModelsQuery, StoredBody> {
  constructor(
    private readonly responses: ResponseCache,
    private readonly search: LiveSearchIndex,
  ) {}

  execute(query: ListModelsQuery): Promise<StoredBody> {
    return this.responses.response(query.url, async () => {
      const index = await this.search.currentModels();
      const page = index.query(query.filters, query.sort, { offset: query.offset, limit: query.limit });
      const end = query.offset + page.models.length;
      const nextCursor = end < page.total ? offsetCursor(end, query.request) : null;
      const head = JSON.stringify({
        success: true,
        total: page.total,
        returned: page.models.length,
        limit: query.limit,
        filters: query.filters,
        sort: { by: query.sort, priceUnit: query.filters.priceUnit, withoutRate: page.withoutRate },
        nextCursor,
      });
      const links = {
        self: query.url,
        ...(nextCursor ? { next: `${query.request}&cursor=${nextCursor}` } : {}),
        detail: `${API_PREFIX}/models/{id}`,
        compare: `${API_PREFIX}/models/compare?ids={ids}`,
        listing: `${API_PREFIX}/tools/{listing}`,
      };
      const models = page.models.map(({ view, score }) => modelSummaryJson(view, score)).join(',');
      return storedBody(`${head.slice(0, -1)},"models":[${models}],"_links":${JSON.stringify(links)}}`);
    });
  }
}
