import type { FastifyReply, FastifyRequest } from 'fastify';
import { storedBody, StoredBody } from '../../projections/read-model-body';
import { chooseEncoding, encodedBody, ENCODINGS } from './compression';

/** Content may change with any ingest: caches keep it a minute and then revalidate with the ETag. */
export const CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=60';

/**
 * Sends a ready JSON body with its ETag and Cache-Control, or 304 when the client already has it.
 * Bodies are ready-made (bytes from the read models or the read cache): nothing is serialised on the way
 * out. A client that accepts brotli or gzip gets the body compressed (see compression.ts), under a weak
 * ETag of its own for each coding (W/"<tag>-br"); `Vary` tells caches the form depends on Accept-Encoding.
 */
export function sendJson(request: FastifyRequest, reply: FastifyReply, content: StoredBody | string): FastifyReply {
  const stored = typeof content === 'string' ? storedBody(content) : content;
  const encoding = chooseEncoding(request.headers['accept-encoding']);
  const encoded = encoding === null ? null : encodedBody(stored, encoding);
  reply
    .header('etag', encoded ? encoded.etag : stored.etag)
    .header('cache-control', CACHE_CONTROL)
    .header('vary', 'Accept-Encoding');
  if (matchesEtag(request.headers['if-none-match'], stored.etag)) return reply.code(304).send();
  reply.header('content-type', 'application/json; charset=utf-8');
  if (encoded) return reply.header('content-encoding', encoding!).send(encoded.bytes);
  return reply.send(stored.body);
}

/**
 * If-None-Match: `*`, one tag or a list, weak or strong (weak comparison, as RFC 9110 asks for GET). The
 * tag of any form of the body matches (plain, or a compressed form: see encodedEtag): the content is the
 * same, and the 304 carries the tag of the form this request would get.
 */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  const open = bare.slice(0, -1); // without the closing quote, for the compressed forms' tags
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === bare || (tag.startsWith(open) && ENCODINGS.some((encoding) => tag === `${open}-${encoding}"`));
  });
}
