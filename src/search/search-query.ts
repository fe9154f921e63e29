import synonymData from './synonyms.json';
import { aliasKey, type ModelKind } from '../contract/vocabulary';
import { bigrams, hanWords, normalize, stem, STOP_WORDS } from './tokenizer';

/** One term to look up: exact, or also as a prefix, or within `maxEdits` edits when it is not indexed. */
export interface TermSpec {
  text: string;
  prefix: boolean;
  maxEdits: 0 | 1 | 2;
}
/** Matches when all its terms match; its score is the mean of the terms' scores times its weight. */
export interface Alternative {
  weight: number;
  /** The phrase this alternative stands for, as shown in the response's interpretation. */
  phrase: string;
  terms: TermSpec[];
  /**
   * How it reads the query, for the interpretation: another phrase of a synonym group, a long Chinese word
   * through its bigrams, words typed apart as one (`open ai` as openai), or one word as two (`blackforest`
   * as black forest). Absent: the words as typed.
   */
  via?: 'synonym' | 'bigrams' | 'joined' | 'split';
}
/** One concept of the query (a word, or a phrase with its synonyms); a listing matches it through its best alternative. */
export interface Clause {
  label: string;
  synonyms: boolean;
  alts: Alternative[];
}

/**
 * A fact or an order the query asked for in words: `free`, `openai compatible` as the filter of that name;
 * `cheapest`, `longest context` as the order of that name.
 */
export type QueryFacet = { input: string; filter: 'freeTier' | 'openaiCompatible' } | { input: string; sort: 'price' | 'context' };

/** A query as the index runs it: its clauses, the facts it asks for in words, and the whole query as a name. */
export interface ParsedQuery {
  clauses: Clause[];
  /** Facts asked for in words (see QueryFacet). */
  facets: QueryFacet[];
  /** The whole query as a name key (see aliasKey): a listing whose name, slug or alias it is comes first. */
  nameKey: string | null;
  /** The kind of model the query names (`embedding`, `reranker`, `text to speech`): whose rates a price order compares. */
  modelKind: ModelKind | null;
}

/** What the index tells the query builder: which words it holds (to join or split words as typed). */
export interface Lexicon {
  has(term: string): boolean;
  hasPrefix(prefix: string): boolean;
}

/** Weight of a synonym relative to the phrase the user typed. */
const SYNONYM_WEIGHT = 0.9;
/** Weight of matching a long Chinese word through its character bigrams. */
const BIGRAM_WEIGHT = 0.9;
/** Weight of words typed apart matched as one (`eleven labs` as elevenlabs), and of one word as two. */
const JOINED_WEIGHT = 0.9;
const SPLIT_WEIGHT = 0.9;
/** A word is tried split only from this length, into parts of at least this length. */
const SPLIT_FROM = 6;
const SPLIT_PART = 3;

const MAX_CORRECTED_LENGTH = 24;
/**
 * The bound on the work of one search: a query is read up to its first MAX_CLAUSES distinct parts, and
 * typos are looked for in its first MAX_CORRECTED words that the index does not hold (each look-up walks
 * the dictionary; see query-plan.ts). A 200-character query of distinct words took 38 ms over 10,127
 * listings before; an agent's question has a handful of parts.
 */
const MAX_CLAUSES = 12;
export const MAX_CORRECTED = 4;
/** Chinese function words that say nothing of the topic (的 in 便宜的大模型): not searched for. */
const HAN_STOP_WORDS = new Set(['的', '地', '得', '了', '和', '与', '及', '或', '是', '在', '有', '用', '把', '被', '个', '吗', '呢', '吧', '一个', '哪些', '什么', '怎么']);

/** Edits tolerated in a Latin term of this length: none below 4 characters, one from 4, two from 8 (up to 24). */
export function allowedEdits(term: string): 0 | 1 | 2 {
  // Words longer than any real name are not corrected (their deletion variants would be thousands).
  if (!/^[a-z0-9]+$/.test(term) || term.length > MAX_CORRECTED_LENGTH) return 0;
  return term.length >= 8 ? 2 : term.length >= 4 ? 1 : 0;
}

/**
 * A query or phrase as a sequence: Latin words (stemmed, stop words kept and marked, `raw` as typed) and
 * single Han characters; `attached` when a punctuation mark, not a space, separates it from the one before.
 */
interface Token {
  text: string;
  raw: string;
  han: boolean;
  stop: boolean;
  attached: boolean;
}

