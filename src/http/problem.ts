import type { Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { isStoreUnavailable } from '../redis/redis-errors';

export const PROBLEM_BASE = 'https://api-directory.dev/problems';
export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

/**
 * An error the API reports as an RFC 9457 problem document. Query handlers throw them (an unknown slug, a
 * bad parameter); the HTTP side sends them through ProblemFilter, the MCP server turns them into tool errors.
 * `headers` go out with the document (Retry-After on a 429, Allow on a 405).
 */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly slug: string,
    readonly title: string,
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string, extra: Record<string, unknown> = {}) =>
  new ApiProblem(400, 'invalid-parameter', 'Invalid request parameter', detail, extra);
export const notFound = (detail: string, extra: Record<string, unknown> = {}) =>
  new ApiProblem(404, 'not-found', 'Not found', detail, extra);

/** Problems the HTTP layer raises about the request itself (its form, size or timing), by status. */
const REQUEST_PROBLEMS: Record<number, { slug: string; title: string }> = {
  400: { slug: 'bad-request', title: 'Bad request' },
  404: { slug: 'not-found', title: 'Not found' },
  405: { slug: 'method-not-allowed', title: 'Method not allowed' },
  408: { slug: 'request-timeout', title: 'Request timeout' },
  413: { slug: 'content-too-large', title: 'Content too large' },
  414: { slug: 'uri-too-long', title: 'URI too long' },
  415: { slug: 'unsupported-media-type', title: 'Unsupported media type' },
  417: { slug: 'expectation-failed', title: 'Expectation failed' },
  429: { slug: 'rate-limited', title: 'Too many requests' },
  431: { slug: 'headers-too-large', title: 'Request header fields too large' },
};

/** A problem about the request for a 4xx status the HTTP layer answers (others are a plain 400). */
export function requestProblem(status: number, detail: string, headers: Record<string, string> = {}): ApiProblem {
  const known = REQUEST_PROBLEMS[status];
  return known ? new ApiProblem(status, known.slug, known.title, detail, {}, headers) : new ApiProblem(400, 'bad-request', 'Bad request', detail, {}, headers);
}

/**
 * An error that is no problem of the request's, as the problem a client gets: an unreachable store is 503
 * (retry later), anything else 500. Both are logged, saying where it happened (`on GET /x`, `on tools/call`).
 */
export function serverProblem(error: unknown, logger: Logger, where: string): ApiProblem {
  const message = (error as Error)?.message ?? String(error);
  if (isStoreUnavailable(error)) {
    logger.error(`store unavailable on ${where}: ${message}`);
    return new ApiProblem(503, 'store-unavailable', 'Service unavailable', 'the directory store is unreachable; retry shortly');
  }
  logger.error(`unexpected error on ${where}: ${(error as Error)?.stack ?? message}`);
  return new ApiProblem(500, 'internal', 'Internal error', 'an unexpected error occurred; it has been logged');
}

/** An upload cut off, or a connection closed before the answer: Node's 'aborted' / ECONNRESET on the request. */
export function clientWentAway(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException)?.code;
  return code === 'ECONNRESET' || code === 'ECONNABORTED' || (error as Error)?.message === 'aborted';
}

/**
 * The problem document: `type, title, status, detail, instance` (RFC 9457) plus `success: false` and
 * `error` (the human message) for clients of the public directory this API stays compatible with.
 */
export function problemJson(instance: string, problem: ApiProblem): string {
  return JSON.stringify({
    success: false,
    error: problem.detail,
    type: `${PROBLEM_BASE}/${problem.slug}`,
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    instance,
    ...problem.extra,
  });
}

/** Sends a problem document (never cached). */
export function sendProblem(reply: FastifyReply, instance: string, problem: ApiProblem): FastifyReply {
  closeIfBodyUnread(reply);
  reply.code(problem.status).header('content-type', PROBLEM_CONTENT_TYPE).header('cache-control', 'no-store');
  for (const name in problem.headers) reply.header(name, problem.headers[name]);
  return reply.send(problemJson(instance, problem));
}

/**
 * An answer to a request whose body has not (all) arrived, sent before anything read it (a refusal):
 * the connection closes with it. Kept open, it would wait for the rest of the body, and the request
 * timeout would then answer the same request a second time (408).
 */
export function closeIfBodyUnread(reply: FastifyReply): void {
  if (!reply.request.raw.complete) reply.header('connection', 'close');
}
