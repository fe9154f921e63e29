import { NO_FILTERS } from '../src/contract/listing-filters';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { z } from 'zod';
import { categorySchema, comparisonRowSchema, errorEntrySchema, searchResultSchema, toolDetailSchema, toolSummarySchema } from '../src/contract/listing-views';
import {
  categoriesResponseSchema,
  changeSchema,
  changesResponseSchema,
  compareResponseSchema,
  errorsResponseSchema,
  listResponseSchema,
  PUBLISHED_SCHEMAS,
  searchResponseSchema,
  serviceIndexSchema,
  toolDetailResponseSchema,
} from '../src/contract/responses';
import { opened } from '../src/mcp/mcp-output-schemas';
import { componentSchemas } from '../src/openapi/component-schemas';
import { getJson, RunningService, startService } from './support/harness';

/**
 * One definition per shape: the zod schemas of src/contract/ are what the service sends, what the OpenAPI
 * document describes and what the MCP tools declare. For every published shape, the keys (in order) of the
 * bodies served, of the OpenAPI component and of the MCP output schema are the schema's own; and a field
 * added to a schema appears in the derived OpenAPI component and MCP schema with no other change.
 */
let service: RunningService;
let openapi: any;
let mcpTools: Map<string, any>;

const keys = (schema: z.ZodType) => Object.keys((schema as z.ZodObject).shape);
const get = async (path: string) => (await getJson(`${service.baseUrl}${path}`)).body;

beforeAll(async () => {
  service = await startService('contract-drift');
  expect((await service.ingest(['fixtures'])).problems).toEqual([]);
  openapi = await get('/api/v1/openapi.json');
  const client = new Client({ name: 'contract-drift', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', service.baseUrl)));
  mcpTools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
  await client.close();
});
afterAll(() => service?.close());

describe('the bodies served have exactly the keys of their schema, in its order', () => {
  it.each([
    ['search', '/api/v1/tools/search?q=speech&limit=3', searchResponseSchema, (b: any) => b.results[0], searchResultSchema],
    ['list', '/api/v1/tools?limit=3', listResponseSchema, (b: any) => b.tools[0], toolSummarySchema],
    ['detail', '/api/v1/tools/openai', toolDetailResponseSchema, (b: any) => b.tool, toolDetailSchema],
    ['compare', '/api/v1/tools/compare?ids=openai,anthropic', compareResponseSchema, (b: any) => b.compared[1], comparisonRowSchema],
    ['categories', '/api/v1/tools/categories', categoriesResponseSchema, (b: any) => b.categories[0], categorySchema],
    ['errors', '/api/v1/errors', errorsResponseSchema, (b: any) => b.errors[0], errorEntrySchema],
    ['changes', '/api/v1/changes?limit=3', changesResponseSchema, (b: any) => b.changes[0], changeSchema],
    ['service index', '/', serviceIndexSchema, (b: any) => b.mcp, serviceIndexSchema.shape.mcp],
  ] as const)('%s', async (_, path, envelope, inner, view) => {
    const body = await get(path);
    expect(Object.keys(body)).toEqual(keys(envelope));
    expect(Object.keys(inner(body))).toEqual(keys(view));
  });
});

describe('the OpenAPI components are the schemas', () => {
  it.each(Object.entries(PUBLISHED_SCHEMAS).filter(([, schema]) => schema instanceof z.ZodObject))('%s', (name, schema) => {
    expect(Object.keys(openapi.components.schemas[name].properties)).toEqual(keys(schema));
  });
});

describe('the MCP output schemas are the schemas', () => {
  const items = (schema: any, property: string) => schema.properties[property].items.properties;
  it.each([
    ['search_tools', searchResponseSchema, (s: any) => items(s, 'results'), searchResultSchema],
    ['list_tools', listResponseSchema, (s: any) => items(s, 'tools'), toolSummarySchema],
    ['get_tool', toolDetailResponseSchema, (s: any) => s.properties.tool.properties, toolDetailSchema],
    ['compare_tools', compareResponseSchema, (s: any) => items(s, 'compared'), comparisonRowSchema],
    ['list_categories', categoriesResponseSchema, (s: any) => items(s, 'categories'), categorySchema],
    ['get_errors', errorsResponseSchema, (s: any) => items(s, 'errors'), errorEntrySchema],
  ] as const)('%s', (tool, envelope, inner, view) => {
    const output = mcpTools.get(tool).outputSchema;
    expect(Object.keys(output.properties)).toEqual(keys(envelope));
    expect(Object.keys(inner(output))).toEqual(keys(view));
  });
});

describe('a field added to a schema reaches every derived form', () => {
  const probe = z.string().nullable().describe('A field added for this test.');
  const extended = toolSummarySchema.extend({ probeField: probe });

  it('the OpenAPI component', () => {
    const components = componentSchemas({ ...PUBLISHED_SCHEMAS, ToolSummary: extended });
    expect(components.ToolSummary.properties).toHaveProperty('probeField', { description: 'A field added for this test.', type: 'string', nullable: true });
    expect(components.ToolSummary.required).toContain('probeField');
  });

  it('the MCP output schema, which still accepts the answers of today', () => {
    const schema = opened(listResponseSchema.extend({ tools: z.array(extended) }));
    const json = z.toJSONSchema(schema, { io: 'output' }) as any;
    expect(json.properties.tools.items.properties).toHaveProperty('probeField');
    expect(schema.safeParse(listAnswerWith({ probeField: null })).success).toBe(true);
  });

  it('an MCP client holding the older output schema still accepts an answer that gained the field', () => {
    expect(opened(listResponseSchema).safeParse(listAnswerWith({ probeField: null })).success).toBe(true);
    expect(listResponseSchema.strict().safeParse(listAnswerWith({})).success).toBe(true);
  });
});

/** A list answer of one summary, with extra fields on the summary. */
function listAnswerWith(extra: Record<string, unknown>) {
  const summary = Object.fromEntries(keys(toolSummarySchema).map((k) => [k, null]));
  return {
    success: true,
    total: 1,
    returned: 1,
    limit: 1,
    filters: NO_FILTERS,
    sort: { by: 'popular', priceUnit: null, modelKind: null, withoutRate: 0 },
    nextCursor: null,
    categories: [],
    tools: [{ ...summary, slug: 'x', name: 'x', nameCn: '名', category: 'llm', description: 'A description of twenty characters or more', descriptionCn: '一段十个字以上的中文描述', pricing: 'pay as you go', popularity: 1, status: 'online', website: 'https://x.io', docsUrl: 'https://x.io', auth: ['A bearer key'], tags: ['x'], sponsored: false, aliases: [], freeTier: true, openaiCompatible: false, authType: 'bearer', sdkLanguages: ['curl'], ...extra }],
    _links: {},
  };
}
