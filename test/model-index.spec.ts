import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { CAPABILITY_FILTERS, type ModelFilters, type ModelSort } from '../src/contract/model-filters';
import { MODALITIES, MODEL_KINDS, LIFECYCLE_STATUSES } from '../src/contract/vocabulary';
import { parseModelFilters, parseModelSort } from '../src/models/read/model-params';
import { offeringListing, type ModelView, type OfferingListing } from '../src/models/views/model-views';
import { parseModelEntry, type ModelEntryDocument } from '../src/models/write/model-entry.document';
import { ModelIndex } from '../src/search/model-index';
import { generateCatalog, loadFixtureListings } from './support/synthetic-catalog';

/**
 * The model index tests its filters on packed columns (src/search/model-filter-columns.ts). Here every
 * filter, alone and in pairs, under every sort, is checked against the rule written plainly over each
 * model's view, on the fixtures' catalog and on a synthetic one of 20,000 models.
 */
function indexOf(listings = loadFixtureListings()): ModelIndex {
  const entries = new Map<string, ModelEntryDocument>();
  for (const file of readdirSync('fixtures/models')) {
    const entry = parseModelEntry(parse(readFileSync(join('fixtures/models', file), 'utf8'))).entry!;
    entries.set(entry.id, entry);
  }
  const offering = new Map<string, OfferingListing>();
  listings.forEach((listing, i) => offering.set(listing.slug, offeringListing(listing, (['ok', 'unchecked', 'down'] as const)[i % 3])));
  const index = new ModelIndex();
  index.apply(offering, entries);
  return index;
}

/** The filters' rules, plainly: what the index must agree with. */
function passes(view: ModelView, f: ModelFilters, today: string): boolean {
  const m = view.model;
  return (
    (f.kind === null || m.kind === f.kind) &&
    (f.input === null || m.input.includes(f.input)) &&
    (f.output === null || m.output.includes(f.output)) &&
    (f.minContext === null || (m.contextTokens ?? 0) >= f.minContext) &&
    (f.minOutput === null || (m.maxOutputTokens ?? 0) >= f.minOutput) &&
    CAPABILITY_FILTERS.every((flag) => f[flag] === null || (m.capabilities[flag] === true) === f[flag]) &&
    (f.listing === null || m.offers.some((o) => o.listing === f.listing)) &&
    (f.category === null || view.categories.has(f.category)) &&
    (f.lifecycle !== null ? m.lifecycle.status === f.lifecycle : m.lifecycle.status !== 'retired' || f.includeRetired === true) &&
    (f.retiringWithin === null || view.retiring.some((day) => day >= today && day <= f.retiringWithin!)) &&
    (f.maxPrice === null || m.lowestRates.some((r) => r.unit === f.priceUnit && r.price <= f.maxPrice!)) &&
    (f.freeQuota === null || view.freeQuota === f.freeQuota) &&
    (f.live === null || m.offers.some((o) => o.liveness === f.live))
  );
}

const ONE: Array<Record<string, string>> = [
  {},
  ...MODEL_KINDS.map((kind) => ({ kind })),
  ...MODALITIES.flatMap((m): Array<Record<string, string>> => [{ input: m }, { output: m }]),
  ...['8k', '128k', '200k', '1m'].map((minContext) => ({ minContext })),
  ...['4k', '32k', '128k'].map((minOutput) => ({ minOutput })),
  ...CAPABILITY_FILTERS.flatMap((flag): Array<Record<string, string>> => [{ [flag]: 'true' }, { [flag]: 'false' }]),
  ...LIFECYCLE_STATUSES.map((lifecycle) => ({ lifecycle })),
  { includeRetired: 'true' },
  { retiringWithin: '30d' },
  { retiringWithin: '400d' },
  ...['0.1', '1', '10'].flatMap((maxPrice) => ['1m-input-tokens', '1m-output-tokens', 'image'].map((priceUnit) => ({ maxPrice, priceUnit }))),
  { freeQuota: 'true' },
  { freeQuota: 'false' },
  { category: 'llm' },
  { category: 'gpu-cloud' },
  { listing: 'groq' },
  { listing: 'openrouter' },
  { live: 'ok' },
  { live: 'down' },
];
const PAIRS: Array<Record<string, string>> = ONE.filter((_, i) => i % 5 === 0).flatMap((a, i, some) => some.slice(i + 1).map((b) => ({ ...a, ...b })));
const SORTS: Array<Record<string, string>> = [
  {},
  { sort: 'context' },
  { sort: 'released' },
  { sort: 'name' },
  { sort: 'price', priceUnit: '1m-input-tokens' },
  { q: 'gpt' },
  { q: 'gpt oss' },
  { q: 'llama 4 maverik' },
  { q: 'llama', sort: 'price', priceUnit: '1m-output-tokens' },
  { q: 'qwen', sort: 'context' },
];

function check(index: ModelIndex, cases: Array<Record<string, string>>): number {
  const today = new Date().toISOString().slice(0, 10);
  let compared = 0;
  for (const sorting of SORTS) {
    for (const params of cases) {
      const priceUnit = sorting.priceUnit ?? params.priceUnit;
      const all: Record<string, string> = { ...params, ...sorting, ...(priceUnit ? { priceUnit } : {}) };
      const filters = parseModelFilters(all);
      const sort: ModelSort = parseModelSort(all, filters);
      // The order asked for, of every model (a query with no filter but its q), then the rule applied to it.
      const everything = parseModelFilters({ includeRetired: 'true', ...(all.q ? { q: all.q } : {}), ...(all.priceUnit ? { priceUnit: all.priceUnit } : {}) });
      const order = index.query(everything, sort, { offset: 0, limit: 1e9 }).models;
      const expected = order.filter(({ view }) => passes(view, filters, today));
      const got = index.query(filters, sort, { offset: 0, limit: 1e9 });
      const label = JSON.stringify(all);
      expect({ label, ids: got.models.map(({ view }) => view.model.id) }).toEqual({ label, ids: expected.map(({ view }) => view.model.id) });
      // Each model keeps the score of its words whatever the filters, and asking again gives the same answer
      // (the matching's scratch rows are left clean).
      expect({ label, scores: got.models.map(({ score }) => score) }).toEqual({ label, scores: expected.map(({ score }) => score) });
      expect(index.query(filters, sort, { offset: 0, limit: 1e9 })).toEqual(got);
      expect({ label, total: got.total }).toEqual({ label, total: expected.length });
      if (sort === 'price') {
        const withoutRate = expected.filter(({ view }) => !view.lowest.has(filters.priceUnit!)).length;
        expect({ label, withoutRate: got.withoutRate }).toEqual({ label, withoutRate });
      }
      const page = index.query(filters, sort, { offset: 3, limit: 4 });
      expect({ label, page: page.models.map(({ view }) => view.model.id) }).toEqual({ label, page: expected.slice(3, 7).map(({ view }) => view.model.id) });
      compared += expected.length;
    }
  }
  return compared;
}

it('answers every filter, alone and in pairs, under every sort, as the plain rule does (fixtures)', () => {
  const index = indexOf();
  expect(index.size).toBeGreaterThan(200);
  // Something is compared: the cases are not all empty.
  expect(check(index, [...ONE, ...PAIRS])).toBeGreaterThan(10_000);
});

it('does the same over 2,000 synthetic listings of 10 models each', () => {
  const index = indexOf(generateCatalog(2_000, 42, undefined, 10));
  expect(index.size).toBeGreaterThan(19_000);
  check(index, ONE.filter((_, i) => i % 3 === 0));
});
