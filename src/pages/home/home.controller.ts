import { Controller, Get, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ListCategoriesQuery } from '../../categories/read/list-categories.query';
import { LatestChangesQuery } from '../../changes/latest-changes.query';
import type { LatestChanges } from '../../changes/latest-changes.handler';
import { NO_FILTERS } from '../../contract/listing-filters';
import type { CategoriesResponse, ListResponse } from '../../contract/responses';
import { SERVICE_INDEX, SERVICE_LINKS } from '../../discovery/service-index';
import { sendBody } from '../../http/send-json';
import { ListToolsQuery } from '../../listings/read/list/list-tools.query';
import type { Lang } from '../messages';
import { prefersHtml } from '../negotiation';
import { PageErrorFilter } from '../page-errors.filter';
import { PAGE_PATHS } from '../page-paths';
import { PageRenderer } from '../page-renderer';
import { HomePage } from './home';

/** The home page's most popular listings (as suggestions) and newest changes. */
const HOME_POPULAR = 8;
const HOME_CHANGES = 8;

/** `/` and `/zh`: the home page (and, at `/` for a client that does not prefer HTML, the JSON index of entry points). */
@Controller()
@UseFilters(PageErrorFilter)
export class HomePageController {
  constructor(private readonly pages: PageRenderer) {}

  @Get()
  async root(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    if (!prefersHtml(request.headers.accept)) return sendBody(request, reply.header('link', SERVICE_LINKS), SERVICE_INDEX, 'application/json; charset=utf-8', ['Accept']);
    return this.home(request, reply, 'en', ['Accept']);
  }

  @Get('zh')
  zhHome(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.home(request, reply, 'zh');
  }

  private home(request: FastifyRequest, reply: FastifyReply, lang: Lang, vary: string[] = []): Promise<FastifyReply> {
    const { pages } = this;
    return pages.page(
      request,
      reply,
      lang,
      PAGE_PATHS.home,
      async (ctx) => {
        const [categories, popular, changes] = await Promise.all([
          pages.read<CategoriesResponse>(new ListCategoriesQuery()),
          pages.read<ListResponse>(new ListToolsQuery(NO_FILTERS, HOME_POPULAR)),
          pages.read<LatestChanges>(new LatestChangesQuery(HOME_CHANGES)),
        ]);
        return HomePage({ ctx, categories, popular, changes });
      },
      { vary },
    );
  }
}
