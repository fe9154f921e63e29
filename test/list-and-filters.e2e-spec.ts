import { WithdrawListingCommand } from '../src/listings/commands/withdraw-listing/withdraw-listing.command';
import { getJson, RunningService, startService } from './support/harness';

/**
 * The list of the whole directory (GET /api/v1/tools), paging with cursors on list and search, and the
 * filters agents decide by, on both.
 */
let service: RunningService;
const get = (path: string) => getJson(`${service.baseUrl}${path}`);

beforeAll(async () => {
  service = await startService('list');
  expect((await service.ingest(['fixtures'])).problems).toEqual([]);
});
afterAll(() => service?.close());

interface Summary {
  slug: string;
  popularity: number;
  category: string;
  freeTier: boolean;
  openaiCompatible: boolean;
  authType: string;
  contextTokens: number | null;
  sdkLanguages: string[];
}

/** Every page of a request, following nextCursor (and checking _links.next says the same). */
async function allPages(path: string, key: 'tools' | 'results'): Promise<{ items: Summary[]; pages: number; total: number }> {
  const items: Summary[] = [];
  let url = path;
  let pages = 0;
  let total = 0;
  for (;;) {
    const { status, body } = await get(url);
    expect(status).toBe(200);
    items.push(...body[key]);
    pages++;
    total = body.total;
    if (!body.nextCursor) {
      expect(body._links.next).toBeUndefined();
      break;
    }
    expect(body._links.next).toBe(`${path.split('&cursor=')[0]}&cursor=${body.nextCursor}`.replace(/^\/api\/v1\/tools\?/, '/api/v1/tools?'));
    url = body._links.next;
  }
  return { items, pages, total };
}

describe('GET /api/v1/tools', () => {
  it('lists every listing by popularity, 100 at a time by default, with the category slugs', async () => {
    const { status, body } = await get('/api/v1/tools');
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, total: 127, returned: 100, limit: 100 });
    expect(body.categories).toHaveLength(13);
    expect(body.tools[0].slug).toBe('openai');
    const popularity = body.tools.map((t: Summary) => t.popularity);
    expect(popularity).toEqual([...popularity].sort((a, b) => b - a));
    expect(body._links).toMatchObject({ self: '/api/v1/tools?limit=100', search: expect.any(String), compare: expect.any(String), categories: '/api/v1/tools/categories' });
  });

  it('reads all 127 listings through its cursors, each once', async () => {
    const { items, pages, total } = await allPages('/api/v1/tools?limit=20', 'tools');
    expect(total).toBe(127);
    expect(pages).toBe(7);
    expect(new Set(items.map((t) => t.slug)).size).toBe(127);
  });

  it('keeps its place when a listing before the cursor is withdrawn meanwhile', async () => {
    const first = await get('/api/v1/tools?limit=10');
    const second = await get(first.body._links.next);
    // The same second page, asked again after the most popular listing of the first page is gone.
    const gone = first.body.tools[0].slug;
    await service.command(new WithdrawListingCommand(gone, 'test'));
    const again = await get(first.body._links.next);
    expect(again.body.tools.map((t: Summary) => t.slug)).toEqual(second.body.tools.map((t: Summary) => t.slug));
    expect(again.body.total).toBe(126);
    expect((await service.ingest([`fixtures/listings/${gone}.yaml`], 'test', { republish: true })).results[0].outcome).toBe('published');
  });

  it('narrows by category and by the facts agents decide by, and echoes them', async () => {
    const { body } = await get('/api/v1/tools?category=LLM&freeTier=true&openaiCompatible=true');
    expect(body.filters).toEqual({ category: 'llm', freeTier: true, openaiCompatible: true, auth: null, minContext: null, sdk: null });
    expect(body.total).toBeGreaterThan(2);
    for (const tool of body.tools as Summary[]) expect([tool.category, tool.freeTier, tool.openaiCompatible]).toEqual(['llm', true, true]);
  });

  it('refuses a bad limit, a bad filter value and a cursor from another request, naming each', async () => {
    for (const [query, parameter] of [
      ['limit=abc', 'limit'],
      ['freeTier=maybe', 'freeTier'],
      ['auth=password', 'auth'],
      ['minContext=lots', 'minContext'],
      ['sdk=cobol', 'sdk'],
      ['cursor=not-a-cursor', 'cursor'],
    ]) {
      const { status, body, headers } = await get(`/api/v1/tools?${query}`);
      expect(status).toBe(400);
      expect(headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(body.parameter).toBe(parameter);
    }
    const page = await get('/api/v1/tools?limit=5');
    const elsewhere = await get(`/api/v1/tools?limit=5&category=llm&cursor=${page.body.nextCursor}`);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.detail).toMatch(/another request/);
    // Only the cursor as given out: with anything added (which a base64 decoder would skip) it is refused.
    for (const tail of ['%26%3D%23%22', '!!', '%20x']) {
      const padded = await get(`/api/v1/tools?limit=5&cursor=${page.body.nextCursor}${tail}`);
      expect([tail, padded.status, padded.body.parameter]).toEqual([tail, 400, 'cursor']);
    }
  });
});

describe('filters', () => {
  it.each([
    ['freeTier=false', (t: Summary) => t.freeTier === false],
    ['openaiCompatible=true', (t: Summary) => t.openaiCompatible],
    ['auth=bearer', (t: Summary) => t.authType === 'bearer'],
    ['auth=header-key', (t: Summary) => t.authType === 'header-key'],
    ['minContext=1m', (t: Summary) => (t.contextTokens ?? 0) >= 1_000_000],
    ['minContext=128000', (t: Summary) => (t.contextTokens ?? 0) >= 128_000],
    ['sdk=go', (t: Summary) => t.sdkLanguages.includes('go')],
    ['sdk=node', (t: Summary) => t.sdkLanguages.includes('javascript')],
  ])('%s keeps exactly the listings that have it, on the list and on search', async (filter, has) => {
    const all = (await get('/api/v1/tools?limit=100')).body.tools.concat((await get(`/api/v1/tools?limit=100&cursor=${(await get('/api/v1/tools?limit=100')).body.nextCursor}`)).body.tools) as Summary[];
    expect(all).toHaveLength(127);
    const expected = all.filter(has).map((t) => t.slug).sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(127);
    const listed = (await get(`/api/v1/tools?${filter}`)).body;
    expect(listed.tools.map((t: Summary) => t.slug).sort()).toEqual(expected);
    expect(listed.total).toBe(expected.length);
    const browsed = (await get(`/api/v1/tools/search?${filter}&limit=100`)).body;
    expect(browsed.results.map((t: Summary) => t.slug).sort()).toEqual(expected);
    const searched = (await get(`/api/v1/tools/search?q=api&${filter}&limit=100`)).body;
    expect(searched.results.every(has)).toBe(true);
  });
});

describe('search pages', () => {
  it('continue the ranking through nextCursor until every match is read', async () => {
    const whole = (await get('/api/v1/tools/search?q=speech&limit=100')).body;
    const { items, pages, total } = await allPages('/api/v1/tools/search?q=speech&limit=4', 'results');
    expect(total).toBe(whole.total);
    expect(pages).toBe(Math.ceil(whole.total / 4));
    expect(items.map((r) => r.slug)).toEqual(whole.results.map((r: Summary) => r.slug));
  });

  it('carry the compatibility links: detail and compare templates', async () => {
    const { body } = await get('/api/v1/tools/search?q=speech');
    expect(body._links.detail).toBe('/api/v1/tools/{slug}');
    expect(body._links.compare).toBe('/api/v1/tools/compare?ids={slugs}');
  });
});
