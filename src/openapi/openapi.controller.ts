import { Controller, Get, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { storedBody } from '../http/stored-body';
import { sendJson } from '../http/send-json';
import { OPENAPI_DOCUMENT } from './openapi.document';

/** Made once: its ETag, and its compressed forms as clients ask for them (see compression.ts). */
const BODY = storedBody(JSON.stringify(OPENAPI_DOCUMENT));

/** The OpenAPI document, at /api/v1/openapi.json and at the conventional /openapi.json. */
@Controller()
export class OpenApiController {
  @Get(['api/v1/openapi.json', 'openapi.json'])
  document(@Req() request: FastifyRequest, @Res() reply: FastifyReply): FastifyReply {
    return sendJson(request, reply, BODY);
  }
}
