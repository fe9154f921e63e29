import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { Categories } from '../../src/categories/categories';
import type { DecisionFact } from '../../src/contract/vocabulary';
import { parseListing, type ListingDocument } from '../../src/listings/write/listing.document';

/**
 * What the shipped content folder holds, counted from its files: the tests that read the whole directory
 * expect these numbers, so adding a listing or a model entry does not break them, and a listing lost on the
 * way does.
 */
const root = join(__dirname, '..', '..', 'fixtures');
const files = (folder: string) => readdirSync(join(root, folder)).filter((name) => /\.(ya?ml|json)$/.test(name));
const vocabularies = Categories.fromDirectory(root);

export const FIXTURES = {
  listings: files('listings').length,
  models: files('models').length,
  errors: files('errors').length,
  categories: vocabularies.all.length,
  tasks: vocabularies.tasks.length,
  /** Documents of every kind: the events of a first import, one publication each. */
  get documents(): number {
    return this.listings + this.models + this.errors;
  },
};

/** A listing of the shipped content as its file gives it (validated), to publish changed in a test. */
export function fixtureListing(slug: string): ListingDocument {
  const { listing, problems } = parseListing(parse(readFileSync(join(root, 'listings', `${slug}.yaml`), 'utf8')));
  if (!listing) throw new Error(`fixtures/listings/${slug}.yaml: ${JSON.stringify(problems)}`);
  return listing;
}

/**
 * The listing as an editor would publish it before sourcing some of its decision facts: stated, with no
 * source (the shipped content has none such, so a test that needs one plants it).
 */
export function withUnsourced(listing: ListingDocument, facts: DecisionFact[]): ListingDocument {
  return { ...listing, sources: { ...listing.sources!, ...Object.fromEntries(facts.map((fact) => [fact, null])) } };
}
