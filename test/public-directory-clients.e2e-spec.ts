import Ajv from 'ajv';
import { getJson, RunningService, startService } from './support/harness';

/**
 * Clients written for the public directory the spec describes (../shared/reference/README.md lists what
 * they read) work against this service unchanged: a client generated from its OpenAPI document, which
 * reads the fields below from the same paths, and an agent following its discovery files. The schemas
 * are the public directory's shapes; ours may carry more (a superset), never less.
 */
let service: RunningService;
const ajv = new Ajv({ allErrors: true, strict: false });
const nullableString = { type: ['string', 'null'] };
const summary = {
  type: 'object',
  required: ['slug', 'name', 'category', 'description', 'pricing', 'popularity', 'status', 'tags'],
  properties: {
    slug: { type: 'string' },
    name: { type: 'string' },
    category: { type: 'string' },
    description: { type: 'string' },
    pricing: { type: 'string' },
    popularity: { type: 'number' },
    status: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
  },
};
const links = (...names: string[]) => ({ type: 'object', required: names, properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])) });

const PUBLIC_SHAPES = {
  list: {
    type: 'object',
    required: ['success', 'total', 'returned', 'tools', 'categories', '_links'],
    properties: {
      success: { const: true },
      total: { type: 'integer' },
      returned: { type: 'integer' },
      tools: { type: 'array', items: summary },
      categories: { type: 'array', items: { type: 'string' } },
      _links: links('search', 'compare', 'categories'),
    },
  },
  search: {
    type: 'object',
    required: ['success', 'total', 'returned', 'results', '_links'],
    properties: {
      success: { const: true },
      results: { type: 'array', items: { ...summary, required: [...summary.required, 'referralUrl'], properties: { ...summary.properties, referralUrl: nullableString } } },
      _links: links('detail', 'compare'),
    },
  },
  detail: {
    type: 'object',
    required: ['success', 'tool'],
    properties: {
      tool: {
        type: 'object',
        required: ['slug', 'name', 'curlExample', 'referralUrl', 'codeExamples'],
        properties: {
          curlExample: nullableString,
          referralUrl: nullableString,
          codeExamples: { type: 'array', minItems: 1, items: { type: 'object', required: ['language', 'title', 'code'], properties: { language: { type: 'string' }, title: { type: 'string' }, code: { type: 'string' } } } },
        },
      },
    },
  },
  compare: {
    type: 'object',
    required: ['success', 'compared'],
    properties: {
      compared: {
        type: 'array',
        minItems: 2,
        items: {
          type: 'object',
          required: ['slug', 'name', 'category', 'pricing', 'status', 'popularity', 'rateLimit', 'latency', 'maxTokens', 'referralUrl', 'website'],
          // The public directory sends "N/A" for an unknown fact; we send null (see docs/api.md).
          properties: { referralUrl: { type: 'string' }, rateLimit: nullableString, latency: nullableString, maxTokens: nullableString },
        },
      },
    },
  },
  categories: {
    type: 'object',
    required: ['success', 'categories'],
    properties: { categories: { type: 'array', minItems: 1, items: { type: 'object', required: ['slug', 'name', 'nameCn', 'count'] } } },
  },
};

function expectShape(name: keyof typeof PUBLIC_SHAPES, body: unknown): void {
  const validate = ajv.compile(PUBLIC_SHAPES[name]);
  expect({ name, valid: validate(body), errors: validate.errors ?? null }).toEqual({ name, valid: true, errors: null });
}

beforeAll(async () => {
  service = await startService('public-clients');
  expect((await service.ingest(['fixtures'])).problems).toEqual([]);
});
afterAll(() => service?.close());

it("answers the generated client's requests on the public directory's paths, with the fields it reads", async () => {
  const at = (path: string) => getJson(`${service.baseUrl}${path}`);
  const list = await at('/api/v1/tools?limit=100');
  expect(list.status).toBe(200);
  expectShape('list', list.body);
  expect(list.body.returned).toBe(100);

  // The public directory clamps search at 50: a client that asks for 50 gets 50.
  const search = await at('/api/v1/tools/search?q=llm&limit=50');
  expectShape('search', search.body);
  expect(search.body.limit).toBe(50);
  // The generated client follows the link templates.
  const detailPath = search.body._links.detail.replace('{slug}', search.body.results[0].slug);
  const detail = await at(detailPath);
  expectShape('detail', detail.body);
  expect(detail.body.tool.slug).toBe(search.body.results[0].slug);
  const comparePath = search.body._links.compare.replace('{slugs}', search.body.results.slice(0, 3).map((r: { slug: string }) => r.slug).join(','));
  const compare = await at(comparePath);
  expectShape('compare', compare.body);
  expect(compare.body.compared).toHaveLength(3);
  expectShape('categories', (await at(list.body._links.categories)).body);
});

it("serves the public directory's discovery files, and the plugin manifest leads to the OpenAPI document", async () => {
  for (const path of ['/llms.txt', '/llms-full.txt', '/agents.txt', '/robots.txt', '/openapi.json', '/.well-known/ai-plugin.json']) {
    const response = await fetch(`${service.baseUrl}${path}`);
    expect({ path, status: response.status, etag: Boolean(response.headers.get('etag')) }).toEqual({ path, status: 200, etag: true });
  }
  const agents = await (await fetch(`${service.baseUrl}/agents.txt`)).text();
  expect(agents).toContain(`${service.baseUrl}/mcp`);
  // Every absolute link in agents.txt answers (templates filled in).
  const urls = [...agents.matchAll(/https?:\/\/\S+/g)].map(([u]) => u.replace('{slug}', 'openai').replace('{id}', 'gpt-oss-120b').replace('{slugs}', 'openai,anthropic').replace('<cursor>', ''));
  expect(urls.length).toBeGreaterThan(8);
  for (const u of urls.filter((u) => !u.endsWith('/mcp'))) expect({ u, status: (await fetch(u)).status }).toEqual({ u, status: 200 });

  const manifest = (await getJson(`${service.baseUrl}/.well-known/ai-plugin.json`)).body;
  expect(manifest).toMatchObject({ schema_version: 'v1', auth: { type: 'none' }, api: { type: 'openapi', url: `${service.baseUrl}/openapi.json` } });
  const openapi = (await getJson(manifest.api.url)).body;
  expect(openapi.openapi).toMatch(/^3\./);
  expect(Object.keys(openapi.paths)).toEqual(expect.arrayContaining(['/api/v1/tools', '/api/v1/tools/search', '/api/v1/tools/{slug}', '/api/v1/tools/compare', '/api/v1/tools/categories']));
});
