import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { spawnSync } from 'node:child_process';
import { getJson, RunningService, startService } from './support/harness';

let service: RunningService;
let document: any;
let ajv: Ajv;

beforeAll(async () => {
  service = await startService('openapi');
  expect((await service.ingest(['fixtures'])).problems).toEqual([]);
  document = (await getJson(`${service.baseUrl}/api/v1/openapi.json`)).body;
  ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ components: document.components }, 'openapi');
});
afterAll(() => service?.close());

/** Checks a response against the schema the document gives for this operation and status. */
function expectMatchesSchema(path: string, status: number, body: unknown): void {
  const response = document.paths[path].get.responses[status];
  expect(response).toBeDefined();
  const [[, media]] = Object.entries(response.content) as Array<[string, { schema: { $ref: string } }]>;
  const ref = media.schema.$ref.replace('#/', 'openapi#/');
  const validate = ajv.getSchema(ref)!;
  const ok = validate(body);
  if (!ok) throw new Error(`${path} ${status}: ${ajv.errorsText(validate.errors)}`);
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.0.0, version 1.0.0, and valid against the official schema', () => {
    expect(document.openapi).toBe('3.0.0');
    expect(document.info.version).toBe('1.0.0');
    const run = spawnSync(process.execPath, ['test/support/validate-openapi.mjs'], { input: JSON.stringify(document), encoding: 'utf8' });
    const result = JSON.parse(run.stdout);
    expect(result.errors ?? null).toBeNull();
    expect(result.valid).toBe(true);
  });

  it('is also served at /openapi.json', async () => {
    expect((await getJson(`${service.baseUrl}/openapi.json`)).body).toEqual(document);
  });

  it('documents the statuses any request may get, and 429 on every operation', () => {
    expect(Object.keys(document.components.responses).sort()).toEqual(
      ['BadRequest', 'ExpectationFailed', 'HeadersTooLarge', 'MethodNotAllowed', 'RequestTimeout', 'ServiceUnavailable', 'TooManyRequests', 'UriTooLong'].sort(),
    );
    for (const operation of Object.values(document.paths) as Array<{ get: { responses: Record<string, unknown> } }>) {
      expect(operation.get.responses[429]).toEqual({ $ref: '#/components/responses/TooManyRequests' });
    }
    expect(document.components.responses.TooManyRequests.headers['Retry-After']).toBeDefined();
    expect(document.info.description).toMatch(/408.*429.*431/);
  });

  it('names the four operations of the spec', () => {
    const ids = Object.values(document.paths).map((p: any) => p.get.operationId);
    expect(ids).toEqual(expect.arrayContaining(['searchTools', 'compareTools', 'getToolDetail', 'getCategories']));
  });
});

describe('every response matches its schema', () => {
  it.each([
    ['/api/v1/tools/search', '/api/v1/tools/search?q=speech&limit=5', 200],
    ['/api/v1/tools/search', `/api/v1/tools/search?q=${encodeURIComponent('向量数据库')}`, 200],
    ['/api/v1/tools/search', '/api/v1/tools/search?category=payment', 200],
    ['/api/v1/tools/search', '/api/v1/tools/search?limit=abc', 400],
    ['/api/v1/tools/compare', '/api/v1/tools/compare?ids=openai,stripe,nope', 200],
    ['/api/v1/tools/compare', '/api/v1/tools/compare?ids=openai', 400],
    ['/api/v1/tools/compare', '/api/v1/tools/compare?ids=nope,nada', 404],
    ['/api/v1/tools/categories', '/api/v1/tools/categories', 200],
    ['/api/v1/errors', '/api/v1/errors', 200],
    ['/api/v1/errors', '/api/v1/errors?status=x', 400],
    ['/api/v1/tools/{slug}', '/api/v1/tools/no-such-tool', 404],
    ['/api/v1/changes', '/api/v1/changes', 200],
    ['/api/v1/changes', '/api/v1/changes?limit=5000', 200],
    ['/api/v1/changes', '/api/v1/changes?since=nope', 400],
    ['/api/v1/changes', '/api/v1/changes?limit=0', 400],
    ['/api/v1/changes.atom', '/api/v1/changes.atom?limit=abc', 400],
  ])('%s: GET %s -> %i', async (path, request, status) => {
    const { status: actual, body } = await getJson(`${service.baseUrl}${request}`);
    expect(actual).toBe(status);
    expectMatchesSchema(path, status, body);
  });

  it('holds for every page of the change feed, and for the last one (nothing new)', async () => {
    let since = '';
    for (let pages = 0; pages < 10; pages++) {
      const { status, body } = await getJson(`${service.baseUrl}/api/v1/changes?limit=60${since ? `&since=${since}` : ''}`);
      expect(status).toBe(200);
      expectMatchesSchema('/api/v1/changes', 200, body);
      if (body.returned === 0) return;
      since = body.nextCursor;
    }
    throw new Error('the feed did not end');
  });

  it('describes the Atom feed as served', async () => {
    const response = await fetch(`${service.baseUrl}/api/v1/changes.atom`);
    expect(response.status).toBe(200);
    const served = response.headers.get('content-type')!.split(';')[0];
    expect(Object.keys(document.paths['/api/v1/changes.atom'].get.responses[200].content)).toEqual([served]);
    expect(served).toBe('application/atom+xml');
  });

  it('holds for the detail of every one of the 127 listings', async () => {
    const { body } = await getJson(`${service.baseUrl}/api/v1/tools/search?limit=100`);
    const slugs = new Set<string>(body.results.map((r: { slug: string }) => r.slug));
    for (const category of (await getJson(`${service.baseUrl}/api/v1/tools/categories`)).body.categories) {
      const page = await getJson(`${service.baseUrl}/api/v1/tools/search?limit=100&category=${category.slug}`);
      page.body.results.forEach((r: { slug: string }) => slugs.add(r.slug));
    }
    expect(slugs.size).toBe(127);
    for (const slug of slugs) {
      const detail = await getJson(`${service.baseUrl}/api/v1/tools/${slug}`);
      expect(detail.status).toBe(200);
      expectMatchesSchema('/api/v1/tools/{slug}', 200, detail.body);
    }
  });
});
