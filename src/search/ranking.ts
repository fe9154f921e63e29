import { FIELD_BITS, FIELD_SHIFT } from './search-fields';
import { scoreIn } from './posting-lists';
import type { QueryPlan, TermPlan } from './query-plan';
import type { Clause } from './search-query';

/** BM25 saturation of the field-weighted term frequencies. */
const K1 = 4;
/** Scores within 10% of the best of their group (or 5 x that absolute) are a tie that popularity breaks. */
const TOLERANCE = 0.1;
/** Clauses matched that a listing named by the whole query counts, ahead of any other (see scoreRows). */
const NAMED = 1000;

/**
 * Arrays that a search works in, by listing number, and lists of listing numbers. A value of 0 means none
 * (every match is worth more): values are 0 between searches, and each stage of a search sets back to 0
 * what it read (the rows' values once the page is made: see clearRows). They are reused from search to
 * search: made afresh for each one, a narrow search over 30,127 listings took twenty times as long (0.8 ms
 * against 0.04), and lists grown by push made the long tail take 1.4 times as long.
 */
export class WorkingArrays {
  readonly score: Float64Array;
  readonly matched: Int32Array;
  readonly termValue: Float64Array;
  readonly sum: Float64Array;
  readonly clauseValue: Float64Array;
  /** A term's listings and the next term's (they take turns), a clause's listings, and the rows. */
  readonly candidates: Int32Array;
  readonly survivors: Int32Array;
  readonly inClause: Int32Array;
  readonly rows: Int32Array;

  constructor(readonly capacity: number) {
    [this.score, this.termValue, this.sum, this.clauseValue] = [0, 0, 0, 0].map(() => new Float64Array(capacity));
    [this.matched, this.candidates, this.survivors, this.inClause, this.rows] = [0, 0, 0, 0, 0].map(() => new Int32Array(capacity));
  }
}

/** The listings that match a query, in the order they were met, and each one's score and clauses matched (by listing number). */
export interface Rows {
  docs: Int32Array;
  score: Float64Array;
  matched: Int32Array;
}

/**
 * Every listing that matches at least one clause and `passes`, with its score: per clause, the best of its
 * alternatives, an alternative scoring the mean of its terms (each term its best expansion) times its
 * weight. `named` are the listings the whole query names (`chatgpt`, `通义千问`): they come first.
 * (Maps rather than arrays by listing number made a search four times as long. Loops go by index: with
 * for...of over arrays that were often empty, V8 dropped this function's optimised code at every search.)
 */
export function scoreRows(clauses: Clause[], plan: QueryPlan, work: WorkingArrays, passes: (doc: number) => boolean, named: readonly number[]): Rows {
  const { score, matched, termValue, sum, clauseValue, inClause, rows } = work;
  let [candidates, survivors] = [work.candidates, work.survivors];
  let rowCount = 0;
  const enter = (doc: number) => {
    if (matched[doc] === 0) rows[rowCount++] = doc;
  };
  for (let c = 0; c < clauses.length; c++) {
    let clauseCount = 0;
    for (let a = 0; a < clauses[c].alts.length; a++) {
      const terms = plan[c][a];
      if (terms.length === 0 || terms.some((term) => term.expansions.length === 0)) continue;
      // The most selective term gives the candidates; each next term keeps those that have it.
      const order = [...terms].sort((x, y) => x.postings - y.postings);
      let count = valuesOf(order[0], termValue, null, candidates);
      for (let i = 0; i < count; i++) {
        sum[candidates[i]] = termValue[candidates[i]];
        termValue[candidates[i]] = 0;
      }
      for (let t = 1; t < order.length; t++) {
        const kept = valuesOf(order[t], termValue, sum, survivors);
        for (let i = 0; i < count; i++) {
          const doc = candidates[i];
          sum[doc] = termValue[doc] > 0 ? sum[doc] + termValue[doc] : 0;
        }
        for (let i = 0; i < kept; i++) termValue[survivors[i]] = 0;
        [candidates, survivors, count] = [survivors, candidates, kept];
      }
      const weight = clauses[c].alts[a].weight / terms.length;
      for (let i = 0; i < count; i++) {
        const doc = candidates[i];
        const value = sum[doc] * weight;
        sum[doc] = 0;
        if (clauseValue[doc] === 0) inClause[clauseCount++] = doc;
        if (value > clauseValue[doc]) clauseValue[doc] = value;
      }
    }
    for (let i = 0; i < clauseCount; i++) {
      const doc = inClause[i];
      const value = clauseValue[doc];
      clauseValue[doc] = 0;
      if (!passes(doc)) continue;
      enter(doc);
      score[doc] += value;
      matched[doc]++;
    }
  }
  for (let i = 0; i < named.length; i++) {
    if (!passes(named[i])) continue;
    enter(named[i]);
    matched[named[i]] += NAMED;
  }
  return { docs: rows.subarray(0, rowCount), score, matched };
}

