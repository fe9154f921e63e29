import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NO_FILTERS } from '../../contract/listing-filters';
import type { ToolSummary } from '../../contract/listing-views';
import { ResponseCache } from '../../projections/response-cache';
import { LiveSearchIndex } from '../../search/live-search-index';
import { API_PREFIX } from '../../listings/views/listing-views';
import { storedBody, StoredBody } from '../../http/stored-body';
import { browseCursor } from '../../http/paging-cursor';
import { ListLivenessQuery } from './list-liveness.query';

/**
 * A page of the listings' liveness, most popular first, from this process's search index (whose summaries
 * carry each listing's liveness, and which evaluates the state as the `live=` filter), with the count of
 * listings in each state. Kept in the read cache until the read models change, like every answer.
 */
@QueryHandler(ListLivenessQuery)
export class ListLivenessHandler implements IQueryHandler<ListLivenessQuery, StoredBody> {
  constructor(
    private readonly responses: ResponseCache,
    private readonly search: LiveSearchIndex,
  ) {}

  execute(query: ListLivenessQuery): Promise<StoredBody> {
    return this.responses.response(query.url, async () => {
      const index = await this.search.current();
      const page = index.browse({ ...NO_FILTERS, live: query.state }, { limit: query.limit, after: query.after ?? undefined });
      const nextCursor = page.next ? browseCursor(page.next, query.request) : null;
      const listings = page.listings.map(({ summary }) => {
        const { slug, name, liveness } = JSON.parse(summary) as ToolSummary;
        return { slug, name, liveness };
      });
      return storedBody(
        JSON.stringify({
          success: true,
          total: page.total,
          returned: listings.length,
          limit: query.limit,
          state: query.state,
          counts: index.liveCounts(),
          nextCursor,
          listings,
          _links: {
            self: query.url,
            ...(nextCursor ? { next: `${query.request}&cursor=${nextCursor}` } : {}),
            detail: `${API_PREFIX}/tools/{slug}`,
            filter: `${API_PREFIX}/tools?live={state}`,
            changes: `${API_PREFIX}/changes`,
          },
        }),
      );
    });
  }
}
