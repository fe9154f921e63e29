import type { FastifyReply, FastifyRequest } from 'fastify';
import { storedBody, StoredBody } from './stored-body';
import { chooseEncoding, encodedBody } from './compression';

/** Content may change with any ingest: caches keep it a minute and then revalidate with the ETag. */
export const CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=60';

/**
 * Sends a ready JSON body with its ETag and Cache-Control, or 304 when the client already has it.
 * Bodies are ready-made (bytes from the read models or the read cache): nothing is serialised on the way
 * out. A client that accepts brotli or gzip gets the body compressed (see compression.ts), under a weak
 * ETag of its own for each coding (W/"<tag>-br"); `Vary` tells caches the form depends on Accept-Encoding.
 */
export function sendJson(request: FastifyRequest, reply: FastifyReply, content: StoredBody | string): FastifyReply {
  return sendBody(request, reply, content, 'application/json; charset=utf-8');
}

/**
 * The same for a body of another media type (Atom, llms.txt, a linkset, a page): ETag, 304, compression and
 * cache headers alike. `vary` names what else the form depends on (`/` answers HTML or JSON by `Accept`).
 */
export function sendBody(request: FastifyRequest, reply: FastifyReply, content: StoredBody | string, contentType: string, vary: string[] = []): FastifyReply {
  const stored = typeof content === 'string' ? storedBody(content) : content;
  const encoding = chooseEncoding(request.headers['accept-encoding']);
  const encoded = encoding === null ? null : encodedBody(stored, encoding);
  const etag = encoded ? encoded.etag : stored.etag;
  reply.header('etag', etag).header('cache-control', CACHE_CONTROL).header('vary', vary.length === 0 ? 'Accept-Encoding' : ['Accept-Encoding', ...vary].join(', '));
  if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
  reply.header('content-type', contentType);
  if (encoded) return reply.header('content-encoding', encoding!).send(encoded.bytes);
  return reply.send(stored.body);
}

/**
 * If-None-Match: `*`, one tag or a list, weak or strong, against the tag of the form this request gets
 * (weak comparison, as RFC 9110 asks for GET). A client that held another form (it asked with another
 * Accept-Encoding) gets this one in full: a cache picks the stored copy a 304 refreshes by its tag.
 */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === bare);
}
