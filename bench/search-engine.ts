import { Categories } from '../src/categories/categories';
import { ListingFilters, NO_FILTERS } from '../src/contract/listing-filters';
import type { ListingDocument } from '../src/listings/write/listing.document';
import { renderSummary } from '../src/listings/views/listing-views';
import { SearchIndex } from '../src/search/search-index';
import { generateCatalog, loadFixtureListings } from '../test/support/synthetic-catalog';
import { LONG_TAIL_QUERIES } from './lib/long-tail';
import { SEARCH_MIX } from './lib/scenarios';

/**
 * `node dist/bench/search-engine.js [size]`: the search engine alone, in this process, over a synthetic
 * catalog of `size` listings plus the fixtures: time to build the index in batches of 1,000 (as a serving
 * process loads the log), the latency of every query of the long tail and of the search mix (three passes
 * after a warm-up), and what one edit costs: applying it, then the first search and browse after it. No
 * HTTP, no Redis: what the engine costs the CPU.
 */
const size = Number(process.argv[2] ?? 10_000);
const categories = Categories.fromDirectory('fixtures');
const fixtures = loadFixtureListings();
const listings = [...fixtures, ...generateCatalog(size, 42, fixtures)];
const indexed = (l: ListingDocument) => ({ listing: l, category: categories.get(l.category), summary: renderSummary(l, categories.get(l.category)) });
const ms = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e6;

let started = process.hrtime.bigint();
const index = new SearchIndex();
for (let i = 0; i < listings.length; i += 1000) index.apply(new Map(listings.slice(i, i + 1000).map((l) => [l.slug, indexed(l)])));
console.log(`${listings.length} listings: index built in ${ms(started).toFixed(0)} ms, heap ${Math.round(process.memoryUsage().heapUsed / 1e6)} MB`);

const search = (q: string, filters: Partial<ListingFilters> = {}) => index.search(q, { ...NO_FILTERS, ...filters }, { limit: 20, offset: 0 });
for (const [name, queries] of [
  ['long tail', LONG_TAIL_QUERIES.map((q) => ({ q }))],
  ['mix', SEARCH_MIX],
] as const) {
  for (const { q, category } of queries as Array<{ q: string; category?: string }>) search(q, { category: category ?? null });
  const times: Array<[number, string]> = [];
  for (let pass = 0; pass < 3; pass++) {
    for (const { q, category } of queries as Array<{ q: string; category?: string }>) {
      const t = process.hrtime.bigint();
      search(q, { category: category ?? null });
      times.push([ms(t), q]);
    }
  }
  times.sort((a, b) => a[0] - b[0]);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))][0].toFixed(2);
  console.log(`${name}, ${queries.length} queries x 3: p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms; mean ${(times.reduce((s, [t]) => s + t, 0) / times.length).toFixed(2)} ms`);
  console.log(`  slowest: ${[...new Map(times.slice(-12).map(([t, q]) => [q, t])).entries()].slice(-6).map(([q, t]) => `${JSON.stringify(q)} ${t.toFixed(1)}`).join(', ')}`);
}

// One listing revised with a word no other listing has: the index's terms and browse order change.
const edited = { ...listings[5], description: `${listings[5].description} zqxwvy` };
started = process.hrtime.bigint();
index.apply(new Map([[edited.slug, indexed(edited)]]));
const applied = ms(started);
started = process.hrtime.bigint();
search('stri');
const firstSearch = ms(started);
started = process.hrtime.bigint();
index.browse(NO_FILTERS, { limit: 100 });
const firstBrowse = ms(started);
started = process.hrtime.bigint();
search('stri');
console.log(`one edit: applied in ${applied.toFixed(1)} ms; the next search ${firstSearch.toFixed(1)} ms (then ${ms(started).toFixed(1)} ms), the next browse ${firstBrowse.toFixed(1)} ms`);
