import { Controller, Get, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendJson } from '../../http/send-json';
import { ListCategoriesQuery } from './list-categories.query';

/** GET /api/v1/tools/categories (a fixed route: the router matches it before /tools/{slug}). */
@Controller('api/v1/tools/categories')
export class ListCategoriesController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  async categories(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return sendJson(request, reply, await this.queries.execute(new ListCategoriesQuery()));
  }
}
