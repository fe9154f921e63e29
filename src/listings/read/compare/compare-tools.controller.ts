import { Controller, Get, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { QueryParams } from '../../../http/query-params';
import { sendJson } from '../../../http/send-json';
import { compareQueryOf } from './compare-params';

/** GET /api/v1/tools/compare (a fixed route: the router matches it before /tools/{slug}). */
@Controller('api/v1/tools/compare')
export class CompareToolsController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  async compare(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return sendJson(request, reply, await this.queries.execute(compareQueryOf(request.query as QueryParams)));
  }
}
