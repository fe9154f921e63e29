import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Categories } from '../../../categories/categories';
import { ResponseCache } from '../../../projections/response-cache';
import { LiveSearchIndex } from '../../../search/live-search-index';
import { API_PREFIX } from '../../views/listing-views';
import { storedBody, StoredBody } from '../../../http/stored-body';
import { browseCursor } from '../../../http/paging-cursor';
import { ListToolsQuery } from './list-tools.query';

/**
 * A page of the whole directory, most popular first (or in the order asked for), from this process's search index (which holds every
 * listing's summary). The cursor names the last listing of the page, so a page starts where the last one
 * ended even when listings are added or withdrawn in between.
 */
@QueryHandler(ListToolsQuery)
export class ListToolsHandler implements IQueryHandler<ListToolsQuery, StoredBody> {
  constructor(
    private readonly responses: ResponseCache,
    private readonly search: LiveSearchIndex,
    private readonly categories: Categories,
  ) {}

  execute(query: ListToolsQuery): Promise<StoredBody> {
    return this.responses.response(query.url, async () => {
      const index = await this.search.current();
      const order = query.order;
      const page = index.browse(query.filters, { limit: query.limit, after: query.after ?? undefined }, order);
      const nextCursor = page.next ? browseCursor(page.next, query.request) : null;
      const head = JSON.stringify({
        success: true,
        total: page.total,
        returned: page.listings.length,
        limit: query.limit,
        filters: query.filters,
        sort: { ...order, withoutRate: page.withoutRate },
        nextCursor,
        categories: this.categories.all.map((c) => c.slug),
      });
      const links = {
        self: query.url,
        ...(nextCursor ? { next: `${query.request}&cursor=${nextCursor}` } : {}),
        search: `${API_PREFIX}/tools/search?q={query}`,
        compare: `${API_PREFIX}/tools/compare?ids={slugs}`,
        categories: `${API_PREFIX}/tools/categories`,
        detail: `${API_PREFIX}/tools/{slug}`,
      };
      const tools = page.listings.map((listing) => listing.summary).join(',');
      return storedBody(`${head.slice(0, -1)},"tools":[${tools}],"_links":${JSON.stringify(links)}}`);
    });
  }
}
