import { Controller, Get, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import type { QueryParams } from '../http/query-params';
import { sendBody, sendJson } from '../http/send-json';
import { ATOM_MEDIA_TYPE } from './atom-feed';
import { changesFeedQueryOf, listChangesQueryOf } from './list-changes-params';

/** GET /api/v1/changes and /api/v1/changes.atom: the change feed, as JSON and as Atom. */
@Controller('api/v1')
export class ListChangesController {
  constructor(
    private readonly queries: QueryBus,
    private readonly config: AppConfig,
  ) {}

  @Get('changes')
  async list(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return sendJson(request, reply, await this.queries.execute(listChangesQueryOf(request.query as QueryParams)));
  }

  @Get('changes.atom')
  async atom(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const query = changesFeedQueryOf(request.query as QueryParams, request, this.config);
    return sendBody(request, reply, await this.queries.execute(query), ATOM_MEDIA_TYPE);
  }
}
