import { Controller, Get, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import type { QueryParams } from '../http/query-params';
import { sendBody, sendJson } from '../http/send-json';
import { ATOM_MEDIA_TYPE, RSS_MEDIA_TYPE } from './atom-feed';
import { changesFeedQueryOf, listChangesQueryOf } from './list-changes-params';

/** GET /api/v1/changes, /api/v1/changes.atom and /rss.xml: the change feed, as JSON, Atom and RSS 2.0. */
@Controller()
export class ListChangesController {
  constructor(
    private readonly queries: QueryBus,
    private readonly config: AppConfig,
  ) {}

  @Get('api/v1/changes')
  async list(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return sendJson(request, reply, await this.queries.execute(listChangesQueryOf(request.query as QueryParams)));
  }

  @Get('api/v1/changes.atom')
  async atom(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const query = changesFeedQueryOf(request.query as QueryParams, request, this.config);
    return sendBody(request, reply, await this.queries.execute(query), ATOM_MEDIA_TYPE);
  }

  /** The same feed as RSS 2.0, where the public directory's readers poll it. */
  @Get('rss.xml')
  async rss(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const query = changesFeedQueryOf(request.query as QueryParams, request, this.config, 'rss');
    return sendBody(request, reply, await this.queries.execute(query), RSS_MEDIA_TYPE);
  }
}
