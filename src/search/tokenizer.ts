/**
 * Turns text into index terms, the same way for documents and queries:
 * - Latin text: NFKC, lower case, split on anything but letters and digits, English stop words dropped,
 *   light stemming (plural endings), so "APIs" and "api" meet.
 * - Chinese (Han) text: words from Intl.Segmenter, plus every character bigram and every single
 *   character, so a word the segmenter splits differently (or a partial word) still matches.
 */
const HAN_RUN = /\p{Script=Han}+/gu;
const LATIN_WORD = /[\p{L}\p{N}]+/gu;
const HAN_CHAR = /\p{Script=Han}/u;

export const STOP_WORDS = new Set(
  'a an and are as at be by for from has have in into is it its of on or that the this to via was were will with your you'.split(' '),
);

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

export function normalize(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** Light English stemming: plural endings only, so prefixes and typos stay predictable. */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  // not: class, status, analysis (but apis -> api)
  if (word.endsWith('s') && !/(ss|us)$/.test(word) && !(word.length > 4 && word.endsWith('is'))) return word.slice(0, -1);
  return word;
}

export function isHan(text: string): boolean {
  return HAN_CHAR.test(text);
}

/** Latin words of a text, normalized and stemmed, stop words removed (in order, with repeats). */
export function latinTerms(text: string): string[] {
  const { normalized, ascii } = normalizeText(text);
  return latinWords(normalized, ascii);
}

/** normalize(text), quicker for ASCII-only text, which it says (see ASCII). */
function normalizeText(text: string): { normalized: string; ascii: boolean } {
  const ascii = ASCII.test(text);
  return { normalized: ascii ? text.toLowerCase() : normalize(text), ascii };
}

/**
 * Text of ASCII only, the common case of English fields: NFKC leaves it as it is and it has no Han, so it
 * skips both, and its words, after lower-casing, are the runs of a-z and 0-9 (what [\p{L}\p{N}]+ finds
 * in ASCII), found by a loop over character codes: a third of the time of the Unicode pattern's matches.
 */
const ASCII = /^[\x00-\x7f]*$/;

/** latinTerms of text already normalized (`ascii`: it is ASCII only). */
function latinWords(normalized: string, ascii: boolean): string[] {
  const terms: string[] = [];
  const add = (word: string) => {
    if (!STOP_WORDS.has(word)) terms.push(stem(word));
  };
  if (!ascii) {
    for (const match of normalized.replace(HAN_RUN, ' ').matchAll(LATIN_WORD)) add(match[0]);
    return terms;
  }
  const length = normalized.length;
  let start = -1;
  for (let i = 0; i <= length; i++) {
    const code = i < length ? normalized.charCodeAt(i) : 0;
    const inWord = (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
    if (inWord && start < 0) start = i;
    else if (!inWord && start >= 0) {
      add(normalized.slice(start, i));
      start = -1;
    }
  }
  return terms;
}

/** Whether a text may hold a punctuated run (a quick test before the pattern). */
function hasJoinable(normalized: string): boolean {
  return /[\p{L}\p{N}][-.·・_][\p{L}\p{N}]/u.test(normalized);
}

/** Words of a Han run as Intl.Segmenter cuts them (cached: the segmenter is slow, and runs repeat a lot). */
export function hanWords(run: string): string[] {
  const cached = segmentCache.get(run);
  if (cached) return cached;
  const words: string[] = [];
  for (const segment of segmenter.segment(run)) {
    if (segment.isWordLike) words.push(segment.segment);
  }
  if (segmentCache.size >= SEGMENT_CACHE_SIZE) segmentCache.clear();
  segmentCache.set(run, words);
  return words;
}
const SEGMENT_CACHE_SIZE = 50_000;
const segmentCache = new Map<string, string[]>();

export function bigrams(run: string): string[] {
  const chars = [...run];
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
  return out;
}

/**
 * Words written with punctuation inside (DALL·E, gpt-4o, text-embedding-3, Hugging-Face): the pieces, joined
 * by a hyphen, dot, middle dot or underscore with no space (not an apostrophe: "OpenAI's" is a possessive).
 * Their pieces are indexed as words already; the run is indexed joined too (dalle, gpt4o, textembedding3),
 * so that however the name is typed (dall-e, dall·e, dalle, "dall e") it meets the same term.
 */
const JOINED_RUN = /[\p{L}\p{N}]+(?:[-.·・_][\p{L}\p{N}]+)+/gu;
/** Runs longer than this are not names (URLs, dotted paths): they are not joined. */
const LONGEST_JOINED = 30;

/** The joined forms of a text's punctuated runs (see JOINED_RUN), Han characters left out. */
export function joinedTerms(text: string): string[] {
  const { normalized, ascii } = normalizeText(text);
  if (ascii) return asciiJoinedTerms(normalized);
  if (!hasJoinable(normalized)) return [];
  const terms: string[] = [];
  for (const [run] of normalized.matchAll(JOINED_RUN)) {
    if (HAN_CHAR.test(run)) continue;
    const joined = run.replace(/[^\p{L}\p{N}]/gu, '');
    if (joined.length <= LONGEST_JOINED && /\p{L}/u.test(joined)) terms.push(joined);
  }
  return terms;
}

/**
 * joinedTerms of lower-cased ASCII text, by a loop over character codes (the Unicode pattern took a tenth
 * of building a search index): runs of a-z and 0-9 pieces with one of - . _ between them and no space.
 */
function asciiJoinedTerms(text: string): string[] {
  const terms: string[] = [];
  let joined = '';
  let pieces = 0;
  let letter = false;
  let start = -1;
  const flush = () => {
    if (pieces > 1 && letter && joined.length <= LONGEST_JOINED) terms.push(joined);
    joined = '';
    pieces = 0;
    letter = false;
  };
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 32;
    const isLetter = code >= 97 && code <= 122;
    if (isLetter || (code >= 48 && code <= 57)) {
      if (start < 0) start = i;
      letter ||= isLetter;
      continue;
    }
    if (start >= 0) {
      joined += text.slice(start, i);
      pieces++;
      start = -1;
    }
    const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 32;
    const separator = code === 45 || code === 46 || code === 95; // - . _
    const continues = separator && pieces > 0 && ((next >= 97 && next <= 122) || (next >= 48 && next <= 57));
    if (!continues) flush();
  }
  return terms;
}

/**
 * Every index term of a text, with repeats (the count is the term frequency): its words; Chinese gives its
 * segmenter words of 3+ characters, every bigram and, when `singleCharacters`, every character.
 */
export function indexTerms(text: string, singleCharacters = true): string[] {
  const { normalized, ascii } = normalizeText(text);
  const terms = latinWords(normalized, ascii);
  if (ascii) return terms;
  for (const run of normalized.match(HAN_RUN) ?? []) {
    const words = hanWords(run).filter((w) => [...w].length > 2);
    terms.push(...words, ...bigrams(run));
    if (singleCharacters || run.length === 1) terms.push(...run);
  }
  return terms;
}
