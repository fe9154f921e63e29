import { Controller, Get, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorsResponse } from '../../contract/responses';
import { listErrorsQueryOf } from '../../error-reference/read/list-errors-params';
import { ListErrorsQuery } from '../../error-reference/read/list-errors.query';
import type { QueryParams } from '../../http/query-params';
import { PageErrorFilter } from '../page-errors.filter';
import { errorsPath, langOfPath } from '../page-paths';
import { PageRenderer } from '../page-renderer';
import { ErrorReferencePage } from './error-reference';

/** `/errors` and `/zh/errors`: the error reference, by provider and status, from the same list as /api/v1/errors. */
@Controller()
@UseFilters(PageErrorFilter)
export class ErrorReferencePageController {
  constructor(private readonly pages: PageRenderer) {}

  @Get(['errors', 'zh/errors'])
  errors(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const { pages } = this;
    const query = listErrorsQueryOf(request.query as QueryParams);
    return pages.page(request, reply, langOfPath(request.url), errorsPath(query.provider, query.status), async (ctx) => {
      const [errors, all] = await Promise.all([pages.read<ErrorsResponse>(query), pages.read<ErrorsResponse>(new ListErrorsQuery(null, null))]);
      return ErrorReferencePage({ ctx, errors, all });
    });
  }
}
