import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FILTER_NAMES } from '../src/contract/listing-filters';
import { MCP_TOOL_NAMES } from '../src/http/mcp-paths';
import { parse } from 'yaml';
import { PublishListingCommand } from '../src/listings/write/commands/publish-listing/publish-listing.command';
import { parseListing } from '../src/listings/write/listing.document';
import { DirectoryMcpServer } from '../src/mcp/directory-mcp-server';
import { WithdrawListingCommand } from '../src/listings/write/commands/withdraw-listing/withdraw-listing.command';
import { getJson, REDIS_URL, RunningService, startService } from './support/harness';
import { fixtureListing, FIXTURES, withUnsourced } from './support/fixtures';

/** Every tool the server offers: the public directory's five, get_errors, and the model catalog's. */
const ALL_TOOLS = ['compare_models', 'compare_tools', 'get_errors', 'get_model', 'get_tool', 'list_categories', 'list_tools', 'search_models', 'search_tools'];

/**
 * The MCP server as agents use it: the SDK's own client over Streamable HTTP (at /mcp and at
 * /.well-known/mcp) and over stdio (the built entry, as a client starts it), and the MCP Inspector's
 * command line as a second client written elsewhere. The tools take the public directory's arguments
 * and answer what the HTTP API answers for the same request.
 */
let service: RunningService;
const root = resolve(__dirname, '..');

beforeAll(async () => {
  service = await startService('mcp');
  expect((await service.ingest(['fixtures'])).problems).toEqual([]);
});
afterAll(() => service?.close());

async function httpClient(path: string): Promise<Client> {
  const client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(path, service.baseUrl)));
  return client;
}

const http = (path: string) => getJson(`${service.baseUrl}${path}`).then((r) => r.body);

interface Summary {
  slug: string;
  category: string;
  freeTier: boolean;
  openaiCompatible: boolean;
  sdkLanguages: string[];
}

/** The facts as data of a detail, as far as the texts' tests read them. */
interface Source {
  url: string;
  checked: string;
  staleAfter: string;
}
interface Rate {
  unit: string;
  price: number;
  appliesTo: string | null;
}
interface Model {
  id: string;
  kind: string;
  contextTokens: number | null;
  maxOutputTokens: number | null;
  prices: Rate[];
  lifecycle: { status: string; retiresAt: string | null; replacedBy: string[] | null; source: Source | null };
  source: Source;
}
interface Facts {
  slug: string;
  curlExample: string | null;
  lastUpdated: string;
  contextTokens: number | null;
  models: Model[] | null;
  prices: { currency: string; models: string[]; freeQuota: Array<{ amount: number; unit: string }>; rates: Rate[]; batchDiscount: number | null; source: Source } | null;
  rateLimits: { limits: Array<{ tier: string; scope: string; metric: string; per: string | null; limit: number; appliesTo: string | null }>; headers: string[]; source: Source } | null;
  sources: { auth: Source | null; freeTier: Source | null; openaiCompatible: Source | null; contextTokens: Source | null } | null;
}

/**
 * A text's citations: the sources it lists at the end (`[n] url (checked day, stale after day)`), and for
 * a line, the sources its ` [n]` stand for. Every number cited must be listed, and every source listed cited.
 */
function citationsOf(text: string) {
  const listed = new Map<string, Source>();
  for (const [, n, url, checked, staleAfter] of text.matchAll(/^\[(\d+)\] (\S+) \(checked (\S+), stale after (\S+)\)$/gm)) listed.set(n, { url, checked, staleAfter });
  const numbers = (line: string) => [...line.matchAll(/ \[(\d+)\]/g)].map((m) => m[1]);
  const cited = new Set(text.split('\n').filter((line) => !/^\[\d+\] /.test(line)).flatMap(numbers));
  expect([...cited].sort()).toEqual([...listed.keys()].sort());
  expect([...listed.keys()]).toEqual(listed.size === 0 ? [] : Array.from({ length: listed.size }, (_, i) => String(i + 1)));
  return (line: string | undefined) => {
    expect(line).toBeDefined();
    return numbers(line!).map((n) => listed.get(n));
  };
}

const source = ({ url, checked, staleAfter }: Source) => ({ url, checked, staleAfter });
const lineOf = (text: string, start: string) => text.split('\n').find((line) => line.startsWith(start));
/** A model's line: `- id (name): ...`, or `- id: ...` when its name is its id. */
const modelLineOf = (text: string, id: string) => text.split('\n').find((line) => line.startsWith(`- ${id} (`) || line.startsWith(`- ${id}: `));
const tokens = (n: number) => n.toLocaleString('en-US');

