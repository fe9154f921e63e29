import type { SearchNotes } from './search-index';
import synonymData from './synonyms.json';
import { bigrams, hanWords, normalize, stem, STOP_WORDS } from './tokenizer';

/** One term to look up: exact, or also as a prefix (p = 1), or within f edits when it is not indexed. */
export interface TermSpec {
  t: string;
  p: 0 | 1;
  f: 0 | 1 | 2;
}
/** Matches when all its terms match; its score is the mean of the terms' scores times w. */
export interface Alternative {
  w: number;
  /** The phrase this alternative stands for, as shown in the response's interpretation. */
  phrase: string;
  terms: TermSpec[];
}
/** One concept of the query (a word, or a phrase with its synonyms); a listing matches it through its best alternative. */
export interface Clause {
  label: string;
  synonyms: boolean;
  alts: Alternative[];
}

export interface SearchRequest {
  clauses: Clause[];
  limit: number;
  k1: number;
  pq: number;
  fq: [number, number, number];
  tolerance: number;
}

/**
 * Ranking constants (see SearchIndex): BM25 saturation k1 over field-weighted frequencies; the weight of a
 * prefix match (scaled by how much of the word was typed) and of matches one or two edits away; scores
 * within 10% of the best of their group are a tie that popularity breaks.
 */
export const RANKING = { k1: 4, prefixQuality: 0.75, fuzzyQuality: [1, 0.6, 0.4] as [number, number, number], tolerance: 0.1 };
/** Weight of a synonym relative to the phrase the user typed. */
const SYNONYM_WEIGHT = 0.9;
/** Weight of matching a long Chinese word through its character bigrams. */
const BIGRAM_WEIGHT = 0.9;

const MAX_CORRECTED_LENGTH = 24;

/** Edits tolerated in a Latin term of this length: none below 4 characters, one from 4, two from 8 (up to 24). */
export function allowedEdits(term: string): 0 | 1 | 2 {
  // Words longer than any real name are not corrected (their deletion variants would be thousands).
  if (!/^[a-z0-9]+$/.test(term) || term.length > MAX_CORRECTED_LENGTH) return 0;
  return term.length >= 8 ? 2 : term.length >= 4 ? 1 : 0;
}

/** A query or phrase as a sequence: Latin words (stemmed, stop words kept and marked) and single Han characters. */
interface Token {
  text: string;
  han: boolean;
  stop: boolean;
}

function tokens(text: string): Token[] {
  const out: Token[] = [];
  // Latin words stop at a Chinese character: "GPU云" is "gpu" then "云".
  for (const m of normalize(text).matchAll(/(\p{Script=Han})|((?:(?!\p{Script=Han})[\p{L}\p{N}])+)/gu)) {
    if (m[1]) out.push({ text: m[1], han: true, stop: false });
    else out.push({ text: stem(m[2]), han: false, stop: STOP_WORDS.has(m[2]) });
  }
  return out;
}

/** Exact index terms of a phrase: its Latin words (without stop words), its Chinese as bigrams. */
function phraseTerms(phraseTokens: Token[]): TermSpec[] {
  const terms: TermSpec[] = [];
  let run = '';
  const flush = () => {
    if (run) for (const t of [...run].length > 1 ? bigrams(run) : [run]) terms.push({ t, p: 0, f: 0 });
    run = '';
  };
  for (const token of phraseTokens) {
    if (token.han) run += token.text;
    else {
      flush();
      if (!token.stop) terms.push({ t: token.text, p: 0, f: 0 });
    }
  }
  flush();
  return terms;
}

interface SynonymPhrase {
  phrase: string;
  tokens: Token[];
  group: number;
}

const GROUPS: SynonymPhrase[][] = synonymData.groups.map((phrases, group) =>
  phrases.map((phrase) => ({ phrase, tokens: tokens(phrase), group })),
);
/** Synonym phrases by their first token, longest first, for longest-match scanning. */
const PHRASES_BY_FIRST = new Map<string, SynonymPhrase[]>();
for (const phrase of GROUPS.flat()) {
  if (phrase.tokens.length === 0) continue;
  const list = PHRASES_BY_FIRST.get(phrase.tokens[0].text) ?? [];
  list.push(phrase);
  list.sort((a, b) => b.tokens.length - a.tokens.length);
  PHRASES_BY_FIRST.set(phrase.tokens[0].text, list);
}

function phraseAt(query: Token[], start: number): SynonymPhrase | null {
  for (const candidate of PHRASES_BY_FIRST.get(query[start].text) ?? []) {
    const n = candidate.tokens.length;
    if (start + n <= query.length && candidate.tokens.every((t, i) => query[start + i].text === t.text)) return candidate;
  }
  return null;
}

