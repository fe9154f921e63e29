import type { Lexicon } from './search-query';
import { lowerBound, termsWithinEdits } from './typo-terms';

/** A term's postings: listing numbers in ascending order, and each one's encoded score (see listing-postings). */
export interface PostingList {
  docs: Int32Array;
  scores: Int32Array;
}

/** A batch's new postings of a term, in listing order. */
export interface NewPostings {
  docs: number[];
  scores: number[];
}

const EMPTY: PostingList = { docs: new Int32Array(0), scores: new Int32Array(0) };

/**
 * The postings of every term, and the sorted dictionary of the terms that have any (completions and typo
 * look-ups walk it). Terms are numbered (the scorer counts by number); the number of a term no listing
 * uses any more is given to the next new term, and the term leaves the dictionary, as after a fresh build.
 */
export class PostingLists implements Lexicon {
  private readonly ids = new Map<string, number>();
  private readonly texts: string[] = [];
  private readonly lists: PostingList[] = [];
  private readonly freeIds: number[] = [];
  /** Terms with postings, sorted; null once a batch changed which terms have any, until the next use. */
  private sorted: string[] | null = [];

  /** The number of a term, made when it is new (it has no postings until a batch gives it some). */
  idOf(text: string): number {
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.freeIds.pop() ?? this.texts.length;
      this.texts[id] = text;
      this.lists[id] = EMPTY;
      this.ids.set(text, id);
    }
    return id;
  }

  /** The postings of a term (none when no listing has it). */
  of(text: string): PostingList {
    const id = this.ids.get(text);
    return id === undefined ? EMPTY : this.lists[id];
  }

  has(text: string): boolean {
    return this.of(text).docs.length > 0;
  }

  hasPrefix(prefix: string): boolean {
    const terms = this.dictionary();
    return terms[lowerBound(terms, prefix)]?.startsWith(prefix) ?? false;
  }

  /** Up to `max` terms that start with `prefix` (itself included when it is a term), in term order. */
  completions(prefix: string, max: number): string[] {
    const terms = this.dictionary();
    const found: string[] = [];
    for (let i = lowerBound(terms, prefix); i < terms.length && found.length < max && terms[i].startsWith(prefix); i++) found.push(terms[i]);
    return found;
  }

  /** Terms within `maxEdits` edits of a word (see termsWithinEdits). */
  withinEdits(word: string, maxEdits: number): Array<{ term: string; edits: number }> {
    return termsWithinEdits(this.dictionary(), word, maxEdits);
  }

  /**
   * Rewrites each term a batch touches, once: without the postings of the listings `gone` marks (revised
   * or withdrawn), which had the `losing` terms, and with the batch's new postings (`added`, by term).
   */
  apply(gone: Uint8Array, losing: Set<number>, added: Map<number, NewPostings>): void {
    const none: NewPostings = { docs: [], scores: [] };
    for (const id of new Set([...losing, ...added.keys()])) {
      const wasLive = this.lists[id].docs.length > 0;
      const postings = added.get(id) ?? none;
      this.lists[id] = merged(this.lists[id], gone, postings);
      const isLive = this.lists[id].docs.length > 0;
      if (wasLive !== isLive) this.sorted = null;
      if (!isLive) {
        this.ids.delete(this.texts[id]);
        this.texts[id] = '';
        this.freeIds.push(id);
      }
    }
  }

  /** The live terms, sorted (again, when a batch changed them since the last use). */
  private dictionary(): string[] {
    this.sorted ??= [...this.ids.keys()].filter((text) => this.has(text)).sort(); // (code-unit order)
    return this.sorted;
  }
}

/** A list without the postings of the listings `gone` marks, and with `added`, still in listing order. */
function merged(list: PostingList, gone: Uint8Array, added: NewPostings): PostingList {
  const docs = new Int32Array(list.docs.length + added.docs.length);
  const scores = new Int32Array(docs.length);
  let n = 0;
  let p = 0;
  const take = (doc: number, score: number) => {
    docs[n] = doc;
    scores[n++] = score;
  };
  for (let i = 0; i < list.docs.length; i++) {
    for (; p < added.docs.length && added.docs[p] < list.docs[i]; p++) take(added.docs[p], added.scores[p]);
    if (!gone[list.docs[i]]) take(list.docs[i], list.scores[i]);
  }
  for (; p < added.docs.length; p++) take(added.docs[p], added.scores[p]);
  if (n === 0) return EMPTY;
  return n === docs.length ? { docs, scores } : { docs: docs.slice(0, n), scores: scores.slice(0, n) };
}

/** A listing's encoded posting in a list, or 0 (binary search: lists are ordered by listing). */
export function scoreIn({ docs, scores }: PostingList, doc: number): number {
  let lo = 0;
  let hi = docs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid] < doc) lo = mid + 1;
    else hi = mid;
  }
  return docs[lo] === doc ? scores[lo] : 0;
}
