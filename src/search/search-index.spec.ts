import fc from 'fast-check';
import { join } from 'node:path';
import { generateCatalog, loadFixtureListings } from '../../test/support/synthetic-catalog';
import { CategoryCatalog } from '../catalog/category-catalog';
import type { ListingDocument } from '../listings/listing.document';
import { renderSummary } from '../rendering/listing-views';
import { IndexedListing, SearchIndex } from './search-index';
import { buildSearchRequest } from './search-query';

const categories = CategoryCatalog.fromDirectory(join(__dirname, '..', '..', 'fixtures'));
const fixtures = loadFixtureListings();
const synthetic = generateCatalog(120, 7, fixtures);
const catalog = [...fixtures, ...synthetic];

const indexed = (listing: ListingDocument): IndexedListing => {
  const category = categories.get(listing.category);
  return { listing, category, summary: renderSummary(listing, category) };
};

function build(listings: Iterable<ListingDocument>): SearchIndex {
  const index = new SearchIndex();
  index.apply(new Map([...listings].map((l) => [l.slug, indexed(l)])));
  return index;
}

const QUERIES = ['api', 'api.', 'speech to text', 'vector database', '向量数据库', 'stri', 'antropic', 'gpu cloud', 'openai 语音', 'llm', 'payments api', 'nova'];

/** Everything an index holds that a search can see, comparable with toEqual. */
function snapshot(index: SearchIndex) {
  const all = index.browsePage(null, 0, 100_000);
  return {
    size: index.size,
    browse: all.docs.map((doc) => index.listing(doc).facts.slug),
    terms: [...index.terms],
    postings: Object.fromEntries(index.terms.map((term) => [term, index.postingsOf(term)])),
    counts: Object.fromEntries(categories.all.map((c) => [c.slug, index.countIn(c.slug)])),
    searches: QUERIES.map((q) => {
      const answer = index.search(buildSearchRequest(q, 30), null);
      return { q, total: answer.total, hits: answer.hits.map((h) => [h.slug, h.score, h.mask]) };
    }),
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

  it('after one large batch (the whole browse order merged again) of withdrawals and revisions, holds what a fresh build holds', () => {
    const index = build(catalog);
    const withdrawn = catalog.slice(0, 70);
    const revised = catalog.slice(70, 150).map((l, i) => ({ ...l, popularity: (l.popularity + 37 * i) % 101 }));
    index.apply(new Map([...withdrawn.map((l) => [l.slug, null] as const), ...revised.map((l) => [l.slug, indexed(l)] as const)]));
    const now = [...revised, ...catalog.slice(150)];
    expect(snapshot(index)).toEqual(snapshot(build(now)));
    // and a large batch bringing the withdrawn back (their listing numbers reused)
    index.apply(new Map(withdrawn.map((l) => [l.slug, indexed(l)])));
    expect(snapshot(index)).toEqual(snapshot(build([...withdrawn, ...now])));
  });

  it('answers the same when its working memory starts its stamps again in the middle of a run of searches', () => {
    const index = build(catalog);
    const queries = ['payments api', 'speech to text', 'openai 语音', 'antropic'];
    const expected = queries.map((q) => index.search(buildSearchRequest(q, 10), null));
    // Four billion searches cannot run in a test: the epoch counter is set near the top of its range.
    const buffers = (index as unknown as { buffers: { epoch: number } }).buffers;
    for (let back = 0; back < 400; back += 7) {
      buffers.epoch = 0xffffffff - back;
      expect(queries.map((q) => index.search(buildSearchRequest(q, 10), null))).toEqual(expected);
    }
  });

  it('takes its terms out of the dictionary once no listing has them', () => {
    const index = build(catalog);
    const rare = { ...fixtures[0], description: `${fixtures[0].description} qzxvkw` };
    index.apply(new Map([[rare.slug, indexed(rare)]]));
    expect(index.terms).toContain('qzxvkw');
    expect(index.search(buildSearchRequest('qzxv', 5), null).hits.map((h) => h.slug)).toEqual([rare.slug]);
    index.apply(new Map([[rare.slug, indexed(fixtures[0])]]));
    expect(index.terms).not.toContain('qzxvkw');
    expect(index.search(buildSearchRequest('qzxv', 5), null).total).toBe(0);
  });

  it('pages through the ranking of every match: each page continues the one before, and totals are exact', () => {
    const index = build(catalog);
    for (const q of QUERIES) {
      const whole = index.search(buildSearchRequest(q, 100), null);
      const pages = [0, 7, 14, 21].flatMap((offset) => index.search(buildSearchRequest(q, 7), null, offset).hits);
      expect(pages.map((h) => h.slug)).toEqual(whole.hits.slice(0, 28).map((h) => h.slug));
      for (const limit of [1, 3, 20]) {
        expect(index.search(buildSearchRequest(q, limit), null).hits.map((h) => h.slug)).toEqual(whole.hits.slice(0, limit).map((h) => h.slug));
      }
    }
    // A closed word (no completion) matches exactly the listings that have it, however many.
    expect(index.postingsOf('api').length).toBeGreaterThan(150);
    expect(index.search(buildSearchRequest('api.', 5), null).total).toBe(index.postingsOf('api').length);
  });

  it('ranks every match as documented, large groups of equals included: a result comes before a better-scored one only as its equal (within 10%) and at least as popular', () => {
    const index = build(catalog);
    // One-word queries (every match matches one part), on a catalog where copies of a listing tie exactly.
    for (const q of ['api.', 'speech', 'gpu', 'vector', 'payments', '语音']) {
      const { total, hits } = index.search(buildSearchRequest(q, 1000), null);
      expect(hits.length).toBe(total);
      const rows = hits.map((hit) => ({ score: Number(hit.score), popularity: index.listing(index.docOf(hit.slug)!).facts.popularity }));
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

  it('filters: a category narrows the matches and the browse order, and counts agree', () => {
    const index = build(catalog);
    const inCategory = (category: string) => (doc: number) => index.listing(doc).facts.category === category;
    for (const { slug } of categories.all) {
      const browsed = index.browsePage(inCategory(slug), 0, 1000);
      expect(browsed.total).toBe(index.countIn(slug));
      expect(browsed.docs.every((doc) => index.listing(doc).facts.category === slug)).toBe(true);
      const found = index.search(buildSearchRequest('api.', 100), inCategory(slug));
      const withWord = index.postingsOf('api').filter(([s]) => index.listing(index.docOf(s)!).facts.category === slug);
      expect(found.total).toBe(withWord.length);
      expect(found.hits.every((hit) => index.listing(index.docOf(hit.slug)!).facts.category === slug)).toBe(true);
    }
  });
});

describe('the work of one search', () => {
  it('is bounded: repeated parts count once, at most 12 parts are read, typos are looked for in 4 words', () => {
    const index = build(catalog);
    const q = `${'api cloud data model speech vision '.repeat(6)}antropic deepsek elevnlabs stirpe pinecon supabse firecrwal`;
    const request = buildSearchRequest(q, 20, index.lexicon);
    expect(request.clauses.map((c) => c.label)).toEqual(['api', 'cloud', 'data', 'model', 'speech', 'vision', 'antropic', 'deepsek', 'elevnlab', 'stirpe', 'pinecon', 'supabse']);
    const answer = index.search(request, null);
    const corrected = answer.notes.flatMap((alts) => alts.flatMap((specs) => specs.flatMap((note) => note.fuzzy ?? [])));
    expect(corrected.sort()).toEqual(['anthropic', 'deepseek', 'elevenlab', 'stripe'].sort());
  });
});
