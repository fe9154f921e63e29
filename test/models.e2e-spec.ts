import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { PublishListingCommand } from '../src/listings/write/commands/publish-listing/publish-listing.command';
import { EventStore } from '../src/event-store/event-store.service';
import { LISTING_AGGREGATE, listingAggregate } from '../src/listings/write/listing.aggregate';
import type { ListingDocument } from '../src/listings/write/listing.document';
import { getJson, RunningService, startService } from './support/harness';

/**
 * The model catalog, as an agent asks it the questions it brings: the cheapest model with image input and a
 * long context, every provider of one model cheapest first, the models shutting down soon with their
 * successors, open models with tool calling under a price. Each answer is checked against the answer
 * worked out here from the content files themselves, over HTTP and through a real MCP client.
 */
type Offer = NonNullable<ListingDocument['models']>[number];
interface Listing extends Pick<ListingDocument, 'slug' | 'lifecycle' | 'prices' | 'category'> {
  models: Offer[] | null;
}

const fixtures = join(__dirname, '..', 'fixtures');
const listings: Listing[] = readdirSync(join(fixtures, 'listings')).map((file) => parse(readFileSync(join(fixtures, 'listings', file), 'utf8')));
const entries = new Map<string, { openWeights?: unknown }>(
  readdirSync(join(fixtures, 'models')).map((file) => {
    const entry = parse(readFileSync(join(fixtures, 'models', file), 'utf8'));
    return [entry.id, entry];
  }),
);

/** Every offer of a live listing, with the id of the model it serves (the catalog's grouping). */
const offers = listings
  .filter((listing) => listing.lifecycle?.status !== 'retired')
  .flatMap((listing) => (listing.models ?? []).map((offer) => ({ listing, offer, id: offer.canonical ?? `${listing.slug}/${offer.id}`.toLowerCase() })));
const byModel = new Map<string, typeof offers>();
for (const at of offers) byModel.set(at.id, [...(byModel.get(at.id) ?? []), at]);

/** A model's lowest current US-dollar rate in a unit, as the catalog defines it (offers not deprecated or retired). */
function lowest(id: string, unit: string): number | null {
  const prices = byModel
    .get(id)!
    .filter(({ listing, offer }) => (listing.prices?.currency ?? 'USD') === 'USD' && !['deprecated', 'retired'].includes(offer.lifecycle.status))
    .flatMap(({ offer }) => offer.prices.filter((rate) => rate.unit === unit && !rate.percent).map((rate) => rate.price));
  return prices.length > 0 ? Math.min(...prices) : null;
}
const largestContext = (id: string) => Math.max(0, ...byModel.get(id)!.filter(({ offer }) => offer.lifecycle.status !== 'retired').map(({ offer }) => offer.contextTokens ?? 0));
const readsImages = (id: string) => byModel.get(id)!.some(({ offer }) => offer.lifecycle.status !== 'retired' && offer.input.includes('image'));
const live = (id: string) => byModel.get(id)!.some(({ offer }) => offer.lifecycle.status !== 'retired');

let service: RunningService;
let client: Client;

