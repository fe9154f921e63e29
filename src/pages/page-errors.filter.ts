import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CompareResponse } from '../contract/responses';
import { ApiProblem, clientWentAway, requestProblem, sendProblem, serverProblem } from '../http/problem';
import { prefersHtml } from './negotiation';
import { langOfPath, withoutLang } from './page-paths';
import { ErrorPage } from './shared/error-page';
import { pageContext, renderDocument } from './shared/layout';

/**
 * The pages' Content-Security-Policy: scripts, styles, images and fetches from this origin only (no
 * inline script or style, no other host), forms submitted here, never framed. JSON answers keep the API's
 * stricter `default-src 'none'`.
 */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** The router's limit on a path parameter (`maxParamLength` in src/bootstrap.ts). */
const MAX_SEGMENT = 200;

/**
 * A GET no page or JSON route takes. A browser gets the site's 404 page; every other client the JSON API's
 * problem document, exactly as before there were pages (`no route GET /x`). A path segment over the
 * router's limit stays a 414: the router, which refuses it on a route with parameters, hands it to the
 * catch-all route instead.
 */
export class RouteNotFound extends ApiProblem {
  constructor(request: FastifyRequest) {
    const path = request.url.split('?')[0];
    if (path.split('/').some((segment) => segment.length > MAX_SEGMENT)) {
      const { status, slug, title, detail } = requestProblem(414, `a path segment is longer than the directory allows (${MAX_SEGMENT} characters)`);
      super(status, slug, title, detail);
    } else {
      super(404, 'not-found', 'Not found', `no route ${request.method} ${path}`);
    }
  }
}

/**
 * Errors of the pages become pages in the site's style, in the page's language, with the problem's status
 * (and its headers: Retry-After on a 429), never cached: an unknown listing (404, with the closest listings and a search for its
 * slug), a withdrawn or retired one (410, naming when, why and what to use instead), a bad parameter
 * (400), a spent search budget (429), an unreachable store (503), anything unexpected (500, logged).
 */
@Catch()
export class PageErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('pages');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const problem = this.toProblem(error, request);
    if (problem === null) return;
    if (problem instanceof RouteNotFound && !prefersHtml(request.headers.accept)) {
      sendProblem(reply, request.url, problem);
      return;
    }
    sendErrorPage(request, reply, problem);
  }

  /** The problem an error stands for (as the JSON API's filter reads it); null for a client that went away. */
  private toProblem(error: unknown, request: FastifyRequest): ApiProblem | null {
    if (error instanceof ApiProblem) return error;
    if (clientWentAway(error)) return null;
    if (error instanceof HttpException && error.getStatus() < 500) return new ApiProblem(error.getStatus(), 'bad-request', 'Bad request', error.message);
    // The page of a 503 or a 500 says it in its own words (error-page.tsx), not the problem's detail.
    return serverProblem(error, this.logger, `${request.method} ${request.url}`);
  }
}

/**
 * A problem as a page in the site's style, in the page's language, with the problem's status and headers
 * (Retry-After on a 429), never cached.
 */
export function sendErrorPage(request: FastifyRequest, reply: FastifyReply, problem: ApiProblem): void {
  const lang = langOfPath(request.url);
  const extra = problem.extra as { slug?: string; didYouMean?: string[]; gone?: 'withdrawn' | 'retired'; since?: string | null; reason?: string | null; replacedBy?: string[] };
  const gone: CompareResponse['gone'][number] | null =
    problem.status === 410 && extra.slug && extra.gone
      ? { slug: extra.slug, status: extra.gone, since: extra.since ?? null, reason: extra.reason ?? null, replacedBy: extra.replacedBy ?? [] }
      : null;
  const missingSlug = problem.status === 404 && typeof extra.slug === 'string' ? extra.slug : null;
  const path = withoutLang(request.url);
  const html = renderDocument(ErrorPage({ ctx: pageContext(lang, path, ''), status: problem.status, detail: problem.detail, gone, missingSlug, closest: missingSlug ? (extra.didYouMean ?? []) : [] }));
  reply.code(problem.status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').header('content-security-policy', PAGE_CSP);
  for (const name in problem.headers) reply.header(name, problem.headers[name]);
  void reply.send(html);
}
