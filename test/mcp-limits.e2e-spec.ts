import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connect } from 'node:net';
import { DirectoryMcpServer } from '../src/mcp/directory-mcp-server';
import { RunningService, startService } from './support/harness';
import { FIXTURES } from './support/fixtures';

/**
 * The MCP endpoint within the limits the HTTP API keeps: each call of a batch spends the request
 * budget, search_tools spends the search budget, answers are bounded (resources/list is paged), and a
 * request that is not what the protocol asks for is told so in words, not with a validator's dump.
 */

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

/** POSTs JSON-RPC messages to /mcp as `client` (X-Forwarded-For; the test is the trusted proxy). */
async function post(baseUrl: string, messages: unknown, client?: string) {
  const response = await fetch(`${baseUrl}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...(client ? { 'x-forwarded-for': client } : {}) }, body: JSON.stringify(messages) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

const calls = (n: number, method: string, params: (i: number) => unknown = () => ({})) => Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method, params: params(i) }));

async function clientAs(baseUrl: string, address: string): Promise<Client> {
  const client = new Client({ name: 'mcp-limits', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), { requestInit: { headers: { 'x-forwarded-for': address } } }));
  return client;
}

describe('MCP within the budgets of HTTP', () => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startService('mcp-budgets', { RATE_LIMIT_PER_MINUTE: '20', SEARCH_RATE_LIMIT_PER_MINUTE: '5', TRUST_PROXY: '127.0.0.1' });
    expect((await service.ingest(['fixtures'])).problems).toEqual([]);
  });
  afterAll(() => service?.close());

  it('spends the request budget once for each call of a batch', async () => {
    const client = '198.51.100.21';
    const first = await post(service.baseUrl, calls(10, 'tools/list'), client);
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(10);
    expect(first.headers.get('ratelimit-remaining')).toBe('10');
    // 15 more calls than the budget has left: the POST is refused as a whole, as 15 POSTs would be in part.
    const second = await post(service.baseUrl, calls(15, 'tools/list'), client);
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await post(service.baseUrl, { jsonrpc: '2.0', id: 1, method: 'ping' }, client)).status).toBe(429);
    // Another client is not affected.
    expect((await post(service.baseUrl, { jsonrpc: '2.0', id: 1, method: 'ping' }, '198.51.100.22')).status).toBe(200);
  }, 30_000);

  it('spends the search budget of the client on search_tools exactly as HTTP does: shared, and only for searches the cache cannot answer', async () => {
    const address = '198.51.100.23';
    // Two searches over HTTP, three through MCP: the budget of five is spent.
    for (const q of ['webhooks', 'translation']) {
      expect((await fetch(`${service.baseUrl}/api/v1/tools/search?q=${q}`, { headers: { 'x-forwarded-for': address } })).status).toBe(200);
    }
    const client = await clientAs(service.baseUrl, address);
    try {
      const search = async (query: string) => (await client.callTool({ name: 'search_tools', arguments: { query } })) as CallToolResult;
      for (const query of ['vector database', 'speech to text', 'maps']) expect((await search(query)).isError).toBeFalsy();
      // Answered from the read cache: free, over MCP as over HTTP.
      expect((await search('maps')).isError).toBeFalsy();
      const refused = await search('image generation');
      expect(refused.isError).toBe(true);
      expect((refused.content[0] as { text: string }).text).toMatch(/more than 5 searches .* a minute from this client; retry in \d+ s/);
      // The same search for a client with budget left is answered.
      const other = await clientAs(service.baseUrl, '198.51.100.24');
      expect(((await other.callTool({ name: 'search_tools', arguments: { query: 'image generation' } })) as CallToolResult).isError).toBeFalsy();
      await other.close();
    } finally {
      await client.close();
    }
  }, 30_000);
});

describe('MCP answers bounded and errors in words', () => {
  let service: RunningService;
  let client: Client;

  beforeAll(async () => {
    service = await startService('mcp-bounded');
    expect((await service.ingest(['fixtures'])).problems).toEqual([]);
    client = new Client({ name: 'mcp-bounded', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', service.baseUrl)));
  });
  afterAll(async () => {
    await client?.close();
    await service?.close();
  });

  it('pages resources/list: at most 100 a page, most popular first, every listing once through nextCursor', async () => {
    const first = await client.listResources();
    expect(first.resources).toHaveLength(100);
    expect(first.resources[0]).toMatchObject({ uri: 'apidirectory://tools/openai', name: 'openai', mimeType: 'application/json' });
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await client.listResources({ cursor: first.nextCursor });
    expect(second.resources).toHaveLength(FIXTURES.listings - 100);
    expect(second.nextCursor).toBeUndefined();
    const uris = [...first.resources, ...second.resources].map((r) => r.uri);
    expect(new Set(uris).size).toBe(FIXTURES.listings);
    const tools = (await (await fetch(`${service.baseUrl}/api/v1/tools?limit=100`)).json()) as { tools: Array<{ slug: string }> };
    expect(first.resources.map((r) => r.name)).toEqual(tools.tools.map((t) => t.slug));
  });

  it('refuses a resources/list cursor it did not give out with Invalid params (-32602), naming the cursor', async () => {
    const { body } = await post(service.baseUrl, { jsonrpc: '2.0', id: 7, method: 'resources/list', params: { cursor: 'not-a-cursor' } });
    expect(body).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: expect.stringMatching(/cursor/) } });
  });

  it.each([
    ['tools/call', { name: 5 }, /'name'/],
    ['tools/call', { name: 'get_tool', arguments: 'openai' }, /'arguments'/],
    ['resources/read', {}, /'uri'/],
    ['resources/read', { uri: 'not a uri' }, /'uri'/],
    ['resources/list', { cursor: 5 }, /'cursor'/],
    ['initialize', {}, /'protocolVersion'/],
  ])('answers %s with params %j as Invalid params (-32602) naming what is wrong, never a validator dump', async (method, params, names) => {
    const { status, body } = await post(service.baseUrl, { jsonrpc: '2.0', id: 3, method, params });
    expect(status).toBe(200);
    expect(body).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32602, message: expect.stringMatching(names) } });
    expect(body.error.message).toMatch(/^Invalid params: /);
    expect(body.error.message).not.toMatch(/[[{]\s*"|invalid_type|Invalid URL/);
  });

  it('answers every call of a batch of 100, in order', async () => {
    const { status, body } = await post(service.baseUrl, calls(100, 'resources/list'));
    expect(status).toBe(200);
    expect(body).toHaveLength(100);
    expect(body.map((answer: { id: number }) => answer.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    for (const answer of body) expect(answer.result.resources).toHaveLength(100);
  });
});

describe('a batch whose client goes away', () => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startService('mcp-abandoned', { RATE_LIMIT_PER_MINUTE: '0', SEARCH_RATE_LIMIT_PER_MINUTE: '0' });
    expect((await service.ingest(['fixtures'])).problems).toEqual([]);
  });
  afterAll(() => service?.close());

  it('is not answered past the moment its connection closed, and the messages left are counted', async () => {
    // Each message of a batch is answered by a server of its own: counting them counts the messages answered.
    const directory = service.app.get(DirectoryMcpServer);
    const create = directory.create.bind(directory);
    let answered = 0;
    let firstStarted!: () => void;
    const started = new Promise<void>((resolve) => (firstStarted = resolve));
    directory.create = (client: string) => {
      if (++answered === 1) firstStarted();
      return create(client);
    };
    const body = JSON.stringify(calls(100, 'tools/call', (i) => ({ name: 'search_tools', arguments: { query: `abandoned ${i} speech gpu` } })));
    const socket = connect(Number(new URL(service.baseUrl).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2025-06-18\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await started;
    socket.destroy();
    // The batch stops at its next message and counts the rest.
    let abandoned = 0;
    while (abandoned === 0) {
      const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
      abandoned = Number(/^directory_mcp_batch_messages_abandoned_total (\d+)/m.exec(metrics)?.[1] ?? 0);
    }
    expect(answered + abandoned).toBe(100);
    expect(abandoned).toBeGreaterThan(50);
  });
});
