import type { Category, Task } from '../categories/categories';
import { type ListingDocument } from '../listings/write/listing.document';
import { aliasKey, PAYMENT_METHOD_NAMES, regionNames } from '../contract/vocabulary';
import { FIELD_BITS, SEARCH_FIELDS } from './search-fields';
import { indexTerms, isHan, joinedTerms } from './tokenizer';

/**
 * Scores a listing's terms: each posting's score packs the field-weighted term frequency (times 100, in
 * the high part) and the mask of fields where the term occurs (low 10 bits), so one number per posting
 * gives the search both what to rank by and what matched.
 *
 * Memory is reused from one listing to the next. Terms are counted by a number the caller gives each
 * (the index's term numbers), in typed arrays indexed by it, and each posting is handed to `emit` in the
 * order its term first appears: with a Map per field, an object per term and a Map per listing, scoring
 * was a third of indexing.
 *
 * `numberOf` must give equal terms equal numbers, and numbers that are small non-negative integers: the
 * arrays grow to the largest number seen (16 bytes a number) and never shrink.
 */
export class PostingScorer {
  private tf = new Float64Array(256);
  private masks = new Int32Array(256);
  /** Occurrences in the field being counted; back to 0 once the field is scored. */
  private counts = new Int32Array(256);
  /** Term numbers of the listing, in the order they first appear; their tf and mask are reset after. */
  private readonly listingTerms: number[] = [];
  /** Term numbers of the field being counted, in the order they first appear in it. */
  private readonly fieldTerms: number[] = [];

  score(
    listing: ListingDocument,
    category: Category | undefined,
    tasks: readonly Task[],
    numberOf: (term: string) => number,
    emit: (termNumber: number, score: number) => void,
  ): void {
    const { listingTerms, fieldTerms } = this;
    try {
      const fields = termsByField(listing, category, tasks);
      for (let bit = 0; bit < SEARCH_FIELDS.length; bit++) {
        const field = SEARCH_FIELDS[bit];
        const { terms, joined } = fields[bit];
        if (terms.length === 0) continue;
        for (const list of [terms, joined]) {
          for (const term of list) {
            const number = numberOf(term);
            if (number >= this.counts.length) this.grow(number);
            if (this.counts[number]++ === 0) fieldTerms.push(number);
          }
        }
        // The length a field is normalised by counts its words only: the joined forms of punctuated
        // names (see joinedTerms) are extra ways to meet them, not more text.
        const norm = 1 - field.lengthNormalisation + (field.lengthNormalisation * terms.length) / field.averageLength;
        for (const number of fieldTerms) {
          const count = this.counts[number];
          this.counts[number] = 0;
          if (this.masks[number] === 0) listingTerms.push(number);
          // Fields add up in this order, so the sums (and scores) are the same on every thread and run.
          this.tf[number] += (field.weight * (1 + Math.log(count))) / norm;
          this.masks[number] |= 1 << bit;
        }
        fieldTerms.length = 0; // (the finally below resets the counts of a field left part-counted)
      }
      for (const number of listingTerms) {
        emit(number, Math.max(1, Math.round(this.tf[number] * 100)) * FIELD_BITS + this.masks[number]);
      }
    } finally {
      // Whatever happened (a document that cannot be tokenised throws), the next listing starts clean.
      for (const number of fieldTerms) this.counts[number] = 0;
      for (const number of listingTerms) {
        this.tf[number] = 0;
        this.masks[number] = 0;
      }
      fieldTerms.length = 0;
      listingTerms.length = 0;
    }
  }

  private grow(number: number): void {
    let size = this.counts.length;
    while (size <= number) size *= 2;
    this.tf = copyInto(new Float64Array(size), this.tf);
    this.masks = copyInto(new Int32Array(size), this.masks);
    this.counts = copyInto(new Int32Array(size), this.counts);
  }
}

function copyInto<T extends Float64Array | Int32Array>(into: T, from: T): T {
  into.set(from);
  return into;
}

/** The text of each search field of a listing, by field name (aliases are indexed apart, whole). */
export function searchFieldTexts(listing: ListingDocument, category: Category | undefined, tasks: readonly Task[] = []): Record<string, string> {
  const provider = listing.provider;
  const markets = listing.markets;
  return {
    // What it does, in every way the task list says it: names and synonyms in both languages. The main
    // task (the first) counts three times: a speech-to-text API is asked for by STT before a platform that
    // also transcribes.
    tasks: tasks.map((task, i) => Array(i === 0 ? 3 : 1).fill([task.name, task.nameCn, ...task.synonyms, ...task.synonymsCn].join(' \n ')).join(' \n ')).join(' \n '),
    // Who runs it and where: the company, and its country and data regions in both languages (China, 中国).
    provider: provider ? [provider.name, provider.nameCn ?? '', ...[provider.country, ...provider.dataRegions].filter((code): code is string => Boolean(code)).flatMap(regionNames)].join(' \n ') : '',
    // Whom a payment API takes money from, and how: its buyers' countries and payment methods, in both languages.
    markets: markets ? [...markets.buyerCountries.flatMap(regionNames), ...markets.paymentMethods.flatMap((method) => PAYMENT_METHOD_NAMES[method])].join(' \n ') : '',
    name: `${listing.name} ${listing.slug} ${listing.slug.replace(/-/g, '')}`,
    nameCn: listing.nameCn,
    tags: listing.tags.join(' '),
    category: category ? `${category.slug} ${category.name} ${category.nameCn}` : listing.category,
    description: listing.description,
    descriptionCn: listing.descriptionCn,
    features: listing.features.join(' \n '),
    pricing: listing.pricing,
  };
}

/**
 * The index terms of each search field of a listing, in the order of SEARCH_FIELDS: its words, and the
 * joined forms of words written with punctuation inside (`gpt-4o` also as gpt4o, see joinedTerms).
 */
function termsByField(listing: ListingDocument, category: Category | undefined, tasks: readonly Task[]): Array<{ terms: string[]; joined: string[] }> {
  const texts = searchFieldTexts(listing, category, tasks);
  return SEARCH_FIELDS.map((field) =>
    field.name === 'aliases'
      ? { terms: aliasTerms(listing.aliases ?? []), joined: [] }
      : field.name === 'models'
        ? { terms: aliasTerms(modelNames(listing)), joined: [] }
        : { terms: indexTerms(texts[field.name], field.singleCharacters), joined: joinedTerms(texts[field.name]) },
  );
}

/** The ids and names of the models a listing serves (those not retired). */
export function modelNames(listing: ListingDocument): string[] {
  return (listing.models ?? []).filter((model) => model.lifecycle?.status !== 'retired').flatMap((model) => [model.id, model.name]);
}

/**
 * An alias is a name, so it is indexed whole: its letters and digits as one term (`Mistral OCR` as
 * mistralocr, `DALL·E` as dalle), not its words, which are often generic (OCR, ASR, API) and would pull
 * every query about them to the listing at the weight of a name; its Chinese also as words, bigrams and
 * characters, since a Chinese query is cut into those. A query made of the alias's words finds it through
 * their joined form.
 */
export function aliasTerms(aliases: readonly string[]): string[] {
  const terms: string[] = [];
  for (const alias of aliases) {
    const whole = aliasKey(alias);
    if (whole) terms.push(whole);
    if (isHan(alias)) terms.push(...indexTerms(alias.replace(/[^\p{Script=Han}]+/gu, ' ')).filter((term) => term !== whole));
  }
  return terms;
}
