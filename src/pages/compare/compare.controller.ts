import { Controller, Get, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ListCategoriesQuery } from '../../categories/read/list-categories.query';
import { NO_FILTERS } from '../../contract/listing-filters';
import type { CategoriesResponse, CompareResponse, ListResponse } from '../../contract/responses';
import { ApiProblem } from '../../http/problem';
import type { QueryParams } from '../../http/query-params';
import { compareQueryOf } from '../../listings/read/compare/compare-params';
import { ListToolsQuery } from '../../listings/read/list/list-tools.query';
import { LiveSearchIndex } from '../../search/live-search-index';
import { MESSAGES } from '../messages';
import { PageErrorFilter } from '../page-errors.filter';
import { comparePath, langOfPath, PAGE_PATHS } from '../page-paths';
import { PageRenderer } from '../page-renderer';
import type { PageContext } from '../shared/layout';
import { ComparePage } from './compare';
import { compareText } from './compare-messages';

/** Listings offered to pick from. */
const COMPARE_CHOICES = 24;

/** `/compare` and `/zh/compare`: listings side by side, from the same comparison as /api/v1/tools/compare. */
@Controller()
@UseFilters(PageErrorFilter)
export class ComparePageController {
  constructor(
    private readonly pages: PageRenderer,
    private readonly search: LiveSearchIndex,
  ) {}

  /** The comparison of `ids` (one list, or the boxes of a form, each given as `ids`), plus `more` typed in (slugs or names). */
  @Get(['compare', 'zh/compare'])
  async compare(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const { pages } = this;
    const lang = langOfPath(request.url);
    const params = request.query as QueryParams;
    // Boxes give slugs; what is typed in `more` may be a slug or a listing's name ("Claude", "通义千问").
    const index = await this.search.current();
    const typed = [params.more].flat().filter((value): value is string => typeof value === 'string').flatMap((value) => value.split(','));
    const named = typed.map((entry) => entry.trim()).filter(Boolean).map((entry) => (index.has(entry.toLowerCase()) ? entry : (index.slugNamed(entry) ?? entry)));
    const given = [[params.ids].flat(), named].flat().filter((value): value is string => typeof value === 'string' && value.trim() !== '');
    if (given.length === 0) return pages.page(request, reply, lang, PAGE_PATHS.compare, async (ctx) => this.comparePage(ctx, [], null));
    let query;
    try {
      query = compareQueryOf({ ids: given.join(',') });
    } catch (error) {
      if (!(error instanceof ApiProblem)) throw error;
      const ids = given.join(',').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
      return pages.uncached(request, reply, lang, PAGE_PATHS.compare, error.status, (ctx) => this.comparePage(ctx, ids.slice(0, 10), null, compareText(lang).compareNeedTwo));
    }
    const ids = query.ids;
    try {
      return await pages.page(request, reply, lang, comparePath(ids), async (ctx) => this.comparePage(ctx, ids, await pages.read<CompareResponse>(query)));
    } catch (error) {
      // None of them can be compared: the picker, naming the unknown and the gone ones.
      if (!(error instanceof ApiProblem) || error.status !== 404) throw error;
      const { notFound: unknown = [], gone = [] } = error.extra as { notFound?: string[]; gone?: CompareResponse['gone'] };
      return pages.uncached(request, reply, lang, comparePath(ids), 404, (ctx) => this.comparePage(ctx, ids, null, null, unknown, gone));
    }
  }

  private async comparePage(ctx: PageContext, ids: string[], result: CompareResponse | null, error: string | null = null, unknown: string[] = [], gone: CompareResponse['gone'] = []) {
    const [popular, categories] = await Promise.all([this.pages.read<ListResponse>(new ListToolsQuery(NO_FILTERS, COMPARE_CHOICES)), this.pages.read<CategoriesResponse>(new ListCategoriesQuery())]);
    return ComparePage({ ctx, ids, result, notFound: unknown, gone, error, popular: popular.tools, categories });
  }
}
