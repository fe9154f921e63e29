import { bigrams, hanRuns, hanWords, latinTerms, normalize, STOP_WORDS } from './tokenizer';

/** One term to look up: exact, or as a prefix (p = 1), or within f edits. */
export interface TermSpec {
  t: string;
  p: 0 | 1;
  f: 0 | 1 | 2;
}
/** Matches when all its terms match; its score is the mean of the terms' scores times w. */
export interface Alternative {
  w: number;
  terms: TermSpec[];
}
/** One concept of the query; a listing matches the clause through its best alternative. */
export interface Clause {
  label: string;
  alts: Alternative[];
}

export interface SearchRequest {
  clauses: Clause[];
  category: string | null;
  limit: number;
  k1: number;
  pq: number;
  fq: [number, number, number];
  precision: number;
}

/** Ranking constants (see search-query.lua.ts). */
export const RANKING = { k1: 8, prefixQuality: 0.75, fuzzyQuality: [1, 0.6, 0.4] as [number, number, number], precision: 10 };

/** Edits tolerated in a Latin term of this length: none below 4 characters, one from 4, two from 8. */
export function allowedEdits(term: string): 0 | 1 | 2 {
  if (!/^[a-z0-9]+$/.test(term)) return 0;
  return term.length >= 8 ? 2 : term.length >= 4 ? 1 : 0;
}

/**
 * Turns the `q` parameter into clauses: one per Latin word (the last one also matched as a prefix, every
 * word tolerating typos by its length) and one per Chinese word (matched as a word, or through its
 * character bigrams when the listing's text was segmented differently).
 */
export function buildClauses(q: string): Clause[] {
  const clauses: Clause[] = [];
  const text = normalize(q);
  const latin = latinTerms(text);
  // The word being typed (last, not followed by a space) is also matched as a prefix.
  const lastIsOpen = /[\p{L}\p{N}]$/u.test(text) && !/\p{Script=Han}$/u.test(text);
  latin.forEach((term, i) => {
    const prefix = lastIsOpen && i === latin.length - 1 && term.length >= 2;
    clauses.push({ label: term, alts: [{ w: 1, terms: [{ t: term, p: prefix ? 1 : 0, f: allowedEdits(term) }] }] });
  });
  for (const run of hanRuns(text)) {
    for (const word of hanWords(run)) clauses.push(hanClause(word));
  }
  return clauses;
}

function hanClause(word: string): Clause {
  const chars = [...word];
  const alts: Alternative[] = [{ w: 1, terms: [{ t: word, p: 0, f: 0 }] }];
  if (chars.length > 2) alts.push({ w: 0.9, terms: bigrams(word).map((t) => ({ t, p: 0, f: 0 }) as TermSpec) });
  return { label: word, alts };
}

export function isOnlyStopWords(q: string): boolean {
  const words = normalize(q).match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length > 0 && words.every((w) => STOP_WORDS.has(w));
}

export function buildSearchRequest(q: string | null, category: string | null, limit: number): SearchRequest {
  return {
    clauses: q ? buildClauses(q) : [],
    category,
    limit,
    k1: RANKING.k1,
    pq: RANKING.prefixQuality,
    fq: RANKING.fuzzyQuality,
    precision: RANKING.precision,
  };
}
