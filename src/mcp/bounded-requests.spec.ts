import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { boundRequests, mcpTurn } from './bounded-requests';

/**
 * boundRequests reaches into the SDK's private map of request handlers (the SDK has no hook for what it
 * does). These tests run against the SDK the project installs: when a new version moves or renames that
 * map, or stops calling the handlers kept there, they fail here, not in production.
 */
async function connected(server: McpServer): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bounded-requests-test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

function serverWithOneTool(calls: string[]): McpServer {
  const server = new McpServer({ name: 'test', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => {
    calls.push(text);
    return { content: [{ type: 'text', text }] };
  });
  return server;
}

it('wraps every request handler the SDK keeps: each call takes its turn, and still runs', async () => {
  const calls: string[] = [];
  const server = serverWithOneTool(calls);
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, unknown> })._requestHandlers;
  const before = new Map(handlers);
  boundRequests(server);
  expect([...handlers.keys()].sort()).toEqual([...before.keys()].sort());
  expect([...handlers.keys()]).toContain('tools/call');
  for (const [method, handler] of handlers) expect({ method, wrapped: handler !== before.get(method) }).toEqual({ method, wrapped: true });

  const client = await connected(server);
  // The call waits for its turn: started after a turn handed out before it.
  const order: string[] = [];
  const turn = mcpTurn().then(() => order.push('earlier turn'));
  const result = client.callTool({ name: 'echo', arguments: { text: 'hello' } }).then((r) => (order.push('call'), r));
  expect(await result).toMatchObject({ content: [{ type: 'text', text: 'hello' }] });
  await turn;
  expect(order).toEqual(['earlier turn', 'call']);
  expect(calls).toEqual(['hello']);
  await client.close();
});

it("answers params the SDK's schemas refuse with Invalid params naming the parameter", async () => {
  const server = serverWithOneTool([]);
  boundRequests(server);
  const client = await connected(server);
  const refused = await client.request({ method: 'tools/list', params: { cursor: 5 } } as never, z.object({}).passthrough()).catch((error: { code: number; message: string }) => error);
  expect(refused).toMatchObject({ code: ErrorCode.InvalidParams });
  expect((refused as { message: string }).message).toContain("'cursor' is not valid");
  await client.close();
});

it('refuses to start on an SDK that no longer keeps its handlers where boundRequests looks', () => {
  const moved = { server: { handlers: new Map() } } as unknown as McpServer;
  expect(() => boundRequests(moved)).toThrow(/_requestHandlers/);
});
