import { Controller, Get, Param, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ListCategoriesQuery } from '../../categories/read/list-categories.query';
import type { CategoriesResponse, ToolDetailResponse } from '../../contract/responses';
import { GetToolQuery } from '../../listings/read/detail/get-tool.query';
import { PageErrorFilter } from '../page-errors.filter';
import { langOfPath, PAGE_PATHS } from '../page-paths';
import { PageRenderer } from '../page-renderer';
import { ListingPage } from './listing-page';

/** `/apis/{slug}` and `/zh/apis/{slug}`: a listing's page, from the same detail as /api/v1/tools/{slug}. */
@Controller()
@UseFilters(PageErrorFilter)
export class ListingPageController {
  constructor(private readonly pages: PageRenderer) {}

  @Get(['apis/:slug', 'zh/apis/:slug'])
  listing(@Param('slug') slug: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const { pages } = this;
    const query = new GetToolQuery(slug);
    query.client = request.ip;
    return pages.page(request, reply, langOfPath(request.url), PAGE_PATHS.listing(query.slug), async (ctx) => {
      const [detail, categories] = await Promise.all([pages.read<ToolDetailResponse>(query), pages.read<CategoriesResponse>(new ListCategoriesQuery())]);
      return ListingPage({ ctx, detail, categories });
    });
  }
}
