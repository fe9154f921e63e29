import fc from 'fast-check';
import { join } from 'node:path';
import { generateCatalog, loadFixtureListings } from '../../test/support/synthetic-catalog';
import { Categories } from '../categories/categories';
import { ListingFilters, NO_FILTERS } from '../contract/listing-filters';
import type { ListingDocument } from '../listings/write/listing.document';
import { renderSummary } from '../listings/views/listing-views';
import { searchFieldTexts, aliasTerms } from './listing-postings';
import { IndexedListing, SearchIndex } from './search-index';
import { indexTerms } from './tokenizer';

const categories = Categories.fromDirectory(join(__dirname, '..', '..', 'fixtures'));
const fixtures = loadFixtureListings();
const synthetic = generateCatalog(120, 7, fixtures);
const catalog = [...fixtures, ...synthetic];
const bySlug = new Map(catalog.map((l) => [l.slug, l]));

const indexed = (listing: ListingDocument): IndexedListing => {
  const category = categories.get(listing.category);
  return { listing, category, summary: renderSummary(listing, category) };
};

function build(listings: Iterable<ListingDocument>): SearchIndex {
  const index = new SearchIndex();
  index.apply(new Map([...listings].map((l) => [l.slug, indexed(l)])));
  return index;
}

const page = (limit: number, offset = 0) => ({ limit, offset });
const search = (index: SearchIndex, q: string | null, limit = 30, filters: Partial<ListingFilters> = {}, offset = 0) =>
  index.search(q, { ...NO_FILTERS, ...filters }, page(limit, offset));

/** Queries that reach every part of the index: words, phrases, Chinese, completions and typos (the dictionary), names. */
const QUERIES = ['api', 'api.', 'speech to text', 'vector database', '向量数据库', 'stri', 'antropic', 'gpu cloud', 'openai 语音', 'llm', 'payments api', 'nova', 'qu', 'zyxw', 'quantun', 'vectr', '数据', 'free llm'];
const FILTERS: Array<Partial<ListingFilters>> = [{}, { category: 'llm' }, { freeTier: true }, { openaiCompatible: false }, { auth: 'bearer' }, { minContext: 128_000 }, { sdk: 'python' }];

/** Everything an index holds that its users can see, comparable with toEqual. */
function snapshot(index: SearchIndex) {
  return {
    size: index.size,
    browse: FILTERS.map((filters) => index.browse({ ...NO_FILTERS, ...filters }, { limit: 100_000 })),
    searches: QUERIES.flatMap((q) => FILTERS.slice(0, 3).map((filters) => ({ q, filters, answer: search(index, q, 30, filters) }))),
  };
}

/** A revision of a listing: new popularity, words added to or taken from its text and tags. */
const revision = fc.record({
  popularity: fc.integer({ min: 0, max: 100 }),
  addWord: fc.constantFrom('quantum', 'api', 'speech', 'zyxwvut', '数据', 'vector', ''),
  dropTags: fc.boolean(),
  category: fc.constantFrom(...categories.all.map((c) => c.slug), null),
});
const operation = fc.oneof(
  fc.record({ kind: fc.constant('revise' as const), listing: fc.nat(catalog.length - 1), change: revision }),
  fc.record({ kind: fc.constant('withdraw' as const), listing: fc.nat(catalog.length - 1) }),
  fc.record({ kind: fc.constant('publish' as const), listing: fc.nat(catalog.length - 1) }),
);

