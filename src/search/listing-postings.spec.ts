import { join } from 'node:path';
import { Categories } from '../categories/categories';
import type { Category } from '../categories/categories';
import { collectFiles, readContentFile } from '../catalog/content/content-files';
import type { ListingDocument } from '../listings/write/listing.document';
import { aliasTerms, modelNames, PostingScorer, searchFieldTexts } from './listing-postings';
import { FIELD_BITS, SEARCH_FIELDS } from './search-fields';
import { indexTerms, joinedTerms } from './tokenizer';

const fixtures = join(__dirname, '..', '..', 'fixtures');
const categories = Categories.fromDirectory(fixtures);
const listings = collectFiles([join(fixtures, 'listings')]).files.map((file) => readContentFile(file).listing!);

/** The scoring rule written plainly (a Map per field, an object per term): what the scorer must compute. */
function reference(listing: ListingDocument, category: Category | undefined): Map<string, number> {
  const texts = searchFieldTexts(listing, category, tasksOf(listing));
  const weighted = new Map<string, { tf: number; mask: number }>();
  SEARCH_FIELDS.forEach((field, bit) => {
    // Names people use and model ids are indexed whole; other fields by their words and joined forms.
    const whole = field.name === 'aliases' ? aliasTerms(listing.aliases) : field.name === 'models' ? aliasTerms(modelNames(listing)) : null;
    const terms = whole ?? indexTerms(texts[field.name], field.singleCharacters);
    if (terms.length === 0) return;
    const counts = new Map<string, number>();
    for (const term of [...terms, ...(whole ? [] : joinedTerms(texts[field.name]))]) counts.set(term, (counts.get(term) ?? 0) + 1);
    const norm = 1 - field.lengthNormalisation + (field.lengthNormalisation * terms.length) / field.averageLength;
    for (const [term, count] of counts) {
      const entry = weighted.get(term) ?? { tf: 0, mask: 0 };
      entry.tf += (field.weight * (1 + Math.log(count))) / norm;
      entry.mask |= 1 << bit;
      weighted.set(term, entry);
    }
  });
  return new Map([...weighted].map(([term, { tf, mask }]) => [term, Math.max(1, Math.round(tf * 100)) * FIELD_BITS + mask]));
}

/** The tasks a listing does, from the task list. */
const tasksOf = (listing: ListingDocument) => (listing.tasks ?? []).map((task) => categories.task(task)!);

/** One scorer and one numbering of terms for every listing, as the index has them. */
const scorer = new PostingScorer();
const terms: string[] = [];
const numbers = new Map<string, number>();
const numberOf = (term: string) => numbers.get(term) ?? numbers.set(term, terms.push(term) - 1).get(term)!;

function postingsOf(listing: ListingDocument): Map<string, number> {
  const postings = new Map<string, number>();
  scorer.score(listing, categories.get(listing.category), tasksOf(listing), numberOf, (term, score) => postings.set(terms[term], score));
  return postings;
}

describe('listing postings', () => {
  it('are what the scoring rule gives, term for term and in first-seen order, for every fixture listing, whatever number its terms get', () => {
    expect(listings.length).toBeGreaterThan(100);
    for (const listing of listings) expect([...postingsOf(listing)]).toEqual([...reference(listing, categories.get(listing.category))]);
    // Term numbers ran into the thousands: the scorer's arrays grew mid-field.
    expect(terms.length).toBeGreaterThan(1000);
  });

  it('start clean after a listing that could not be scored', () => {
    const [first, second] = listings;
    const broken = { ...first, descriptionCn: undefined } as unknown as ListingDocument;
    expect(() => postingsOf(broken)).toThrow();
    expect([...postingsOf(second)]).toEqual([...reference(second, categories.get(second.category))]);
  });
});
