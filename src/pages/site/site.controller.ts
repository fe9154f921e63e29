import { Controller, Get, Param, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ListCategoriesQuery } from '../../categories/read/list-categories.query';
import { AppConfig } from '../../config/app-config';
import { NO_FILTERS } from '../../contract/listing-filters';
import type { CategoriesResponse, ListResponse, ModelListResponse } from '../../contract/responses';
import { baseUrlOf } from '../../http/base-url';
import { sendBody } from '../../http/send-json';
import { storedBody } from '../../http/stored-body';
import { listQueryOf } from '../../listings/read/list/list-params';
import type { ListToolsQuery } from '../../listings/read/list/list-tools.query';
import { listModelsQueryOf } from '../../models/read/list/list-models-params';
import { SearchBudget } from '../../operations/search-budget';
import { ResponseCache } from '../../projections/response-cache';
import { PAGE_ASSETS, pageAsset } from '../page-assets';
import { PageErrorFilter, RouteNotFound } from '../page-errors.filter';
import { langOfPath, PAGE_PATHS, searchPath } from '../page-paths';
import { PageRenderer } from '../page-renderer';
import { OPENSEARCH_TYPE, openSearchXml, sitemapXml } from './site-files';

/**
 * What the site has besides its pages: the sitemap and OpenSearch descriptions, the stylesheet, script and
 * icon, the public directory's old page paths (301 to ours), and every other GET (a page saying it is not
 * found, or the JSON problem document). The router matches static and parametric routes before the
 * catch-all, whichever controller declares them.
 */
@Controller()
@UseFilters(PageErrorFilter)
export class SiteController {
  constructor(
    private readonly pages: PageRenderer,
    private readonly responses: ResponseCache,
    private readonly config: AppConfig,
    private readonly budget: SearchBudget,
  ) {}

  /** Every page in both languages, for search engines (robots.txt names it). */
  @Get('sitemap.xml')
  async sitemap(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const { pages } = this;
    const base = baseUrlOf(request, this.config);
    const key = `page:${base}/sitemap.xml`;
    // Megabytes at thousands of listings: a render the cache cannot answer spends from the search budget.
    const cached = this.responses.cachedResponse(key);
    if (!cached) await this.budget.spend(request.ip);
    const body = cached ?? (await this.responses.response(key, async () => {
      const categories = await pages.read<CategoriesResponse>(new ListCategoriesQuery());
      const slugs: string[] = [];
      let query: ListToolsQuery | null = listQueryOf({});
      while (query) {
        const list: ListResponse = await pages.read<ListResponse>(query);
        slugs.push(...list.tools.map((tool) => tool.slug));
        query = list.nextCursor ? listQueryOf({ cursor: list.nextCursor }) : null;
      }
      const models: string[] = [];
      let modelQuery: ReturnType<typeof listModelsQueryOf> | null = listModelsQueryOf({ limit: '100' });
      while (modelQuery) {
        const page: ModelListResponse = await pages.read<ModelListResponse>(modelQuery);
        models.push(...page.models.map((model) => model.id));
        modelQuery = page.nextCursor ? listModelsQueryOf({ limit: '100', cursor: page.nextCursor }) : null;
      }
      return storedBody(sitemapXml(base, categories.categories.map((c) => c.slug), slugs, models));
    }));
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
    return this.pages.redirect(reply, PAGE_PATHS.listing(slug.toLowerCase()));
  }

  @Get('category/:slug')
  oldCategory(@Param('slug') slug: string, @Res() reply: FastifyReply): FastifyReply {
    return this.pages.redirect(reply, PAGE_PATHS.category(slug.toLowerCase()));
  }

  @Get('error-codes')
  oldErrorCodes(@Res() reply: FastifyReply): FastifyReply {
    return this.pages.redirect(reply, PAGE_PATHS.errors);
  }

  @Get('free-tier')
  oldFreeTier(@Res() reply: FastifyReply): FastifyReply {
    return this.pages.redirect(reply, searchPath(null, { ...NO_FILTERS, freeTier: true }));
  }

  /**
   * Any other GET: a page saying so for a browser, the JSON API's problem document for everyone else (as
   * before there were pages).
   */
  @Get('*')
  unknown(@Req() request: FastifyRequest): never {
    throw new RouteNotFound(request);
  }
}
