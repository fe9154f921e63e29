import { Controller, Delete, Get, Post, Req, Res } from '@nestjs/common';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { baseUrlOf } from '../http/base-url';
import { MCP_PATH, PUBLIC_DIRECTORY_MCP_PATH, WELL_KNOWN_MCP_PATH } from '../http/mcp-paths';
import { sendProblem } from '../http/problem';
import { sendJson } from '../http/send-json';
import { Metrics } from '../operations/metrics';
import { RequestBudget } from '../operations/request-rate-limit';
import { storedBody } from '../http/stored-body';
import { mcpTurn } from './bounded-requests';
import { DIRECTORY_TOOLS } from './directory-tools';
import { DirectoryMcpServer, INSTRUCTIONS, LISTING_URI_TEMPLATE, SERVER_NAME, SERVER_TITLE, SERVER_VERSION } from './directory-mcp-server';

/**
 * The MCP server over Streamable HTTP, in the API process, at /mcp (and at /.well-known/mcp and /api/mcp,
 * where clients of the public directory send their requests).
 *
 * Stateless: every POST gets a new server and transport (no session id), closed once it is answered. Every
 * tool is a read with nothing to remember between calls, so any instance of the API can answer any request
 * behind a load balancer, no session has to be kept or expired, and nothing outlives its request. Answers
 * are plain JSON (`enableJsonResponse`), not an event stream: a tool call is one quick read, with no
 * progress to report and nothing for the server to ask the client.
 *
 * The SDK's web-standard transport is used rather than its Node one, so Fastify keeps the response
 * (headers, logging, errors) instead of handing the raw socket over with hijack().
 *
 * A POST may carry a JSON-RPC batch (up to the SDK's 100 messages; the protocol's versions before
 * 2025-06-18 have batches, and clients of those are still served): each message spends the client's
 * request budget, as that many POSTs would, and the server answers them one at a time (see answer).
 */
@Controller()
export class McpHttpController {
  constructor(
    private readonly directory: DirectoryMcpServer,
    private readonly config: AppConfig,
    private readonly budget: RequestBudget,
    private readonly metrics: Metrics,
  ) {}

  @Post([MCP_PATH, WELL_KNOWN_MCP_PATH, PUBLIC_DIRECTORY_MCP_PATH])
  async post(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    // The request hook spent one for the POST; a batch spends one more for each further message.
    if (Array.isArray(request.body) && request.body.length > 1) {
      const refused = await this.budget.spend(request, reply, request.body.length - 1);
      if (refused) return sendProblem(reply, request.url, refused);
    }
    // A client that closes the connection gets no more of its batch answered (each message is a read).
    let gone = false;
    reply.raw.once('close', () => (gone = !reply.raw.writableFinished));
    const answer = await this.answer(request, () => gone);
    if (gone) return reply;
    reply.code(answer.status);
    answer.headers.forEach((value, name) => void reply.header(name, value));
    return reply.header('cache-control', 'no-store').send(answer.body === '' ? undefined : answer.body);
  }

  /**
   * The answer to the request. A batch is answered one message at a time, each by a server and transport
   * of its own (the SDK's stateless transport takes one request), and the answers joined into the batch's
   * array here: handed over whole, the SDK serialises all of its answers in one go (100 pages of
   * resources, 3 MB, held the event loop for 70-100 ms), where one message's answer is small. A message
   * the SDK refuses on its own (not JSON-RPC) is its error in the array, as JSON-RPC has it; when the
   * first is refused so, the refusal (a header the SDK wants, say) answers the whole request. When the
   * client has gone (`gone`), the messages left are not answered.
   */
  private async answer(request: FastifyRequest, gone: () => boolean): Promise<Answer> {
    const messages = request.body;
    if (!Array.isArray(messages) || messages.length < 2 || messages.length > MAX_BATCH) return this.answerOne(request, messages);
    const answers: string[] = [];
    let headers = new Headers();
    for (const [index, message] of messages.entries()) {
      if (index > 0) await mcpTurn();
      if (gone()) {
        this.metrics.mcpMessagesAbandoned(messages.length - index);
        return { status: 499, headers, body: '' };
      }
      const answer = await this.answerOne(request, message);
      if (index === 0 && answer.status >= 400) return answer;
      if (answer.body !== '') answers.push(answer.body);
      if (answer.status === 200) headers = answer.headers;
    }
    // Only notifications: accepted, with nothing to answer.
    if (answers.length === 0) return { status: 202, headers, body: '' };
    return { status: 200, headers, body: `[${answers.join(',')}]` };
  }

  /** One message (or a batch the SDK refuses), answered by a server of its own. */
  private async answerOne(request: FastifyRequest, body: unknown): Promise<Answer> {
    const server = this.directory.create(request.ip);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(webRequestOf(request), { parsedBody: body });
      return { status: response.status, headers: response.headers, body: await response.text() };
    } finally {
      // Closes the transport too, before the client has its answer: nothing of the request stays behind.
      await server.close();
    }
  }

  /** A stateless server has no stream to offer on GET (405, as the SDK's examples answer)... */
  @Get([MCP_PATH, PUBLIC_DIRECTORY_MCP_PATH])
  noStream(@Res() reply: FastifyReply): FastifyReply {
    return methodNotAllowed(reply);
  }

  /** ...and no session to end on DELETE. */
  @Delete([MCP_PATH, WELL_KNOWN_MCP_PATH, PUBLIC_DIRECTORY_MCP_PATH])
  noSession(@Res() reply: FastifyReply): FastifyReply {
    return methodNotAllowed(reply);
  }

  /**
   * GET /.well-known/mcp: where the public directory advertises its MCP server, so agents look here. It
   * describes the server (name, version, the Streamable HTTP URL, the tools and resources); POST here is
   * the server itself, as at /mcp.
   */
  @Get(WELL_KNOWN_MCP_PATH)
  describe(@Req() request: FastifyRequest, @Res() reply: FastifyReply): FastifyReply {
    const base = baseUrlOf(request, this.config);
    const description = {
      name: SERVER_NAME,
      title: SERVER_TITLE,
      version: SERVER_VERSION,
      description: INSTRUCTIONS,
      protocolVersion: LATEST_PROTOCOL_VERSION,
      transport: { type: 'streamable-http', url: `${base}/${MCP_PATH}` },
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
      tools: DIRECTORY_TOOLS.map((tool) => ({ name: tool.name, title: tool.title, description: tool.description, arguments: Object.keys(tool.inputSchema), readOnly: true })),
      resourceTemplates: [{ uriTemplate: LISTING_URI_TEMPLATE, name: 'listing', mimeType: 'application/json' }],
      stdio: { command: 'api-directory-mcp', env: ['REDIS_URL', 'REDIS_NAMESPACE'] },
    };
    return sendJson(request, reply, storedBody(JSON.stringify(description)));
  }
}

/** The SDK's bound on the messages of a batch (a larger one it refuses as a whole). */
const MAX_BATCH = 100;

interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

function methodNotAllowed(reply: FastifyReply): FastifyReply {
  return reply
    .code(405)
    .header('allow', 'POST')
    .header('content-type', 'application/json')
    .send(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: send JSON-RPC requests with POST' }, id: null }));
}

/**
 * The request as the SDK's transport reads it (the body is passed on already parsed). The transport wants
 * clients to accept both JSON and an event stream; answers here are always JSON, so a client that asks
 * for JSON only (as the public directory's clients do) or says nothing is served as well.
 */
function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  headers.set('accept', 'application/json, text/event-stream');
  return new Request(`${request.protocol}://${request.host}${request.url}`, { method: request.method, headers });
}
