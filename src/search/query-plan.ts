import type { ListingOrder } from '../contract/listing-filters';
import type { PostingList, PostingLists } from './posting-lists';
import { Clause, MAX_CORRECTED, QueryFacet, TermSpec } from './search-query';

/** Completions a word being typed may expand to, in term order. */
const PREFIX_COMPLETIONS = 64;
/** The weight of a prefix match (scaled by how much of the word was typed), and of matches one or two edits away. */
const PREFIX_QUALITY = 0.75;
const FUZZY_QUALITY = [1, 0.6, 0.4];
/** Terms shown per kind in the interpretation of one query term. */
const NOTED_TERMS = 8;

/** An index term a query term matches as, its postings, and what a match through it weighs: quality times the idf used. */
interface Expansion {
  text: string;
  kind: 'exact' | 'prefix' | 'fuzzy';
  factor: number;
  list: PostingList;
}

/** A term of an alternative with every index term it may match as, and how many postings those have. */
export interface TermPlan {
  expansions: Expansion[];
  postings: number;
}

/** The plan of a query: per clause, per alternative, per term, what it matches as in the index. */
export type QueryPlan = TermPlan[][][];

/** Every index term each term of the query matches as: itself, completions while it is typed, corrections of typos. */
export function planQuery(clauses: Clause[], lists: PostingLists, listings: number): QueryPlan {
  const corrections = { left: MAX_CORRECTED };
  return clauses.map((clause) => clause.alts.map((alt) => alt.terms.map((spec) => expand(spec, lists, listings, corrections))));
}

function expand(spec: TermSpec, lists: PostingLists, listings: number, corrections: { left: number }): TermPlan {
  const idfOf = (n: number) => Math.log(1 + (listings - n + 0.5) / (n + 0.5));
  const exactPostings = lists.of(spec.text).docs.length;
  const expansions: Expansion[] = [];
  const add = (text: string, kind: Expansion['kind'], quality: number, idf?: number) => {
    const list = lists.of(text);
    if (list.docs.length > 0) expansions.push({ text, kind, factor: quality * (idf ?? idfOf(list.docs.length)), list });
  };
  add(spec.text, 'exact', 1);
  if (spec.prefix) {
    // Completions of a word that is itself indexed are weighed with that word's idf, so a rare
    // completion ("apiv3") cannot outrank the word the user typed ("api").
    const damp = exactPostings > 0 ? 0.5 : 1;
    const idf = exactPostings > 0 ? idfOf(exactPostings) : undefined;
    for (const text of lists.completions(spec.text, PREFIX_COMPLETIONS)) {
      if (text !== spec.text) add(text, 'prefix', (PREFIX_QUALITY * damp * spec.text.length) / text.length, idf);
    }
  }
  if (spec.maxEdits > 0 && exactPostings === 0 && corrections.left-- > 0) {
    for (const { term, edits } of lists.withinEdits(spec.text, spec.maxEdits)) {
      if (!expansions.some((e) => e.text === term)) add(term, 'fuzzy', FUZZY_QUALITY[edits]);
    }
  }
  const postings = expansions.reduce((sum, e) => sum + e.list.docs.length, 0);
  return { expansions, postings };
}

/** How one part of the query was understood, for the response. */
export interface ClauseInterpretation {
  input: string;
  /** What it matched in the index: the words, their corrections or completions, or the synonym phrases. */
  matchedAs: string[];
  via: Array<'exact' | 'prefix' | 'typo' | 'synonym' | 'bigrams' | 'joined' | 'split' | 'filter' | 'sort'>;
}

/**
 * One interpretation per clause (from what its alternatives matched as), then one per facet; an order asked
 * for in words shows the order applied (`order`) when it is that one, with the unit and kind of model it compares.
 */
export function interpret(clauses: Clause[], plan: QueryPlan, facets: QueryFacet[], order: ListingOrder | null = null): ClauseInterpretation[] {
  const parts = clauses.map((clause, c) => {
    const matchedAs = new Set<string>();
    const via = new Set<ClauseInterpretation['via'][number]>();
    clause.alts.forEach((alt, a) => {
      const terms = plan[c][a];
      if (terms.length === 0 || !terms.every((term) => term.expansions.length > 0)) return;
      if (alt.via) {
        matchedAs.add(alt.phrase);
        via.add(alt.via);
        return;
      }
      if (clause.synonyms) {
        matchedAs.add(alt.phrase);
        via.add('exact');
        return;
      }
      for (const term of terms) {
        for (const kind of ['exact', 'prefix', 'fuzzy'] as const) {
          for (const e of term.expansions.filter((e) => e.kind === kind).slice(0, NOTED_TERMS)) {
            matchedAs.add(e.text);
            via.add(kind === 'fuzzy' ? 'typo' : kind);
          }
        }
      }
    });
    return { input: clause.label, matchedAs: [...matchedAs], via: [...via] };
  });
  return [
    ...parts,
    ...facets.map((facet): ClauseInterpretation => {
      if ('filter' in facet) return { input: facet.input, matchedAs: [`${facet.filter}=true`], via: ['filter'] };
      const applied = order?.by === facet.sort ? order : null;
      const extra = [...(applied?.priceUnit ? [`priceUnit=${applied.priceUnit}`] : []), ...(applied?.modelKind ? [`modelKind=${applied.modelKind}`] : [])];
      return { input: facet.input, matchedAs: [`sort=${facet.sort}`, ...extra], via: ['sort'] };
    }),
  ];
}
