import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { performance } from 'node:perf_hooks';
import { Metrics } from '../../../operations/metrics';
import { SearchBudget } from '../../../operations/search-budget';
import { ResponseCache } from '../../../projections/response-cache';
import { LiveSearchIndex } from '../../../search/live-search-index';
import { API_PREFIX } from '../../views/listing-views';
import { storedBody, StoredBody } from '../../../http/stored-body';
import type { SearchAnswer } from '../../../search/search-index';
import { offsetCursor } from '../../../http/paging-cursor';
import { SearchToolsQuery } from './search-tools.query';

/**
 * Runs a search on this process's search index and builds the response, kept in the read cache under its
 * canonical URL until the catalog changes. A search the cache cannot answer spends from the client's
 * search budget first (429 past it), before it runs the search or joins the same search under way, and
 * its time is measured.
 */
@QueryHandler(SearchToolsQuery)
export class SearchToolsHandler implements IQueryHandler<SearchToolsQuery, StoredBody> {
  constructor(
    private readonly responses: ResponseCache,
    private readonly search: LiveSearchIndex,
    private readonly budget: SearchBudget,
    private readonly metrics: Metrics,
  ) {}

  async execute(query: SearchToolsQuery): Promise<StoredBody> {
    const cached = this.responses.cachedResponse(query.url);
    if (cached) return cached;
    await this.budget.spend(query.client);
    let found = 0;
    return this.responses.response(
      query.url,
      async () => {
        const index = await this.search.current();
        const started = performance.now();
        const answer = index.search(query.q, query.filters, { limit: query.limit, offset: query.offset }, query.sort);
        found = answer.total;
        const body = storedBody(this.body(query, answer));
        this.metrics.search((performance.now() - started) / 1000);
        return body;
      },
      () => found === 0,
    );
  }

  private body(query: SearchToolsQuery, found: SearchAnswer): string {
    const results = found.hits.map((hit) => `${hit.summary.slice(0, -1)},"score":${hit.score},"matched":${JSON.stringify(hit.matched)}}`);
    const end = query.offset + found.hits.length;
    const nextCursor = end < found.total ? offsetCursor(end, query.request) : null;
    const head = JSON.stringify({
      success: true,
      total: found.total,
      returned: found.hits.length,
      query: query.q,
      category: query.filters.category,
      limit: query.limit,
      filters: found.filters,
      sort: found.sort,
      terms: [...new Set(found.interpretation.flatMap((i) => i.matchedAs))],
      interpretation: found.interpretation,
      nextCursor,
    });
    const links = JSON.stringify({
      self: query.url,
      ...(nextCursor ? { next: `${query.request}&cursor=${nextCursor}` } : {}),
      categories: `${API_PREFIX}/tools/categories`,
      detail: `${API_PREFIX}/tools/{slug}`,
      compare: `${API_PREFIX}/tools/compare?ids={slugs}`,
    });
    return `${head.slice(0, -1)},"results":[${results.join(',')}],"_links":${links}}`;
  }
}
