import { catalogRules, listingRules } from '../src/catalog/content/content-rules';
import { documentDigest } from '../src/event-store/content-digest';
import { parseListing } from '../src/listings/write/listing.document';
import { generateCatalog } from './support/synthetic-catalog';

/** The benchmarks ingest synthetic catalogs through the real validation and content rules: every listing must pass them. */
it('generates valid, unique, reproducible listings that pass the content rules', () => {
  const catalog = generateCatalog(400);
  for (const listing of catalog) {
    const problems = [...parseListing(listing).problems, ...listingRules(listing)];
    if (problems.length > 0) throw new Error(`${listing.slug}: ${JSON.stringify(problems)}`);
  }
  const loaded = catalog.map((listing) => ({ file: `${listing.slug}.json`, listing, digest: documentDigest(listing) }));
  expect(catalogRules(loaded)).toEqual([]);
  expect(new Set(catalog.map((l) => l.slug)).size).toBe(400);
  expect(generateCatalog(400).map((l) => l.slug)).toEqual(catalog.map((l) => l.slug));
});

/** The model catalog's benchmark gives each listing 10 models: those listings must pass the rules too. */
it('generates listings serving a set number of models that pass the content rules', () => {
  const catalog = generateCatalog(300, 7, undefined, 10);
  for (const listing of catalog) {
    expect(listing.models).toHaveLength(10);
    const problems = [...parseListing(listing).problems, ...listingRules(listing)];
    if (problems.length > 0) throw new Error(`${listing.slug}: ${JSON.stringify(problems)}`);
  }
});
