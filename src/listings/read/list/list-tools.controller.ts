import { Controller, Get, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { QueryParams } from '../../../http/query-params';
import { sendJson } from '../../../http/send-json';
import { listQueryOf } from './list-params';

/** GET /api/v1/tools: the whole directory, a page at a time. */
@Controller('api/v1/tools')
export class ListToolsController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  async list(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return sendJson(request, reply, await this.queries.execute(listQueryOf(request.query as QueryParams)));
  }
}
