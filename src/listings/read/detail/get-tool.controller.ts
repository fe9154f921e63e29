import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendJson } from '../../../http/send-json';
import type { QueryParams } from '../../../http/query-params';
import { getToolQueryOf } from './get-tool-params';

/** GET /api/v1/tools/{slug} (and ?asOf=). */
@Controller('api/v1/tools')
export class GetToolController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':slug')
  async detail(@Param('slug') slug: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const query = getToolQueryOf(slug, request.query as QueryParams);
    query.client = request.ip;
    return sendJson(request, reply, await this.queries.execute(query));
  }
}
