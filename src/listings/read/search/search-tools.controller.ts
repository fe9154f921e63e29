import { Controller, Get, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { QueryParams } from '../../../http/query-params';
import { sendJson } from '../../../http/send-json';
import { searchQueryOf } from './search-params';

/** GET /api/v1/tools/search (a fixed route: the router matches it before /tools/{slug}). */
@Controller('api/v1/tools/search')
export class SearchToolsController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  async search(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const query = searchQueryOf(request.query as QueryParams);
    query.client = request.ip;
    return sendJson(request, reply, await this.queries.execute(query));
  }
}
