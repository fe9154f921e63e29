import { Controller, Get, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendJson } from '../../http/send-json';
import { ListTasksQuery } from './list-tasks.query';

/** GET /api/v1/tasks: what listings do, as the `task` filter takes it. */
@Controller('api/v1/tasks')
export class ListTasksController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  async tasks(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return sendJson(request, reply, await this.queries.execute(new ListTasksQuery()));
  }
}
