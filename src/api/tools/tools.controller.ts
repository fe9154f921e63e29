import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ReadModelReader } from '../../projections/read-model.reader';
import { API_PREFIX } from '../../projections/projectors/tool-detail.projector';
import { buildSearchRequest, interpret } from '../../search/search-query';
import { matchedFields } from '../../search/search-fields';
import { ApiProblem, notFound, sendProblem } from '../http/problem';
import { parseCategory, parseIds, parseLimit, parseSearchText, single } from '../http/query-params';
import { sendJson } from '../http/send-json';
import { storedBody } from '../../projections/read-model-body';

type Query = Record<string, string | string[] | undefined>;

/**
 * The four read operations under /api/v1/tools. `search`, `compare` and `categories` are fixed routes,
 * which the router matches before the `{slug}` parameter route (and ingest refuses those slugs).
 * Bodies come ready-made from the read models; handlers only stitch and send them.
 */
@Controller('api/v1/tools')
export class ToolsController {
  constructor(private readonly readModels: ReadModelReader) {}

  @Get('search')
  async search(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return handle(request, reply, async () => {
      const query = request.query as Query;
      const q = parseSearchText(single(query, 'q'));
      const category = parseCategory(single(query, 'category'));
      const limit = parseLimit(single(query, 'limit'));
      const self = `${API_PREFIX}/tools/search?${new URLSearchParams({ ...(q ? { q } : {}), ...(category ? { category } : {}), limit: String(limit) })}`;
      const stored = await this.readModels.response(self, async () => {
        const searchRequest = buildSearchRequest(q, category, limit);
        // A q with nothing searchable in it (only stop words or punctuation) finds nothing; it does not browse.
        const nothingToFind = q !== null && searchRequest.clauses.length === 0;
        const { total, hits, notes } = nothingToFind ? { total: 0, hits: [], notes: '[]' } : await this.readModels.search(searchRequest);
        const interpretation = interpret(searchRequest.clauses, notes);
        const results = hits.map(
          (hit) => `${hit.summary.slice(0, -1)},"score":${hit.score},"matched":${JSON.stringify(matchedFields(hit.mask))}}`,
        );
        const head = JSON.stringify({
          success: true,
          total,
          returned: hits.length,
          query: q,
          category,
          limit,
          terms: [...new Set(interpretation.flatMap((i) => i.matchedAs))],
          interpretation,
        });
        const links = JSON.stringify({ self, categories: `${API_PREFIX}/tools/categories` });
        const body = `${head.slice(0, -1)},"results":[${results.join(',')}],"_links":${links}}`;
        return storedBody(body);
      });
      return sendJson(request, reply, stored);
    });
  }

  @Get('compare')
  async compare(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return handle(request, reply, async () => {
      const ids = parseIds(single(request.query as Query, 'ids'));
      const self = `${API_PREFIX}/tools/compare?ids=${ids.join(',')}`;
      const stored = await this.readModels.response(self, async () => {
        const rows = await this.readModels.comparisons(ids);
        const found = rows.filter((row): row is string => row !== null);
        const notFoundIds = ids.filter((_, i) => rows[i] === null);
        if (found.length === 0) {
          throw notFound(`none of the requested tools is in the directory: ${notFoundIds.join(', ')}`, { notFound: notFoundIds });
        }
        const links = { self, tools: ids.filter((_, i) => rows[i] !== null).map((id) => `${API_PREFIX}/tools/${id}`) };
        const body = `{"success":true,"total":${found.length},"compared":[${found.join(',')}],"notFound":${JSON.stringify(notFoundIds)},"_links":${JSON.stringify(links)}}`;
        return storedBody(body);
      });
      return sendJson(request, reply, stored);
    });
  }

  @Get('categories')
  async categories(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return handle(request, reply, async () => {
      const stored = await this.readModels.categories();
      if (!stored) return sendJson(request, reply, '{"success":true,"total":0,"totalListings":0,"categories":[],"_links":{}}');
      return sendJson(request, reply, stored);
    });
  }

  @Get(':slug')
  async detail(@Param('slug') slug: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return handle(request, reply, async () => {
      const stored = await this.readModels.detail(slug.toLowerCase());
      if (!stored) {
        throw notFound(`no tool with slug '${slug}'; search with ${API_PREFIX}/tools/search?q=${encodeURIComponent(slug)}`, {
          slug,
        });
      }
      return sendJson(request, reply, stored);
    });
  }
}

/** Runs a handler and turns an ApiProblem into its problem document; anything else goes to the filter. */
export async function handle(
  request: FastifyRequest,
  reply: FastifyReply,
  work: () => Promise<FastifyReply>,
): Promise<FastifyReply> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiProblem) return sendProblem(reply, request.url, error);
    throw error;
  }
}
