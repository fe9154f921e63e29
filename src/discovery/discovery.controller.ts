import { Controller, Get, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { sendJson, sendBody } from '../http/send-json';
import { storedBody } from '../http/stored-body';
import { agentsText, aiPluginManifest } from './agent-manifests';
import { API_CATALOG_TYPE, apiCatalog } from './api-catalog';
import { baseUrlOf } from '../http/base-url';
import { GetLlmsTextQuery } from './llms-txt.query';
import { ListCategoriesQuery } from '../categories/read/list-categories.query';
import type { CategoriesResponse } from '../contract/responses';
import { CACHE_CONTROL } from '../http/send-json';
import { structuredData } from './structured-data';
import { ENTRY_POINTS } from './service-index';

const MARKDOWN = 'text/markdown; charset=utf-8';

/** robots.txt: everything may be read; where agents should start; where the sitemap of the pages is (an absolute URL, as the Sitemap line requires). */
const robots = (baseUrl: string) =>
  [
    '# API Directory: agents and crawlers are welcome.',
    `# Start at ${ENTRY_POINTS.llmsTxt}, ${ENTRY_POINTS.openapi} or the MCP server at ${ENTRY_POINTS.mcp}.`,
    'User-agent: *',
    'Allow: /',
    `Sitemap: ${baseUrl}/sitemap.xml`,
    '',
  ].join('\n');

/**
 * What an agent that knows only the base URL reads first: llms.txt, the API catalog, robots.txt, and the
 * public directory's agents.txt and ai-plugin.json. GET / (the JSON index of SERVICE_INDEX for agents, the
 * home page for browsers) is answered by the pages (src/pages/home/home.controller.ts).
 */
@Controller()
export class DiscoveryController {
  constructor(
    private readonly queries: QueryBus,
    private readonly config: AppConfig,
  ) {}

  @Get('llms.txt')
  async llms(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return sendBody(request, reply, await this.queries.execute(new GetLlmsTextQuery(false, baseUrlOf(request, this.config), request.ip)), MARKDOWN);
  }

  @Get('llms-full.txt')
  async llmsFull(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return sendBody(request, reply, await this.queries.execute(new GetLlmsTextQuery(true, baseUrlOf(request, this.config), request.ip)), MARKDOWN);
  }

  @Get('.well-known/api-catalog')
  catalog(@Req() request: FastifyRequest, @Res() reply: FastifyReply): FastifyReply {
    const body = storedBody(apiCatalog(baseUrlOf(request, this.config)));
    return sendBody(request, reply.header('link', `<${ENTRY_POINTS.apiCatalog}>; rel="api-catalog"`), body, API_CATALOG_TYPE);
  }

  @Get('agents.txt')
  agents(@Req() request: FastifyRequest, @Res() reply: FastifyReply): FastifyReply {
    return sendBody(request, reply, agentsText(baseUrlOf(request, this.config)), 'text/plain; charset=utf-8');
  }

  @Get('.well-known/ai-plugin.json')
  plugin(@Req() request: FastifyRequest, @Res() reply: FastifyReply): FastifyReply {
    return sendJson(request, reply, aiPluginManifest(baseUrlOf(request, this.config)));
  }

  /** The public directory's text for language models: ours is llms-full.txt, to which this path leads. */
  @Get('api/ai.txt')
  aiTxt(@Res() reply: FastifyReply): FastifyReply {
    return reply.header('cache-control', CACHE_CONTROL).redirect(ENTRY_POINTS.llmsFullTxt, 301);
  }

  /** schema.org data about the directory (where the public directory serves it): the site, its search, its categories with live counts. */
  @Get('structured-data.json')
  async structuredData(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const categories = JSON.parse((await this.queries.execute(new ListCategoriesQuery())).body.toString()) as CategoriesResponse;
    return sendBody(request, reply, structuredData(baseUrlOf(request, this.config), categories), 'application/ld+json; charset=utf-8');
  }

  @Get('robots.txt')
  robots(@Req() request: FastifyRequest, @Res() reply: FastifyReply): FastifyReply {
    return sendBody(request, reply, robots(baseUrlOf(request, this.config)), 'text/plain; charset=utf-8');
  }
}
