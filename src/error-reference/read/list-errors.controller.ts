import { Controller, Get, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { QueryParams } from '../../http/query-params';
import { sendJson } from '../../http/send-json';
import { listErrorsQueryOf } from './list-errors-params';

/** GET /api/v1/errors: the read side of the error reference (its write side is src/error-reference/). */
@Controller('api/v1/errors')
export class ListErrorsController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  async list(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return sendJson(request, reply, await this.queries.execute(listErrorsQueryOf(request.query as QueryParams)));
  }
}