beforeAll(async () => {
  service = await startService('models');
  expect((await service.ingest(['fixtures'])).problems).toEqual([]);
  client = new Client({ name: 'models-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${service.baseUrl}/mcp`)));
});
afterAll(async () => {
  await client?.close();
  await service?.close();
});

const models = (query: string) => getJson(`${service.baseUrl}/api/v1/models?${query}`);
const callTool = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

describe('the questions agents bring, in one request each', () => {
  it('the cheapest model that reads images with at least 200k context, by input price', async () => {
    const candidates = [...byModel.keys()].filter((id) => live(id) && readsImages(id) && largestContext(id) >= 200_000 && lowest(id, '1m-input-tokens') !== null);
    const cheapest = Math.min(...candidates.map((id) => lowest(id, '1m-input-tokens')!));
    expect(candidates.length).toBeGreaterThan(2);
    const { status, body } = await models('input=image&minContext=200k&sort=price&priceUnit=1m-input-tokens&limit=5');
    expect(status).toBe(200);
    expect(body.sort).toMatchObject({ by: 'price', priceUnit: '1m-input-tokens' });
    const first = body.models[0];
    expect(first.lowestRates.find((rate: { unit: string }) => rate.unit === '1m-input-tokens').price).toBe(cheapest);
    expect(candidates).toContain(first.id);
    // Ordered by that rate, and every model it lists passes both filters.
    const rates = body.models.map((m: { lowestRates: Array<{ unit: string; price: number }> }) => m.lowestRates.find((r) => r.unit === '1m-input-tokens')?.price ?? Infinity);
    expect(rates).toEqual([...rates].sort((a, b) => a - b));
    for (const model of body.models) expect(model.input).toContain('image');
    expect(body.total).toBe([...byModel.keys()].filter((id) => live(id) && readsImages(id) && largestContext(id) >= 200_000).length);
    expect(body.sort.withoutRate).toBe(body.total - candidates.length);
    const tool = await callTool('search_models', { input: 'image', minContext: '200k', sort: 'price', priceUnit: '1m-input-tokens', limit: 5 });
    expect(tool.structuredContent).toEqual(body);
    expect((tool.content[0] as { text: string }).text).toContain(`1. ${first.id} — `);
  });

  it('every provider of gpt-oss-120b, cheapest first', async () => {
    const expected = byModel.get('gpt-oss-120b')!;
    expect(expected.length).toBeGreaterThanOrEqual(8);
    const { status, body } = await getJson(`${service.baseUrl}/api/v1/models/gpt-oss-120b?priceUnit=1m-input-tokens`);
    expect(status).toBe(200);
    const served = body.model.offers.map((o: { listing: string; modelId: string }) => `${o.listing}:${o.modelId}`).sort();
    expect(served).toEqual(expected.map(({ listing, offer }) => `${listing.slug}:${offer.id}`).sort());
    const input = (o: { prices: Array<{ unit: string; price: number }> }) => o.prices.find((r) => r.unit === '1m-input-tokens')?.price ?? Infinity;
    const prices = body.model.offers.map(input);
    expect(prices).toEqual([...prices].sort((a: number, b: number) => a - b));
    expect(prices[0]).toBe(lowest('gpt-oss-120b', '1m-input-tokens'));
    expect(body.model.capabilities.openWeights).toBe(true);
    expect(body.model.openWeights.licence).toBeTruthy();
    const tool = await callTool('get_model', { id: 'gpt-oss-120b', priceUnit: '1m-input-tokens' });
    expect(tool.structuredContent).toEqual(body);
    expect((tool.content[0] as { text: string }).text).toMatch(/Served by \d+ provider\(s\):\n- \S+ as "/);
  });

  it('every model with a shutdown announced in the next 90 days, with its successors', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const until = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
    const retiring = [...byModel.keys()].filter((id) => byModel.get(id)!.some(({ offer }) => offer.lifecycle.status !== 'retired' && offer.lifecycle.retiresAt && offer.lifecycle.retiresAt >= today && offer.lifecycle.retiresAt <= until));
    const { body } = await models('retiringWithin=90d&limit=100');
    expect(body.models.map((m: { id: string }) => m.id).sort()).toEqual(retiring.sort());
    expect(body.filters.retiringWithin).toBe(until);
    for (const model of body.models) {
      expect(model.lifecycle.retiresAt! >= today).toBe(true);
      const successors = byModel.get(model.id)!.flatMap(({ listing, offer }) => (offer.lifecycle.replacedBy ?? []).map((next) => (listing.models ?? []).find((o) => o.id === next)).filter(Boolean).map((o) => o!.canonical ?? `${listing.slug}/${o!.id}`.toLowerCase()));
      expect(model.lifecycle.replacedBy.sort()).toEqual([...new Set(successors)].filter((id) => id !== model.id).sort());
    }
  });

  it('open-weights models with tool calling under a price', async () => {
    const { body } = await models('tools=true&openWeights=true&maxPrice=0.5&priceUnit=1m-input-tokens&limit=100');
    const expected = [...byModel.keys()].filter(
      (id) => live(id) && Boolean(entries.get(id)?.openWeights) && byModel.get(id)!.some(({ offer }) => offer.lifecycle.status !== 'retired' && offer.capabilities?.tools === true) && (lowest(id, '1m-input-tokens') ?? Infinity) <= 0.5,
    );
    expect(expected).toContain('gpt-oss-120b');
    expect(body.models.map((m: { id: string }) => m.id).sort()).toEqual(expected.sort());
  });
});

describe('searching, paging and refusing', () => {
  it('finds a model by any provider’s id, by family words and through a typo', async () => {
    expect((await models('q=accounts/fireworks/models/gpt-oss-120b')).body.models[0].id).toBe('gpt-oss-120b');
    expect((await models('q=gpt%20oss')).body.models.map((m: { id: string }) => m.id)).toEqual(expect.arrayContaining(['gpt-oss-120b', 'gpt-oss-20b']));
    expect((await models('q=gpt-oss-120b')).body.models[0].id).toBe('gpt-oss-120b');
    expect((await models('q=deepsek')).body.total).toBeGreaterThan(0);
  });

  it('pages with a cursor through every model once, with an exact total', async () => {
    const seen: string[] = [];
    let next = 'limit=50';
    let total = 0;
    for (;;) {
      const { body } = await models(next);
      total = body.total;
      seen.push(...body.models.map((m: { id: string }) => m.id));
      if (!body.nextCursor) break;
      next = `limit=50&cursor=${body.nextCursor}`;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(total);
    expect(total).toBe([...byModel.keys()].filter(live).length);
  });

  it.each([
    ['kind=robot', 'kind'],
    ['input=smell', 'input'],
    ['minContext=lots', 'minContext'],
    ['tools=maybe', 'tools'],
    ['sort=price', 'priceUnit'],
    ['sort=fastest', 'sort'],
    ['maxPrice=1', 'priceUnit'],
    ['priceUnit=furlongs&sort=price', 'priceUnit'],
    ['listing=Not%20A%20Slug', 'listing'],
    ['retiringWithin=forever', 'retiringWithin'],
    ['limit=0', 'limit'],
    ['cursor=bogus', 'cursor'],
  ])('%s is a 400 naming %s', async (query, parameter) => {
    const { status, body } = await models(query);
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, parameter });
  });

  it('an unknown model is a 404 that says where to search; a comparison names what it did not find', async () => {
    const missing = await getJson(`${service.baseUrl}/api/v1/models/no-such-model`);
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toContain('/api/v1/models?q=no-such-model');
    const compared = await getJson(`${service.baseUrl}/api/v1/models/compare?ids=gpt-oss-120b,gpt-oss-20b,nope&priceUnit=1m-output-tokens`);
    expect(compared.status).toBe(200);
    expect(compared.body.notFound).toEqual(['nope']);
    expect(compared.body.rates.map((r: { id: string; price: number | null }) => [r.id, r.price])).toEqual([
      ['gpt-oss-120b', lowest('gpt-oss-120b', '1m-output-tokens')],
      ['gpt-oss-20b', lowest('gpt-oss-20b', '1m-output-tokens')],
    ]);
    expect(compared.body.rates[0].source.url).toMatch(/^https:\/\//);
    expect((await getJson(`${service.baseUrl}/api/v1/models/compare?ids=nope,nada`)).status).toBe(404);
    const tool = await callTool('get_model', { id: 'no-such-model' });
    expect(tool.isError).toBe(true);
    expect((tool.content[0] as { text: string }).text).toContain('search_models');
  });
});

describe('a price change', () => {
  it("shows in the model's history and in the change feed, with the value before and after", async () => {
    const store = service.app.get(EventStore);
    const cerebras = (await store.documentsAt(listingAggregate, ['cerebras'], '+')).get('cerebras')!;
    const at = cerebras.models!.findIndex((offer) => offer.canonical === 'gpt-oss-120b');
    const offer = cerebras.models![at];
    const before = offer.prices.find((rate) => rate.unit === '1m-input-tokens')!.price;
    const revised: ListingDocument = {
      ...cerebras,
      models: cerebras.models!.map((o, i) => (i === at ? { ...o, prices: o.prices.map((r) => (r.unit === '1m-input-tokens' ? { ...r, price: before + 0.05 } : r)) } : o)),
    };
    const version = (await store.readAggregate(LISTING_AGGREGATE, 'cerebras')).length;
    await service.command(new PublishListingCommand(revised, { actor: 'test', baseVersion: version }));
    const { body } = await getJson(`${service.baseUrl}/api/v1/models/gpt-oss-120b`);
    const change = body.model.history.find((c: { listing: string; field: string }) => c.listing === 'cerebras' && c.field === 'prices');
    expect(change).toBeDefined();
    const inputOf = (prices: Array<{ unit: string; price: number }>) => prices.find((r) => r.unit === '1m-input-tokens')!.price;
    expect([inputOf(change.before), inputOf(change.after)]).toEqual([before, before + 0.05]);
    const changes: Array<{ id: string; changedFields: string[] | null; changes: Array<{ field: string; before: Offer[]; after: Offer[] }> }> = [];
    for (let since = ''; ; ) {
      const page = (await getJson(`${service.baseUrl}/api/v1/changes?limit=100${since}`)).body;
      changes.push(...page.changes);
      if (!page.nextCursor || page.changes.length === 0) break;
      since = `&since=${page.nextCursor}`;
    }
    const last = changes.filter((c) => c.id === 'cerebras').at(-1)!;
    expect(last.changedFields).toContain('models');
    const modelsChange = last.changes.find((c) => c.field === 'models')!;
    const find = (list: Offer[]) => inputOf(list.find((o) => o.canonical === 'gpt-oss-120b')!.prices);
    expect([find(modelsChange.before), find(modelsChange.after)]).toEqual([before, before + 0.05]);
  });
});
