import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { setImmediate as eventLoopTurn } from 'node:timers/promises';

type RequestHandler = (request: unknown, extra: unknown) => Promise<unknown>;

/** The last turn handed out (see mcpTurn). */
let lastTurn: Promise<void> = Promise.resolve();

/**
 * Resolves in an event loop turn of its own: one MCP call (of any client, any request) starts per turn,
 * after the I/O and timers waiting then (other clients' requests, /readyz). Many calls at once (a
 * batch, or many clients' batches) so take turns with everything else instead of running back to back:
 * a POST of 100 calls answered from memory held the event loop for all 100 at once.
 */
export function mcpTurn(): Promise<void> {
  lastTurn = lastTurn.then(() => eventLoopTurn());
  return lastTurn;
}

/**
 * Every request handler of `server` (the SDK's and ours), changed in two ways:
 *
 * - Each starts in a turn of its own (mcpTurn), so no request holds the event loop for longer than its
 *   largest single call.
 * - A request whose params the SDK's schemas refuse is Invalid params (-32602) naming the parameter,
 *   rather than Internal error (-32603) carrying the validator's issues as JSON.
 *
 * The SDK has no hook for either (its public `setRequestHandler` replaces a handler, and the SDK's own
 * handlers, such as tools/call's, are not reachable to wrap); its handlers are kept in `_requestHandlers` (a
 * map from method to handler), registered by the time the server is built, and wrapped here once. This is
 * the one place that reaches into the SDK: the process refuses to start if the map is not where it was,
 * and bounded-requests.spec.ts fails on an SDK that moves it or stops calling what it holds.
 */
export function boundRequests(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers?: unknown })?._requestHandlers;
  if (!(handlers instanceof Map) || handlers.size === 0) {
    throw new Error('the MCP SDK no longer keeps its request handlers in `_requestHandlers`: src/mcp/bounded-requests.ts must follow this SDK version');
  }
  for (const [method, handler] of handlers as Map<string, RequestHandler>) {
    handlers.set(method, async (request: unknown, extra: unknown) => {
      await mcpTurn();
      try {
        return await handler(request, extra);
      } catch (error) {
        throw invalidParams(error, method) ?? error;
      }
    });
  }
}

/**
 * A JSON-RPC error for the SDK to send: its `code` and `message` go out as they are (the SDK's McpError
 * puts "MCP error <code>: " before the message, and a client's McpError puts it there again).
 */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** What a validation issue says, for a parameter (`params.cursor` named 'cursor'). */
interface Issue {
  path: PropertyKey[];
  message: string;
}

/** Invalid params naming what is wrong, for an error of the SDK's request checks; null for any other error. */
function invalidParams(error: unknown, method: string): JsonRpcError | null {
  // (zod's errors, of either of its APIs: the SDK parses with whichever its schemas were written in)
  const issues = (error as { issues?: unknown })?.issues;
  if (Array.isArray(issues) && issues.length > 0 && issues.every(isIssue)) return new JsonRpcError(ErrorCode.InvalidParams, `Invalid params: ${issues.map(describe).join('; ')}`);
  // resources/read makes a URL of `uri` before anything else looks at it.
  if ((error as NodeJS.ErrnoException)?.code === 'ERR_INVALID_URL' && method === 'resources/read') {
    return new JsonRpcError(ErrorCode.InvalidParams, `Invalid params: 'uri' must be a URI, e.g. apidirectory://tools/openai`);
  }
  return null;
}

function isIssue(issue: unknown): issue is Issue {
  return Array.isArray((issue as Issue)?.path) && typeof (issue as Issue).message === 'string';
}

function describe({ path, message }: Issue): string {
  const name = path.filter((part) => part !== 'params').map(String).join('.') || 'params';
  const said = message.replace(/^Invalid input: /, '');
  return /received undefined$/.test(said) ? `'${name}' is required` : `'${name}' is not valid (${said})`;
}