describe('SearchIndex', () => {
  it('after any sequence of revisions, withdrawals and publications applied in batches, holds what a fresh build of the result holds', () => {
    fc.assert(
      fc.property(fc.array(operation, { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 25 }), (operations, batchSize) => {
        const current = new Map(catalog.map((l) => [l.slug, l as ListingDocument | null]));
        const index = build(catalog);
        for (let start = 0; start < operations.length; start += batchSize) {
          const batch = new Map<string, IndexedListing | null>();
          for (const op of operations.slice(start, start + batchSize)) {
            const original = catalog[op.listing];
            const now = current.get(original.slug) ?? null;
            let next: ListingDocument | null;
            if (op.kind === 'withdraw') next = null;
            else if (op.kind === 'publish') next = original;
            else {
              const base = now ?? original;
              const { popularity, addWord, dropTags, category } = op.change;
              next = {
                ...base,
                popularity,
                description: addWord ? `${base.description} ${addWord}` : base.description.split(' ').slice(1).join(' '),
                tags: dropTags ? base.tags.slice(1) : base.tags,
                category: category ?? base.category,
              };
            }
            current.set(original.slug, next);
            batch.set(original.slug, next && indexed(next));
          }
          index.apply(batch);
        }
        const fresh = build([...current.values()].filter((l): l is ListingDocument => l !== null));
        expect(snapshot(index)).toEqual(snapshot(fresh));
      }),
      { numRuns: 30 },
    );
  });

  it('after one large batch of withdrawals and revisions, and one bringing the withdrawn back, holds what a fresh build holds', () => {
    const index = build(catalog);
    const withdrawn = catalog.slice(0, 70);
    const revised = catalog.slice(70, 150).map((l, i) => ({ ...l, popularity: (l.popularity + 37 * i) % 101 }));
    index.apply(new Map([...withdrawn.map((l) => [l.slug, null] as const), ...revised.map((l) => [l.slug, indexed(l)] as const)]));
    const now = [...revised, ...catalog.slice(150)];
    expect(snapshot(index)).toEqual(snapshot(build(now)));
    // and a batch bringing the withdrawn back (their listing numbers reused)
    index.apply(new Map(withdrawn.map((l) => [l.slug, indexed(l)])));
    expect(snapshot(index)).toEqual(snapshot(build([...withdrawn, ...now])));
  });

  it('takes its terms out of the dictionary once no listing has them', () => {
    const index = build(catalog);
    const rare = { ...fixtures[0], description: `${fixtures[0].description} qzxvkw` };
    index.apply(new Map([[rare.slug, indexed(rare)]]));
    const completed = search(index, 'qzxv', 5);
    expect(completed.hits.map((h) => h.slug)).toEqual([rare.slug]);
    expect(completed.interpretation).toEqual([{ input: 'qzxv', matchedAs: ['qzxvkw'], via: ['prefix'] }]);
    index.apply(new Map([[rare.slug, indexed(fixtures[0])]]));
    expect(search(index, 'qzxv', 5).total).toBe(0);
    expect(search(index, 'qzxvkv', 5).total).toBe(0); // nor is it a correction
  });

  it('pages through the ranking of every match: each page continues the one before, and totals are exact', () => {
    const index = build(catalog);
    for (const q of QUERIES) {
      const whole = search(index, q, 100);
      const pages = [0, 7, 14, 21].flatMap((offset) => search(index, q, 7, {}, offset).hits);
      expect(pages.map((h) => h.slug)).toEqual(whole.hits.slice(0, 28).map((h) => h.slug));
      for (const limit of [1, 3, 20]) {
        expect(search(index, q, limit).hits.map((h) => h.slug)).toEqual(whole.hits.slice(0, limit).map((h) => h.slug));
      }
    }
    // A closed word (no completion) matches exactly the listings that have it, however many.
    const withApi = catalog.filter((l) => hasTerm(l, 'api'));
    expect(withApi.length).toBeGreaterThan(150);
    const all = search(index, 'api.', 1000);
    expect(all.total).toBe(withApi.length);
    expect(new Set(all.hits.map((h) => h.slug))).toEqual(new Set(withApi.map((l) => l.slug)));
  });

  it('ranks every match as documented, large groups of equals included: a result comes before a better-scored one only as its equal (within 10%) and at least as popular', () => {
    const index = build(catalog);
    // One-word queries (every match matches one part), on a catalog where copies of a listing tie exactly.
    for (const q of ['api.', 'speech', 'gpu', 'vector', 'payments', '语音']) {
      const { total, hits } = search(index, q, 1000);
      expect(hits.length).toBe(total);
      const rows = hits.map((hit) => ({ score: Number(hit.score), popularity: bySlug.get(hit.slug)!.popularity }));
      const best = Math.max(...rows.map((r) => r.score));
      expect(rows[0].score).toBeGreaterThanOrEqual(best - Math.max(best * 0.1, 0.5) - 0.001);
      rows.forEach((earlier, i) => {
        for (const later of rows.slice(i + 1)) {
          if (later.score <= earlier.score) continue;
          expect(earlier.score).toBeGreaterThanOrEqual(later.score - Math.max(later.score * 0.1, 0.5) - 0.001);
          expect(earlier.popularity).toBeGreaterThanOrEqual(later.popularity);
        }
      });
    }
  });

  it('filters matches and the browse order inside the index: each filter narrows both to exactly the listings that pass it', () => {
    const index = build(catalog);
    const checks: Array<[Partial<ListingFilters>, (l: ListingDocument) => boolean]> = [
      ...categories.all.map(({ slug }) => [{ category: slug }, (l: ListingDocument) => l.category === slug] as [Partial<ListingFilters>, (l: ListingDocument) => boolean]),
      [{ freeTier: true }, (l) => l.freeTier === true],
      // A listing that does not state it (null) matches neither true nor false.
      [{ openaiCompatible: false }, (l) => l.openaiCompatible === false],
      [{ auth: 'header-key' }, (l) => l.authType === 'header-key'],
      [{ minContext: 1_000_000 }, (l) => (l.contextTokens ?? 0) >= 1_000_000],
      [{ sdk: 'go' }, (l) => l.sdkLanguages.includes('go')],
      [{ category: 'llm', freeTier: true, sdk: 'python' }, (l) => l.category === 'llm' && l.freeTier === true && l.sdkLanguages.includes('python')],
    ];
    for (const [filters, passes] of checks) {
      const browsed = index.browse({ ...NO_FILTERS, ...filters }, { limit: 1000 });
      expect(browsed.total).toBe(catalog.filter(passes).length);
      expect(browsed.listings.every((l) => passes(bySlug.get(l.slug)!))).toBe(true);
      const found = search(index, 'api.', 1000, filters);
      expect(found.total).toBe(catalog.filter((l) => passes(l) && hasTerm(l, 'api')).length);
      expect(found.hits.every((hit) => passes(bySlug.get(hit.slug)!))).toBe(true);
    }
  });

  it('browses page after page from a position, or from an offset, as one long page', () => {
    const index = build(catalog);
    for (const filters of FILTERS) {
      const all = { ...NO_FILTERS, ...filters };
      const whole = index.browse(all, { limit: 100_000 }).listings.map((l) => l.slug);
      const byPosition: string[] = [];
      let page = index.browse(all, { limit: 9 });
      for (;;) {
        byPosition.push(...page.listings.map((l) => l.slug));
        if (!page.next) break;
        page = index.browse(all, { limit: 9, after: page.next });
      }
      expect(byPosition).toEqual(whole);
      expect([0, 9, 18].flatMap((offset) => index.browse(all, { limit: 9, offset }).listings.map((l) => l.slug))).toEqual(whole.slice(0, 27));
      // Without a query, a search browses.
      expect(search(index, null, 9, filters, 9).hits.map((h) => h.slug)).toEqual(whole.slice(9, 18));
    }
    // The order: more popular first, then by slug.
    const order = index.browse(NO_FILTERS, { limit: 100_000 }).listings.map((l) => bySlug.get(l.slug)!);
    expect(order.slice(1).every((l, i) => order[i].popularity > l.popularity || (order[i].popularity === l.popularity && order[i].slug < l.slug))).toBe(true);
  });
});

describe('the work of one search', () => {
  it('is bounded: repeated parts count once, at most 12 parts are read, typos are looked for in 4 words', () => {
    const index = build(catalog);
    const q = `${'api cloud data model speech vision '.repeat(6)}antropic deepsek elevnlabs stirpe pinecon supabse firecrwal`;
    const { interpretation } = search(index, q, 20);
    expect(interpretation.map((part) => part.input)).toEqual(['api', 'cloud', 'data', 'model', 'speech', 'vision', 'antropic', 'deepsek', 'elevnlab', 'stirpe', 'pinecon', 'supabse']);
    const corrected = interpretation.filter((part) => part.via.includes('typo')).flatMap((part) => part.matchedAs);
    expect(corrected.sort()).toEqual(['anthropic', 'deepseek', 'elevenlab', 'stripe'].sort());
  });
});

/** Whether a listing has an index term in any of its search fields (written plainly, from the tokenizer). */
function hasTerm(listing: ListingDocument, term: string): boolean {
  const texts = searchFieldTexts(listing, categories.get(listing.category));
  return Object.values(texts).some((text) => indexTerms(text).includes(term)) || aliasTerms(listing.aliases).includes(term);
}
