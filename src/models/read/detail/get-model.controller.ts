import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { QueryParams } from '../../../http/query-params';
import { sendJson } from '../../../http/send-json';
import { parsePriceUnit } from '../model-params';
import { GetModelQuery } from './get-model.query';

/**
 * GET /api/v1/models/{id}: an id of the catalog (gpt-oss-120b), or of a model no entry names yet
 * (<listing>/<model id>, whose own id may hold slashes: the route takes the rest of the path).
 */
@Controller('api/v1/models')
export class GetModelController {
  constructor(private readonly queries: QueryBus) {}

  @Get('*')
  async detail(@Param('*') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const query = new GetModelQuery(decodeURIComponent(id).trim().toLowerCase(), parsePriceUnit(request.query as QueryParams));
    return sendJson(request, reply, await this.queries.execute(query));
  }
}
