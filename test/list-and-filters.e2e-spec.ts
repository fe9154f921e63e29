import { NO_FILTERS } from '../src/contract/listing-filters';
import { PublishListingCommand } from '../src/listings/write/commands/publish-listing/publish-listing.command';
import { WithdrawListingCommand } from '../src/listings/write/commands/withdraw-listing/withdraw-listing.command';
import { getJson, RunningService, startService } from './support/harness';
import { fixtureListing, FIXTURES, withUnsourced } from './support/fixtures';

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
    expect(body).toMatchObject({ success: true, total: FIXTURES.listings, returned: 100, limit: 100 });
    expect(body.categories).toHaveLength(FIXTURES.categories);
    expect(body.tools[0].slug).toBe('openai');
    const popularity = body.tools.map((t: Summary) => t.popularity);
    expect(popularity).toEqual([...popularity].sort((a, b) => b - a));
    expect(body._links).toMatchObject({ self: '/api/v1/tools?limit=100', search: expect.any(String), compare: expect.any(String), categories: '/api/v1/tools/categories' });
  });

  it('reads every listing through its cursors, each once', async () => {
    const { items, pages, total } = await allPages('/api/v1/tools?limit=20', 'tools');
    expect(total).toBe(FIXTURES.listings);
    expect(pages).toBe(Math.ceil(FIXTURES.listings / 20));
    expect(new Set(items.map((t) => t.slug)).size).toBe(FIXTURES.listings);
  });

  it('keeps its place when a listing before the cursor is withdrawn meanwhile', async () => {
    const first = await get('/api/v1/tools?limit=10');
    const second = await get(first.body._links.next);
    // The same second page, asked again after the most popular listing of the first page is gone.
    const gone = first.body.tools[0].slug;
    await service.command(new WithdrawListingCommand(gone, 'test'));
    const again = await get(first.body._links.next);
    expect(again.body.tools.map((t: Summary) => t.slug)).toEqual(second.body.tools.map((t: Summary) => t.slug));
    expect(again.body.total).toBe(FIXTURES.listings - 1);
    expect((await service.ingest([`fixtures/listings/${gone}.yaml`], 'test', { republish: true })).results[0].outcome).toBe('published');
  });

  it('narrows by category and by the facts agents decide by, and echoes them', async () => {
    const { body } = await get('/api/v1/tools?category=LLM&freeTier=true&openaiCompatible=true');
    expect(body.filters).toEqual({ ...NO_FILTERS, category: 'llm', freeTier: true, openaiCompatible: true });
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
    expect(all).toHaveLength(FIXTURES.listings);
    const expected = all.filter(has).map((t) => t.slug).sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(FIXTURES.listings);
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

describe('filters on the facts as data and the lifecycle', () => {
  type Detail = { slug: string; models: Array<{ id: string; prices: Array<{ unit: string; price: number }>; lifecycle: { status: string } }> | null; prices: { currency: string; models: string[]; freeQuota: unknown[]; rates: Array<{ unit: string; price: number; percent?: number | null }> } | null };
  let details: Detail[];
  beforeAll(async () => {
    const { body } = await get('/api/v1/export');
    details = body.tools;
  });
  const listed = async (query: string) => {
    const { status, body } = await get(`/api/v1/tools?limit=100&${query}`);
    expect(status).toBe(200);
    const second = body.nextCursor ? (await get(`/api/v1/tools?limit=100&${query}&cursor=${body.nextCursor}`)).body.tools : [];
    return [...body.tools, ...second].map((t: Summary) => t.slug).sort();
  };

  it('model= keeps exactly the listings that serve that model, any case', async () => {
    const expected = details.filter((d) => (d.models ?? []).some((m) => m.id === 'gpt-6-luna' && m.lifecycle.status !== 'retired')).map((d) => d.slug).sort();
    expect(expected).toContain('openai');
    expect(await listed('model=GPT-6-Luna')).toEqual(expected);
    expect((await get('/api/v1/tools/search?q=gpt-6-luna')).body.results[0]).toMatchObject({ slug: 'openai', matched: expect.arrayContaining(['models']) });
  });

  it('freeQuota= keeps exactly the listings with a published free allowance, or without', async () => {
    const free = (d: Detail) => (d.prices?.freeQuota.length ?? 0) > 0 || (d.prices?.models.includes('free') ?? false);
    const expected = details.filter(free).map((d) => d.slug).sort();
    expect(expected.length).toBeGreaterThan(5);
    expect(await listed('freeQuota=true')).toEqual(expected);
    expect(await listed('freeQuota=false')).toEqual(details.filter((d) => !free(d)).map((d) => d.slug).sort());
  });

  it('maxPrice with priceUnit keeps the listings with a US-dollar rate of that unit at most that price', async () => {
    const lowest = (d: Detail) => {
      if ((d.prices?.currency ?? 'USD') !== 'USD') return Infinity;
      const rates = [...(d.prices?.rates ?? []), ...(d.models ?? []).filter((m) => current(m.lifecycle)).flatMap((m) => m.prices)];
      return Math.min(Infinity, ...rates.filter((r) => r.unit === '1m-input-tokens' && !('percent' in r && r.percent)).map((r) => r.price));
    };
    const expected = details.filter((d) => lowest(d) <= 1).map((d) => d.slug).sort();
    expect(expected.length).toBeGreaterThan(2);
    expect(await listed('maxPrice=1&priceUnit=1m-input-tokens')).toEqual(expected);
  });

  it('does not take a rate with a percentage for a flat price: card fees and percentage surcharges are not free', async () => {
    // Square (2.9 % + $0.30), Lemon Squeezy (5 % + $0.50, surcharges of 1.5 % at $0) and OpenRouter (5.5 % at $0) charge per transaction.
    const percentages = details.filter((d) => (d.prices?.rates ?? []).some((r) => r.unit === 'transaction' && r.percent)).map((d) => d.slug);
    expect(percentages).toEqual(expect.arrayContaining(['lemonsqueezy', 'openrouter', 'square']));
    const cheap = await listed('maxPrice=0.5&priceUnit=transaction');
    for (const slug of percentages) expect(cheap).not.toContain(slug);
    const { body } = await get('/api/v1/tools/compare?ids=square,lemonsqueezy');
    expect(body.rates.map((rate: { unit: string }) => rate.unit)).not.toContain('transaction');
    // Their rates are all in the rows for a reader to weigh.
    expect(body.compared.find((row: { slug: string }) => row.slug === 'square').prices.rates[0]).toMatchObject({ unit: 'transaction', price: 0.3, percent: 2.9 });
  });

  it('refuses a price without its unit, and values it cannot read, naming the parameter', async () => {
    for (const [query, parameter] of [['maxPrice=1', 'priceUnit'], ['priceUnit=1m-input-tokens', 'maxPrice'], ['maxPrice=cheap&priceUnit=image', 'maxPrice'], ['maxPrice=1&priceUnit=bananas', 'priceUnit'], ['maxPrice=1&priceUnit=other', 'priceUnit'], ['lifecycle=eternal', 'lifecycle'], ['retiringWithin=soon', 'retiringWithin'], ['model=%3Cscript%3E', 'model']]) {
      const { status, body } = await get(`/api/v1/tools?${query}`);
      expect({ query, status, parameter: body.parameter }).toEqual({ query, status: 400, parameter });
    }
  });

  it('leaves retired listings out unless asked, and finds listings whose shutdown is announced within a window', async () => {
    const listing = (slug: string) => details.find((d) => d.slug === slug) as unknown as Record<string, unknown> & { website: string };
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const source = (d: { website: string }) => ({ url: d.website, checked: inDays(0), quote: null, offDomainReason: null });
    const document = (slug: string, lifecycle: object, status: string) => {
      const { categoryCn, similarApis, pricingComparison, errors, referralUrl, curlExample, codeExamples, ...own } = listing(slug) as Record<string, any>;
      return { ...own, status, lifecycle, similarApis: similarApis.map((s: { slug: string }) => s.slug), codeExamples: codeExamples.map(({ label, language, code }: any) => ({ label, language, code })), domains: [new URL(own.website).hostname.replace(/^www\./, '')], note: null, lastUpdated: inDays(0) } as any;
    };
    // Published through the command bus, as ingest would: one retired listing, one retiring in ten days.
    await service.command(new PublishListingCommand(document('ideogram', { status: 'retired', since: null, retiresAt: inDays(-1), replacedBy: [], migrationUrl: null, reason: 'shut down', source: source(listing('ideogram')) }, 'deprecated'), { actor: 'test' }));
    await service.command(new PublishListingCommand(document('recraft', { status: 'deprecated', since: null, retiresAt: inDays(10), replacedBy: [], migrationUrl: null, reason: 'shutting down', source: source(listing('recraft')) }, 'deprecated'), { actor: 'test' }));
    expect(await listed('')).not.toContain('ideogram');
    expect((await get('/api/v1/tools/search?q=ideogram')).body.results.map((r: Summary) => r.slug)).not.toContain('ideogram');
    expect(await listed('includeRetired=true')).toContain('ideogram');
    expect(await listed('lifecycle=retired')).toEqual(['ideogram']);
    expect(await listed('lifecycle=deprecated')).toContain('recraft');
    expect(await listed('retiringWithin=30d')).toContain('recraft');
    expect(await listed('retiringWithin=5d')).not.toContain('recraft');
    const { body } = await get('/api/v1/tools?retiringWithin=30d');
    expect(body.filters.retiringWithin).toBe(inDays(30));
  });
});

describe('orders: sort on the list and on search, and orders asked for in words', () => {
  type Model = { id: string; kind: string; prices: Array<{ unit: string; price: number; percent?: number | null }>; lifecycle: { status: string } };
  type Detail = { slug: string; contextTokens: number | null; lastUpdated: string; models: Model[] | null; prices: { currency: string; rates: Array<{ unit: string; price: number; percent?: number | null }> } | null };
  let details: Detail[];
  beforeAll(async () => {
    details = (await get('/api/v1/export')).body.tools;
  });
  /** A listing's lowest flat US-dollar rate in a unit, of its own rates and its served models' (of one kind, when given). */
  const lowest = (d: Detail, unit: string, kind?: string) => {
    if ((d.prices?.currency ?? 'USD') !== 'USD') return undefined;
    const served = (d.models ?? []).filter((m) => current(m.lifecycle) && (kind === undefined || m.kind === kind));
    const rates = [...(kind === undefined ? (d.prices?.rates ?? []) : []), ...served.flatMap((m) => m.prices)].filter((r) => r.unit === unit && !r.percent);
    return rates.length === 0 ? undefined : Math.min(...rates.map((r) => r.price));
  };
  const slugsOf = (items: Summary[]) => items.map((t) => t.slug);

  it('sort=price lists every listing through its cursors, cheapest in the unit first, those without a rate last and counted', async () => {
    const { items, total } = await allPages('/api/v1/tools?priceUnit=1m-input-tokens&sort=price&limit=7', 'tools');
    // Every listing the list holds (a retired one, from the test before, is left out as always), each once.
    expect(total).toBe((await get('/api/v1/tools?limit=1')).body.total);
    expect(new Set(slugsOf(items)).size).toBe(total);
    const listed = details.filter((d) => slugsOf(items).includes(d.slug));
    const rated = listed.filter((d) => lowest(d, '1m-input-tokens') !== undefined);
    expect(rated.length).toBeGreaterThan(10);
    const expected = [...rated].sort((a, b) => lowest(a, '1m-input-tokens')! - lowest(b, '1m-input-tokens')! || (a.slug < b.slug ? -1 : 1)).map((d) => d.slug);
    expect(slugsOf(items).slice(0, rated.length)).toEqual(expected);
    const { body } = await get('/api/v1/tools?sort=price&priceUnit=1m-input-tokens&limit=1');
    expect(body.sort).toEqual({ by: 'price', priceUnit: '1m-input-tokens', modelKind: null, withoutRate: total - rated.length });
    // priceUnit alone is an order's unit here, not a filter without its price.
    expect(body.total).toBe(total);
  });

  it('sort=context puts the largest context window first and listings without one last; sort=checked the latest checked first', async () => {
    const byContext = slugsOf((await allPages('/api/v1/tools?sort=context&limit=50', 'tools')).items).map((slug) => details.find((d) => d.slug === slug)!.contextTokens ?? -1);
    expect(byContext).toEqual([...byContext].sort((a, b) => b - a));
    const byCheck = slugsOf((await allPages('/api/v1/tools?sort=checked&limit=50', 'tools')).items).map((slug) => details.find((d) => d.slug === slug)!.lastUpdated);
    expect(byCheck).toEqual([...byCheck].sort().reverse());
  });

  it('reads "cheapest embedding model" as an order by the embedding models\' rates, in the unit most of them use, and says so', async () => {
    const { status, body } = await get('/api/v1/tools/search?q=cheapest%20embedding%20model');
    expect(status).toBe(200);
    const unit = body.sort.priceUnit as string;
    expect(body.sort).toMatchObject({ by: 'price', modelKind: 'embedding' });
    expect(body.interpretation).toContainEqual({ input: 'cheapest', matchedAs: ['sort=price', `priceUnit=${unit}`, 'modelKind=embedding'], via: ['sort'] });
    const found = slugsOf(body.results).map((slug) => details.find((d) => d.slug === slug)!);
    const rates = found.map((d) => lowest(d, unit, 'embedding'));
    const rated = rates.filter((rate) => rate !== undefined) as number[];
    expect(rated.length).toBeGreaterThanOrEqual(3);
    expect(rates.slice(0, rated.length)).toEqual([...rated].sort((a, b) => a - b));
    // The cheapest embedding rate of the whole directory, in that unit, leads.
    const floor = Math.min(...details.map((d) => lowest(d, unit, 'embedding') ?? Infinity));
    expect(rates[0]).toBe(floor);
    // A listing without an embedding model is not placed by its chat models' rates: it comes after those with one.
    expect(found.slice(rated.length).every((d) => lowest(d, unit, 'embedding') === undefined)).toBe(true);
    expect(body.sort.withoutRate).toBe(body.total - rated.length);
  });

  it('reads 最便宜 and longest context in both languages; the sort parameter wins over the words', async () => {
    const zh = (await get(`/api/v1/tools/search?q=${encodeURIComponent('最便宜的大模型')}`)).body;
    const en = (await get('/api/v1/tools/search?q=cheapest%20llm')).body;
    expect(zh.sort).toEqual(en.sort);
    expect(en.sort).toMatchObject({ by: 'price', priceUnit: '1m-input-tokens', modelKind: null });
    const firstRates = slugsOf(en.results).slice(0, 5).map((slug) => lowest(details.find((d) => d.slug === slug)!, '1m-input-tokens')!);
    expect(firstRates).toEqual([...firstRates].sort((a, b) => a - b));
    const context = (await get('/api/v1/tools/search?q=longest%20context%20llm')).body;
    expect(context.sort.by).toBe('context');
    const windows = slugsOf(context.results).map((slug) => details.find((d) => d.slug === slug)!.contextTokens ?? -1);
    expect(windows).toEqual([...windows].sort((a, b) => b - a));
    const asked = (await get('/api/v1/tools/search?q=cheapest%20llm&sort=popular')).body;
    expect(asked.sort.by).toBe('popular');
    const popularity = asked.results.map((t: Summary) => t.popularity);
    expect(popularity).toEqual([...popularity].sort((a: number, b: number) => b - a));
  });

  it('search pages continue an order through nextCursor', async () => {
    const { items, total } = await allPages('/api/v1/tools/search?q=llm&priceUnit=1m-input-tokens&sort=price&limit=9', 'results');
    expect(items).toHaveLength(total);
    const rates = items.map((t) => lowest(details.find((d) => d.slug === t.slug)!, '1m-input-tokens') ?? Infinity);
    expect(rates).toEqual([...rates].sort((a, b) => a - b));
  });

  it('refuses an unknown order, a price order without its unit and relevance without words, naming the parameter', async () => {
    for (const [path, parameter] of [
      ['/api/v1/tools?sort=cheapest', 'sort'],
      ['/api/v1/tools?sort=price', 'priceUnit'],
      ['/api/v1/tools?sort=relevance', 'sort'],
      ['/api/v1/tools/search?sort=relevance', 'sort'],
      ['/api/v1/tools/search?q=llm&sort=price&priceUnit=bananas', 'priceUnit'],
    ]) {
      const { status, body } = await get(path);
      expect({ path, status, parameter: body.parameter }).toEqual({ path, status: 400, parameter });
    }
  });
});

/** A model sold for the long run: its rates count (deprecated and retired ones, or one with a shutdown day, do not). */
function current(lifecycle: { status: string; retiresAt?: string | null }): boolean {
  return (lifecycle.status === 'active' || lifecycle.status === 'preview') && !lifecycle.retiresAt;
}

describe('a comparison', () => {
  it('puts the rates of one unit side by side, the lowest of each listing, null where it publishes none', async () => {
    const { body } = await get('/api/v1/tools/compare?ids=openai,anthropic,stripe');
    const perInput = body.rates.find((rate: { unit: string }) => rate.unit === '1m-input-tokens');
    expect(perInput).toBeDefined();
    expect(Object.keys(perInput.lowest).sort()).toEqual(['anthropic', 'openai', 'stripe']);
    expect(perInput.lowest.stripe).toBeNull();
    const openai = body.compared.find((row: { slug: string }) => row.slug === 'openai');
    const openaiRates = [...(openai.prices?.rates ?? []), ...openai.models.filter((m: any) => current(m.lifecycle)).flatMap((m: any) => m.prices)];
    expect(perInput.lowest.openai).toBe(Math.min(...openaiRates.filter((r: { unit: string }) => r.unit === '1m-input-tokens').map((r: { price: number }) => r.price)));
    // GPT-5 nano (0.05 USD, deprecated, shut down on 2026-12-11) is OpenAI's cheapest input rate, but not one to plan on: left out.
    const retiring = openai.models.find((m: any) => m.id === 'gpt-5-nano');
    expect(retiring.lifecycle).toMatchObject({ status: 'deprecated', retiresAt: '2026-12-11' });
    expect(perInput.lowest.openai).toBeGreaterThan(retiring.prices.find((r: { unit: string }) => r.unit === '1m-input-tokens').price);
    expect(body.rates.every((rate: { currency: string }) => rate.currency === 'USD')).toBe(true);
  });
});

describe("a listing's price from", () => {
  it('is the lowest current rate in its main unit with its model, the same in a detail, a search result and a comparison row', async () => {
    const { body } = await get('/api/v1/tools/openai');
    // GPT-5 nano is cheaper (0.05) but deprecated: GPT-6 Luna's 0.1 is the price from.
    expect(body.tool.priceFrom).toMatchObject({ unit: '1m-input-tokens', price: 0.1, percent: null, currency: 'USD', model: { id: 'gpt-6-luna', name: 'GPT-6 Luna' } });
    expect(body.tool.priceFrom.source.url).toBe(body.tool.models.find((m: { id: string }) => m.id === 'gpt-6-luna').source.url);
    const found = (await get('/api/v1/tools/search?q=openai')).body.results.find((r: { slug: string }) => r.slug === 'openai');
    expect(found.priceFrom).toEqual(body.tool.priceFrom);
    const row = (await get('/api/v1/tools/compare?ids=openai,square')).body.compared;
    expect(row[0].priceFrom).toEqual(body.tool.priceFrom);
    // A card payment API: the fee with the lowest percentage (2.9% + 0.30, not 3.5% + 0.15), the listing's own rate.
    expect(row[1].priceFrom).toMatchObject({ unit: 'transaction', price: 0.3, percent: 2.9, currency: 'USD', model: null });
    // No prices recorded: null.
    const unpriced = (await get('/api/v1/tools?limit=100')).body.tools.find((t: { slug: string }) => t.slug === 'serper');
    expect(unpriced?.priceFrom ?? null).toBeNull();
  });
});

describe('the sources of the facts every listing has', () => {
  it('are served with the day each grows stale, and a fact not yet sourced is null beside the sourced ones', async () => {
    // Planted: the shipped content sources every decision fact it states.
    await service.command(new PublishListingCommand(withUnsourced(fixtureListing('mathpix'), ['freeTier']), { actor: 'test' }));
    const { status, body: { tool } } = await get('/api/v1/tools/mathpix');
    expect(status).toBe(200);
    expect(tool.sources.freeTier).toBeNull();
    expect(tool.sources.auth).toMatchObject({ url: 'https://docs.mathpix.com/guides/authentication', checked: '2026-11-28', staleAfter: '2027-05-27' });
    expect(Object.keys(tool.sources).sort()).toEqual(['auth', 'contextTokens', 'freeTier', 'openaiCompatible']);
    const openai = (await get('/api/v1/tools/openai')).body.tool;
    for (const fact of ['auth', 'freeTier', 'openaiCompatible']) expect(openai.sources[fact].staleAfter).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("serve a rate's own source, when another page than its block's states it, and null where the block's is its source", async () => {
    const clerk = (await get('/api/v1/tools/clerk')).body.tool;
    expect(clerk.prices.rates[0]).toMatchObject({ unit: 'request', price: 0.001, source: { checked: '2026-11-27', staleAfter: '2027-05-26' } });
    expect(clerk.prices.rates[0].source.url).toMatch(/^https:\/\/github\.com\/clerk\/clerk-docs\/blob\/[0-9a-f]{40}\/docs\/guides\/development\/machine-auth\/api-keys\.mdx$/);
    expect(clerk.prices.source.url).not.toBe(clerk.prices.rates[0].source.url);
    const openai = (await get('/api/v1/tools/openai')).body.tool;
    expect(openai.models[0].prices.every((rate: { source: unknown }) => rate.source === null)).toBe(true);
  });
});
