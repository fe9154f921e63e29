import { Injectable, Logger } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, ListResourcesRequestSchema, type CallToolResult, type ListResourcesResult, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiProblem, serverProblem } from '../http/problem';
import type { StoredBody } from '../http/stored-body';
import { GetToolQuery } from '../listings/read/detail/get-tool.query';
import { listQueryOf } from '../listings/read/list/list-params';
import { SearchToolsQuery } from '../listings/read/search/search-tools.query';
import { boundRequests, JsonRpcError } from './bounded-requests';
import { FILTER_LIST } from '../contract/listing-filters';
import { AnyDirectoryTool, DIRECTORY_TOOLS } from './directory-tools';
import type { ListResponse } from '../contract/responses';

export const SERVER_NAME = 'api-directory';
export const SERVER_TITLE = 'API Directory';
export const SERVER_VERSION = '1.0.0';

/** Every listing is a resource under this URI template. */
export const LISTING_URI_TEMPLATE = 'apidirectory://tools/{slug}';
const listingUri = (slug: string) => `apidirectory://tools/${slug}`;

/**
 * resources/list names this many listings a page, the most popular first, and nextCursor for the next
 * (the list API's cursor): an answer stays about 30 KB however large the catalog.
 */
export const RESOURCES_PAGE = 100;

/** JSON-RPC error code the MCP specification gives an unknown resource. */
const RESOURCE_NOT_FOUND = -32002;

export const INSTRUCTIONS =
  'A read-only directory of third-party web APIs (chiefly AI, language-model and cloud APIs), in English and Chinese, ' +
  'with facts checked against each provider: pricing, free tier, authentication, rate limits, context size, endpoints, ' +
  'SDKs and code examples. To pick an API for a task, call search_tools with what it should do (filters: category, ' +
  `${FILTER_LIST}), then get_tool with a slug for its full listing (models, prices and rate limits, each with its ` +
  'source) and a ready curl example, or compare_tools with 2 to 10 slugs. list_categories gives the category slugs; ' +
  'list_tools browses by popularity. When a call to a provider fails, get_errors (provider, status) gives the cause and the fix. Every tool ' +
  'returns structured JSON (structuredContent) and a short text; pages go on with nextCursor. Each listing is also a ' +
  `resource at ${LISTING_URI_TEMPLATE}. Nothing here changes anything or needs a credential.`;

/**
 * Builds the directory's MCP server: the tools of DIRECTORY_TOOLS and the listings as resources, each a
 * query on the QueryBus. One server per connection: the stdio entry makes one; the HTTP endpoint makes one
 * per request (see McpHttpController), for the client it came from, whose search budget search_tools
 * spends as HTTP searches do. Requests run one at a time (see boundRequests).
 */
@Injectable()
export class DirectoryMcpServer {
  private readonly logger = new Logger('mcp');

  constructor(private readonly queries: QueryBus) {}

  /** A server for `client` (its address; null: a local client over stdio, with no budget). */
  create(client: string | null = null): McpServer {
    const server = new McpServer(
      { name: SERVER_NAME, title: SERVER_TITLE, version: SERVER_VERSION },
      { instructions: INSTRUCTIONS },
    );
    for (const tool of DIRECTORY_TOOLS) {
      server.registerTool(
        tool.name,
        {
          title: tool.title,
          description: tool.description,
          inputSchema: tool.inputSchema,
          outputSchema: tool.outputSchema,
          annotations: { title: tool.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        },
        (args: Record<string, unknown>) => this.call(tool, args, client),
      );
    }
    server.registerResource(
      'listing',
      new ResourceTemplate(LISTING_URI_TEMPLATE, { list: undefined }),
      {
        title: 'API listing',
        description: 'The full listing of one API (what get_tool returns), by slug.',
        mimeType: 'application/json',
      },
      (uri, { slug }) => this.readListing(uri.href, Array.isArray(slug) ? slug.join(',') : slug),
    );
    // The SDK's resources/list asks a template for all of its resources at once, without a cursor.
    server.server.setRequestHandler(ListResourcesRequestSchema, (request) => this.listingResources(request.params?.cursor));
    // Registering says the lists may change; they do not while the server runs (and stateless HTTP could not announce it).
    server.server.registerCapabilities({ tools: { listChanged: false }, resources: { listChanged: false } });
    boundRequests(server);
    return server;
  }

  /** Runs a tool: its query on the QueryBus; a problem (bad argument, unknown slug) is a tool error saying what is wrong. */
  private async call(tool: AnyDirectoryTool, args: Record<string, unknown>, client: string | null): Promise<CallToolResult> {
    try {
      const query = tool.query(args);
      if (query instanceof SearchToolsQuery || query instanceof GetToolQuery) query.client = client;
      const output = this.parse(await this.queries.execute(query));
      return { content: [{ type: 'text', text: tool.text(output, query) }], structuredContent: output };
    } catch (error) {
      const problem = this.problemOf(error, tool.name);
      const text = problem.status === 404 && tool.notFound ? tool.notFound(args, problem.detail, (problem.extra ?? {}) as Record<string, unknown>) : problem.detail;
      return { content: [{ type: 'text', text }], isError: true };
    }
  }

  private async listingResources(cursor: string | undefined): Promise<ListResourcesResult> {
    let page: ListResponse;
    try {
      page = this.parse(await this.queries.execute(listQueryOf({ limit: String(RESOURCES_PAGE), ...(cursor ? { cursor } : {}) }))) as ListResponse;
    } catch (error) {
      const problem = this.problemOf(error, 'resources/list');
      throw new JsonRpcError(problem.status === 400 ? ErrorCode.InvalidParams : ErrorCode.InternalError, problem.status === 400 ? `Invalid params: ${problem.detail}` : problem.detail);
    }
    return {
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      resources: page.tools.map((tool) => ({
        uri: listingUri(tool.slug),
        name: tool.slug,
        title: tool.name,
        description: tool.description,
        mimeType: 'application/json',
      })),
    };
  }

  private async readListing(uri: string, slug: string): Promise<ReadResourceResult> {
    let stored: StoredBody;
    try {
      stored = await this.queries.execute(new GetToolQuery(slug));
    } catch (error) {
      const problem = this.problemOf(error, 'resources/read');
      throw new JsonRpcError(problem.status === 404 ? RESOURCE_NOT_FOUND : ErrorCode.InternalError, problem.detail, { uri });
    }
    return { contents: [{ uri, mimeType: 'application/json', text: stored.body.toString('utf8') }] };
  }

  private parse(stored: StoredBody): Record<string, unknown> {
    return JSON.parse(stored.body.toString('utf8')) as Record<string, unknown>;
  }

  /** What went wrong, as the HTTP API would say it; an unreachable store or a bug is logged. */
  private problemOf(error: unknown, what: string): ApiProblem {
    return error instanceof ApiProblem ? error : serverProblem(error, this.logger, what);
  }
}
