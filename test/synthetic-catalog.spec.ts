import { generateCatalog } from './support/synthetic-catalog';
import { parseListing } from '../src/listings/listing.document';

/** The benchmarks ingest synthetic catalogs through the real validation: every listing must pass it. */
it('generates valid, unique, reproducible listings', () => {
  const catalog = generateCatalog(400);
  for (const listing of catalog) {
    const { problems } = parseListing(listing);
    if (problems.length > 0) throw new Error(`${listing.slug}: ${JSON.stringify(problems)}`);
  }
  expect(new Set(catalog.map((l) => l.slug)).size).toBe(400);
  expect(generateCatalog(400).map((l) => l.slug)).toEqual(catalog.map((l) => l.slug));
});
