import { Controller, Get, Param, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ListCategoriesQuery } from '../../categories/read/list-categories.query';
import type { CategoriesResponse, ListResponse } from '../../contract/responses';
import { notFound } from '../../http/problem';
import type { QueryParams } from '../../http/query-params';
import { listQueryOf } from '../../listings/read/list/list-params';
import { PageErrorFilter } from '../page-errors.filter';
import { langOfPath, PAGE_PATHS, withQuery } from '../page-paths';
import { PAGE_SIZE, PageRenderer } from '../page-renderer';
import { CategoryPage } from './category';

/** `/categories/{slug}` and `/zh/categories/{slug}`: a category's listings, a page at a time. */
@Controller()
@UseFilters(PageErrorFilter)
export class CategoryPageController {
  constructor(private readonly pages: PageRenderer) {}

  @Get(['categories/:slug', 'zh/categories/:slug'])
  category(@Param('slug') slug: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const { pages } = this;
    const cursor = (request.query as QueryParams).cursor;
    const query = listQueryOf({ category: slug, limit: String(PAGE_SIZE), cursor });
    const category = query.filters.category!;
    return pages.page(request, reply, langOfPath(request.url), withQuery(PAGE_PATHS.category(category), [['cursor', query.cursor]]), async (ctx) => {
      const [list, categories] = await Promise.all([pages.read<ListResponse>(query), pages.read<CategoriesResponse>(new ListCategoriesQuery())]);
      const known = categories.categories.find((c) => c.slug === category);
      if (!known) throw notFound(`no category '${category}'`);
      return CategoryPage({
        ctx,
        category: known,
        list,
        categories,
        firstPage: query.cursor ? PAGE_PATHS.category(category) : null,
        nextPage: list.nextCursor ? withQuery(PAGE_PATHS.category(category), [['cursor', list.nextCursor]]) : null,
      });
    });
  }
}