describe('over Streamable HTTP at /mcp', () => {
  let client: Client;
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result: CallToolResult) => (result.content[0] as { type: 'text'; text: string }).text;
  /** A result that must be a tool error (never a JSON-RPC error: callTool would throw), and its message. */
  const toolError = async (name: string, args: Record<string, unknown>) => {
    const result = await call(name, args);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    return text(result);
  };

  beforeAll(async () => {
    client = await httpClient('/mcp');
  });
  afterAll(() => client?.close());

  it('introduces itself: name, version, instructions, tools and resources that do not change', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'api-directory', version: '1.0.0' });
    expect(client.getInstructions()).toMatch(/search_tools/);
    expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: false }, resources: { listChanged: false } });
  });

  it("offers the public directory's five tools, get_errors and the model catalog's three, read-only, each with input and output schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(ALL_TOOLS);
    expect([...MCP_TOOL_NAMES].sort()).toEqual(ALL_TOOLS); // the names the discovery files list
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(40);
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    // Every filter of the one table of filters (src/contract/listing-filters.ts), as over HTTP.
    const filters = FILTER_NAMES;
    expect(byName.search_tools.inputSchema.required).toEqual(['query']);
    expect(Object.keys(byName.search_tools.inputSchema.properties!)).toEqual(expect.arrayContaining(['query', 'limit', 'cursor', ...filters]));
    expect(byName.get_tool.inputSchema.required).toEqual(['slug']);
    expect(byName.compare_tools.inputSchema.required).toEqual(['ids']);
    expect(byName.list_categories.inputSchema.required ?? []).toEqual([]);
    expect(byName.list_tools.inputSchema.required ?? []).toEqual([]);
    expect(Object.keys(byName.list_tools.inputSchema.properties!)).toEqual(expect.arrayContaining(['limit', 'cursor', ...filters]));
    expect(Object.keys(byName.get_errors.inputSchema.properties!).sort()).toEqual(['provider', 'status']);
    expect(byName.search_tools.outputSchema!.required).toEqual(expect.arrayContaining(['total', 'results', 'nextCursor']));
    // An agent choosing a tool learns that the facts as data come with the detail and the comparison.
    for (const name of ['get_tool', 'compare_tools']) {
      for (const words of [/\bmodels\b/, /\bprices\b/, /\brate limits\b/, /\bsource\b/]) expect({ name, description: byName[name].description }).toEqual({ name, description: expect.stringMatching(words) });
    }
  });

  it('search_tools {query} answers what GET /tools/search answers, 10 by default, with a numbered text', async () => {
    const result = await call('search_tools', { query: 'text to speech' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(await http('/api/v1/tools/search?q=text%20to%20speech&limit=10'));
    const found = result.structuredContent as { limit: number; total: number; results: Summary[] };
    expect(found.limit).toBe(10);
    expect(found.results.length).toBeGreaterThan(3);
    expect(found.results.map((r) => r.slug)).toContain('elevenlabs');
    expect(text(result)).toMatch(new RegExp(`^${found.total} tools found for "text to speech"`));
    expect(text(result)).toContain(`1. ${found.results[0].slug} — `);
    for (const r of found.results) expect(text(result)).toContain(r.slug);
  });

  it('search_tools takes the filters and category, and pages with cursor as the HTTP API does', async () => {
    const filtered = (await call('search_tools', { query: 'chat model', freeTier: true, openaiCompatible: true })).structuredContent as { results: Summary[] };
    expect(filtered.results.length).toBeGreaterThan(0);
    for (const r of filtered.results) expect(r).toMatchObject({ freeTier: true, openaiCompatible: true });
    // The filters on the facts as data, with their JSON types: a model, a price per unit, a free allowance.
    const byModel = (await call('list_tools', { model: 'gpt-6-luna', maxPrice: 5, priceUnit: '1m-input-tokens', freeQuota: false })).structuredContent as { tools: Summary[]; filters: object };
    expect(byModel).toEqual(await http('/api/v1/tools?model=gpt-6-luna&maxPrice=5&priceUnit=1m-input-tokens&freeQuota=false&limit=20'));
    expect(byModel.tools.map((t) => t.slug)).toContain('openai');
    expect(text(await call('list_tools', { maxPrice: 5 }))).toMatch(/'maxPrice' and 'priceUnit' go together/);

    const first = (await call('search_tools', { query: 'api', category: 'llm', limit: 5 })).structuredContent as { total: number; nextCursor: string; results: Summary[] };
    expect(first.total).toBeGreaterThan(5);
    expect(first.results.every((r) => r.category === 'llm')).toBe(true);
    const second = await call('search_tools', { query: 'api', category: 'llm', limit: 5, cursor: first.nextCursor });
    const page = second.structuredContent as { results: Summary[] };
    expect(page.results.length).toBeGreaterThan(0);
    expect(page.results.map((r) => r.slug)).not.toEqual(expect.arrayContaining([first.results[0].slug]));
    expect(second.structuredContent).toEqual(await http(`/api/v1/tools/search?q=api&category=llm&limit=5&cursor=${first.nextCursor}`));
    expect(text(second)).toMatch(/results 6-/);
  });

  it('search_tools and list_tools order as the HTTP API does: by the words of the query (cheapest) or by sort, and say so', async () => {
    const cheapest = await call('search_tools', { query: 'cheapest embedding model' });
    expect(cheapest.structuredContent).toEqual(await http('/api/v1/tools/search?q=cheapest%20embedding%20model&limit=10'));
    const { sort } = cheapest.structuredContent as { sort: { priceUnit: string; withoutRate: number } };
    expect(text(cheapest)).toContain(`lowest rate of embedding models per ${sort.priceUnit} first (${sort.withoutRate} without such a rate last):`);
    const byContext = await call('list_tools', { sort: 'context', limit: 5 });
    expect(byContext.structuredContent).toEqual(await http('/api/v1/tools?sort=context&limit=5'));
    expect(text(byContext)).toContain('largest context window first');
    expect(text(await call('list_tools', { sort: 'price' }))).toMatch(/'sort=price' needs 'priceUnit'/);
  });

  it('search_tools finds a listing by the id of a model it serves, first, naming models among the fields that matched', async () => {
    const result = await call('search_tools', { query: 'gpt-6-luna' });
    expect(result.structuredContent).toEqual(await http('/api/v1/tools/search?q=gpt-6-luna&limit=10'));
    const { results } = result.structuredContent as { results: Array<Summary & { matched: string[] }> };
    expect(results[0]).toMatchObject({ slug: 'openai', matched: expect.arrayContaining(['models']) });
    expect(text(result)).toContain('1. openai — ');
  });

  it('freeQuota: true keeps exactly the listings with a published free allowance (or a free plan), in list_tools and search_tools', async () => {
    type Detail = { slug: string; prices: { models: string[]; freeQuota: unknown[] } | null };
    const { tools: details } = (await http('/api/v1/export')) as { tools: Detail[] };
    const expected = details.filter((d) => (d.prices?.freeQuota.length ?? 0) > 0 || (d.prices?.models.includes('free') ?? false)).map((d) => d.slug).sort();
    expect(expected.length).toBeGreaterThan(5);
    expect(expected.length).toBeLessThan(details.length);

    const listed = await call('list_tools', { freeQuota: true, limit: 100 });
    expect(listed.structuredContent).toEqual(await http('/api/v1/tools?freeQuota=true&limit=100'));
    const page = listed.structuredContent as { total: number; filters: { freeQuota: boolean }; tools: Summary[] };
    expect(page.filters.freeQuota).toBe(true);
    expect(page.tools.map((t) => t.slug).sort()).toEqual(expected);
    expect(text(listed)).toMatch(new RegExp(`^${expected.length} tools \\(freeQuota: true\\)`));

    const found = (await call('search_tools', { query: 'api', freeQuota: true, limit: 100 })).structuredContent as { results: Summary[] };
    expect(found.results.length).toBeGreaterThan(0);
    for (const r of found.results) expect(expected).toContain(r.slug);
  });

  it('get_tool {slug} answers the whole listing, with the key facts and the curl example as text', async () => {
    const result = await call('get_tool', { slug: 'openai' });
    expect(result.structuredContent).toEqual(await http('/api/v1/tools/openai'));
    const { tool } = result.structuredContent as { tool: { name: string; pricing: string; curlExample: string } };
    expect(text(result)).toContain(`${tool.name} (openai;`);
    expect(text(result)).toContain(`Pricing: ${tool.pricing}`);
    // The price from leads the facts, naming its model (the cheapest current one, not a retiring one).
    expect(text(result)).toMatch(/\nPrice from: 0\.1 USD per 1m-input-tokens \(gpt-6-luna\) \[\d+\]/);
    expect(text(result)).toContain(tool.curlExample.trimEnd());
    expect((await call('get_tool', { slug: 'OpenAI' })).structuredContent).toEqual(result.structuredContent);
  });

  it("get_tool text cites a rate's own source beside it, and the prices' source on their line", async () => {
    const result = await call('get_tool', { slug: 'clerk' });
    const tool = (result.structuredContent as { tool: Facts }).tool;
    const sourcesOf = citationsOf(text(result));
    const rate = tool.prices!.rates[0] as Rate & { source: Source };
    expect(sourcesOf(lineOf(text(result), `- ${rate.price}/request (API key creation`))).toEqual([source(rate.source)]);
    expect(sourcesOf(lineOf(text(result), 'Prices (USD)'))).toEqual([source(tool.prices!.source)]);
  });

  it('get_tool text carries the models, prices and rate limits, each with its source and the day it was checked', async () => {
    const result = await call('get_tool', { slug: 'openai' });
    const tool = (result.structuredContent as { tool: Facts }).tool;
    const body = text(result);
    const sourcesOf = citationsOf(body);

    // The decision facts, each with its source; all confirmed for OpenAI.
    const facts = lineOf(body, 'Free tier: ');
    expect(sourcesOf(facts)).toEqual([tool.sources!.freeTier, tool.sources!.openaiCompatible, tool.sources!.auth, tool.models!.find((m) => m.contextTokens === tool.contextTokens)!.source].map((s) => source(s!)));
    expect(body).not.toContain('Not yet confirmed');

    // One line per model: kind, context, max output, every price, and the model's source.
    expect(body).toContain(`Models (${tool.models!.length}; prices in USD per unit):`);
    for (const model of tool.models!) expect(modelLineOf(body, model.id)).toBeDefined();
    const luna = tool.models!.find((m) => m.id === 'gpt-6-luna')!;
    const lunaLine = modelLineOf(body, 'gpt-6-luna')!;
    expect(lunaLine).toContain(`${luna.kind}, `);
    expect(lunaLine).toContain(`context ${tokens(luna.contextTokens!)}, max output ${tokens(luna.maxOutputTokens!)}`);
    for (const rate of luna.prices) expect(lunaLine).toContain(`${rate.price}/${rate.unit}`);
    expect(sourcesOf(lunaLine)).toEqual([source(luna.source)]);
    // A model on its way out: its shutdown day and successor, with the announcement as its source.
    const leaving = tool.models!.find((m) => m.lifecycle.status === 'deprecated' && m.lifecycle.replacedBy?.length)!;
    const leavingLine = modelLineOf(body, leaving.id)!;
    expect(leavingLine).toContain(`deprecated`);
    expect(leavingLine).toContain(`shuts down ${leaving.lifecycle.retiresAt}, successor ${leaving.lifecycle.replacedBy!.join(', ')}`);
    expect(sourcesOf(leavingLine)).toEqual([source(leaving.source), source(leaving.lifecycle.source!)]);
    // An active model says nothing of its lifecycle.
    expect(lunaLine).not.toMatch(/active|shuts down|successor/);

    // The listing's prices and rate limits, each with its source.
    const prices = lineOf(body, 'Prices (USD)')!;
    expect(prices).toContain(`${tool.prices!.models.join(', ')} · batch discount ${tool.prices!.batchDiscount! * 100}%`);
    expect(sourcesOf(prices)).toEqual([source(tool.prices!.source)]);
    expect(body).toContain('Free quota: none');
    expect(sourcesOf(lineOf(body, 'Rate limits ['))).toEqual([source(tool.rateLimits!.source)]);
    for (const limit of tool.rateLimits!.limits) {
      expect(body).toContain(`\n- tier ${limit.tier}, per ${limit.scope}: ${tokens(limit.limit)} ${limit.metric}/${limit.per} (${limit.appliesTo})\n`);
    }
    expect(lineOf(body, 'Limit headers: ')).toBe(`Limit headers: ${tool.rateLimits!.headers.join(', ')}`);
    // What was there before stays: the curl example, and the day last checked at the end.
    expect(body).toContain(tool.curlExample!.trimEnd());
    expect(body.endsWith(`Last checked: ${tool.lastUpdated}`)).toBe(true);

    // A free allowance and rates of the listing's own, each on a line.
    const cloudflare = await call('get_tool', { slug: 'cloudflare-ai' });
    const cf = (cloudflare.structuredContent as { tool: Facts }).tool;
    citationsOf(text(cloudflare));
    expect(cf.prices!.freeQuota.length).toBeGreaterThan(0);
    expect(text(cloudflare)).toContain(`Free quota:\n- ${tokens(cf.prices!.freeQuota[0].amount)} ${cf.prices!.freeQuota[0].unit} a `);
    for (const rate of cf.prices!.rates) expect(text(cloudflare)).toContain(`\n- ${rate.price}/${rate.unit}${rate.appliesTo ? ` (${rate.appliesTo}` : ''}`);
  });

  it('get_tool text names the decision facts no page of the provider confirms yet, and the facts as data not recorded', async () => {
    // A decision fact an editor has stated without a source yet (planted: the shipped content has none).
    await service.command(new PublishListingCommand(withUnsourced(fixtureListing('mathpix'), ['freeTier']), { actor: 'test' }));
    const mathpix = await call('get_tool', { slug: 'mathpix' });
    expect((mathpix.structuredContent as { tool: Facts }).tool.sources).toMatchObject({ freeTier: null });
    expect(text(mathpix)).toContain(`Not yet confirmed on the provider's pages: free tier.`);
    expect(lineOf(text(mathpix), 'Free tier: ')).toMatch(/^Free tier: no · OpenAI-compatible: no \[\d+\] · auth type: header-key \[\d+\]$/);

    const serper = await call('get_tool', { slug: 'serper' });
    const tool = (serper.structuredContent as { tool: Facts }).tool;
    expect(tool).toMatchObject({ sources: null, models: null, prices: null, rateLimits: null });
    // Facts no page of Serper's states are not stated, rather than guessed (and so not unconfirmed).
    expect(tool).toMatchObject({ freeTier: null, openaiCompatible: null, authType: null });
    expect(lineOf(text(serper), 'Free tier: ')).toBe('Free tier: not stated · OpenAI-compatible: not stated · auth type: not stated');
    expect(text(serper)).not.toContain('Not yet confirmed');
    expect(text(serper)).toContain('Models: none recorded.');
    expect(text(serper)).toContain('Prices as data: none recorded');
    expect(text(serper)).toContain('Rate limits as data: none recorded.');
    expect(text(serper)).not.toMatch(/^Sources/m);
  });

  it('get_tool text stays bounded for a listing of 80 models, 60 rates and 60 limits: it names every model and says where the rest is', async () => {
    // Cohere revised as an editor could: every list of its facts as data at the most the content rules allow.
    const { tool } = (await http('/api/v1/tools/cohere')) as { tool: Record<string, any> };
    const { categoryCn, pricingComparison, errors, referralUrl, curlExample, liveness, similarApis, codeExamples, ...own } = tool;
    const checked = { url: 'https://docs.cohere.com/docs/models', checked: '2026-11-26', quote: null, offDomainReason: null };
    const note = 'a note as long as an editor might write one, to say what the rate covers and what it leaves out, more or less';
    const rate = (i: number) => ({ unit: '1m-input-tokens', price: 1 + i / 100, percent: null, appliesTo: `tier ${i} of the plans a provider might sell`, note });
    const id = (i: number) => `bulk-model-${String(i).padStart(2, '0')}`;
    const document = JSON.parse(
      JSON.stringify({
        ...own,
        similarApis: similarApis.map((s: { slug: string }) => s.slug),
        codeExamples: codeExamples.map(({ label, language, code }: Record<string, string>) => ({ label, language, code })),
        models: Array.from({ length: 80 }, (_, i) => ({
          id: id(i), name: `Bulk Model ${i}`, kind: 'language', input: ['text'], output: ['text'], contextTokens: 128000 + i, maxOutputTokens: 8192,
          prices: Array.from({ length: 20 }, (_, j) => rate(j)),
          lifecycle: { status: 'active', since: null, retiresAt: null, replacedBy: null, migrationUrl: null, reason: null, source: null },
          source: { ...checked, url: `https://docs.cohere.com/docs/${id(i)}` },
        })),
        prices: { ...own.prices, freeQuota: Array.from({ length: 20 }, (_, i) => ({ unit: 'request', amount: 1000 + i, period: 'month', conditions: note })), rates: Array.from({ length: 60 }, (_, i) => rate(i)) },
        rateLimits: {
          limits: Array.from({ length: 60 }, (_, i) => ({ tier: `tier-${i}`, scope: 'key', metric: 'requests', per: 'minute', limit: 1000 + i, appliesTo: `the endpoints of group ${i}` })),
          headers: Array.from({ length: 20 }, (_, i) => `x-ratelimit-header-${i}`),
          source: checked,
        },
        domains: ['cohere.com'],
        note: null,
      }),
      (key, value) => (key === 'staleAfter' ? undefined : value),
    );
    await service.command(new PublishListingCommand(document, { actor: 'test' }));

    const result = await call('get_tool', { slug: 'cohere' });
    expect(result.structuredContent).toEqual(await http('/api/v1/tools/cohere'));
    const facts = (result.structuredContent as { tool: Facts }).tool;
    expect(facts.models).toHaveLength(80);
    const body = text(result);
    expect(JSON.stringify(facts.models).length).toBeGreaterThan(150_000);
    expect(body.length).toBeLessThan(24_000);
    citationsOf(body);

    // The first models in full, then every other one by id.
    const described = facts.models!.filter((m) => modelLineOf(body, m.id));
    expect(described.length).toBeGreaterThanOrEqual(3);
    expect(described.map((m) => m.id)).toEqual(facts.models!.slice(0, described.length).map((m) => m.id));
    expect(modelLineOf(body, id(0))).toContain('context 128,000, max output 8,192; 1/1m-input-tokens (tier 0 of the plans');
    expect(modelLineOf(body, id(0))).toContain('14 more [');
    const rest = lineOf(body, `- … ${80 - described.length} more (tool.models in structuredContent): `);
    expect(rest).toBe(`- … ${80 - described.length} more (tool.models in structuredContent): ${facts.models!.slice(described.length).map((m) => m.id).join(', ')}`);
    // The lists of the listing's own: the first, then how many more and where.
    for (const [list, total] of [['tool.prices.freeQuota', 20], ['tool.prices.rates', 60], ['tool.rateLimits.limits', 60]] as const) {
      const more = new RegExp(`^- … (\\d+) more \\(${list.replace(/\./g, '\\.')} in structuredContent\\)$`, 'm').exec(body);
      expect({ list, more: Boolean(more) }).toEqual({ list, more: true });
      expect(Number(more![1])).toBeLessThan(total);
    }
    expect(body).toContain('\n- tier tier-0, per key: 1,000 requests/minute (the endpoints of group 0)\n');
    expect(lineOf(body, 'Limit headers: ')).toBe(`Limit headers: ${facts.rateLimits!.headers.join(', ')}`);
    // What follows the facts is all there.
    expect(body).toContain(`Website: ${(facts as unknown as { website: string }).website}`);
    expect(body).toContain(facts.curlExample!.trimEnd());
    expect(body.endsWith(`Last checked: ${facts.lastUpdated}`)).toBe(true);
  });

  it('compare_tools text puts the lowest rate of each unit side by side, and each listing\'s models in brief', async () => {
    const result = await call('compare_tools', { ids: 'openai,anthropic,stripe' });
    const { compared, rates } = result.structuredContent as { compared: Facts[]; rates: Array<{ unit: string; lowest: Record<string, number | null> }> };
    const body = text(result);
    expect(rates.length).toBeGreaterThan(2);
    expect(body).toContain("Lowest US-dollar rate per unit, each listing's own or one of its models' (– none published):");
    for (const rate of rates) {
      expect(body).toContain(`\n- ${rate.unit}: ${['openai', 'anthropic', 'stripe'].map((slug) => `${slug} ${rate.lowest[slug] ?? '–'}`).join(' · ')}\n`);
    }
    for (const row of compared) {
      const contexts = (row.models ?? []).map((m) => m.contextTokens).filter((n): n is number => n !== null);
      const models = row.models ? `${row.models.length}${contexts.length > 0 ? `, largest context ${tokens(Math.max(...contexts))} tokens` : ''}` : 'none recorded';
      expect(body.split(/\n(?=\S)/).find((block) => block.startsWith(`${row.slug} — `))).toContain(`\n  Models: ${models}\n`);
    }
    expect(body).toContain('\n  Models: 14, largest context 1,050,000 tokens\n');
    expect(body).toContain('\n  Models: none recorded\n');
    expect(body).toMatch(/get_tool with its slug\.$/);
  });

  it('compare_tools takes ids comma-separated (or as a list), and names the slugs it does not know', async () => {
    const result = await call('compare_tools', { ids: 'openai,anthropic' });
    expect(result.structuredContent).toEqual(await http('/api/v1/tools/compare?ids=openai,anthropic'));
    expect((result.structuredContent as { compared: Summary[] }).compared.map((c) => c.slug)).toEqual(['openai', 'anthropic']);
    expect(text(result)).toMatch(/^2 tools side by side:\nopenai — /);
    expect((await call('compare_tools', { ids: ['openai', 'anthropic'] })).structuredContent).toEqual(result.structuredContent);
    const partly = await call('compare_tools', { ids: 'openai,no-such-api' });
    expect(partly.structuredContent).toMatchObject({ total: 1, notFound: ['no-such-api'] });
    expect(text(partly)).toContain('Not in the directory: no-such-api');
  });

  it('compare_tools text names a withdrawn listing with when, why and what replaces it', async () => {
    await service.command(new WithdrawListingCommand('remove-bg', 'editor', 'folded into another listing', ['stability-ai']));
    try {
      const result = await call('compare_tools', { ids: 'openai,remove-bg' });
      const [gone] = (result.structuredContent as { gone: Array<{ since: string }> }).gone;
      expect(text(result)).toContain(`Gone: remove-bg was withdrawn from the directory on ${gone.since.slice(0, 10)} (folded into another listing); instead: stability-ai.`);
    } finally {
      // Published again, and shown again, before the next test reads the directory.
      await service.command(new PublishListingCommand(parseListing(parse(readFileSync('fixtures/listings/remove-bg.yaml', 'utf8'))).listing!, { actor: 'editor' }));
    }
  });

  it('list_categories {} answers every category with its count', async () => {
    const result = await call('list_categories', {});
    expect(result.structuredContent).toEqual(await http('/api/v1/tools/categories'));
    expect(result.structuredContent).toMatchObject({ total: FIXTURES.categories, totalListings: FIXTURES.listings });
    expect(text(result)).toMatch(new RegExp(`^${FIXTURES.categories} categories, ${FIXTURES.listings} listings:\\n- llm: LLM Providers \\(大语言模型\\) — \\d+ listings`));
  });

  it('list_tools {limit, category} pages through the directory, 20 by default', async () => {
    const result = await call('list_tools', { limit: 5, category: 'llm' });
    expect(result.structuredContent).toEqual(await http('/api/v1/tools?category=llm&limit=5'));
    const page = result.structuredContent as { returned: number; tools: Summary[] };
    expect(page.returned).toBe(5);
    expect(page.tools.every((t) => t.category === 'llm')).toBe(true);
    expect(text(result)).toContain(`1. ${page.tools[0].slug} — `);
    expect((await call('list_tools', {})).structuredContent).toMatchObject({ limit: 20, returned: 20, total: FIXTURES.listings });

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const next = (await call('list_tools', { limit: 50, ...(cursor ? { cursor } : {}) })).structuredContent as { tools: Summary[]; nextCursor: string | null };
      seen.push(...next.tools.map((t) => t.slug));
      cursor = next.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toHaveLength(FIXTURES.listings);
    expect(new Set(seen).size).toBe(FIXTURES.listings);

    const bySdk = (await call('list_tools', { sdk: 'node', limit: 100 })).structuredContent as { filters: { sdk: string }; tools: Summary[] };
    expect(bySdk.filters.sdk).toBe('javascript');
    expect(bySdk.tools.every((t) => t.sdkLanguages.includes('javascript'))).toBe(true);
    // Above 100 is read as 100, as over HTTP.
    expect((await call('list_tools', { limit: 500 })).structuredContent).toMatchObject({ limit: 100 });
  });

  it('get_errors {provider, status} answers the error reference', async () => {
    const result = await call('get_errors', { provider: 'openai' });
    expect(result.structuredContent).toEqual(await http('/api/v1/errors?provider=openai'));
    const { errors } = result.structuredContent as { errors: Array<{ provider: string; status: number; title: string }> };
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => e.provider === 'openai')).toBe(true);
    expect(text(result)).toContain(`${errors[0].status} — ${errors[0].title}`);
    const one = (await call('get_errors', { provider: 'openai', status: errors[0].status })).structuredContent as { errors: Array<{ status: number }> };
    expect(one.errors.length).toBeGreaterThan(0);
    expect(one.errors.every((e) => e.status === errors[0].status)).toBe(true);
    // A 429 entry says where its provider's rate limits are as data, where they are given.
    expect(text(await call('get_errors', { provider: 'openai', status: 429 }))).toContain('Rate limits as data: get_tool with slug openai (rateLimits)');
    expect(text(await call('get_errors', { provider: 'vercel', status: 429 }))).not.toContain('Rate limits as data');
  });

  it('turns bad input into a tool error that says what is wrong, never a protocol error', async () => {
    expect(await toolError('get_tool', { slug: 'no-such-tool' })).toMatch(/^no tool with slug 'no-such-tool'; (did you mean [a-z0-9, -]+\? )?search_tools with query "no-such-tool" finds the right slug$/);
    expect(await toolError('get_tool', { slug: 'opnai' })).toMatch(/^no tool with slug 'opnai'; did you mean openai[,?]/);
    expect(await toolError('list_tools', { limit: 'abc' })).toMatch(/'limit' must be a whole number from 1 to 100, got 'abc'/);
    expect(await toolError('search_tools', { query: 'x', limit: 0 })).toMatch(/'limit' must be a whole number from 1 to 100, got 0/);
    expect(await toolError('search_tools', {})).toMatch(/'query' is required/);
    expect(await toolError('search_tools', { query: '   ' })).toMatch(/'query' must not be empty/);
    expect(await toolError('search_tools', { query: 'x'.repeat(201) })).toMatch(/'query' must be at most 200 characters/);
    expect(await toolError('search_tools', { query: 'api', cursor: 'garbage' })).toBe(`'cursor' is not a cursor this API gave out`);
    const { nextCursor } = (await call('search_tools', { query: 'api', limit: 2 })).structuredContent as { nextCursor: string };
    expect(await toolError('search_tools', { query: 'speech', limit: 2, cursor: nextCursor })).toMatch(/'cursor' belongs to another request/);
    expect(await toolError('list_tools', { auth: 'password' })).toMatch(/'auth' must be one of bearer, /);
    expect(await toolError('list_tools', { minContext: 'lots' })).toMatch(/'minContext' must be a positive number of tokens/);
    expect(await toolError('list_tools', { freeTier: 'maybe' })).toMatch(/'freeTier' must be true or false/);
    expect(await toolError('list_tools', { sdk: 'cobol' })).toMatch(/'sdk' must be one of /);
    expect(await toolError('get_tool', {})).toMatch(/'slug' is required/);
    expect(await toolError('compare_tools', {})).toMatch(/'ids' is required/);
    expect(await toolError('compare_tools', { ids: 'openai' })).toBe(`'ids' must name 2 to 10 distinct tool slugs, got 1`);
    expect(await toolError('compare_tools', { ids: 'nope-a,nope-b' })).toMatch(/^none of the requested tools is in the directory: nope-a, nope-b; search_tools/);
    expect(await toolError('get_errors', { status: 42 })).toBe(`'status' must be an HTTP status code (100-599), got '42'`);
    expect(await toolError('get_errors', { status: 'often' })).toMatch(/'status' must be an HTTP status code \(100-599\), got 'often'/);
  });

  it('reads the filters as the HTTP API reads them: values of a list in any case, and a bad value refused with the same message', async () => {
    // Accepted as over HTTP, where a query parameter's value is read in any case; echoed as the value it was read as.
    const loud = await call('list_tools', { maxPrice: 5, priceUnit: '1M-INPUT-TOKENS', lifecycle: 'Active', live: 'UNCHECKED', auth: 'Bearer' });
    expect(loud.isError).toBeFalsy();
    expect(loud.structuredContent).toEqual(await http('/api/v1/tools?maxPrice=5&priceUnit=1M-INPUT-TOKENS&lifecycle=Active&live=UNCHECKED&auth=Bearer&limit=20'));
    expect((loud.structuredContent as { filters: object }).filters).toMatchObject({ maxPrice: 5, priceUnit: '1m-input-tokens', lifecycle: 'active', live: 'unchecked', auth: 'bearer' });
    expect((loud.structuredContent as { tools: Summary[] }).tools.map((t) => t.slug)).toContain('openai');
    // The schema still names the values an agent may give.
    const { tools } = await client.listTools();
    const properties = tools.find((t) => t.name === 'search_tools')!.inputSchema.properties as Record<string, { enum?: string[] }>;
    expect(properties.priceUnit.enum).toContain('1m-input-tokens');
    expect(properties.lifecycle.enum).toEqual(['preview', 'active', 'deprecated', 'retired']);
    expect(properties.live.enum).toEqual(['ok', 'degraded', 'down', 'unchecked']);
    expect(properties.auth.enum).toContain('header-key');

    // Refused with the message of the HTTP API's 400, word for word.
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ maxPrice: -1, priceUnit: '1m-input-tokens' }, 'maxPrice=-1&priceUnit=1m-input-tokens'],
      [{ maxPrice: 1, priceUnit: 'BANANAS' }, 'maxPrice=1&priceUnit=BANANAS'],
      [{ lifecycle: 'Eternal' }, 'lifecycle=Eternal'],
      [{ live: 'up' }, 'live=up'],
      [{ minContext: 0 }, 'minContext=0'],
      [{ minContext: 1.5 }, 'minContext=1.5'],
      [{ retiringWithin: 5000 }, 'retiringWithin=5000'],
    ];
    for (const [args, query] of cases) {
      const refused = await getJson(`${service.baseUrl}/api/v1/tools?${query}`);
      expect(refused.status).toBe(400);
      expect({ args, message: await toolError('list_tools', args) }).toEqual({ args, message: refused.body.detail });
      expect({ args, message: await toolError('search_tools', { query: 'api', ...args }) }).toEqual({ args, message: refused.body.detail });
    }
    expect(await toolError('list_tools', { maxPrice: -1, priceUnit: '1m-input-tokens' })).toBe(`'maxPrice' must be an amount in US dollars, e.g. 0.5, got '-1'`);
  });

  it('offers every listing as a resource by slug, read as the detail JSON', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: 'apidirectory://tools/{slug}', mimeType: 'application/json' })]);
    // A page at a time (test/mcp-limits.e2e-spec.ts holds the pages to their size), every listing once.
    const resources = [];
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor ? { cursor } : {});
      resources.push(...page.resources);
      cursor = page.nextCursor;
    } while (cursor);
    expect(resources).toHaveLength(FIXTURES.listings);
    expect(new Set(resources.map((r) => r.uri)).size).toBe(FIXTURES.listings);
    expect(resources[0]).toMatchObject({ uri: 'apidirectory://tools/openai', name: 'openai', mimeType: 'application/json' });
    const read = await client.readResource({ uri: 'apidirectory://tools/openai' });
    expect(read.contents).toHaveLength(1);
    expect(read.contents[0]).toMatchObject({ uri: 'apidirectory://tools/openai', mimeType: 'application/json' });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual(await http('/api/v1/tools/openai'));
    await expect(client.readResource({ uri: 'apidirectory://tools/no-such-tool' })).rejects.toMatchObject({ code: -32002, message: expect.stringContaining("no tool with slug 'no-such-tool'") });
  });

  it('keeps nothing of a request once it is answered, and answers requests at the same time', async () => {
    const factory = service.app.get(DirectoryMcpServer);
    const made: McpServer[] = [];
    const create = factory.create.bind(factory);
    const spy = jest.spyOn(factory, 'create').mockImplementation(() => {
      const server = create();
      made.push(server);
      return server;
    });
    try {
      const slugs = ['openai', 'anthropic', 'stripe', 'github', 'elevenlabs', 'no-such-tool'];
      const results = await Promise.all(slugs.map((slug) => call('get_tool', { slug })));
      expect(results.map((r) => Boolean(r.isError))).toEqual([false, false, false, false, false, true]);
      results.slice(0, 5).forEach((r, i) => expect((r.structuredContent as { tool: { slug: string } }).tool.slug).toBe(slugs[i]));
      await client.listTools();
      expect(made.length).toBeGreaterThanOrEqual(7);
      expect(made.filter((server) => server.isConnected())).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('at /.well-known/mcp, where the public directory advertises its server', () => {
  it('answers POST as /mcp does', async () => {
    const client = await httpClient('/.well-known/mcp');
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'api-directory', version: '1.0.0' });
      expect((await client.listTools()).tools).toHaveLength(ALL_TOOLS.length);
      const result = (await client.callTool({ name: 'get_tool', arguments: { slug: 'openai' } })) as CallToolResult;
      expect(result.structuredContent).toEqual(await http('/api/v1/tools/openai'));
    } finally {
      await client.close();
    }
  });

  it('describes the server on GET: name, version, the Streamable HTTP URL and the tools', async () => {
    const { status, body } = await getJson(`${service.baseUrl}/.well-known/mcp`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ name: 'api-directory', version: '1.0.0', transport: { type: 'streamable-http', url: `${service.baseUrl}/mcp` } });
    expect(body.tools.map((t: { name: string }) => t.name)).toEqual(['search_tools', 'get_tool', 'compare_tools', 'list_categories', 'list_tools', 'get_errors', 'search_models', 'get_model', 'compare_models']);
    expect(body.tools[0].arguments).toEqual(expect.arrayContaining(['query', 'category', 'limit', 'cursor']));
  });

  it('serves plain JSON-RPC POSTs that accept JSON only, there and at /api/mcp, as the public directory answers them', async () => {
    for (const path of ['/.well-known/mcp', '/api/mcp']) {
      const response = await fetch(`${service.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search_tools', arguments: { query: 'vector database', limit: 3 } } }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await response.json()) as { result: { content: Array<{ text: string }> } };
      expect(body).toMatchObject({ jsonrpc: '2.0', id: 7, result: { structuredContent: { returned: 3 } } });
      expect(body.result.content[0].text).toMatch(/vector database/);
    }
  });

  it('answers a body that is not JSON with a JSON-RPC parse error', async () => {
    for (const path of ['/mcp', '/api/mcp']) {
      const response = await fetch(`${service.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: '{"jsonrpc": "2.0", "id": 1,' });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 }, id: null });
    }
    // Elsewhere a bad body stays a problem document.
    const elsewhere = await fetch(`${service.baseUrl}/api/v1/tools/openai`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(elsewhere.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('answers GET /mcp and DELETE with 405 and a JSON-RPC error: there are no sessions or streams to open or end', async () => {
    for (const [method, path] of [['GET', '/mcp'], ['GET', '/api/mcp'], ['DELETE', '/mcp'], ['DELETE', '/.well-known/mcp']]) {
      const response = await fetch(`${service.baseUrl}${path}`, { method, headers: { accept: 'text/event-stream' } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    }
  });
});

describe('over stdio', () => {
  it('serves the tools from the built entry, against the directory in REDIS_URL and REDIS_NAMESPACE', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(root, 'dist/src/mcp/stdio.js')],
      env: { REDIS_URL, REDIS_NAMESPACE: service.namespace },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk) => (stderr += chunk));
    const client = new Client({ name: 'mcp-e2e-stdio', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'api-directory', version: '1.0.0' });
      expect((await client.listTools()).tools).toHaveLength(ALL_TOOLS.length);
      const categories = (await client.callTool({ name: 'list_categories', arguments: {} })) as CallToolResult;
      expect(categories.structuredContent).toEqual(await http('/api/v1/tools/categories'));
      const search = (await client.callTool({ name: 'search_tools', arguments: { query: 'text to speech' } })) as CallToolResult;
      expect(search.structuredContent).toEqual(await http('/api/v1/tools/search?q=text%20to%20speech&limit=10'));
      const unknown = (await client.callTool({ name: 'get_tool', arguments: { slug: 'no-such-tool' } })) as CallToolResult;
      expect(unknown.isError).toBe(true);
      expect((await client.readResource({ uri: 'apidirectory://tools/stripe' })).contents[0]).toMatchObject({ mimeType: 'application/json' });
    } finally {
      await client.close();
    }
    // Nothing but the protocol went to stdout (the client would have failed on it); logs stay quiet by default.
    expect(stderr).not.toMatch(/ERROR/);
  });
});

