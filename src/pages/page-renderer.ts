import { Injectable } from '@nestjs/common';
import { Query, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import { AppConfig } from '../config/app-config';
import { baseUrlOf } from '../http/base-url';
import { CACHE_CONTROL, sendBody } from '../http/send-json';
import { storedBody, StoredBody } from '../http/stored-body';
import { ResponseCache } from '../projections/response-cache';
import type { Lang } from './messages';
import { PAGE_CSP } from './page-errors.filter';
import { inLang } from './page-paths';
import { pageContext, PageContext, renderDocument } from './shared/layout';

export const HTML_TYPE = 'text/html; charset=utf-8';

/** Listings on a page of search results and of a category, models on a page of the catalog. */
export const PAGE_SIZE = 20;

/**
 * What every page controller does the same way: ask the query handlers (the same stored bodies the JSON
 * API sends), render a page once per change of the read models (kept in the read cache under its
 * canonical URL in its language, with the base URL its absolute links use), and send it with its ETag,
 * compressed, under the pages' content security policy.
 */
@Injectable()
export class PageRenderer {
  constructor(
    private readonly queries: QueryBus,
    private readonly responses: ResponseCache,
    private readonly config: AppConfig,
  ) {}

  /** The answer of a query, parsed. */
  async read<T>(query: Query<StoredBody>): Promise<T> {
    return JSON.parse((await this.queries.execute(query)).body.toString()) as T;
  }

  /** A page from the read cache, rendered on a miss; `isEmpty` tells a page that found nothing (kept apart, see ReadCache). */
  async page(
    request: FastifyRequest,
    reply: FastifyReply,
    lang: Lang,
    path: string,
    build: (ctx: PageContext) => Promise<VNode>,
    options: { vary?: string[]; isEmpty?: () => boolean } = {},
  ): Promise<FastifyReply> {
    const base = baseUrlOf(request, this.config);
    const body = await this.responses.response(`page:${base}${inLang(lang, path)}`, async () => storedBody(renderDocument(await build(pageContext(lang, path, base)))), options.isEmpty);
    return sendBody(request, reply.header('content-security-policy', PAGE_CSP), body, HTML_TYPE, options.vary);
  }

  /** A page that answers a refused request: its own status, never kept. */
  async uncached(request: FastifyRequest, reply: FastifyReply, lang: Lang, path: string, status: number, build: (ctx: PageContext) => Promise<VNode>): Promise<FastifyReply> {
    const html = renderDocument(await build(pageContext(lang, path, baseUrlOf(request, this.config))));
    return reply.code(status).header('content-security-policy', PAGE_CSP).header('cache-control', 'no-store').header('content-type', HTML_TYPE).send(html);
  }

  /** A permanent move, cacheable like a page. */
  redirect(reply: FastifyReply, path: string): FastifyReply {
    return reply.header('cache-control', CACHE_CONTROL).redirect(path, 301);
  }
}
