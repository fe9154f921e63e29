import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { spawnSync } from 'node:child_process';
import { createApp } from '../src/bootstrap';
import { WithdrawListingCommand } from '../src/listings/write/commands/withdraw-listing/withdraw-listing.command';
import { AppConfig } from '../src/config/app-config';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { freePort, getJson, RunningService, startService } from './support/harness';
import { parseResponses, rawExchange } from './support/raw-http';
import { FIXTURES } from './support/fixtures';

/**
 * The OpenAPI document is the contract: every path it names is asked for every status it documents, and
 * each answer is checked against the schema the document gives for that path and status (its media type,
 * and for JSON the body). The statuses any request may get (components.responses) are produced too. A
 * status added to the document without a request here fails, as does an answer the document does not allow.
 */
let service: RunningService;
let document: any;
let ajv: Ajv;

beforeAll(async () => {
  service = await startService('openapi');
  expect((await service.ingest(['fixtures'])).problems).toEqual([]);
  // A withdrawn listing, for the 410 its detail answers.
  await service.command(new WithdrawListingCommand('mapbox', 'test', 'merged into another listing', ['google-maps']));
  document = (await getJson(`${service.baseUrl}/api/v1/openapi.json`)).body;
  ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ components: document.components }, 'openapi');
});
afterAll(() => service?.close());

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

async function fetchAnswer(url: string, headers: Record<string, string> = {}, localAddress?: string): Promise<Answer> {
  if (localAddress) {
    const { pathname, search, port } = new URL(url);
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
    const { text } = await rawExchange(Number(port), `GET ${pathname}${search} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${head}\r\n`, 10_000, localAddress);
    const [response] = parseResponses(text);
    return { status: response.status, contentType: response.headers['content-type'] ?? '', text: response.body };
  }
  const response = await fetch(url, { headers, redirect: 'manual' });
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
}

/** The response object the document gives for a path and status (following a $ref to components.responses). */
function documented(path: string, status: number): any {
  let response = document.paths[path].get.responses[status];
  if (response?.$ref) response = document.components.responses[response.$ref.split('/').pop()];
  return response;
}

/** Checks an answer against what the document says of this path and status. */
function expectDocumented(path: string, answer: Answer): void {
  const response = documented(path, answer.status);
  if (!response) throw new Error(`${path} answered ${answer.status}, which the document does not give for it`);
  if (answer.status === 304 || answer.status === 301) {
    expect(answer.text).toBe('');
    return;
  }
  const media = Object.keys(response.content);
  const served = answer.contentType.split(';')[0];
  expect(media).toContain(served);
  const schema = response.content[served].schema;
  if (!served.endsWith('json')) return;
  const validate = schema.$ref ? ajv.getSchema(schema.$ref.replace('#/', 'openapi#/'))! : ajv.compile(withRefsToTheDocument(schema));
  if (!validate(JSON.parse(answer.text))) throw new Error(`${path} ${answer.status}: ${ajv.errorsText(validate.errors)}`);
}

/** A schema whose references point into the document ajv holds as 'openapi'. */
function withRefsToTheDocument(schema: unknown): any {
  return JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, '"$ref":"openapi#/'));
}

/**
 * A request for each path and status the document names, besides 304, 429 and 503 (asked of every path
 * below, the same way for each).
 */
