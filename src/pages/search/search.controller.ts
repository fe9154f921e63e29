import { Controller, Get, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ListCategoriesQuery } from '../../categories/read/list-categories.query';
import { ListTasksQuery } from '../../categories/read/list-tasks.query';
import { FILTER_NAMES } from '../../contract/listing-filters';
import type { CategoriesResponse, SearchResponse, TasksResponse } from '../../contract/responses';
import { ApiProblem } from '../../http/problem';
import type { QueryParams } from '../../http/query-params';
import { searchQueryOf } from '../../listings/read/search/search-params';
import { Lang, MESSAGES } from '../messages';
import { PageErrorFilter } from '../page-errors.filter';
import { langOfPath, PAGE_PATHS, searchPath } from '../page-paths';
import { PageRenderer } from '../page-renderer';
import { FilterValues, SearchPage } from './search';
import { searchText } from './search-messages';

/** `/search` and `/zh/search`: search results, with the same parameters and cursors as /api/v1/tools/search. */
@Controller()
@UseFilters(PageErrorFilter)
export class SearchPageController {
  constructor(private readonly pages: PageRenderer) {}

  @Get(['search', 'zh/search'])
  async search(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const { pages } = this;
    const lang = langOfPath(request.url);
    // The page's own size: `limit` is not one of its parameters (its cursors are those of the API's default page).
    const { limit: _ignored, ...params } = request.query as QueryParams;
    let query;
    try {
      query = searchQueryOf(params);
    } catch (error) {
      if (!(error instanceof ApiProblem) || error.status !== 400) throw error;
      return this.refused(request, reply, lang, params, error);
    }
    query.client = request.ip;
    const { q, filters, cursor, sort } = query;
    let found = 1;
    return pages.page(
      request,
      reply,
      lang,
      // (The page's path is its cache key: the order is part of it.)
      searchPath(q, filters, cursor, sort),
      async (ctx) => {
        const [result, categories, tasks] = await Promise.all([pages.read<SearchResponse>(query), pages.read<CategoriesResponse>(new ListCategoriesQuery()), pages.read<TasksResponse>(new ListTasksQuery())]);
        found = result.total;
        const values = Object.fromEntries(FILTER_NAMES.map((name) => [name, filters[name] === null ? '' : String(filters[name])])) as FilterValues;
        return SearchPage({
          ctx,
          q,
          values,
          categories,
          tasks: tasks.tasks,
          result,
          error: null,
          firstPage: cursor ? searchPath(q, filters, null, sort) : null,
          nextPage: result.nextCursor ? searchPath(q, filters, result.nextCursor, sort) : null,
          sort: sort ?? '',
        });
      },
      { isEmpty: () => found === 0 },
    );
  }

  /** A search the API refused (a bad filter value): the form with what was given and why, status 400. */
  private refused(request: FastifyRequest, reply: FastifyReply, lang: Lang, params: QueryParams, problem: ApiProblem): Promise<FastifyReply> {
    const { pages } = this;
    const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';
    const values = Object.fromEntries(FILTER_NAMES.map((name) => [name, first(params[name])])) as FilterValues;
    const parameter = typeof problem.extra.parameter === 'string' ? problem.extra.parameter : null;
    const error = lang === 'en' || !parameter ? problem.detail : `${searchText(lang).invalidParameter(parameter)}（${problem.detail}）`;
    return pages.uncached(request, reply, lang, PAGE_PATHS.search, 400, async (ctx) => {
      const [categories, tasks] = await Promise.all([pages.read<CategoriesResponse>(new ListCategoriesQuery()), pages.read<TasksResponse>(new ListTasksQuery())]);
      return SearchPage({ ctx, q: first(params.q) || null, values, categories, tasks: tasks.tasks, result: null, error, firstPage: null, nextPage: null, sort: first(params.sort) });
    });
  }
}
