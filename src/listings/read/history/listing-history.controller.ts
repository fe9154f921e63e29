import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { QueryParams } from '../../../http/query-params';
import { sendJson } from '../../../http/send-json';
import { historyQueryOf } from './listing-history-params';

/** GET /api/v1/tools/{slug}/history. */
@Controller('api/v1/tools')
export class ListingHistoryController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':slug/history')
  async history(@Param('slug') slug: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return sendJson(request, reply, await this.queries.execute(historyQueryOf(slug, request.query as QueryParams)));
  }
}