const REQUESTS: Record<string, Record<number, string>> = {
  '/': { 200: '/' },
  '/llms.txt': { 200: '/llms.txt' },
  '/llms-full.txt': { 200: '/llms-full.txt' },
  '/.well-known/api-catalog': { 200: '/.well-known/api-catalog' },
  '/agents.txt': { 200: '/agents.txt' },
  '/.well-known/ai-plugin.json': { 200: '/.well-known/ai-plugin.json' },
  '/robots.txt': { 200: '/robots.txt' },
  '/api/v1/openapi.json': { 200: '/api/v1/openapi.json', 400: '/api/v1/openapi.json?v=3' },
  '/api/v1/tools/search': { 200: `/api/v1/tools/search?q=${encodeURIComponent('向量数据库')}&freeTier=true`, 400: '/api/v1/tools/search?limit=abc' },
  '/api/v1/tools': { 200: '/api/v1/tools?limit=5&sdk=python', 400: '/api/v1/tools?minContext=lots' },
  '/api/v1/tasks': { 200: '/api/v1/tasks', 400: '/api/v1/tasks?lang=zh' },
  '/api/v1/models': { 200: '/api/v1/models?input=image&minContext=200k&sort=price&priceUnit=1m-input-tokens', 400: '/api/v1/models?sort=price' },
  '/api/v1/models/compare': { 200: '/api/v1/models/compare?ids=gpt-oss-120b,gpt-oss-20b,nope', 400: '/api/v1/models/compare?ids=gpt-oss-120b', 404: '/api/v1/models/compare?ids=nope,nada' },
  '/api/v1/models/{id}': { 200: '/api/v1/models/gpt-oss-120b?priceUnit=1m-input-tokens', 400: '/api/v1/models/gpt-oss-120b?priceUnit=furlongs', 404: '/api/v1/models/no-such-model' },
  '/api/v1/tools/compare': { 200: '/api/v1/tools/compare?ids=openai,stripe,nope', 400: '/api/v1/tools/compare?ids=openai', 404: '/api/v1/tools/compare?ids=nope,nada' },
  '/api/v1/tools/categories': { 200: '/api/v1/tools/categories', 400: '/api/v1/tools/categories?query=ai' },
  '/api/v1/tools/{slug}': { 200: '/api/v1/tools/openai', 400: '/api/v1/tools/openai?asOf=yesterday', 404: '/api/v1/tools/no-such-tool', 410: '/api/v1/tools/mapbox', 414: `/api/v1/tools/${'a'.repeat(201)}` },
  '/api/v1/tools/{slug}/history': { 200: '/api/v1/tools/mapbox/history', 400: '/api/v1/tools/openai/history?before=x', 404: '/api/v1/tools/no-such-tool/history' },
  '/api/v1/errors': { 200: '/api/v1/errors?provider=openai', 400: '/api/v1/errors?status=x' },
  '/api/v1/liveness': { 200: '/api/v1/liveness?limit=5', 400: '/api/v1/liveness?state=bogus' },
  '/api/v1/changes': { 200: '/api/v1/changes?limit=5', 400: '/api/v1/changes?since=nope' },
  '/api/v1/changes.atom': { 200: '/api/v1/changes.atom', 400: '/api/v1/changes.atom?limit=abc' },
  '/rss.xml': { 200: '/rss.xml?limit=5', 400: '/rss.xml?since=nope' },
  '/api/v1/export': { 200: '/api/v1/export', 400: '/api/v1/export?asOf=soon' },
  '/api/v1/export.schema.json': { 200: '/api/v1/export.schema.json', 400: '/api/v1/export.schema.json?x=1' },
  '/api/data': { 200: '/api/data', 400: '/api/data?format=csv' },
  '/api/data.json': { 200: '/api/data.json', 400: '/api/data.json?page=2' },
  '/structured-data.json': { 200: '/structured-data.json' },
  '/api/ai.txt': { 301: '/api/ai.txt', 400: '/api/ai.txt?x=1' },
};
/** Statuses asked of every path the same way, by the describe blocks below. */
const ASKED_OF_EVERY_PATH = new Set([304, 429, 503]);

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

  it("gives each parameter an example of its schema's type, within its enum", () => {
    const typeOf = (value: unknown) => (typeof value === 'number' ? (Number.isInteger(value) ? ['number', 'integer'] : ['number']) : [typeof value]);
    for (const [path, item] of Object.entries(document.paths) as Array<[string, { get: { parameters?: Array<{ name: string; example?: unknown; schema: { type?: string; enum?: unknown[] } }> } }]>) {
      for (const { name, example, schema } of item.get.parameters ?? []) {
        if (example === undefined) continue;
        if (schema.type) expect({ path, name, type: typeOf(example).includes(schema.type) }).toEqual({ path, name, type: true });
        if (schema.enum) expect({ path, name, inEnum: schema.enum.includes(example) }).toEqual({ path, name, inEnum: true });
      }
    }
  });

  it('documents the statuses any request may get, and 429 on every operation', () => {
    expect(Object.keys(document.components.responses).sort()).toEqual(
      ['BadRequest', 'ExpectationFailed', 'HeadersTooLarge', 'MethodNotAllowed', 'RequestTimeout', 'ServiceUnavailable', 'TooManyRequests', 'UnknownParameter', 'UriTooLong'].sort(),
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

  it('has a request below for every path and status it documents, and no request for one it does not', () => {
    for (const [path, item] of Object.entries<any>(document.paths)) {
      const statuses = Object.keys(item.get.responses).map(Number);
      const asked = Object.keys(REQUESTS[path] ?? {}).map(Number);
      expect({ path, statuses: statuses.filter((s) => !ASKED_OF_EVERY_PATH.has(s)).sort() }).toEqual({ path, statuses: asked.sort() });
      expect(statuses).toEqual(expect.arrayContaining(statuses.includes(301) ? [301, 429] : [200, 304, 429]));
    }
    expect(Object.keys(REQUESTS).sort()).toEqual(Object.keys(document.paths).sort());
  });
});

describe('every path answers each status it documents as the document says', () => {
  const cases = Object.entries(REQUESTS).flatMap(([path, byStatus]) => Object.entries(byStatus).map(([status, request]) => [path, Number(status), request] as const));

  it.each(cases)('%s -> %i: GET %s', async (path, status, request) => {
    const answer = await fetchAnswer(`${service.baseUrl}${request}`);
    expect(answer.status).toBe(status);
    expectDocumented(path, answer);
  });

  it.each(Object.keys(REQUESTS).filter((path) => REQUESTS[path][200]))('%s -> 304 when the tag still matches', async (path) => {
    const url = `${service.baseUrl}${REQUESTS[path][200]}`;
    const etag = (await fetch(url)).headers.get('etag')!;
    expect(etag).toBeTruthy();
    const answer = await fetchAnswer(url, { 'if-none-match': etag });
    expect(answer.status).toBe(304);
    expectDocumented(path, answer);
  });

  it('holds for a listing as it was (asOf), and for a comparison naming a withdrawn listing', async () => {
    const asOf = await fetchAnswer(`${service.baseUrl}/api/v1/tools/openai?asOf=${new Date().toISOString().slice(0, 10)}`);
    expect(asOf.status).toBe(200);
    expectDocumented('/api/v1/tools/{slug}', asOf);
    const compared = await fetchAnswer(`${service.baseUrl}/api/v1/tools/compare?ids=openai,mapbox,nope`);
    expect(JSON.parse(compared.text)).toMatchObject({ notFound: ['nope'], gone: [{ slug: 'mapbox', status: 'withdrawn', replacedBy: ['google-maps'] }] });
    expectDocumented('/api/v1/tools/compare', compared);
  });

  it('holds for every page of the change feed, and for the last one (nothing new)', async () => {
    let since = '';
    for (let pages = 0; pages < 10; pages++) {
      const answer = await fetchAnswer(`${service.baseUrl}/api/v1/changes?limit=60${since ? `&since=${since}` : ''}`);
      expectDocumented('/api/v1/changes', answer);
      const body = JSON.parse(answer.text);
      if (body.returned === 0) return;
      since = body.nextCursor;
    }
    throw new Error('the feed did not end');
  });

  it('holds for the detail of every listing (all but the one withdrawn), and every page of the list', async () => {
    let cursor = '';
    let seen = 0;
    do {
      const page = await fetchAnswer(`${service.baseUrl}/api/v1/tools?limit=40${cursor ? `&cursor=${cursor}` : ''}`);
      expectDocumented('/api/v1/tools', page);
      const body = JSON.parse(page.text);
      for (const { slug } of body.tools as Array<{ slug: string }>) {
        expectDocumented('/api/v1/tools/{slug}', await fetchAnswer(`${service.baseUrl}/api/v1/tools/${slug}`));
        seen++;
      }
      cursor = body.nextCursor ?? '';
    } while (cursor);
    expect(seen).toBe(FIXTURES.listings - 1);
  });
});

describe('statuses every path may answer', () => {
  it('429: past the client budget, each path answers the documented problem', async () => {
    const limited = await startService('openapi-limits', { RATE_LIMIT_PER_MINUTE: '1' });
    try {
      // The client 127.0.0.9 spends its one request; every path then refuses it.
      expect((await fetchAnswer(`${limited.baseUrl}/robots.txt`, {}, '127.0.0.9')).status).toBe(200);
      const answers = await Promise.all(Object.entries(REQUESTS).map(async ([path, byStatus]) => [path, await fetchAnswer(`${limited.baseUrl}${byStatus[200] ?? byStatus[301]}`, {}, '127.0.0.9')] as const));
      for (const [path, answer] of answers) {
        expect({ path, status: answer.status }).toEqual({ path, status: 429 });
        expectDocumented(path, answer);
      }
    } finally {
      await limited.close();
    }
  });

  describe('503: with the store unreachable', () => {
    let app: NestFastifyApplication;
    let url: string;
    beforeAll(async () => {
      app = await createApp(new AppConfig({ REDIS_URL: `redis://127.0.0.1:${await freePort()}`, REDIS_NAMESPACE: 'openapi-unreachable', LOG_LEVEL: 'fatal' }));
      await app.listen(0, '127.0.0.1');
      url = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
    });
    afterAll(() => app?.close());

    it.each(Object.keys(REQUESTS))('%s answers 503 where documented, and otherwise what it documents', async (path) => {
      const answer = await fetchAnswer(`${url}${REQUESTS[path][200] ?? REQUESTS[path][301]}`);
      if (documented(path, 503)) expect(answer.status).toBe(503);
      expectDocumented(path, answer);
    });
  });

  it('the request-level problems (components.responses) match the document', async () => {
    const port = Number(new URL(service.baseUrl).port);
    const raw = async (bytes: string) => parseResponses((await rawExchange(port, bytes, 5000)).text)[0];
    const problems: Array<[string, number, string]> = [
      ['BadRequest', 400, 'GET /api/v1/tools/%zz HTTP/1.1\r\nHost: x\r\n\r\n'],
      ['MethodNotAllowed', 405, 'DELETE /api/v1/tools HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
      ['ExpectationFailed', 417, 'GET /api/v1/tools HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n'],
      ['HeadersTooLarge', 431, `GET /api/v1/tools HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`],
    ];
    for (const [name, status, bytes] of problems) {
      const response = await raw(bytes);
      expect({ name, status: response.status }).toEqual({ name, status });
      const schema = document.components.responses[name].content['application/problem+json'].schema;
      const validate = ajv.getSchema(schema.$ref.replace('#/', 'openapi#/'))!;
      if (!validate(JSON.parse(response.body))) throw new Error(`${name}: ${ajv.errorsText(validate.errors)}`);
    }
  });
});