function synonymClause(typed: SynonymPhrase): Clause {
  const alts: Alternative[] = [];
  const seen = new Set<string>();
  const typedKey = JSON.stringify(phraseTerms(typed.tokens));
  for (const phrase of GROUPS[typed.group]) {
    const terms = phraseTerms(phrase.tokens);
    const key = JSON.stringify(terms);
    if (terms.length === 0 || seen.has(key)) continue;
    seen.add(key);
    alts.push({ w: key === typedKey ? 1 : SYNONYM_WEIGHT, phrase: phrase.phrase, terms });
  }
  alts.sort((a, b) => b.w - a.w);
  return { label: typed.phrase, synonyms: true, alts };
}

function wordClause(word: string, prefix: boolean): Clause {
  return { label: word, synonyms: false, alts: [{ w: 1, phrase: word, terms: [{ t: word, p: prefix ? 1 : 0, f: allowedEdits(word) }] }] };
}

function hanClause(word: string): Clause {
  const chars = [...word];
  const alts: Alternative[] = [{ w: 1, phrase: word, terms: [{ t: word, p: 0, f: 0 }] }];
  if (chars.length > 2) alts.push({ w: BIGRAM_WEIGHT, phrase: word, terms: bigrams(word).map((t) => ({ t, p: 0, f: 0 }) as TermSpec) });
  return { label: word, synonyms: false, alts };
}

/**
 * Turns `q` into clauses. Synonym phrases are found first (longest match, English or Chinese); every other
 * English word is a clause of its own (the word being typed, last and not followed by a space, also
 * matches as a prefix; typos are tolerated by length); other Chinese text is cut into words by
 * Intl.Segmenter, each a clause matched as a word or through its character bigrams.
 */
export function buildClauses(q: string): Clause[] {
  const query = tokens(q);
  const open = /[\p{L}\p{N}]$/u.test(q) && !/\p{Script=Han}$/u.test(q);
  const clauses: Clause[] = [];
  let han = '';
  const flushHan = () => {
    for (const word of han ? hanWords(han) : []) clauses.push(hanClause(word));
    han = '';
  };
  for (let i = 0; i < query.length; ) {
    const phrase = phraseAt(query, i);
    if (phrase) {
      flushHan();
      clauses.push(synonymClause(phrase));
      i += phrase.tokens.length;
      continue;
    }
    const token = query[i];
    if (token.han) han += token.text;
    else {
      flushHan();
      if (!token.stop) clauses.push(wordClause(token.text, open && i === query.length - 1 && token.text.length >= 2));
    }
    i++;
  }
  flushHan();
  return clauses;
}

export function buildSearchRequest(q: string | null, limit: number): SearchRequest {
  return {
    clauses: q ? buildClauses(q) : [],
    limit,
    k1: RANKING.k1,
    pq: RANKING.prefixQuality,
    fq: RANKING.fuzzyQuality,
    tolerance: RANKING.tolerance,
  };
}

/** How one part of the query was understood, for the response. */
export interface ClauseInterpretation {
  input: string;
  /** What it matched in the index: the words, their corrections or completions, or the synonym phrases. */
  matchedAs: string[];
  via: Array<'exact' | 'prefix' | 'typo' | 'synonym' | 'bigrams'>;
}

/** Reads the search's per-term notes (see SearchIndex.search) into one interpretation per clause. */
export function interpret(clauses: Clause[], notes: SearchNotes): ClauseInterpretation[] {
  return clauses.map((clause, c) => {
    const matchedAs = new Set<string>();
    const via = new Set<ClauseInterpretation['via'][number]>();
    clause.alts.forEach((alt, a) => {
      const altNotes = notes[c]?.[a] ?? [];
      const allMatched = alt.terms.length > 0 && alt.terms.every((_, t) => Object.keys(altNotes[t] ?? {}).length > 0);
      if (!allMatched) return;
      if (clause.synonyms) {
        matchedAs.add(alt.phrase);
        if (alt.w < 1) via.add('synonym');
        else via.add('exact');
        return;
      }
      if (a > 0) {
        matchedAs.add(alt.phrase);
        via.add('bigrams');
        return;
      }
      const note = altNotes[0] ?? {};
      for (const term of note.exact ?? []) (matchedAs.add(term), via.add('exact'));
      for (const term of note.prefix ?? []) (matchedAs.add(term), via.add('prefix'));
      for (const term of note.fuzzy ?? []) (matchedAs.add(term), via.add('typo'));
    });
    return { input: clause.label, matchedAs: [...matchedAs], via: [...via] };
  });
}
