import { Controller, Get, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { storedBody } from '../../projections/read-model-body';
import { ReadModelReader } from '../../projections/read-model.reader';
import { badRequest } from '../http/problem';
import { single } from '../http/query-params';
import { sendJson } from '../http/send-json';
import { handle } from '../tools/tools.controller';
import { API_PREFIX } from '../../projections/projectors/tool-detail.projector';

interface ServedErrorEntry {
  id: string;
  status: number;
  provider: string;
  title: string;
}

/** GET /api/v1/errors: the published reference of common errors of listed providers, as JSON. */
@Controller('api/v1/errors')
export class ErrorsController {
  constructor(private readonly readModels: ReadModelReader) {}

  @Get()
  async list(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return handle(request, reply, async () => {
      const query = request.query as Record<string, string | string[] | undefined>;
      const provider = single(query, 'provider')?.trim().toLowerCase() || null;
      const statusRaw = single(query, 'status')?.trim() || null;
      if (statusRaw !== null && !/^[1-5]\d\d$/.test(statusRaw)) {
        throw badRequest(`'status' must be an HTTP status code (100-599), got '${statusRaw}'`, { parameter: 'status' });
      }
      const status = statusRaw === null ? null : Number(statusRaw);
      // Kept until the read models change, like search results: built, hashed and compressed once. Keyed
      // by the canonical URL, so other query parameters (or spellings) cannot fill the cache with copies.
      const params = new URLSearchParams({ ...(provider ? { provider } : {}), ...(status !== null ? { status: String(status) } : {}) });
      const self = `${API_PREFIX}/errors${params.size > 0 ? `?${params}` : ''}`;
      const stored = await this.readModels.response(self, async () => {
        const entries = (await this.readModels.errorEntries())
          .map((json) => ({ json, entry: JSON.parse(json) as ServedErrorEntry }))
          .filter(({ entry }) => (provider === null || entry.provider === provider) && (status === null || entry.status === status))
          .sort((a, b) => a.entry.provider.localeCompare(b.entry.provider) || a.entry.status - b.entry.status || a.entry.title.localeCompare(b.entry.title));
        const head = JSON.stringify({ success: true, total: entries.length, provider, status });
        return storedBody(`${head.slice(0, -1)},"errors":[${entries.map((e) => e.json).join(',')}],"_links":${JSON.stringify({ self })}}`);
      });
      return sendJson(request, reply, stored);
    });
  }
}
