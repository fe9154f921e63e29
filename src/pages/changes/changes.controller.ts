import { Controller, Get, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LatestChanges } from '../../changes/latest-changes.handler';
import { LatestChangesQuery } from '../../changes/latest-changes.query';
import { PageErrorFilter } from '../page-errors.filter';
import { langOfPath, PAGE_PATHS } from '../page-paths';
import { PageRenderer } from '../page-renderer';
import { ChangesPage } from './changes';

/** The newest changes shown. */
const CHANGES_SHOWN = 50;

/** `/changes` and `/zh/changes`: the newest changes of the catalog. */
@Controller()
@UseFilters(PageErrorFilter)
export class ChangesPageController {
  constructor(private readonly pages: PageRenderer) {}

  @Get(['changes', 'zh/changes'])
  changes(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const { pages } = this;
    return pages.page(request, reply, langOfPath(request.url), PAGE_PATHS.changes, async (ctx) => ChangesPage({ ctx, changes: await pages.read<LatestChanges>(new LatestChangesQuery(CHANGES_SHOWN)) }));
  }
}
