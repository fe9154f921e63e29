import type { MATCHABLE_FIELDS } from '../contract/listing-views';

/**
 * The fields a listing is searched by, their weights and how long they usually are. Each field has a bit in
 * the `matched` mask stored with every posting. Weights follow what a reader expects: a hit in the name
 * (or slug, or a name people use for it: an alias) beats a hit in tags and category names, which beats the description, which beats features.
 * Usage tips are not indexed: they are advice in generic words ("retry on 429", "stream long outputs")
 * that matched every query about those words, and they were a third of all postings. Dropping them
 * raised the relevance figures (top-1 0.937 -> 0.947, recall@k 0.984 -> 0.995, MRR 0.965 -> 0.972).
 */
export interface SearchField {
  /** One of the names the published contract lets `matched` hold. */
  name: (typeof MATCHABLE_FIELDS)[number];
  weight: number;
  /** Length normalisation (0 = none): long descriptions do not win just by repeating words. */
  lengthNormalisation: number;
  /** Typical length in terms, for the normalisation. */
  averageLength: number;
  /** Index single Chinese characters too (short fields), so a one-character query finds names and categories. */
  singleCharacters: boolean;
}

export const SEARCH_FIELDS: SearchField[] = [
  { name: 'name', weight: 10, lengthNormalisation: 0, averageLength: 3, singleCharacters: true },
  { name: 'nameCn', weight: 10, lengthNormalisation: 0, averageLength: 8, singleCharacters: true },
  { name: 'aliases', weight: 10, lengthNormalisation: 0, averageLength: 6, singleCharacters: true },
  { name: 'tags', weight: 5, lengthNormalisation: 0.3, averageLength: 8, singleCharacters: true },
  { name: 'category', weight: 4, lengthNormalisation: 0, averageLength: 6, singleCharacters: true },
  { name: 'description', weight: 2, lengthNormalisation: 0.5, averageLength: 16, singleCharacters: false },
  { name: 'descriptionCn', weight: 2, lengthNormalisation: 0.5, averageLength: 35, singleCharacters: false },
  { name: 'features', weight: 1, lengthNormalisation: 0.5, averageLength: 40, singleCharacters: false },
  { name: 'pricing', weight: 1, lengthNormalisation: 0.5, averageLength: 30, singleCharacters: false },
  // The ids and names of the models the API serves, each whole (gpt-6-luna as gpt6luna): a model is asked
  // for by its id, and its name's words (flash, turbo, mini) are not the listing's.
  { name: 'models', weight: 8, lengthNormalisation: 0, averageLength: 10, singleCharacters: false },
  // What the listing does, as the task list names it with its synonyms (object detection: "find objects
  // in a photo", 目标检测): a task asked for in plain words meets the listings that do it.
  { name: 'tasks', weight: 1.5, lengthNormalisation: 0.5, averageLength: 60, singleCharacters: false },
  // Who runs it and where (the company, its country and data regions in both languages), and a payment
  // API's buyers' countries and payment methods: "payments from buyers in China", "支付宝".
  { name: 'provider', weight: 2, lengthNormalisation: 0.3, averageLength: 8, singleCharacters: false },
  { name: 'markets', weight: 3, lengthNormalisation: 0.3, averageLength: 20, singleCharacters: false },
];

/** The low bits of a posting's score hold the mask of the fields it matched in (one bit a field). */
export const FIELD_SHIFT = 13;
export const FIELD_BITS = 1 << FIELD_SHIFT;

/** Names of the fields whose bits are set in `mask`. */
export function matchedFields(mask: number): string[] {
  return SEARCH_FIELDS.filter((_, i) => mask & (1 << i)).map((f) => f.name);
}
