import { WithdrawListingCommand } from '../src/listings/write/commands/withdraw-listing/withdraw-listing.command';
import { getJson, RunningService, startService } from './support/harness';
import { fixtureListing, FIXTURES, withUnsourced } from './support/fixtures';
import { PublishListingCommand } from '../src/listings/write/commands/publish-listing/publish-listing.command';

/**
 * An agent that knows only the base URL finds everything from GET /: the operations, the OpenAPI
 * document, the MCP server, llms.txt, the API catalog and the change feed; llms.txt follows the catalog.
 */
let service: RunningService;
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${service.baseUrl}${path}`, { headers });

beforeAll(async () => {
  service = await startService('discovery');
  expect((await service.ingest(['fixtures'])).problems).toEqual([]);
});
afterAll(() => service?.close());

it('GET / names every entry point, and each one answers', async () => {
  const { status, body, headers } = await getJson(`${service.baseUrl}/`);
  expect(status).toBe(200);
  expect(headers.get('etag')).toBeTruthy();
  expect(headers.get('link')).toContain('</api/v1/openapi.json>; rel="service-desc"');
  expect(headers.get('link')).toContain('rel="api-catalog"');
  const fill = (path: string) => path.replace('{query}', 'speech').replace('{slug}', 'openai').replace('{id}', 'gpt-oss-120b').replace('{slugs}', 'openai,anthropic');
  for (const path of Object.values(body._links as Record<string, string>)) {
    const response = path.includes('mcp')
      ? await fetch(`${service.baseUrl}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        })
      : await get(fill(path));
    expect({ path, status: response.status }).toEqual({ path, status: 200 });
  }
  // The operations are those of the OpenAPI document, every one of them.
  const openapi = (await getJson(`${service.baseUrl}${body.documents.openapi}`)).body;
  const operationIds = Object.values(openapi.paths).flatMap((methods) => Object.values(methods as Record<string, { operationId: string }>).map((o) => o.operationId));
  expect(body.operations.map((o: { operationId: string }) => o.operationId).sort()).toEqual(operationIds.sort());
  expect([...body.mcp.tools].sort()).toEqual(['compare_models', 'compare_tools', 'get_errors', 'get_model', 'get_tool', 'list_categories', 'list_tools', 'search_models', 'search_tools']);
});

it('serves llms.txt in its format, with absolute links that resolve, and llms-full.txt with every listing', async () => {
  const response = await get('/llms.txt');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/markdown/);
  const text = await response.text();
  const [title, blank, summary] = text.split('\n');
  expect(title).toBe('# API Directory');
  expect(blank).toBe('');
  expect(summary).toMatch(new RegExp(`^> A read-only directory of ${FIXTURES.listings} `));
  expect(text).toContain('## LLM Providers (大语言模型)');
  // The ways in name the model catalog and every MCP tool (the list the MCP server defines its tools by).
  expect(text).toMatch(/tools search_tools, get_tool, compare_tools, list_categories, list_tools, get_errors, search_models, get_model, compare_models\n/);
  const models = /^- \[Models\]\((http[^)]+)\)/m.exec(text)![1];
  expect((await getJson(models)).body).toMatchObject({ success: true, sort: { by: 'price' } });
  const listingLinks = [...text.matchAll(/^- \[[^\]]+\]\((http[^)]+\/api\/v1\/tools\/[a-z0-9-]+)\): /gm)].map((m) => m[1]).filter((link) => !link.endsWith('/categories'));
  expect(listingLinks).toHaveLength(FIXTURES.listings);
  for (const link of listingLinks.slice(0, 10)) expect((await fetch(link)).status).toBe(200);
  // A decision fact an editor has stated without a source yet (planted: the shipped content has none).
  await service.command(new PublishListingCommand(withUnsourced(fixtureListing('mathpix'), ['freeTier']), { actor: 'test' }));
  const full = await (await get('/llms-full.txt')).text();
  expect(full.match(/^## /gm)).toHaveLength(FIXTURES.listings + 1);
  expect(full).toContain('```bash\ncurl');
  // Each listing points to its facts' sources, and names the facts no page of the provider's confirms yet;
  // a fact no page states is said to be not stated, and is not an unconfirmed one.
  const section = (slug: string) => full.split('\n## ').find((part) => part.includes(`/api/v1/tools/${slug}\n`))!;
  expect(section('mathpix')).toContain(`- Listing, with the source of each fact and the day it was checked: ${service.baseUrl}/api/v1/tools/mathpix`);
  expect(section('mathpix')).toContain("- Not yet confirmed on the provider's pages: free tier\n");
  expect(section('serper')).toContain('(free tier: not stated)');
  expect(section('serper')).toContain('- OpenAI-compatible chat completions: not stated');
  expect(section('serper')).toContain('- Authentication (scheme not stated): ');
  expect(section('serper')).not.toContain('Not yet confirmed');
  expect(section('kling')).not.toContain('Not yet confirmed');
  // OpenAI's context comes from its models, each with its source.
  expect(section('openai')).not.toContain('Not yet confirmed');
});

it('llms.txt follows the catalog: a withdrawn listing leaves it, under a new ETag', async () => {
  const before = await get('/llms.txt');
  const etag = before.headers.get('etag')!;
  expect((await get('/llms.txt', { 'if-none-match': etag })).status).toBe(304);
  expect(await before.text()).toContain('/api/v1/tools/remove-bg)');
  await service.command(new WithdrawListingCommand('remove-bg', 'test'));
  const after = await get('/llms.txt', { 'if-none-match': etag });
  expect(after.status).toBe(200);
  const text = await after.text();
  expect(text).not.toContain('/api/v1/tools/remove-bg)');
  expect(text).toMatch(new RegExp(`^> A read-only directory of ${FIXTURES.listings - 1} `, 'm'));
  await service.ingest(['fixtures/listings/remove-bg.yaml']);
});

it('serves the API catalog (RFC 9727) as a linkset with absolute links, and robots.txt', async () => {
  const response = await get('/.well-known/api-catalog');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/linkset\+json/);
  const { linkset } = (await response.json()) as { linkset: Array<Record<string, unknown>> };
  expect(linkset[0].anchor).toBe(`${service.baseUrl}/api/v1`);
  const [desc] = linkset[0]['service-desc'] as Array<{ href: string }>;
  expect((await fetch(desc.href)).status).toBe(200);
  expect((await fetch(`${service.baseUrl}/.well-known/api-catalog`, { method: 'HEAD' })).headers.get('link')).toContain('rel="api-catalog"');
  const robots = await get('/robots.txt');
  expect(robots.headers.get('content-type')).toMatch(/^text\/plain/);
  expect(await robots.text()).toContain('User-agent: *\nAllow: /');
});