function tokens(text: string): Token[] {
  const out: Token[] = [];
  let end = -1;
  const normalized = normalize(text);
  // Latin words stop at a Chinese character: "GPU云" is "gpu" then "云".
  for (const m of normalized.matchAll(/(\p{Script=Han})|((?:(?!\p{Script=Han})[\p{L}\p{N}])+)/gu)) {
    const between = end < 0 ? ' ' : normalized.slice(end, m.index);
    const attached = between.length > 0 && !/\s/.test(between) && /^[-.·・_]+$/.test(between);
    end = m.index + m[0].length;
    if (m[1]) out.push({ text: m[1], raw: m[1], han: true, stop: false, attached: false });
    else out.push({ text: stem(m[2]), raw: m[2], han: false, stop: STOP_WORDS.has(m[2]), attached });
  }
  return out;
}

/** Exact index terms of a phrase: its Latin words (without stop words), its Chinese as bigrams. */
function phraseTerms(phraseTokens: Token[]): TermSpec[] {
  const terms: TermSpec[] = [];
  let run = '';
  const flush = () => {
    if (run) for (const t of [...run].length > 1 ? bigrams(run) : [run]) terms.push({ text: t, prefix: false, maxEdits: 0 });
    run = '';
  };
  for (const token of phraseTokens) {
    if (token.han) run += token.text;
    else {
      flush();
      if (!token.stop) terms.push({ text: token.text, prefix: false, maxEdits: 0 });
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

/** Phrases found by longest match on tokens, indexed by their first token. */
class PhraseTable<T extends { tokens: Token[] }> {
  private readonly byFirst = new Map<string, T[]>();

  constructor(phrases: T[]) {
    for (const phrase of phrases) {
      if (phrase.tokens.length === 0) continue;
      const list = this.byFirst.get(phrase.tokens[0].text) ?? [];
      list.push(phrase);
      list.sort((a, b) => b.tokens.length - a.tokens.length);
      this.byFirst.set(phrase.tokens[0].text, list);
    }
  }

  /** The longest phrase that starts at `start`, or null. */
  at(query: Token[], start: number): T | null {
    for (const candidate of this.byFirst.get(query[start].text) ?? []) {
      const n = candidate.tokens.length;
      if (start + n <= query.length && candidate.tokens.every((t, i) => query[start + i].text === t.text)) return candidate;
    }
    return null;
  }
}

const GROUPS: SynonymPhrase[][] = synonymData.groups.map((phrases, group) =>
  phrases.map((phrase) => ({ phrase, tokens: tokens(phrase), group })),
);
const SYNONYMS = new PhraseTable(GROUPS.flat());

/**
 * Words that ask for a fact rather than name a topic: read as the filter of that name (a listing without the
 * fact is not what was asked for), not searched as text.
 */
const FACET_WORDS: Array<{ phrase: string; facet: { filter: 'freeTier' | 'openaiCompatible' } | { sort: 'price' | 'context' } }> = [
  ...['free', 'free tier', 'free plan', 'for free', 'free of charge', '免费', '免费额度', '免费套餐'].map((phrase) => ({ phrase, facet: { filter: 'freeTier' as const } })),
  ...['openai compatible', 'openai-compatible', 'openai api compatible', 'compatible with openai', '兼容 openai', 'openai 兼容'].map((phrase) => ({
    phrase,
    facet: { filter: 'openaiCompatible' as const },
  })),
  // Words that ask for an order: the listings that match the rest of the query, by that fact.
  ...['cheapest', 'cheap', 'cheaper', 'lowest price', 'lowest cost', 'low cost', 'low-cost', 'inexpensive', 'affordable', 'least expensive', '最便宜', '便宜', '低价', '最低价', '价格最低', '性价比'].map(
    (phrase) => ({ phrase, facet: { sort: 'price' as const } }),
  ),
  ...['longest context', 'long context', 'largest context', 'biggest context', 'largest context window', 'longest context window', 'long context window', '长上下文', '最长上下文', '超长上下文', '上下文最长'].map(
    (phrase) => ({ phrase, facet: { sort: 'context' as const } }),
  ),
];
const FACETS = new PhraseTable(FACET_WORDS.map((facet) => ({ ...facet, tokens: tokens(facet.phrase) })));

/** Words that name a kind of model: a price order then compares the rates of that kind's models (see ParsedQuery). */
const KIND_WORDS: Array<{ phrase: string; kind: ModelKind }> = [
  ...['reasoning', 'reasoning model', 'thinking model', '推理模型', '推理'].map((phrase) => ({ phrase, kind: 'reasoning' as const })),
  ...['embedding', 'embeddings', 'embedding model', 'text embedding', 'vector embedding', '嵌入', '向量化', '文本向量', '向量模型'].map((phrase) => ({ phrase, kind: 'embedding' as const })),
  ...['rerank', 'reranker', 'reranking', 're-rank', 'rerank model', '重排', '重排序'].map((phrase) => ({ phrase, kind: 'rerank' as const })),
  ...['text to speech', 'tts', 'speech synthesis', 'voice generation', '语音合成', '文字转语音'].map((phrase) => ({ phrase, kind: 'speech' as const })),
  ...['speech to text', 'stt', 'asr', 'transcription', 'transcribe', 'speech recognition', '语音识别', '语音转文字', '转写'].map((phrase) => ({ phrase, kind: 'transcription' as const })),
  ...['image generation', 'text to image', 'image model', '图像生成', '文生图', '生图'].map((phrase) => ({ phrase, kind: 'image' as const })),
  ...['video generation', 'text to video', 'video model', '视频生成', '文生视频'].map((phrase) => ({ phrase, kind: 'video' as const })),
  ...['ocr', '文字识别'].map((phrase) => ({ phrase, kind: 'ocr' as const })),
];
const KINDS = new PhraseTable(KIND_WORDS.map((word) => ({ ...word, tokens: tokens(word.phrase) })));

/** The first kind of model the query names, or null. */
function modelKindOf(query: Token[]): ModelKind | null {
  for (let i = 0; i < query.length; i++) {
    const word = KINDS.at(query, i);
    if (word) return word.kind;
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
    const typedIt = key === typedKey;
    alts.push({ weight: typedIt ? 1 : SYNONYM_WEIGHT, phrase: phrase.phrase, terms, ...(typedIt ? {} : { via: 'synonym' as const }) });
  }
  alts.sort((a, b) => b.weight - a.weight);
  return { label: typed.phrase, synonyms: true, alts };
}

function wordClause(token: Token, prefix: boolean, lexicon: Lexicon | null): Clause {
  const word = token.text;
  const alts: Alternative[] = [{ weight: 1, phrase: word, terms: [{ text: word, prefix, maxEdits: allowedEdits(word) }] }];
  if (lexicon && !lexicon.has(word)) alts.push(...splits(token.raw, lexicon));
  return { label: word, synonyms: false, alts };
}

/**
 * A word that the index does not hold but whose two halves it does (`blackforest`, `huggingface`): up to
 * two splits, the most even first, each matched as both words.
 */
function splits(raw: string, lexicon: Lexicon): Alternative[] {
  if (raw.length < SPLIT_FROM || !/^[a-z]+$/.test(raw)) return [];
  const found: Alternative[] = [];
  for (let k = SPLIT_PART; k <= raw.length - SPLIT_PART; k++) {
    const [a, b] = [stem(raw.slice(0, k)), stem(raw.slice(k))];
    if (lexicon.has(a) && lexicon.has(b)) {
      found.push({ weight: SPLIT_WEIGHT, phrase: `${raw.slice(0, k)} ${raw.slice(k)}`, terms: [a, b].map((t) => ({ text: t, prefix: false, maxEdits: 0 }) as TermSpec), via: 'split' });
    }
  }
  const evenness = (alt: Alternative) => -Math.abs(alt.phrase.indexOf(' ') * 2 - raw.length);
  return found.sort((x, y) => evenness(y) - evenness(x)).slice(0, 2);
}

function hanClause(word: string): Clause {
  const chars = [...word];
  const alts: Alternative[] = [{ weight: 1, phrase: word, terms: [{ text: word, prefix: false, maxEdits: 0 }] }];
  if (chars.length > 2) alts.push({ weight: BIGRAM_WEIGHT, phrase: word, terms: bigrams(word).map((t) => ({ text: t, prefix: false, maxEdits: 0 }) as TermSpec), via: 'bigrams' });
  return { label: word, synonyms: false, alts };
}

/**
 * Turns `q` into clauses and facets. Words that ask for a fact (`free`, `openai compatible`) become facets.
 * Synonym phrases are found next (longest match, English or Chinese). With a lexicon, words typed apart
 * that the index holds as one word may also be met by that word (`open ai` as openai, `dall-e` as dalle),
 * and a word it does not hold is also tried as two it does (`blackforest` as black forest). Every other English word is a clause of its own (the word
 * being typed, last and not followed by a space, also matches as a prefix; typos are tolerated by length);
 * other Chinese text is cut into words by Intl.Segmenter, each a clause matched as a word or through its
 * character bigrams.
 */
export function buildClauses(q: string, lexicon: Lexicon | null = null): { clauses: Clause[]; facets: QueryFacet[] } {
  const query = tokens(q);
  const open = /[\p{L}\p{N}]$/u.test(q) && !/\p{Script=Han}$/u.test(q);
  const clauses: Clause[] = [];
  const facets: QueryFacet[] = [];
  let han = '';
  const flushHan = () => {
    for (const word of han ? hanWords(han) : []) if (!HAN_STOP_WORDS.has(word)) clauses.push(hanClause(word));
    han = '';
  };
  for (let i = 0; i < query.length; ) {
    const facet = FACETS.at(query, i);
    const next = facet ? query[i + facet.tokens.length] : undefined;
    // ("free-form" is a word of its own, not a price)
    if (facet && !(next && next.attached) && !query[i].attached) {
      flushHan();
      const key = 'filter' in facet.facet ? facet.facet.filter : 'sort';
      // One order: the first words that ask for one.
      if (!facets.some((f) => ('filter' in f ? f.filter : 'sort') === key)) facets.push({ input: facet.phrase, ...facet.facet });
      i += facet.tokens.length;
      continue;
    }
    const phrase = SYNONYMS.at(query, i);
    if (phrase) {
      flushHan();
      clauses.push(synonymClause(phrase));
      i += phrase.tokens.length;
      continue;
    }
    const token = query[i];
    if (token.han) {
      han += token.text;
      i++;
      continue;
    }
    flushHan();
    if (token.stop) {
      i++;
      continue;
    }
    // Words typed apart that the index holds as one (`open ai`, `eleven labs`, `dall-e`, `gpt-4o`): each word
    // stays a clause of its own (a listing with some of them still matches some), and each may also be met
    // by the word they make, a little below the words as typed.
    const span = lexicon ? joinableSpan(query, i, open, lexicon) : null;
    const end = span?.end ?? i + 1;
    for (let k = i; k < end; k++) {
      if (query[k].stop) continue;
      const clause = wordClause(query[k], open && k === query.length - 1 && query[k].text.length >= 2, lexicon);
      if (span) clause.alts.push({ weight: JOINED_WEIGHT, phrase: span.joined, terms: [{ text: span.joined, prefix: open && end === query.length, maxEdits: 0 }], via: 'joined' });
      clauses.push(clause);
    }
    i = end;
  }
  flushHan();
  return { clauses, facets };
}

/**
 * Where words from `start` make one word the index holds: a run written with punctuation inside (dall-e,
 * gpt-4o, text-embedding-3), else this word and the next (open ai). The last word of the query, while it
 * is being typed, may make the start of one (eleven la).
 */
function joinableSpan(query: Token[], start: number, open: boolean, lexicon: Lexicon): { end: number; joined: string } | null {
  const knows = (joined: string, end: number) => lexicon.has(joined) || (open && end === query.length && joined.length >= 4 && lexicon.hasPrefix(joined));
  let end = start + 1;
  while (end < query.length && query[end].attached && !query[end].han) end++;
  if (end > start + 1) {
    const joined = query.slice(start, end).map((t) => t.raw).join('');
    return knows(joined, end) ? { end, joined } : null;
  }
  const second = query[start + 1];
  if (!second || second.han || second.stop || second.attached) return null;
  const joined = query[start].raw + second.raw;
  return knows(joined, start + 2) ? { end: start + 2, joined } : null;
}

/** Parses `q` (see buildClauses): repeated parts count once, and the first MAX_CLAUSES are kept. */
export function parseQuery(q: string, lexicon: Lexicon | null = null): ParsedQuery {
  const { clauses, facets } = buildClauses(q, lexicon);
  const seen = new Set<string>();
  const distinct = clauses.filter((clause) => !seen.has(clause.label) && seen.add(clause.label));
  return { clauses: distinct.slice(0, MAX_CLAUSES), facets, nameKey: aliasKey(q) || null, modelKind: modelKindOf(tokens(q)) };
}