/** Sets the rows' values back to 0 (see WorkingArrays). */
export function clearRows({ docs, score, matched }: Rows): void {
  for (let i = 0; i < docs.length; i++) {
    score[docs[i]] = 0;
    matched[docs[i]] = 0;
  }
}

/**
 * Sets `value` of each listing that has a term (only those with a value in `within`, when given) to the
 * best of its expansions: the expansion's factor times the saturated frequency. Writes those listings to
 * `found` and returns how many there are.
 */
function valuesOf(term: TermPlan, value: Float64Array, within: Float64Array | null, found: Int32Array): number {
  let count = 0;
  for (let x = 0; x < term.expansions.length; x++) {
    const e = term.expansions[x];
    const { docs, scores } = e.list;
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i];
      if (within && within[doc] === 0) continue;
      const tf = (scores[i] >> FIELD_SHIFT) / 100; // the high part is the frequency times 100
      const v = (e.factor * tf * (K1 + 1)) / (tf + K1);
      if (value[doc] === 0) found[count++] = doc;
      if (v > value[doc]) value[doc] = v;
    }
  }
  return count;
}

/**
 * The page from `offset`: ranked by clauses matched, then score; listings that match as many clauses and
 * score within TOLERANCE of the best of their group are equals, which popularity orders (then score, then
 * slug). Groups are found by scanning rather than by sorting every row: the best row left leads, and every
 * row left that matches as many clauses and scores at least its floor joins it. A page usually fills from
 * one or two groups, and of a large group only the members popular enough for the places left are ordered.
 */
export function rankPage({ docs, score, matched }: Rows, offset: number, limit: number, popularity: (doc: number) => number, slug: (doc: number) => string): number[] {
  const wanted = offset + limit;
  const page: number[] = [];
  // Rows left to place: the first `left` of `rest`, compacted in place as groups leave.
  const rest: number[] = [];
  for (let i = 0; i < docs.length; i++) rest.push(docs[i]);
  let left = rest.length;
  while (left > 0 && page.length < wanted) {
    let lead = rest[0];
    for (let i = 1; i < left; i++) {
      const doc = rest[i];
      if (matched[doc] > matched[lead] || (matched[doc] === matched[lead] && score[doc] > score[lead])) lead = doc;
    }
    const floor = floorOf(score[lead]);
    let group: number[] = [];
    let kept = 0;
    for (let i = 0; i < left; i++) {
      const doc = rest[i];
      if (matched[doc] === matched[lead] && score[doc] >= floor) group.push(doc);
      else rest[kept++] = doc;
    }
    left = kept;
    const places = wanted - page.length;
    if (group.length > 2 * places) group = mostPopular(group, places, popularity);
    group.sort((a, b) => popularity(b) - popularity(a) || score[b] - score[a] || compareText(slug(a), slug(b)));
    page.push(...group.slice(0, places));
  }
  return page.slice(offset);
}

/** The lowest score that still ties with `score`. */
function floorOf(score: number): number {
  return score - Math.max(score * TOLERANCE, TOLERANCE * 5);
}

/** Of a large group of equals, those popular enough for `places` places (popularity is 0-100). */
function mostPopular(group: number[], places: number, popularity: (doc: number) => number): number[] {
  const counts = new Int32Array(102);
  for (const doc of group) counts[Math.min(101, Math.max(0, popularity(doc)))]++;
  let threshold = 101;
  for (let seen = 0; threshold > 0 && seen + counts[threshold] < places; threshold--) seen += counts[threshold];
  return group.filter((doc) => popularity(doc) >= threshold);
}

/** The fields a result matched (a mask of SEARCH_FIELDS): those of every alternative it matches, over all clauses. */
export function matchedMask(doc: number, plan: QueryPlan): number {
  let mask = 0;
  for (const alts of plan) {
    for (const terms of alts) {
      const scores = terms.map((term) => term.expansions.map((e) => scoreIn(e.list, doc)));
      if (terms.length === 0 || !scores.every((list) => list.some((s) => s > 0))) continue;
      for (const list of scores) for (const s of list) mask |= s & (FIELD_BITS - 1);
    }
  }
  return mask;
}

/** Code-unit order (ASCII slugs: byte order). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
