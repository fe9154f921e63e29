import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ReadModels } from '../../read-models/read-models.service';
import { API_PREFIX } from '../../rendering/listing-views';
import { storedBody, StoredBody } from '../../rendering/stored-body';
import { matchedFields } from '../../search/search-fields';
import type { SearchAnswer, SearchIndex } from '../../search/search-index';
import { buildSearchRequest, interpret } from '../../search/search-query';
import { SearchToolsQuery } from './search-tools.query';

/**
 * Runs a search on this process's search index and builds the response, kept in the read cache under its
 * canonical URL until the catalog changes.
 */
@QueryHandler(SearchToolsQuery)
export class SearchToolsHandler implements IQueryHandler<SearchToolsQuery, StoredBody> {
  constructor(private readonly readModels: ReadModels) {}

  async execute(query: SearchToolsQuery): Promise<StoredBody> {
    let found = 0;
    return this.readModels.response(
      query.url,
      async () => {
        const answer = this.run(query, await this.readModels.searchIndex());
        found = answer.total;
        return storedBody(this.body(query, answer));
      },
      () => found === 0,
    );
  }

  private run({ q, category, limit }: SearchToolsQuery, index: SearchIndex): SearchAnswer & { request: ReturnType<typeof buildSearchRequest> } {
    const request = buildSearchRequest(q, limit);
    const filter = category === null ? null : (doc: number) => index.listing(doc).listing.category === category;
    // A q with nothing searchable in it (only stop words or punctuation) finds nothing; it does not browse.
    if (q !== null && request.clauses.length === 0) return { request, total: 0, hits: [], notes: [] };
    if (request.clauses.length > 0) return { request, ...index.search(request, filter) };
    const page = index.browsePage(filter, 0, limit);
    const hits = page.docs.map((doc) => ({ slug: index.listing(doc).listing.slug, score: '0', mask: 0, summary: index.listing(doc).summary }));
    return { request, total: page.total, hits, notes: [] };
  }

  private body(query: SearchToolsQuery, answer: ReturnType<SearchToolsHandler['run']>): string {
    const interpretation = interpret(answer.request.clauses, answer.notes);
    const results = answer.hits.map((hit) => `${hit.summary.slice(0, -1)},"score":${hit.score},"matched":${JSON.stringify(matchedFields(hit.mask))}}`);
    const head = JSON.stringify({
      success: true,
      total: answer.total,
      returned: answer.hits.length,
      query: query.q,
      category: query.category,
      limit: query.limit,
      terms: [...new Set(interpretation.flatMap((i) => i.matchedAs))],
      interpretation,
    });
    const links = JSON.stringify({ self: query.url, categories: `${API_PREFIX}/tools/categories` });
    return `${head.slice(0, -1)},"results":[${results.join(',')}],"_links":${links}}`;
  }
}
