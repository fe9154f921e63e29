import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MCP_PATH, PUBLIC_DIRECTORY_MCP_PATH, WELL_KNOWN_MCP_PATH } from './mcp-paths';
import { ApiProblem, clientWentAway, closeIfBodyUnread, requestProblem, sendProblem, serverProblem } from './problem';

/**
 * Every error that reaches Nest becomes a problem document (registered once, as APP_FILTER). Problems
 * thrown by query handlers and hooks go out as they are; unknown routes are 404; what Fastify refuses
 * about the request (a body too large, a bad content type) keeps its 4xx status; an unreachable store
 * is 503 (retry later); anything unexpected is 500 and logged. A client that went away gets nothing and
 * costs one debug line: it is not the service's fault.
 */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('api');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    if (clientWentAway(error)) {
      this.logger.debug(`client went away during ${request.method} ${request.url}: ${(error as Error)?.message ?? error}`);
      return;
    }
    // The MCP endpoint speaks JSON-RPC: a body that is not JSON is its Parse error, and a request refused
    // for its form (a malformed Host, say) its Invalid Request, not problem documents.
    if (isMcpPath(request.url)) {
      if (isJsonParseError(error)) return sendJsonRpcError(reply, -32700, 'Parse error: the body is not JSON');
      if (error instanceof ApiProblem && error.status === 400) return sendJsonRpcError(reply, -32600, `Invalid Request: ${error.detail}`);
    }
    sendProblem(reply, request.url, this.toProblem(error, request));
  }

  private toProblem(error: unknown, request: FastifyRequest): ApiProblem {
    if (error instanceof ApiProblem) return error;
    if (error instanceof HttpException) {
      const status = error.getStatus();
      if (status === 404) return new ApiProblem(404, 'not-found', 'Not found', `no route ${request.method} ${request.url.split('?')[0]}`);
      if (status >= 400 && status < 500) return requestProblem(status, error.message);
      return new ApiProblem(status, `http-${status}`, error.message, error.message);
    }
    return serverProblem(error, this.logger, `${request.method} ${request.url}`);
  }
}

/** A JSON-RPC error answering the request as a whole (id null), with HTTP status 400. */
function sendJsonRpcError(reply: FastifyReply, code: number, message: string): void {
  closeIfBodyUnread(reply);
  void reply.code(400).header('content-type', 'application/json').send(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** The paths where the MCP server answers (see src/mcp/mcp-http.controller.ts). */
function isMcpPath(url: string): boolean {
  const path = url.split('?')[0].replace(/\/+$/, '');
  return [MCP_PATH, WELL_KNOWN_MCP_PATH, PUBLIC_DIRECTORY_MCP_PATH].some((mcp) => path === `/${mcp}`);
}

/** Fastify's refusal of a body sent as JSON that does not parse (Nest hands it on as the cause of an HttpException). */
function isJsonParseError(error: unknown): boolean {
  const code = (error: unknown) => (error as { code?: string } | undefined)?.code;
  return code(error) === 'FST_ERR_CTP_INVALID_JSON_BODY' || code((error as { cause?: unknown })?.cause) === 'FST_ERR_CTP_INVALID_JSON_BODY';
}
