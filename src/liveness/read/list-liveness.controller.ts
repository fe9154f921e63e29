import { Controller, Get, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { QueryParams } from '../../http/query-params';
import { sendJson } from '../../http/send-json';
import { listLivenessQueryOf } from './list-liveness-params';

/** GET /api/v1/liveness: whether what each listing points at still answers, a page at a time. */
@Controller('api/v1/liveness')
export class ListLivenessController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  async list(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return sendJson(request, reply, await this.queries.execute(listLivenessQueryOf(request.query as QueryParams)));
  }
}
