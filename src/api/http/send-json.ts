import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagOf } from '../../projections/read-model-body';

/** Content may change with any ingest: caches keep it a minute and then revalidate with the ETag. */
export const CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=60';

/**
 * Sends a ready JSON body with its ETag and Cache-Control, or 304 when the client already has it.
 * Bodies are ready-made (strings, or bytes from the read cache): nothing is serialised on the way out.
 */
export function sendJson(request: FastifyRequest, reply: FastifyReply, body: string | Buffer, etag: string = etagOf(body)): FastifyReply {
  reply.header('etag', etag).header('cache-control', CACHE_CONTROL);
  if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.header('content-type', 'application/json; charset=utf-8').send(body);
}

/** If-None-Match: `*`, one tag or a list, weak or strong (weak comparison, as RFC 9110 asks for GET). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === bare);
}
