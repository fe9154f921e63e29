import { Controller, Get, Param, Req, Res, UseFilters } from '@nestjs/common';
import { Query, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import { LatestChangesQuery } from '../changes/latest-changes.query';
import type { LatestChanges } from '../changes/latest-changes.handler';
import { AppConfig } from '../config/app-config';
import { FILTER_NAMES, NO_FILTERS } from '../contract/listing-filters';
import type { CategoriesResponse, CompareResponse, ErrorsResponse, ListResponse, ModelDetailResponse, ModelListResponse, SearchResponse, TasksResponse, ToolDetailResponse } from '../contract/responses';
import { baseUrlOf } from '../http/base-url';
import { SERVICE_INDEX, SERVICE_LINKS } from '../discovery/service-index';
import { listErrorsQueryOf } from '../error-reference/read/list-errors-params';
import { ListErrorsQuery } from '../error-reference/read/list-errors.query';
import { ApiProblem, notFound } from '../http/problem';
import type { QueryParams } from '../http/query-params';
import { CACHE_CONTROL, sendBody } from '../http/send-json';
import { ReadModels } from '../projections/read-models.service';
import { SearchBudget } from '../operations/search-budget';
import { storedBody, StoredBody } from '../http/stored-body';
import { ListCategoriesQuery } from '../categories/read/list-categories.query';
import { ListTasksQuery } from '../categories/read/list-tasks.query';
import { compareQueryOf } from '../listings/read/compare/compare-params';
import { GetToolQuery } from '../listings/read/detail/get-tool.query';
import { listQueryOf } from '../listings/read/list/list-params';
import { ListToolsQuery } from '../listings/read/list/list-tools.query';
import { searchQueryOf } from '../listings/read/search/search-params';
import { Lang, MESSAGES } from './messages';
import { prefersHtml } from './negotiation';
import { PAGE_ASSETS, pageAsset } from './page-assets';
import { PAGE_CSP, PageErrorFilter, RouteNotFound } from './page-errors.filter';
import { comparePath, errorsPath, inLang, langOfPath, PAGE_PATHS, searchPath, withQuery } from './page-paths';
import { OPENSEARCH_TYPE, openSearchXml, sitemapXml } from './site-files';
import { CategoryPage } from './views/category';
import { ChangesPage } from './views/changes';
import { ComparePage } from './views/compare';
import { ErrorReferencePage } from './views/error-reference';
import { HomePage } from './views/home';
import { pageContext, PageContext, renderDocument } from './views/layout';
import { ListingPage } from './views/listing/listing-page';
import { FilterValues, SearchPage } from './views/search';
import { ModelPage } from './views/model';
import { ModelFormValues, ModelsPage } from './views/models';
import { listModelsQueryOf } from '../models/read/list/list-models-params';
import { GetModelQuery } from '../models/read/detail/get-model.query';
import { filterParams, parsePriceUnit } from '../models/read/model-params';

export const HTML_TYPE = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/** Listings on a page of search results and of a category; the home page's most popular; the newest changes shown. */
export const PAGE_SIZE = 20;
const HOME_POPULAR = 8;
const HOME_CHANGES = 8;
const CHANGES_SHOWN = 50;
const COMPARE_CHOICES = 24;

/**
 * The pages: HTML for people, each a thin adapter over the query handlers that HTTP and MCP use. A page
 * reads its parameters with the JSON API's own parsers, asks the QueryBus, and renders the answers; it is
 * kept in the read cache under its canonical URL (in its language) until the read models change, and sent
 * like a JSON body (ETag, 304, brotli or gzip). Errors become pages of their own (PageErrorFilter).
 */
@Controller()
@UseFilters(PageErrorFilter)
export class PagesController {
  constructor(
    private readonly queries: QueryBus,
    private readonly readModels: ReadModels,
    private readonly config: AppConfig,
    private readonly budget: SearchBudget,
  ) {}

  /** GET /: the home page for a browser (Accept prefers text/html), the JSON index of entry points for everyone else. */
  @Get()
  async root(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    if (!prefersHtml(request.headers.accept)) return sendBody(request, reply.header('link', SERVICE_LINKS), SERVICE_INDEX, JSON_TYPE, ['Accept']);
    return this.home(request, reply, 'en', ['Accept']);
  }

  @Get('zh')
  zhHome(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.home(request, reply, 'zh');
  }

  @Get(['search', 'zh/search'])
  async search(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const lang = langOfPath(request.url);
    // The page's own size: `limit` is not one of its parameters (its cursors are those of the API's default page).
    const { limit: _ignored, ...params } = request.query as QueryParams;
    let query;
    try {
      query = searchQueryOf(params);
    } catch (error) {
      if (!(error instanceof ApiProblem) || error.status !== 400) throw error;
      return this.refusedSearch(request, reply, lang, params, error);
    }
    query.client = request.ip;
    const { q, filters, cursor, sort } = query;
    let found = 1;
    return this.page(
      request,
      reply,
      lang,
      // (The page's path is its cache key: the order is part of it.)
      searchPath(q, filters, cursor, sort),
      async (ctx) => {
        const [result, categories, tasks] = await Promise.all([this.read<SearchResponse>(query), this.read<CategoriesResponse>(new ListCategoriesQuery()), this.read<TasksResponse>(new ListTasksQuery())]);
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

  @Get(['apis/:slug', 'zh/apis/:slug'])
  listing(@Param('slug') slug: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const query = new GetToolQuery(slug);
    query.client = request.ip;
    return this.page(request, reply, langOfPath(request.url), PAGE_PATHS.listing(query.slug), async (ctx) => {
      const [detail, categories] = await Promise.all([this.read<ToolDetailResponse>(query), this.read<CategoriesResponse>(new ListCategoriesQuery())]);
      return ListingPage({ ctx, detail, categories });
    });
  }

  @Get(['categories/:slug', 'zh/categories/:slug'])
  category(@Param('slug') slug: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const cursor = (request.query as QueryParams).cursor;
    const query = listQueryOf({ category: slug, limit: String(PAGE_SIZE), cursor });
    const category = query.filters.category!;
    return this.page(request, reply, langOfPath(request.url), withQuery(PAGE_PATHS.category(category), [['cursor', query.cursor]]), async (ctx) => {
      const [list, categories] = await Promise.all([this.read<ListResponse>(query), this.read<CategoriesResponse>(new ListCategoriesQuery())]);
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

  /** The comparison of `ids` (one list, or the boxes of a form, each given as `ids`), plus `more` typed in (slugs or names). */
  @Get(['compare', 'zh/compare'])
  async compare(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const lang = langOfPath(request.url);
    const params = request.query as QueryParams;
    // Boxes give slugs; what is typed in `more` may be a slug or a listing's name ("Claude", "通义千问").
    const index = await this.readModels.searchIndex();
    const typed = [params.more].flat().filter((value): value is string => typeof value === 'string').flatMap((value) => value.split(','));
    const named = typed.map((entry) => entry.trim()).filter(Boolean).map((entry) => (index.has(entry.toLowerCase()) ? entry : (index.slugNamed(entry) ?? entry)));
    const given = [[params.ids].flat(), named].flat().filter((value): value is string => typeof value === 'string' && value.trim() !== '');
    if (given.length === 0) return this.page(request, reply, lang, PAGE_PATHS.compare, async (ctx) => this.comparePage(ctx, [], null));
    let query;
    try {
      query = compareQueryOf({ ids: given.join(',') });
    } catch (error) {
      if (!(error instanceof ApiProblem)) throw error;
      const ids = given.join(',').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
      return this.uncached(request, reply, lang, PAGE_PATHS.compare, error.status, (ctx) => this.comparePage(ctx, ids.slice(0, 10), null, MESSAGES[lang].compareNeedTwo));
    }
    const ids = query.ids;
    try {
      return await this.page(request, reply, lang, comparePath(ids), async (ctx) => this.comparePage(ctx, ids, await this.read<CompareResponse>(query)));
    } catch (error) {
      // None of them can be compared: the picker, naming the unknown and the gone ones.
      if (!(error instanceof ApiProblem) || error.status !== 404) throw error;
      const { notFound: unknown = [], gone = [] } = error.extra as { notFound?: string[]; gone?: CompareResponse['gone'] };
      return this.uncached(request, reply, lang, comparePath(ids), 404, (ctx) => this.comparePage(ctx, ids, null, null, unknown, gone));
    }
  }

  /** The model catalog: its form, and the models of the request's filters and order. */
  @Get(['models', 'zh/models'])
  async models(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const lang = langOfPath(request.url);
    const { limit: _ignored, ...params } = request.query as QueryParams;
    const values = Object.fromEntries(Object.entries(params).map(([name, value]) => [name, (Array.isArray(value) ? value[0] : value) ?? ''])) as ModelFormValues;
    let query;
    try {
      query = listModelsQueryOf({ ...params, limit: String(PAGE_SIZE) });
    } catch (error) {
      if (!(error instanceof ApiProblem) || error.status !== 400) throw error;
      return this.uncached(request, reply, lang, PAGE_PATHS.models, 400, async (ctx) => ModelsPage({ ctx, values, result: null, error: error.detail, firstPage: null, nextPage: null }));
    }
    const path = (cursor: string | null) => withQuery(PAGE_PATHS.models, [...filterParams(query.filters), ['sort', params.sort ? query.sort : null], ['cursor', cursor]]);
    return this.page(request, reply, lang, path(query.cursor), async (ctx) => {
      const result = await this.read<ModelListResponse>(query);
      return ModelsPage({ ctx, values, result, error: null, firstPage: query.cursor ? path(null) : null, nextPage: result.nextCursor ? path(result.nextCursor) : null });
    });
  }

  /** One model (its id may hold slashes: a model no entry names yet is <listing>/<model id>). */
  @Get(['models/*', 'zh/models/*'])
  model(@Param('*') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const query = new GetModelQuery(decodeURIComponent(id).trim().toLowerCase(), parsePriceUnit(request.query as QueryParams));
    const path = withQuery(PAGE_PATHS.model(query.id), [['priceUnit', query.priceUnit]]);
    return this.page(request, reply, langOfPath(request.url), path, async (ctx) => ModelPage({ ctx, detail: await this.read<ModelDetailResponse>(query) }));
  }

  @Get(['errors', 'zh/errors'])
  errors(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const query = listErrorsQueryOf(request.query as QueryParams);
    return this.page(request, reply, langOfPath(request.url), errorsPath(query.provider, query.status), async (ctx) => {
      const [errors, all] = await Promise.all([this.read<ErrorsResponse>(query), this.read<ErrorsResponse>(new ListErrorsQuery(null, null))]);
      return ErrorReferencePage({ ctx, errors, all });
    });
  }

  @Get(['changes', 'zh/changes'])
  changes(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.page(request, reply, langOfPath(request.url), PAGE_PATHS.changes, async (ctx) =>
      ChangesPage({ ctx, changes: await this.read<LatestChanges>(new LatestChangesQuery(CHANGES_SHOWN)) }),
    );
  }

  /** Every page in both languages, for search engines (robots.txt names it). */
  @Get('sitemap.xml')
  async sitemap(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const base = baseUrlOf(request, this.config);
    const key = `page:${base}/sitemap.xml`;
    // Megabytes at thousands of listings: a render the cache cannot answer spends from the search budget.
    if (!this.readModels.cachedResponse(key)) await this.budget.spend(request.ip);
    const body = await this.readModels.response(key, async () => {
      const categories = await this.read<CategoriesResponse>(new ListCategoriesQuery());
      const slugs: string[] = [];
      let query: ListToolsQuery | null = listQueryOf({});
      while (query) {
        const list: ListResponse = await this.read<ListResponse>(query);
        slugs.push(...list.tools.map((tool) => tool.slug));
        query = list.nextCursor ? listQueryOf({ cursor: list.nextCursor }) : null;
      }
      const models: string[] = [];
      let modelQuery: ReturnType<typeof listModelsQueryOf> | null = listModelsQueryOf({ limit: '100' });
      while (modelQuery) {
        const page: ModelListResponse = await this.read<ModelListResponse>(modelQuery);
        models.push(...page.models.map((model) => model.id));
        modelQuery = page.nextCursor ? listModelsQueryOf({ limit: '100', cursor: page.nextCursor }) : null;
      }
      return storedBody(sitemapXml(base, categories.categories.map((c) => c.slug), slugs, models));
    });
    return sendBody(request, reply, body, 'application/xml; charset=utf-8');
  }

  @Get(['opensearch.xml', 'zh/opensearch.xml'])
  openSearch(@Req() request: FastifyRequest, @Res() reply: FastifyReply): FastifyReply {
    return sendBody(request, reply, openSearchXml(baseUrlOf(request, this.config), langOfPath(request.url)), OPENSEARCH_TYPE);
  }

  /** The pages' stylesheet, script and icon. */
  @Get('assets/:name')
  asset(@Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): FastifyReply {
    const asset = pageAsset(name);
    if (!asset) throw new RouteNotFound(request);
    return sendBody(request, reply, asset, PAGE_ASSETS[name]);
  }

  // The public directory's page paths lead to ours (301): its `/compare` is ours already.

  @Get('api/:slug')
  oldListing(@Param('slug') slug: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): FastifyReply {
    // `/api/v1` is the JSON API's prefix, not a listing: as unknown as before.
    if (slug === 'v1') throw new RouteNotFound(request);
    return this.redirect(reply, PAGE_PATHS.listing(slug.toLowerCase()));
  }

  @Get('category/:slug')
  oldCategory(@Param('slug') slug: string, @Res() reply: FastifyReply): FastifyReply {
    return this.redirect(reply, PAGE_PATHS.category(slug.toLowerCase()));
  }

  @Get('error-codes')
  oldErrorCodes(@Res() reply: FastifyReply): FastifyReply {
    return this.redirect(reply, PAGE_PATHS.errors);
  }

  @Get('free-tier')
  oldFreeTier(@Res() reply: FastifyReply): FastifyReply {
    return this.redirect(reply, searchPath(null, { ...NO_FILTERS, freeTier: true }));
  }

  /**
   * Any other GET: a page saying so for a browser, the JSON API's problem document for everyone else (as
   * before there were pages). Static and parametric routes are matched before it.
   */
  @Get('*')
  unknown(@Req() request: FastifyRequest): never {
    throw new RouteNotFound(request);
  }

  private redirect(reply: FastifyReply, path: string): FastifyReply {
    return reply.header('cache-control', CACHE_CONTROL).redirect(path, 301);
  }

  private async home(request: FastifyRequest, reply: FastifyReply, lang: Lang, vary: string[] = []): Promise<FastifyReply> {
    return this.page(
      request,
      reply,
      lang,
      PAGE_PATHS.home,
      async (ctx) => {
        const [categories, popular, changes] = await Promise.all([
          this.read<CategoriesResponse>(new ListCategoriesQuery()),
          this.read<ListResponse>(new ListToolsQuery(NO_FILTERS, HOME_POPULAR)),
          this.read<LatestChanges>(new LatestChangesQuery(HOME_CHANGES)),
        ]);
        return HomePage({ ctx, categories, popular, changes });
      },
      { vary },
    );
  }

  private async comparePage(ctx: PageContext, ids: string[], result: CompareResponse | null, error: string | null = null, unknown: string[] = [], gone: CompareResponse['gone'] = []) {
    const [popular, categories] = await Promise.all([this.read<ListResponse>(new ListToolsQuery(NO_FILTERS, COMPARE_CHOICES)), this.read<CategoriesResponse>(new ListCategoriesQuery())]);
    return ComparePage({ ctx, ids, result, notFound: unknown, gone, error, popular: popular.tools, categories });
  }

  /** A search the API refused (a bad filter value): the form with what was given and why, status 400. */
  private async refusedSearch(request: FastifyRequest, reply: FastifyReply, lang: Lang, params: QueryParams, problem: ApiProblem): Promise<FastifyReply> {
    const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';
    const values = Object.fromEntries(FILTER_NAMES.map((name) => [name, first(params[name])])) as FilterValues;
    const parameter = typeof problem.extra.parameter === 'string' ? problem.extra.parameter : null;
    const error = lang === 'en' || !parameter ? problem.detail : `${MESSAGES[lang].invalidParameter(parameter)}（${problem.detail}）`;
    return this.uncached(request, reply, lang, PAGE_PATHS.search, 400, async (ctx) => {
      const [categories, tasks] = await Promise.all([this.read<CategoriesResponse>(new ListCategoriesQuery()), this.read<TasksResponse>(new ListTasksQuery())]);
      return SearchPage({ ctx, q: first(params.q) || null, values, categories, tasks: tasks.tasks, result: null, error, firstPage: null, nextPage: null, sort: first(params.sort) });
    });
  }

  /** The answer of a query, parsed: the same stored body the JSON API sends. */
  private async read<T>(query: Query<StoredBody>): Promise<T> {
    return JSON.parse((await this.queries.execute(query)).body.toString()) as T;
  }

  /**
   * A page, rendered once per change of the read models (kept in the read cache under its canonical URL
   * in its language, with the base URL its absolute links use) and sent with its ETag, compressed.
   */
  private async page(
    request: FastifyRequest,
    reply: FastifyReply,
    lang: Lang,
    path: string,
    build: (ctx: PageContext) => Promise<VNode>,
    options: { vary?: string[]; isEmpty?: () => boolean } = {},
  ): Promise<FastifyReply> {
    const base = baseUrlOf(request, this.config);
    const body = await this.readModels.response(`page:${base}${inLang(lang, path)}`, async () => storedBody(renderDocument(await build(pageContext(lang, path, base)))), options.isEmpty);
    return sendBody(request, reply.header('content-security-policy', PAGE_CSP), body, HTML_TYPE, options.vary);
  }

  /** A page that answers a refused request: its own status, never kept. */
  private async uncached(request: FastifyRequest, reply: FastifyReply, lang: Lang, path: string, status: number, build: (ctx: PageContext) => Promise<VNode>): Promise<FastifyReply> {
    const html = renderDocument(await build(pageContext(lang, path, baseUrlOf(request, this.config))));
    return reply.code(status).header('content-security-policy', PAGE_CSP).header('cache-control', 'no-store').header('content-type', HTML_TYPE).send(html);
  }
}
