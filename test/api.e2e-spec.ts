import { PublishListingCommand } from '../src/listings/write/commands/publish-listing/publish-listing.command';
import { ReadModels } from '../src/projections/read-models.service';
import { getJson, RunningService, startService } from './support/harness';
import { fixtureListing, FIXTURES } from './support/fixtures';

let service: RunningService;
let url: (path: string) => string;

beforeAll(async () => {
  service = await startService('api');
  const report = await service.ingest(['fixtures']);
  expect(report.problems).toEqual([]);
  url = (path) => `${service.baseUrl}${path}`;
});
afterAll(() => service?.close());

describe('GET /api/v1/tools/categories', () => {
  it('lists every category with counts that add up to the listings', async () => {
    const { status, body, headers } = await getJson(url('/api/v1/tools/categories'));
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(body.success).toBe(true);
    expect(body.total).toBe(FIXTURES.categories);
    expect(body.categories[0]).toEqual({ slug: 'llm', name: 'LLM Providers', nameCn: '大语言模型', count: expect.any(Number) });
    const sum = body.categories.reduce((n: number, c: { count: number }) => n + c.count, 0);
    expect(sum).toBe(body.totalListings);
    expect(sum).toBe(FIXTURES.listings);
  });
});

describe('routes', () => {
  it('categories, search and compare are routes of their own, matched before /tools/{slug}', async () => {
    const categories = await getJson(url('/api/v1/tools/categories'));
    expect(categories.status).toBe(200);
    expect(categories.body.categories).toHaveLength(FIXTURES.categories);
    const search = await getJson(url('/api/v1/tools/search'));
    expect(search.status).toBe(200);
    expect(search.body.results).toHaveLength(20);
    // compare without ids is the comparison's own 400, not a detail's 404 for a slug 'compare'.
    const compare = await getJson(url('/api/v1/tools/compare'));
    expect(compare.status).toBe(400);
    expect(compare.body).toMatchObject({ success: false, parameter: 'ids' });
  });

  it('answers an unknown route with a 404 problem document', async () => {
    const { status, headers, body } = await getJson(url('/api/v1/nothing-here'));
    expect(status).toBe(404);
    expect(headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(body).toMatchObject({ success: false, status: 404, title: 'Not found' });
  });

  it('refuses to write: POST is 405, naming the methods it answers, without reading the body', async () => {
    const response = await fetch(url('/api/v1/tools/openai'), { method: 'POST', body: '{}' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(response.headers.get('connection')).toBe('close');
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('sends CORS headers and answers preflight', async () => {
    const { headers } = await getJson(url('/api/v1/tools/openai'), { origin: 'https://example.org' });
    expect(headers.get('access-control-allow-origin')).toBe('*');
    const preflight = await fetch(url('/api/v1/tools/search'), {
      method: 'OPTIONS',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match, mcp-protocol-version' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS, POST');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('if-none-match, mcp-protocol-version');
    expect(preflight.headers.get('access-control-max-age')).toBe('86400');
    expect(preflight.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('GET /api/v1/tools/{slug}', () => {
  it('returns the complete listing with code examples, similar APIs, comparison and errors', async () => {
    const { status, body } = await getJson(url('/api/v1/tools/openai'));
    expect(status).toBe(200);
    const tool = body.tool;
    expect(tool.slug).toBe('openai');
    expect(tool.categoryCn).toBe('大语言模型');
    expect(tool.codeExamples.map((c: { language: string }) => c.language)).toEqual(expect.arrayContaining(['bash', 'python']));
    expect(tool.similarApis.length).toBeGreaterThan(0);
    expect(tool.similarApis[0]).toEqual({
      slug: expect.any(String),
      name: expect.any(String),
      nameCn: expect.any(String),
      popularity: expect.any(Number),
      description: expect.any(String),
      descriptionCn: expect.any(String),
    });
    expect(tool.pricingComparison).toHaveLength(4);
    expect(tool.pricingComparison.map((r: { slug: string }) => r.slug)).not.toContain('openai');
    expect(tool.errors.map((e: { status: number }) => e.status)).toEqual([400, 401, 429, 500, 503]);
    expect(tool.domains).toBeUndefined();
    expect(body._links.self).toBe('/api/v1/tools/openai');
  });

  it('404s an unknown slug with a problem document naming it', async () => {
    const { status, body } = await getJson(url('/api/v1/tools/no-such-api'));
    expect(status).toBe(404);
    expect(body).toMatchObject({ success: false, status: 404, slug: 'no-such-api', instance: '/api/v1/tools/no-such-api' });
    expect(body.error).toContain('no-such-api');
  });

  it('names the listings a mistyped slug most likely meant (didYouMean), best first', async () => {
    for (const [typed, meant] of [
      ['opnai', 'openai'],
      ['anthropic-claude', 'anthropic'],
      ['elevenlab', 'elevenlabs'],
    ]) {
      const { status, body } = await getJson(url(`/api/v1/tools/${typed}`));
      expect({ typed, status, first: body.didYouMean?.[0] }).toEqual({ typed, status: 404, first: meant });
      expect(body.didYouMean.length).toBeLessThanOrEqual(3);
      expect(body.detail).toContain(`did you mean ${body.didYouMean.join(', ')}?`);
    }
    // A slug of words the search reads as a filter or an order matches no listing's text: none named.
    for (const typed of ['free', 'cheapest']) expect((await getJson(url(`/api/v1/tools/${typed}`))).body.didYouMean).toEqual([]);
  });

  it("names them out of the client's search budget: past it, the 404 names none (and is no 429)", async () => {
    const budgeted = await startService('api-did-you-mean', { SEARCH_RATE_LIMIT_PER_MINUTE: '1' });
    try {
      await budgeted.ingest(['fixtures']);
      const first = await getJson(`${budgeted.baseUrl}/api/v1/tools/opnai`);
      expect({ status: first.status, didYouMean: first.body.didYouMean }).toEqual({ status: 404, didYouMean: ['openai', ...first.body.didYouMean.slice(1)] });
      const second = await getJson(`${budgeted.baseUrl}/api/v1/tools/opnai`);
      expect({ status: second.status, didYouMean: second.body.didYouMean }).toEqual({ status: 404, didYouMean: [] });
    } finally {
      await budgeted.close();
    }
  });

  it('serves ETag and Cache-Control, and 304 on If-None-Match', async () => {
    // Uncompressed: the strong ETag (compressed forms have weak tags of their own, see compression.e2e-spec).
    const plain = { 'accept-encoding': 'identity' };
    const first = await fetch(url('/api/v1/tools/stripe'), { headers: plain });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toContain('max-age=');
    const again = await fetch(url('/api/v1/tools/stripe'), { headers: { ...plain, 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const weak = await fetch(url('/api/v1/tools/stripe'), { headers: { ...plain, 'if-none-match': `"other", W/${etag}` } });
    expect(weak.status).toBe(304);
    const other = await fetch(url('/api/v1/tools/stripe'), { headers: { ...plain, 'if-none-match': '"stale"' } });
    expect(other.status).toBe(200);
  });
});

describe('fields for agents and for clients of the public directory', () => {
  it('shows the facts agents filter on, and the public directory\'s fields, in summaries, details and comparison rows', async () => {
    const detail = (await getJson(url('/api/v1/tools/openai'))).body.tool;
    expect(detail).toMatchObject({ freeTier: false, openaiCompatible: true, authType: 'bearer', referralUrl: null });
    expect(detail.aliases).toEqual(expect.arrayContaining(['ChatGPT']));
    expect(detail.contextTokens).toBeGreaterThan(100_000);
    expect(detail.sdkLanguages).toEqual(expect.arrayContaining(['python', 'curl']));
    expect(detail.note).toBeUndefined();
    const bash = detail.codeExamples.find((c: { language: string }) => c.language === 'bash');
    expect(detail.curlExample).toBe(bash.code);
    for (const example of detail.codeExamples) expect(example.title).toBe(example.label);

    const summary = (await getJson(url('/api/v1/tools/search?q=openai&limit=1'))).body.results[0];
    expect(summary).toMatchObject({ slug: 'openai', freeTier: false, authType: 'bearer', referralUrl: null, curlExample: bash.code });
    const row = (await getJson(url('/api/v1/tools/compare?ids=openai,stripe'))).body.compared[0];
    expect(row).toMatchObject({ slug: 'openai', referralUrl: detail.website, curlExample: bash.code, authType: 'bearer' });
  });
});

describe('GET /api/v1/tools/search', () => {
  it('defaults limit to 20 and echoes it', async () => {
    const { body } = await getJson(url('/api/v1/tools/search'));
    expect(body.limit).toBe(20);
    expect(body.returned).toBe(20);
    expect(body.total).toBe(FIXTURES.listings);
  });

  it('clamps limit above 100 to 100', async () => {
    const { status, body } = await getJson(url('/api/v1/tools/search?limit=1000'));
    expect(status).toBe(200);
    expect(body.limit).toBe(100);
    expect(body.returned).toBe(100);
  });

  it.each(['abc', '0', '-5', '2.5', '1e3', ''])('answers limit=%s with 400 (or the default when empty)', async (value) => {
    const { status, body } = await getJson(url(`/api/v1/tools/search?limit=${value}`));
    if (value === '') {
      expect(status).toBe(200);
      expect(body.limit).toBe(20);
    } else {
      expect(status).toBe(400);
      expect(body).toMatchObject({ success: false, status: 400, parameter: 'limit' });
    }
  });

  it('refuses a parameter given twice', async () => {
    const { status, body } = await getJson(url('/api/v1/tools/search?q=a&q=b'));
    expect(status).toBe(400);
    expect(body.parameter).toBe('q');
  });

  it('browses by popularity without q, and narrows by category', async () => {
    const { body } = await getJson(url('/api/v1/tools/search?category=vector-db&limit=100'));
    expect(body.total).toBe(7);
    expect(body.results.every((r: { category: string }) => r.category === 'vector-db')).toBe(true);
    const popularity = body.results.map((r: { popularity: number }) => r.popularity);
    expect(popularity).toEqual([...popularity].sort((a, b) => b - a));
  });

  it('combines q and category, each narrowing the result', async () => {
    const all = (await getJson(url('/api/v1/tools/search?q=api&limit=100'))).body;
    const narrowed = (await getJson(url('/api/v1/tools/search?q=api&category=payment&limit=100'))).body;
    expect(narrowed.total).toBeGreaterThan(0);
    expect(narrowed.total).toBeLessThan(all.total);
    expect(narrowed.results.every((r: { category: string }) => r.category === 'payment')).toBe(true);
  });

  it('gives an empty result, not an error, for an unknown category', async () => {
    const { status, body } = await getJson(url('/api/v1/tools/search?q=api&category=nope'));
    expect(status).toBe(200);
    expect(body.total).toBe(0);
    expect(body.results).toEqual([]);
  });

  it('ranks a name match first and reports score and matched fields', async () => {
    const { body } = await getJson(url('/api/v1/tools/search?q=stripe'));
    expect(body.results[0].slug).toBe('stripe');
    expect(body.results[0].matched).toContain('name');
    expect(body.results[0].score).toBeGreaterThan(0);
    const scores = body.results.map((r: { score: number }) => r.score);
    expect(scores[0]).toBeGreaterThanOrEqual(scores[scores.length - 1]);
  });

  it('finds Chinese queries', async () => {
    const { body } = await getJson(url(`/api/v1/tools/search?q=${encodeURIComponent('向量数据库')}`));
    const top = body.results.slice(0, 7).map((r: { slug: string }) => r.slug);
    expect(top).toEqual(expect.arrayContaining(['pinecone', 'qdrant', 'weaviate']));
  });

  it('400s a q longer than 200 characters, counted as the OpenAPI document counts them (an emoji is one)', async () => {
    expect((await getJson(url(`/api/v1/tools/search?q=${encodeURIComponent('🎙'.repeat(200))}`))).status).toBe(200);
    const { status } = await getJson(url(`/api/v1/tools/search?q=${'a'.repeat(201)}`));
    expect(status).toBe(400);
  });
});

describe('GET /api/v1/tools/compare', () => {
  it('compares found tools with the same keys and reports the unknown ones', async () => {
    const { status, body } = await getJson(url('/api/v1/tools/compare?ids=openai,anthropic,nope'));
    expect(status).toBe(200);
    expect(body.compared.map((t: { slug: string }) => t.slug)).toEqual(['openai', 'anthropic']);
    expect(body.notFound).toEqual(['nope']);
    expect(Object.keys(body.compared[0])).toEqual(Object.keys(body.compared[1]));
  });

  it('merges repeats, ignores case and spaces', async () => {
    const { body } = await getJson(url('/api/v1/tools/compare?ids=OpenAI,%20anthropic,openai'));
    expect(body.compared.map((t: { slug: string }) => t.slug)).toEqual(['openai', 'anthropic']);
  });

  it('names itself with a link that asks the same again, whatever the unknown ids hold', async () => {
    const { body } = await getJson(url('/api/v1/tools/compare?ids=OpenAI,Google%20Gemini,x%26ids%3Dstripe'));
    expect(body._links.self).toBe('/api/v1/tools/compare?ids=openai,google%20gemini,x%26ids%3Dstripe');
    const again = await getJson(url(body._links.self));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(body);
  });

  it('404s when none is found, listing them', async () => {
    const { status, body } = await getJson(url('/api/v1/tools/compare?ids=nope,nada'));
    expect(status).toBe(404);
    expect(body.notFound).toEqual(['nope', 'nada']);
  });

  it.each([
    ['missing ids', ''],
    ['one id', '?ids=openai'],
    ['empty ids', '?ids=,,'],
    ['eleven ids', `?ids=${Array.from({ length: 11 }, (_, i) => `t${i}`).join(',')}`],
  ])('400s %s', async (_label, query) => {
    const { status, body } = await getJson(url(`/api/v1/tools/compare${query}`));
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, status: 400, parameter: 'ids' });
  });
});

describe('GET /api/v1/errors', () => {
  it('publishes the 15 entries of the error reference', async () => {
    const { body } = await getJson(url('/api/v1/errors'));
    expect(body.total).toBe(15);
    const providers = new Set(body.errors.map((e: { provider: string }) => e.provider));
    expect([...providers].sort()).toEqual(['anthropic', 'deepseek', 'github', 'google-gemini', 'openai', 'stripe', 'supabase', 'vercel']);
  });

  it('filters by provider and status', async () => {
    const { body } = await getJson(url('/api/v1/errors?provider=anthropic&status=529'));
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatchObject({ status: 529, provider: 'anthropic', title: 'Overloaded', providerName: expect.any(String) });
  });

  it("links a 429 entry to its provider's rate limits where they are given as data, and follows the provider's listing", async () => {
    const link = async (provider: string) => (await getJson(url(`/api/v1/errors?provider=${provider}&status=429`))).body.errors[0].rateLimitsUrl;
    // OpenAI gives limits, Anthropic the headers that report them; Vercel neither (yet).
    expect(await link('openai')).toBe('/api/v1/tools/openai');
    expect(await link('anthropic')).toBe('/api/v1/tools/anthropic');
    expect(await link('vercel')).toBeNull();
    expect((await getJson(url('/api/v1/errors?provider=openai&status=401'))).body.errors[0].rateLimitsUrl).toBeNull();
    // Once Vercel's listing gives them, its 429 entry links there.
    const vercel = fixtureListing('vercel');
    const source = { url: 'https://vercel.com/docs/limits', checked: vercel.lastUpdated, quote: null, offDomainReason: null };
    await service.command(new PublishListingCommand({ ...vercel, rateLimits: { limits: [], headers: ['x-ratelimit-limit'], source } }, { actor: 'editor' }));
    expect(await link('vercel')).toBe('/api/v1/tools/vercel');
  });

  it('400s a status that is not an HTTP status', async () => {
    expect((await getJson(url('/api/v1/errors?status=abc'))).status).toBe(400);
  });

  it('links to the canonical URL of the list, however its values were written, and refuses parameters it does not take', async () => {
    const odd = await getJson(url('/api/v1/errors?status=529&provider=%20Anthropic'));
    const plain = await getJson(url('/api/v1/errors?provider=anthropic&status=529'));
    expect(odd.body._links.self).toBe('/api/v1/errors?provider=anthropic&status=529');
    expect(odd.text).toBe(plain.text);
    expect(await getJson(url('/api/v1/errors?x=1'))).toMatchObject({ status: 400, body: { parameter: 'x' } });
    // Refusals are not kept in the read cache, however many distinct ones arrive.
    const { cache } = service.app.get(ReadModels);
    const before = cache.usage().responses.entries;
    for (let i = 0; i < 20; i++) expect((await getJson(url(`/api/v1/errors?provider=anthropic&status=529&n=${i}`))).status).toBe(400);
    expect(cache.usage().responses.entries).toBe(before);
  });
});
