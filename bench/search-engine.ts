import { CategoryCatalog } from '../src/catalog/category-catalog';
import { renderSummary } from '../src/rendering/listing-views';
import { NO_FILTERS } from '../src/contract/listing-filters';
import { SearchIndex } from '../src/search/search-index';
import { generateCatalog, loadFixtureListings } from '../test/support/synthetic-catalog';
import { LONG_TAIL_QUERIES } from './lib/long-tail';

/**
 * `node dist/bench/search-engine.js [size]`: the search engine alone, in this process, over a synthetic
 * catalog of `size` listings plus the fixtures: time to build the index, and the latency of every query
 * of the long-tail mix (each once, after one warm-up pass). No HTTP, no Redis: what a query costs the CPU.
 */
const size = Number(process.argv[2] ?? 10_000);
const categories = CategoryCatalog.fromDirectory('fixtures');
const fixtures = loadFixtureListings();
const listings = [...fixtures, ...generateCatalog(size, 42, fixtures)];
const started = process.hrtime.bigint();
const index = new SearchIndex();
for (let i = 0; i < listings.length; i += 1000) {
  index.apply(new Map(listings.slice(i, i + 1000).map((l) => [l.slug, { listing: l, category: categories.get(l.category), summary: renderSummary(l, categories.get(l.category)) }])));
}
const buildMs = Number(process.hrtime.bigint() - started) / 1e6;
const run = (q: string) => index.search(q, NO_FILTERS, { limit: 20, offset: 0 });
for (const q of LONG_TAIL_QUERIES) run(q);
const times: Array<[number, string]> = [];
for (const q of LONG_TAIL_QUERIES) {
  const t = process.hrtime.bigint();
  run(q);
  times.push([Number(process.hrtime.bigint() - t) / 1e6, q]);
}
times.sort((a, b) => a[0] - b[0]);
const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))][0].toFixed(2);
console.log(`${listings.length} listings: index built in ${buildMs.toFixed(0)} ms, heap ${Math.round(process.memoryUsage().heapUsed / 1e6)} MB`);
console.log(`${times.length} queries: p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms; mean ${(times.reduce((s, [t]) => s + t, 0) / times.length).toFixed(2)} ms`);
console.log(`slowest: ${times.slice(-8).map(([t, q]) => `${JSON.stringify(q)} ${t.toFixed(1)}`).join(', ')}`);
