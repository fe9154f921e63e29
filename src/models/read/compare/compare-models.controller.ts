import { Controller, Get, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { QueryParams } from '../../../http/query-params';
import { sendJson } from '../../../http/send-json';
import { compareModelsQueryOf } from './compare-models-params';

/** GET /api/v1/models/compare (a route of its own, matched before /models/{id}). */
@Controller('api/v1/models')
export class CompareModelsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('compare')
  async compare(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return sendJson(request, reply, await this.queries.execute(compareModelsQueryOf(request.query as QueryParams)));
  }
}
