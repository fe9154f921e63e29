import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Categories } from '../../../categories/categories';
import type { GoneListing, ToolDetailResponse } from '../../../contract/responses';
import type { ErrorEntryDocument } from '../../../error-reference/write/error-entry.document';
import { notFound } from '../../../http/problem';
import { ReadModels } from '../../../projections/read-models.service';
import { ResponseCache } from '../../../projections/response-cache';
import { LiveSearchIndex } from '../../../search/live-search-index';
import { SearchBudget } from '../../../operations/search-budget';
import { RenderState } from '../../views/render-state';
import { API_PREFIX, renderListing } from '../../views/listing-views';
import { splitEtag, storedBody, StoredBody } from '../../../http/stored-body';
import { goneProblem, ListingTimeline, retired } from '../timeline/listing-timeline';
import { GetToolQuery } from './get-tool.query';
import { NO_FILTERS } from '../../../contract/listing-filters';

/** How many listings an unknown slug's 404 names as what it may have meant. */
const CLOSEST = 3;

/**
 * The stored detail of a listing. A listing that was withdrawn, or that its provider retired, answers 410
 * naming when, why and what replaces it; an unknown slug is a 404 that names the closest listings
 * (`didYouMean`) and suggests a search. With `asOf`, the
 * listing as published at that moment, from the event log.
 */
@QueryHandler(GetToolQuery)
export class GetToolHandler implements IQueryHandler<GetToolQuery, StoredBody> {
  constructor(
    private readonly readModels: ReadModels,
    private readonly responses: ResponseCache,
    private readonly search: LiveSearchIndex,
    private readonly timeline: ListingTimeline,
    private readonly categories: Categories,
    private readonly budget: SearchBudget,
  ) {}

  async execute({ slug, asOf, client }: GetToolQuery): Promise<StoredBody> {
    if (asOf !== null) return this.asOf(slug, asOf);
    const stored = await this.readModels.detail(slug);
    if (!stored) {
      const gone = await this.timeline.withdrawn(slug);
      if (gone) throw goneProblem(gone);
      const closest = await this.closest(slug, client);
      const hint = closest.length > 0 ? `did you mean ${closest.join(', ')}? ` : '';
      throw notFound(`no tool with slug '${slug}'; ${hint}search with ${API_PREFIX}/tools/search?q=${encodeURIComponent(slug)}`, { slug, didYouMean: closest });
    }
    const gone = this.retiredOf(stored);
    if (gone) throw goneProblem(gone);
    return stored;
  }

  /**
   * The listings a mistyped slug most likely meant: the first few the search finds for its words that match
   * their text (the search forgives typos and knows names, Chinese names and aliases), best first. A search
   * like any other, so it spends from the client's search budget; past it the 404 names none. Words the
   * search reads as filters or an order (`free`, `cheapest`) match no text: a slug of those alone names none.
   */
  private async closest(slug: string, client: string | null): Promise<string[]> {
    const words = slug.replace(/[-_]+/g, ' ').trim();
    if (words === '' || !(await this.budget.trySpend(client))) return [];
    const index = await this.search.current();
    return index
      .search(words, NO_FILTERS, { limit: CLOSEST, offset: 0 })
      .hits.filter((hit) => hit.matched.length > 0)
      .map((hit) => hit.slug);
  }

  /**
   * Whether a stored body is of a retired listing, worked out once per body the read models hand out (they
   * hand out the same object until the listing changes): a listing with a retired model says "retired" too,
   * and would otherwise be parsed on every read.
   */
  private retiredOf(stored: StoredBody): GoneListing | null {
    let gone = this.retiredBodies.get(stored);
    if (gone === undefined) this.retiredBodies.set(stored, (gone = retired(stored.body)));
    return gone;
  }

  private readonly retiredBodies = new WeakMap<StoredBody, GoneListing | null>();

  /**
   * The listing as published at `moment`: its own fields and its liveness as they were, the listings it
   * named as similar and its provider's error entries as they are now (the log keeps each listing's past, not the
   * catalog's arrangement around it). 404 when it had never been published by then; 410 when it was
   * withdrawn at that moment.
   */
  private asOf(slug: string, moment: string): Promise<StoredBody> {
    return this.responses.response(`${API_PREFIX}/tools/${slug}?asOf=${moment}`, async () => {
      const { document, existed, withdrawal } = await this.timeline.documentAt(slug, moment);
      if (!document) {
        if (existed && withdrawal) {
          const data = withdrawal.data as { reason?: string | null; replacedBy?: string[] | null };
          throw goneProblem({ slug, status: 'withdrawn', since: withdrawal.occurredAt, reason: data.reason ?? null, replacedBy: data.replacedBy ?? [] });
        }
        throw notFound(`'${slug}' had not been published by ${moment}; its history: ${API_PREFIX}/tools/${slug}/history`, { slug });
      }
      const state = new RenderState();
      const liveness = await this.timeline.livenessAt(slug, moment);
      if (liveness) state.liveness.set(slug, liveness);
      const rows = await this.readModels.comparisons(document.similarApis);
      for (const row of rows) if (row) state.setCard({ similarApis: [], ...(JSON.parse(row) as Omit<Parameters<RenderState['setCard']>[0], 'similarApis'>) });
      for (const entry of (await this.readModels.errorEntries()).map((json) => JSON.parse(json) as ErrorEntryDocument & { id: string })) {
        if (entry.provider === slug) state.errors.set(entry.id, { ...entry, note: null });
      }
      const { detail } = renderListing(document, state, this.categories);
      const body = JSON.parse(splitEtag(detail).body.toString()) as ToolDetailResponse;
      body._links.self = `${API_PREFIX}/tools/${slug}?asOf=${moment}`;
      body._links.history = `${API_PREFIX}/tools/${slug}/history`;
      return storedBody(JSON.stringify({ success: true, asOf: moment, tool: body.tool, _links: body._links }));
    });
  }
}
