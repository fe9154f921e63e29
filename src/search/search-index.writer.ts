import type { Category } from '../catalog/category-catalog';
import type { ListingDocument } from '../listings/listing.document';
import type { WriteBatch } from '../projections/write-batch';
import type { GenerationKeys } from '../redis/redis-keys';
import { FIELD_BITS, SEARCH_FIELDS } from './search-fields';
import { indexTerms, isHan } from './tokenizer';

/**
 * Postings of one listing: term -> encoded score. The score packs the field-weighted term frequency
 * (times 100, in the high part) and the mask of fields where the term occurs (low 10 bits), so one sorted
 * set per term gives the query script both what to rank by and what matched.
 */
export function listingPostings(listing: ListingDocument, category: Category | undefined): Map<string, number> {
  const texts: Record<string, string> = {
    name: `${listing.name} ${listing.slug} ${listing.slug.replace(/-/g, '')}`,
    nameCn: listing.nameCn,
    tags: listing.tags.join(' '),
    category: category ? `${category.slug} ${category.name} ${category.nameCn}` : listing.category,
    description: listing.description,
    descriptionCn: listing.descriptionCn,
    features: listing.features.join(' \n '),
  };
  const weighted = new Map<string, { tf: number; mask: number }>();
  SEARCH_FIELDS.forEach((field, bit) => {
    const terms = indexTerms(texts[field.name], field.singleCharacters);
    if (terms.length === 0) return;
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    const norm = 1 - field.b + (field.b * terms.length) / field.averageLength;
    for (const [term, count] of counts) {
      const entry = weighted.get(term) ?? { tf: 0, mask: 0 };
      entry.tf += (field.weight * (1 + Math.log(count))) / norm;
      entry.mask |= 1 << bit;
      weighted.set(term, entry);
    }
  });
  const postings = new Map<string, number>();
  for (const [term, { tf, mask }] of weighted) postings.set(term, Math.max(1, Math.round(tf * 100)) * FIELD_BITS + mask);
  return postings;
}

/**
 * Strings that `term` becomes by deleting one character (terms of 3+ characters) or two (6+), for typo
 * lookups by symmetric deletion: a query term and an index term within the allowed edits share a variant.
 */
export function deletionVariants(term: string): string[] {
  // Typos are looked up for words only: not Chinese, not numbers or versions.
  if (isHan(term) || /\d/.test(term)) return [];
  const chars = [...term];
  if (chars.length < 3) return [];
  const variants = new Set<string>();
  for (let i = 0; i < chars.length; i++) {
    const once = chars.slice(0, i).concat(chars.slice(i + 1));
    variants.add(once.join(''));
    if (chars.length >= 6) {
      for (let j = i; j < once.length; j++) variants.add(once.slice(0, j).concat(once.slice(j + 1)).join(''));
    }
  }
  variants.delete(term);
  return [...variants];
}

/** Writes a listing's postings into a generation's index, as part of the projector's batch. */
export class SearchIndexWriter {
  constructor(
    private readonly keys: GenerationKeys,
    /** Terms already in this generation's dictionary (kept by the projector, so variants are written once). */
    private readonly dictionary: Set<string>,
  ) {}

  replace(tx: WriteBatch, slug: string, previous: Map<string, number> | null, next: Map<string, number> | null): void {
    if (previous) {
      for (const term of previous.keys()) {
        if (!next?.has(term)) tx.termZrem(term, slug);
      }
    }
    if (!next) return;
    for (const [term, score] of next) {
      if (previous?.get(term) !== score) tx.termZadd(term, score, slug);
    }
    this.addToDictionary(tx, next.keys());
  }

  /** Puts terms not seen before in the dictionary, with their deletion variants (for prefix and typo lookups). */
  addToDictionary(tx: WriteBatch, terms: Iterable<string>): void {
    for (const term of terms) {
      if (this.dictionary.has(term)) continue;
      this.dictionary.add(term);
      tx.zadd(this.keys.termDictionary, 0, term);
      for (const variant of deletionVariants(term)) tx.sadd(this.keys.deletionVariant(variant), term);
    }
  }
}
