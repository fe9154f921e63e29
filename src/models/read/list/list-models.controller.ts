import { Controller, Get, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { QueryParams } from '../../../http/query-params';
import { sendJson } from '../../../http/send-json';
import { listModelsQueryOf } from './list-models-params';

/** GET /api/v1/models: every model of every live listing, filtered, searched and sorted. */
@Controller('api/v1/models')
export class ListModelsController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  async list(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return sendJson(request, reply, await this.queries.execute(listModelsQueryOf(request.query as QueryParams)));
  }
}
