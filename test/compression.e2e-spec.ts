import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { RunningService, startService } from './support/harness';

/**
 * Responses are compressed with brotli or gzip when the client accepts it: the same bytes once
 * decompressed, each coding under a weak ETag of its own, with Vary: Accept-Encoding.
 * Raw HTTP requests, not fetch: fetch decompresses on its own and would hide what was sent.
 */
let service: RunningService;

beforeAll(async () => {
  service = await startService('compression');
  const report = await service.ingest(['fixtures']);
  expect(report.problems).toEqual([]);
});
afterAll(() => service?.close());

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${service.baseUrl}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function decoded(response: RawResponse): Buffer {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(response.bytes);
  if (encoding === 'gzip') return gunzipSync(response.bytes);
  expect(encoding).toBeUndefined();
  return response.bytes;
}

const paths = [
  '/api/v1/tools/openai',
  '/api/v1/tools/search?q=llm',
  '/api/v1/tools/search?q=语音识别&limit=5',
  '/api/v1/tools/compare?ids=openai,anthropic,mistral',
  '/api/v1/tools/categories',
  '/api/v1/errors',
  '/api/v1/openapi.json',
];

describe.each(paths)('%s', (path) => {
  it.each(['br', 'gzip'])('sends %s when accepted: the same bytes, smaller, under a weak ETag of its own', async (encoding) => {
    const plain = await get(path, { 'accept-encoding': 'identity' });
    const compressed = await get(path, { 'accept-encoding': encoding });
    expect(plain.status).toBe(200);
    expect(compressed.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(compressed.headers['content-encoding']).toBe(encoding);
    expect(decoded(compressed).equals(plain.bytes)).toBe(true);
    expect(compressed.bytes.length).toBeLessThan(plain.bytes.length * 0.6);
    expect(Number(compressed.headers['content-length'])).toBe(compressed.bytes.length);
    expect(plain.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(compressed.headers.etag).toBe(`W/${(plain.headers.etag as string).slice(0, -1)}-${encoding}"`);
    for (const response of [plain, compressed]) {
      expect(response.headers.vary).toBe('Accept-Encoding');
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    }
  });
});

describe('choosing the encoding', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['*', 'br'],
    ['deflate', undefined],
    ['identity', undefined],
    ['gzip;q=0, br;q=0', undefined],
    ['br;q=0, *', 'gzip'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['*;q=0', undefined],
    ['x-gzip', 'gzip'],
    ['br;q=abc, gzip;q=0.1', 'gzip'],
    ['br;level=5', 'br'],
    [' Br ; Q=0.9 , gzip;q=0.8', 'br'],
    [',,;', undefined],
    [undefined, undefined],
  ])('Accept-Encoding %s gets %s', async (header, expected) => {
    const response = await get('/api/v1/tools/stripe', header === undefined ? {} : { 'accept-encoding': header });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe(expected);
    expect(JSON.parse(decoded(response).toString()).tool.slug).toBe('stripe');
  });
});

it('sends a small body as it is, whatever the client accepts', async () => {
  const response = await get('/api/v1/errors?provider=no-such-provider', { 'accept-encoding': 'br, gzip' });
  expect(response.status).toBe(200);
  expect(response.bytes.length).toBeLessThan(1024);
  expect(response.headers['content-encoding']).toBeUndefined();
  expect(response.headers.etag).toMatch(/^"[\w-]+"$/);
  expect(JSON.parse(response.bytes.toString())).toMatchObject({ success: true, total: 0 });
});

it('gives each form its own tag, and answers 304 to the tag of the form it sends', async () => {
  const plain = await get('/api/v1/tools/openai', { 'accept-encoding': 'identity' });
  const br = await get('/api/v1/tools/openai', { 'accept-encoding': 'br' });
  const gzip = await get('/api/v1/tools/openai', { 'accept-encoding': 'gzip' });
  const tags = [plain, br, gzip].map((r) => r.headers.etag as string);
  expect(new Set(tags).size).toBe(3);
  const accepts = ['identity', 'br', 'gzip'];
  for (const [i, accept] of accepts.entries()) {
    for (const [j, held] of tags.entries()) {
      // Weak comparison: the tag with or without W/ matches its own form.
      for (const sent of [held, held.startsWith('W/') ? held.slice(2) : `W/${held}`]) {
        const response = await get('/api/v1/tools/openai', { 'accept-encoding': accept, 'if-none-match': sent });
        // A client that held another form gets this one in full (a cache picks the copy a 304 refreshes by its tag).
        expect(response.status).toBe(i === j ? 304 : 200);
        expect(response.headers.etag).toBe(tags[i]);
        expect(response.headers.vary).toBe('Accept-Encoding');
        if (i === j) expect(response.bytes.length).toBe(0);
      }
    }
  }
  const other = await get('/api/v1/tools/stripe', { 'accept-encoding': 'br' });
  expect((await get('/api/v1/tools/openai', { 'accept-encoding': 'br', 'if-none-match': other.headers.etag as string })).status).toBe(200);
  expect((await get('/api/v1/tools/openai', { 'accept-encoding': 'br', 'if-none-match': `"x", ${tags[1]}` })).status).toBe(304);
});

it('answers HEAD with the headers of the compressed form and no body', async () => {
  const full = await get('/api/v1/tools/openai', { 'accept-encoding': 'gzip' });
  const head = await get('/api/v1/tools/openai', { 'accept-encoding': 'gzip' }, 'HEAD');
  expect(head.status).toBe(200);
  expect(head.bytes.length).toBe(0);
  expect(head.headers['content-encoding']).toBe('gzip');
  expect(head.headers['content-length']).toBe(full.headers['content-length']);
});

it('sends problems (errors of the request) uncompressed', async () => {
  const response = await get('/api/v1/tools/no-such-api', { 'accept-encoding': 'br, gzip' });
  expect(response.status).toBe(404);
  expect(response.headers['content-encoding']).toBeUndefined();
  expect(JSON.parse(response.bytes.toString())).toMatchObject({ success: false, status: 404 });
});
