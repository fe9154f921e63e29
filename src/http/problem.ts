import type { FastifyReply } from 'fastify';

export const PROBLEM_BASE = 'https://api-directory.dev/problems';

/**
 * An error the API reports as an RFC 9457 problem document. Query handlers throw them (an unknown slug, a
 * bad parameter); the HTTP side sends them through ProblemFilter, the MCP server turns them into tool errors.
 */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly slug: string,
    readonly title: string,
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string, extra: Record<string, unknown> = {}) =>
  new ApiProblem(400, 'invalid-parameter', 'Invalid request parameter', detail, extra);
export const notFound = (detail: string, extra: Record<string, unknown> = {}) =>
  new ApiProblem(404, 'not-found', 'Not found', detail, extra);

/**
 * Sends a problem document: `type, title, status, detail, instance` (RFC 9457) plus `success: false` and
 * `error` (the human message) for clients of the public directory this API stays compatible with.
 */
export function sendProblem(reply: FastifyReply, instance: string, problem: ApiProblem): FastifyReply {
  const body = {
    success: false,
    error: problem.detail,
    type: `${PROBLEM_BASE}/${problem.slug}`,
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    instance,
    ...problem.extra,
  };
  return reply
    .code(problem.status)
    .header('content-type', 'application/problem+json; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(JSON.stringify(body));
}