/** The MCP Inspector's command line (`mcp-inspector --cli`): headless, no browser, nothing fetched. */
describe('with the MCP Inspector as the client', () => {
  let catalogDir: string;
  beforeAll(() => {
    catalogDir = mkdtempSync(join(tmpdir(), 'mcp-inspector-'));
  });
  afterAll(() => rmSync(catalogDir, { recursive: true, force: true }));

  function inspector(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((done, fail) => {
      const child = spawn(join(root, 'node_modules/.bin/mcp-inspector'), ['--cli', ...args], {
        cwd: root,
        // Its catalog of servers goes to a scratch file, not the home directory.
        env: { ...process.env, MCP_CATALOG_PATH: join(catalogDir, 'mcp.json'), BROWSER: 'none' },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('error', fail);
      child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
    });
  }

  it('lists and calls the tools over Streamable HTTP', async () => {
    const list = await inspector([`${service.baseUrl}/mcp`, '--transport', 'http', '--method', 'tools/list']);
    expect(list.code).toBe(0);
    const { tools } = JSON.parse(list.stdout);
    expect(tools.map((t: { name: string }) => t.name).sort()).toEqual(ALL_TOOLS);
    expect(tools.every((t: { annotations: { readOnlyHint: boolean } }) => t.annotations.readOnlyHint)).toBe(true);
    expect(list.stderr).toMatch(/0 errors/);

    const search = await inspector([`${service.baseUrl}/mcp`, '--transport', 'http', '--method', 'tools/call', '--tool-name', 'search_tools', '--tool-arg', 'query=text to speech', 'limit=3']);
    expect(search.code).toBe(0);
    const found = JSON.parse(search.stdout);
    expect(found.structuredContent).toEqual(await http('/api/v1/tools/search?q=text%20to%20speech&limit=3'));
    expect(found.content[0].text).toMatch(/^\d+ tools found for "text to speech"/);

    const compare = await inspector([`${service.baseUrl}/.well-known/mcp`, '--transport', 'http', '--method', 'tools/call', '--tool-name', 'compare_tools', '--tool-arg', 'ids=openai,anthropic']);
    expect(compare.code).toBe(0);
    expect(JSON.parse(compare.stdout).structuredContent.compared.map((c: { slug: string }) => c.slug)).toEqual(['openai', 'anthropic']);
  });

  it('reports a tool error for an unknown slug', async () => {
    const run = await inspector([`${service.baseUrl}/mcp`, '--transport', 'http', '--method', 'tools/call', '--tool-name', 'get_tool', '--tool-arg', 'slug=no-such-tool']);
    expect(run.code).not.toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/no tool with slug 'no-such-tool'/);
  });

  it('lists the tools and reads a resource over stdio', async () => {
    const server = ['-e', `REDIS_URL=${REDIS_URL}`, '-e', `REDIS_NAMESPACE=${service.namespace}`, process.execPath, join(root, 'dist/src/mcp/stdio.js')];
    const list = await inspector([...server, '--method', 'tools/list']);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).tools).toHaveLength(ALL_TOOLS.length);
    const read = await inspector([...server, '--method', 'resources/read', '--uri', 'apidirectory://tools/openai']);
    expect(read.code).toBe(0);
    expect(JSON.parse(JSON.parse(read.stdout).contents[0].text)).toEqual(await http('/api/v1/tools/openai'));
  });
});
