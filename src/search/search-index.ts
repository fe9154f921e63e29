import type { Category } from '../catalog/category-catalog';
import type { ListingFilters } from '../contract/listing-filters';
import type { ListingDocument } from '../listings/listing.document';
import { PostingScorer } from './listing-postings';
import { matchedFields } from './search-fields';
import { buildSearchRequest, ClauseInterpretation, interpret, Lexicon, MAX_CORRECTED, SearchRequest, TermSpec } from './search-query';
import { nameKey } from './tokenizer';
import { lowerBound, termsWithinEdits } from './typo-terms';

/** A listing as the index is given it: the document (tokenised, then let go), its category, its summary. */
export interface IndexedListing {
  listing: ListingDocument;
  category: Category | undefined;
  /** The search summary as the API sends it (JSON). */
  summary: string;
}

/** A listing found: its slug and summary (JSON, as sent). */
export interface FoundListing {
  slug: string;
  summary: string;
}

/** One result of a search: its score (three decimals, as sent) and the fields that matched. */
export interface SearchHit extends FoundListing {
  score: string;
  matched: string[];
}

export interface SearchAnswer {
  /** Listings that match (exact: every posting is read). */
  total: number;
  hits: SearchHit[];
  /** The filters applied: those asked for, and those the query asked for in words. */
  filters: ListingFilters;
  /** How each part of the query was understood. */
  interpretation: ClauseInterpretation[];
}

/** A place in the browse order (popularity, then slug): a page that starts after it keeps its place whatever changes before it. */
export interface BrowsePosition {
  popularity: number;
  slug: string;
}

export interface BrowsePage {
  /** Listings that pass the filters. */
  total: number;
  listings: FoundListing[];
  /** Where the next page starts, when more listings follow. */
  next: BrowsePosition | null;
}

/** The facts of a listing that searches filter and order by. */
type ListingFacts = Pick<ListingDocument, 'slug' | 'category' | 'popularity' | 'freeTier' | 'openaiCompatible' | 'authType' | 'contextTokens' | 'sdkLanguages'>;

/**
 * What the index keeps of a listing besides its postings: its facts, its summary, and the keys of the names
 * it answers to. Not the document: at 100,000 listings that would be half a gigabyte in every process.
 */
interface HeldListing {
  facts: ListingFacts;
  summary: string;
  names: string[];
}

/** A page of the ranking: the listings by number, and each one's score and matched fields (mask). */
interface RankedHit {
  doc: number;
  score: string;
  mask: number;
}

/** How each term of the query matched: per clause, alternative and term, the index terms by kind. */
export type SearchNotes = Array<Array<Array<Partial<Record<'exact' | 'prefix' | 'fuzzy', string[]>>>>>;

/** Which listings a search or a browse may return. */
type ListingFilter = (doc: number) => boolean;

/** Completions a word being typed may expand to, in term order. */
const PREFIX_COMPLETIONS = 64;
/** Clauses matched that a listing named by the whole query counts, ahead of any other (see names). */
const NAMED = 1000;
/** Terms shown per kind in the notes of one query term. */
const NOTED_TERMS = 8;

interface Expansion {
  term: number;
  text: string;
  kind: 'exact' | 'prefix' | 'fuzzy';
  /** quality (1 exact; prefix and typo matches weigh less) times the idf used. */
  factor: number;
}

/** A term of an alternative with every index term it may match as, and how many postings those have. */
interface Spec {
  expansions: Expansion[];
  postings: number;
}

/**
 * The search index, held in the memory of each serving process: a list of postings per term (listing
 * number and encoded score, ordered by listing), the sorted dictionary of live terms (for completions and
 * typos), and what a result shows (summary, popularity, category). It is fed by applying the listings
 * that changed, batch by batch (see CatalogFollower), so it holds exactly the terms of the listings it
 * holds: a term no listing uses any more is gone from the dictionary, as after a fresh build.
 *
 * Why in process: agents' queries are a long tail that the response cache does not help, and a search run
 * as a Lua script in Redis made every query queue on Redis's single thread. Here a query costs one
 * process's CPU and no round trip, and capacity grows with the serving processes.
 *
 * A search reads every posting of its terms, so `total` is exact and the ranking is that of all matches.
 * Filters are evaluated here. Listings are numbered inside the index; what it gives out is slugs and summaries.
 */
export class SearchIndex {
  private readonly termIds = new Map<string, number>();
  private readonly termText: string[] = [];
  private termDocs: Int32Array[] = [];
  private termScores: Int32Array[] = [];
  private readonly freeTerms: number[] = [];
  /** Live terms (with postings), sorted: completions and typo lookups walk it (see dictionary()). */
  private sortedTerms: string[] = [];
  /** Terms that became live or dead since the dictionary was last sorted: applied on its next use. */
  private readonly dictionaryChanges = new Set<string>();

  private readonly docIds = new Map<string, number>();
  private readonly docs: Array<HeldListing | null> = [];
  private readonly docTerms: Array<Int32Array | null> = [];
  private popularity = new Int32Array(1024);
  private readonly freeDocs: number[] = [];
  /** Every listing by popularity (then slug): the browse order, and the order of ties. */
  private browseOrder: number[] = [];
  /** Name keys (see nameKey) of every listing's name, Chinese name, slug and aliases -> the listings. */
  private readonly names = new Map<string, Set<number>>();

  private readonly scorer = new PostingScorer();
  private readonly buffers = new ScoreBuffers();

  /** What the query builder asks of the index: which words it holds (to join or split words as typed). */
  private readonly lexicon: Lexicon = {
    has: (term) => (this.termDocs[this.termIds.get(term) ?? -1]?.length ?? 0) > 0,
    hasPrefix: (prefix) => {
      const terms = this.dictionary();
      return terms[lowerBound(terms, prefix)]?.startsWith(prefix) ?? false;
    },
  };

  /** Listings held. */
  get size(): number {
    return this.docIds.size;
  }

  /**
   * Applies what a batch of events left of each listing it touched: the new document, or null when
   * withdrawn. Each term a listing gains or loses is rewritten once per batch.
   */
  apply(changes: ReadonlyMap<string, IndexedListing | null>): void {
    // A large batch (the first load) merges its listings into the browse order; a small one moves them.
    const resort = changes.size > 64 && changes.size > this.browseOrder.length / 16;
    // Every listing of the batch loses all its postings and the new or revised ones get theirs: one mark
    // says which listings' postings go, for every term.
    const changed: number[] = [];
    /** Terms that lose postings (those of the listings changed): rewritten; the others only gain. */
    const losing = new Set<number>();
    const touched: number[] = [];
    const touch = this.buffers.termMarker(this.termText.length);
    const freed: number[] = [];
    const placed: number[] = [];
    /** The batch's new postings, as (term, listing, score), grouped by term below. */
    const added: number[] = [];
    for (const [slug, next] of changes) {
      let doc = this.docIds.get(slug);
      if (doc !== undefined) {
        changed.push(doc);
        for (const term of this.docTerms[doc]!) {
          losing.add(term);
          if (touch(term)) touched.push(term);
        }
        this.unlist(doc, !resort);
        if (!next) {
          this.docIds.delete(slug);
          this.docs[doc] = null;
          this.docTerms[doc] = null;
          freed.push(doc);
          continue;
        }
      } else {
        if (!next) continue;
        doc = this.freeDocs.pop() ?? this.docs.push(null) - 1;
        this.docIds.set(slug, doc);
      }
      this.docs[doc] = held(next);
      const first = added.length;
      this.scorer.score(next.listing, next.category, (text) => this.termId(text), (term, score) => added.push(term, doc, score));
      const terms = new Int32Array((added.length - first) / 3);
      for (let i = first, t = 0; i < added.length; i += 3, t++) {
        terms[t] = added[i];
        if (touch(added[i])) touched.push(added[i]);
      }
      this.docTerms[doc] = terms;
      this.list(doc);
      placed.push(doc);
    }
    if (resort) {
      // The listings left in place keep their order: the batch's leave it (revised or withdrawn), and
      // those it placed are sorted and merged in.
      const leaving = new Set(changed);
      const staying = leaving.size > 0 ? this.browseOrder.filter((doc) => !leaving.has(doc)) : this.browseOrder;
      placed.sort((a, b) => this.byPopularity(a, b));
      this.browseOrder = mergeSorted(staying, placed, (a, b) => this.byPopularity(a, b));
    } else {
      for (const doc of placed) this.browseOrder.splice(this.browsePosition(doc), 0, doc);
    }
    const additions = groupByTerm(added, touched);
    const gone = this.buffers.mark(changed);
    const becameDead: string[] = [];
    for (let k = 0; k < touched.length; k++) {
      const term = touched[k];
      const before = this.termDocs[term].length;
      const [from, to] = [additions.starts[k], additions.starts[k + 1]];
      if (losing.has(term) || !this.appendTerm(term, additions.docs, additions.scores, from, to)) {
        this.rewriteTerm(term, gone, additions.docs, additions.scores, from, to);
      }
      const after = this.termDocs[term].length;
      if ((before === 0) !== (after === 0)) this.dictionaryChanges.add(this.termText[term]);
      if (before > 0 && after === 0) becameDead.push(this.termText[term]);
    }
    for (const text of becameDead) this.dropTerm(text);
    this.freeDocs.push(...freed);
  }

  /** The id of a term, made when it is new (with no postings until the batch adds them). */
  private termId(text: string): number {
    let id = this.termIds.get(text);
    if (id === undefined) {
      id = this.freeTerms.pop() ?? this.termText.length;
      this.termText[id] = text;
      this.termDocs[id] = EMPTY;
      this.termScores[id] = EMPTY;
      this.termIds.set(text, id);
    }
    return id;
  }

  private dropTerm(text: string): void {
    const id = this.termIds.get(text)!;
    this.termIds.delete(text);
    this.termText[id] = '';
    this.freeTerms.push(id);
  }

  /**
   * A term's postings without those of the listings `gone` says and with the batch's new ones for it
   * (`docs`/`scores` from `from` to `to`, in listing order), still ordered by listing.
   */
  private rewriteTerm(term: number, gone: (doc: number) => boolean, docs: Int32Array, scores: Int32Array, from: number, to: number): void {
    const oldDocs = this.termDocs[term];
    const oldScores = this.termScores[term];
    const outDocs = new Int32Array(oldDocs.length + to - from);
    const outScores = new Int32Array(outDocs.length);
    let n = 0;
    let p = from;
    for (let i = 0; i < oldDocs.length; i++) {
      const doc = oldDocs[i];
      while (p < to && docs[p] < doc) {
        outDocs[n] = docs[p];
        outScores[n++] = scores[p++];
      }
      if (gone(doc)) continue;
      outDocs[n] = doc;
      outScores[n++] = oldScores[i];
    }
    for (; p < to; p++) {
      outDocs[n] = docs[p];
      outScores[n++] = scores[p];
    }
    this.termDocs[term] = n === outDocs.length ? outDocs : outDocs.slice(0, n);
    this.termScores[term] = n === outScores.length ? outScores : outScores.slice(0, n);
  }

  /**
   * A term's postings with the batch's new ones for it appended, when they all come after its last (new
   * listings get ever higher numbers): in place, in room kept at the end of the list, so loading a catalog
   * batch by batch copies each list a few times rather than once a batch. False when they do not.
   */
  private appendTerm(term: number, docs: Int32Array, scores: Int32Array, from: number, to: number): boolean {
    const oldDocs = this.termDocs[term];
    const length = oldDocs.length;
    if (length > 0 && docs[from] <= oldDocs[length - 1]) return false;
    this.termDocs[term] = withRoom(oldDocs, length + to - from);
    this.termScores[term] = withRoom(this.termScores[term], length + to - from);
    this.termDocs[term].set(docs.subarray(from, to), length);
    this.termScores[term].set(scores.subarray(from, to), length);
    return true;
  }

  /**
   * The sorted dictionary, with the terms that became live or dead since its last use put in or taken out:
   * once per use rather than once per batch, so a catalog loaded in many batches sorts it once.
   */
  private dictionary(): string[] {
    const changes = this.dictionaryChanges;
    if (changes.size === 0) return this.sortedTerms;
    const live = (text: string) => (this.termDocs[this.termIds.get(text) ?? -1]?.length ?? 0) > 0;
    if (changes.size > 64) {
      const kept = this.sortedTerms.filter((text) => !changes.has(text));
      const added = [...changes].filter(live).sort(compareText);
      this.sortedTerms = mergeSorted(kept, added, compareText);
    } else {
      for (const text of changes) {
        const at = lowerBound(this.sortedTerms, text);
        const present = this.sortedTerms[at] === text;
        if (present && !live(text)) this.sortedTerms.splice(at, 1);
        else if (!present && live(text)) this.sortedTerms.splice(at, 0, text);
      }
    }
    changes.clear();
    return this.sortedTerms;
  }

  /** Records a listing's popularity and names (apply places it in the browse order). */
  private list(doc: number): void {
    const { facts, names } = this.docs[doc]!;
    if (doc >= this.popularity.length) {
      const grown = new Int32Array(Math.max(doc + 1, this.popularity.length * 2));
      grown.set(this.popularity);
      this.popularity = grown;
    }
    this.popularity[doc] = facts.popularity;
    for (const key of names) {
      let docs = this.names.get(key);
      if (!docs) this.names.set(key, (docs = new Set()));
      docs.add(doc);
    }
  }

  /** Takes a listing's names out and, unless the whole order is sorted again, takes it out of the browse order. */
  private unlist(doc: number, fromBrowse: boolean): void {
    if (fromBrowse) {
      const at = this.browsePosition(doc);
      if (this.browseOrder[at] === doc) this.browseOrder.splice(at, 1);
    }
    for (const key of this.docs[doc]!.names) {
      const docs = this.names.get(key);
      docs?.delete(doc);
      if (docs?.size === 0) this.names.delete(key);
    }
  }

  /** Where a listing is, or goes, in the browse order (binary search by popularity, then slug). */
  private browsePosition(doc: number): number {
    let lo = 0;
    let hi = this.browseOrder.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.byPopularity(this.browseOrder[mid], doc) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Browse order: more popular first, then by slug. */
  private byPopularity(a: number, b: number): number {
    const pa = this.popularity[a];
    const pb = this.popularity[b];
    if (pa !== pb) return pb - pa;
    return compareText(this.docs[a]!.facts.slug, this.docs[b]!.facts.slug);
  }

  /**
   * The listings that pass the filters, by popularity then slug: `limit` of them, from position `offset`
   * among those that pass, or after a position (a cursor); and how many pass in all.
   */
  browse(filters: ListingFilters, { limit, offset = 0, after }: { limit: number; offset?: number; after?: BrowsePosition }): BrowsePage {
    const page = this.browsePage(this.filterOf(filters), offset, limit + 1, after);
    const listings = page.docs.slice(0, limit).map((doc) => this.found(doc));
    const last = listings.length > 0 ? this.docs[page.docs[listings.length - 1]]!.facts : null;
    return { total: page.total, listings, next: page.docs.length > limit && last ? { popularity: last.popularity, slug: last.slug } : null };
  }

  /**
   * Listings in browse order (popularity, then slug) that pass `filter`: `limit` of them, from position
   * `offset` among those that pass, or after the listing of popularity and slug `after` (a cursor: it
   * holds its place whatever is added or removed before it); and how many pass in all.
   */
  private browsePage(filter: ListingFilter | null, offset: number, limit: number, after?: { popularity: number; slug: string }): { total: number; docs: number[] } {
    const start = after ? this.positionAfter(after.popularity, after.slug) : 0;
    if (!filter) {
      const from = after ? start : offset;
      return { total: this.browseOrder.length, docs: this.browseOrder.slice(from, from + limit) };
    }
    const docs: number[] = [];
    let total = 0;
    for (let i = 0; i < this.browseOrder.length; i++) {
      const doc = this.browseOrder[i];
      if (!filter(doc)) continue;
      if ((after ? i >= start : total >= offset) && docs.length < limit) docs.push(doc);
      total++;
    }
    return { total, docs };
  }

  /** The first position of the browse order after a listing of this popularity and slug. */
  private positionAfter(popularity: number, slug: string): number {
    let lo = 0;
    let hi = this.browseOrder.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const doc = this.browseOrder[mid];
      const before = this.popularity[doc] > popularity || (this.popularity[doc] === popularity && compareText(this.docs[doc]!.facts.slug, slug) <= 0);
      if (before) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Runs a query: every listing that matches at least one of its parts and passes the filters (those
   * given, and those it asks for in words), ranked (see the README's Search section), and the page from
   * `offset`. Without `q`, the listings that pass, by popularity.
   */
  search(q: string | null, filters: ListingFilters, { limit, offset }: { limit: number; offset: number }): SearchAnswer {
    const request = buildSearchRequest(q, limit, this.lexicon);
    // Facts asked for in words (`free`, `openai compatible`) filter like the parameters, which win.
    const applied = { ...filters };
    for (const { filter } of request.facets) applied[filter] ??= true;
    const answer = { filters: applied, interpretation: interpret([], [], request.facets) };
    if (request.clauses.length === 0) {
      // A q with nothing searchable in it (only stop words or punctuation) finds nothing; it does not browse.
      if (q !== null && request.facets.length === 0) return { ...answer, total: 0, hits: [] };
      const page = this.browse(applied, { limit, offset });
      return { ...answer, total: page.total, hits: page.listings.map((found) => ({ ...found, score: '0', matched: [] })) };
    }
    const { total, hits, notes } = this.ranked(request, this.filterOf(applied), offset);
    const found = hits.map(({ doc, score, mask }) => ({ ...this.found(doc), score, matched: matchedFields(mask) }));
    return { ...answer, total, hits: found, interpretation: interpret(request.clauses, notes, request.facets) };
  }

  /** A query's matches that pass `filter`, ranked, and the page from `offset`, by listing number. */
  private ranked(request: SearchRequest, filter: ListingFilter | null, offset: number): { total: number; hits: RankedHit[]; notes: SearchNotes } {
    const corrections = { left: MAX_CORRECTED };
    const plan = request.clauses.map((clause) => clause.alts.map((alt) => alt.terms.map((spec) => this.expand(spec, request, corrections))));
    const notes = plan.map((alts) => alts.map((specs) => specs.map(noteOf)));
    const rows = this.score(request, plan, filter);
    const page = this.rank(rows, request.tolerance, offset, request.limit);
    const hits = page.map(({ doc, score }) => ({ doc, score: score.toFixed(3), mask: this.maskOf(doc, plan) }));
    return { total: rows.docs.length, hits, notes };
  }

  private found(doc: number): FoundListing {
    return { slug: this.docs[doc]!.facts.slug, summary: this.docs[doc]!.summary };
  }

  /** A test of a listing against the filters, or null when none is set. */
  private filterOf(filters: ListingFilters): ListingFilter | null {
    if (Object.values(filters).every((value) => value === null)) return null;
    const { category, freeTier, openaiCompatible, auth, minContext, sdk } = filters;
    return (doc) => {
      const facts = this.docs[doc]!.facts;
      return (
        (category === null || facts.category === category) &&
        (freeTier === null || facts.freeTier === freeTier) &&
        (openaiCompatible === null || facts.openaiCompatible === openaiCompatible) &&
        (auth === null || facts.authType === auth) &&
        (minContext === null || (facts.contextTokens ?? 0) >= minContext) &&
        (sdk === null || facts.sdkLanguages.includes(sdk))
      );
    };
  }

  /** Every index term a query term matches as: itself, completions while it is typed, corrections of typos. */
  private expand(spec: TermSpec, request: SearchRequest, corrections: { left: number }): Spec {
    const live = this.size;
    const idfOf = (n: number) => Math.log(1 + (live - n + 0.5) / (n + 0.5));
    const postingsOf = (text: string) => {
      const id = this.termIds.get(text);
      return id === undefined ? 0 : this.termDocs[id].length;
    };
    const exactPostings = postingsOf(spec.t);
    const expansions: Expansion[] = [];
    const add = (text: string, kind: Expansion['kind'], quality: number, idf?: number) => {
      const n = postingsOf(text);
      if (n > 0) expansions.push({ term: this.termIds.get(text)!, text, kind, factor: quality * (idf ?? idfOf(n)) });
    };
    add(spec.t, 'exact', 1);
    if (spec.p === 1) {
      // Completions of a word that is itself indexed are weighed with that word's idf, so a rare
      // completion ("apiv3") cannot outrank the word the user typed ("api").
      const damp = exactPostings > 0 ? 0.5 : 1;
      const idf = exactPostings > 0 ? idfOf(exactPostings) : undefined;
      const terms = this.dictionary();
      const start = lowerBound(terms, spec.t);
      for (let i = start; i < start + PREFIX_COMPLETIONS && i < terms.length; i++) {
        const text = terms[i];
        if (!text.startsWith(spec.t)) break;
        if (text !== spec.t) add(text, 'prefix', (request.pq * damp * spec.t.length) / text.length, idf);
      }
    }
    if (spec.f > 0 && exactPostings === 0 && corrections.left-- > 0) {
      for (const { term, edits } of termsWithinEdits(this.dictionary(), spec.t, spec.f)) {
        if (!expansions.some((e) => e.text === term)) add(term, 'fuzzy', request.fq[edits]);
      }
    }
    let postings = 0;
    for (const e of expansions) postings += this.termDocs[e.term].length;
    return { expansions, postings };
  }

  /** Every listing's clauses matched and score (listings that match none are left out). */
  private score(request: SearchRequest, plan: Spec[][][], filter: ListingFilter | null): Rows {
    const b = this.buffers;
    b.fit(this.docs.length);
    b.begin();
    const k1 = request.k1;
    const query = b.next();
    // Lists of listing numbers live in the buffers' typed arrays (a JS array grown by push cost a third
    // of a broad query): candidates and survivors of a term swap between two.
    const { rowDocs, clauseDocs } = b;
    let rows = 0;
    /** Whether a listing passes the filter; its row is made (0 clauses, score 0) the first time it is met. */
    const enter = (doc: number): boolean => {
      if (filter && !filter(doc)) return false;
      if (b.rowStamp[doc] !== query) {
        b.rowStamp[doc] = query;
        b.rowScore[doc] = 0;
        b.rowMatched[doc] = 0;
        rowDocs[rows++] = doc;
      }
      return true;
    };
    for (let c = 0; c < request.clauses.length; c++) {
      const alts = request.clauses[c].alts;
      const clauseEpoch = b.next();
      let inClause = 0;
      for (let a = 0; a < alts.length; a++) {
        const specs = plan[c][a];
        if (specs.length === 0 || specs.some((spec) => spec.expansions.length === 0)) continue;
        const order = specs.map((_, i) => i).sort((x, y) => specs[x].postings - specs[y].postings || x - y);
        const weight = alts[a].w / specs.length;
        // The most selective term gives the candidates; each next term keeps those that have it.
        let candidates = b.listA;
        let spare = b.listB;
        let count = this.bestOf(specs[order[0]], k1, b.next(), 0, candidates);
        for (let i = 0; i < count; i++) b.sum[candidates[i]] = b.value[candidates[i]];
        for (let s = 1; s < order.length && count > 0; s++) {
          const alive = b.next();
          for (let i = 0; i < count; i++) b.alive[candidates[i]] = alive;
          count = this.bestOf(specs[order[s]], k1, b.next(), alive, spare);
          for (let i = 0; i < count; i++) b.sum[spare[i]] += b.value[spare[i]];
          [candidates, spare] = [spare, candidates];
        }
        for (let i = 0; i < count; i++) {
          const doc = candidates[i];
          const value = b.sum[doc] * weight;
          if (b.clauseStamp[doc] !== clauseEpoch) {
            b.clauseStamp[doc] = clauseEpoch;
            b.clauseValue[doc] = value;
            clauseDocs[inClause++] = doc;
          } else if (value > b.clauseValue[doc]) b.clauseValue[doc] = value;
        }
      }
      for (let i = 0; i < inClause; i++) {
        const doc = clauseDocs[i];
        if (!enter(doc)) continue;
        b.rowScore[doc] += b.clauseValue[doc];
        b.rowMatched[doc]++;
      }
    }
    // A query that is exactly a listing's name, slug or alias (`chatgpt`, `通义千问`) puts that listing first.
    for (const doc of (request.nameKey && this.names.get(request.nameKey)) || []) {
      if (enter(doc)) b.rowMatched[doc] += NAMED;
    }
    return { docs: rowDocs.subarray(0, rows), score: b.rowScore, matched: b.rowMatched };
  }

  /**
   * The best value (factor times the saturated frequency) of any expansion of a term, per listing that has
   * one, in `buffers.value`, stamped `epoch`; only listings stamped `alive` in `buffers.alive` when that is
   * not 0. Writes those listings to `found` and returns how many there are.
   */
  private bestOf(spec: Spec, k1: number, epoch: number, alive: number, found: Int32Array): number {
    const { stamp, value } = this.buffers;
    const aliveStamps = this.buffers.alive;
    let count = 0;
    for (const e of spec.expansions) {
      const docs = this.termDocs[e.term];
      const scores = this.termScores[e.term];
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i];
        if (alive !== 0 && aliveStamps[doc] !== alive) continue;
        const tf = (scores[i] >> 10) / 100; // the high part is the frequency times 100
        const v = (e.factor * tf * (k1 + 1)) / (tf + k1);
        if (stamp[doc] !== epoch) {
          stamp[doc] = epoch;
          value[doc] = v;
          found[count++] = doc;
        } else if (v > value[doc]) value[doc] = v;
      }
    }
    return count;
  }

  /**
   * The page from `offset`: ranked by clauses matched, then score; listings that match as many clauses
   * and score within `tolerance` of the best of their group (or within 5 x tolerance absolute) are equals,
   * which popularity orders (then score, then slug). Rows that cannot reach the page are set aside first.
   */
  private rank(rows: Rows, tolerance: number, offset: number, limit: number): Array<{ doc: number; score: number }> {
    const wanted = offset + limit;
    const { matched, score } = rows;
    // Rows left to place, compacted in place as groups leave (the buffers' lists are free once scored).
    let rest = this.buffers.listA.subarray(0, rows.docs.length);
    rest.set(rows.docs);
    if (rest.length > wanted) {
      // The lowest group a page row can come from starts at the wanted-th best row: nothing under its floor shows.
      const keys = this.buffers.keys.subarray(0, rest.length);
      for (let i = 0; i < rest.length; i++) keys[i] = matched[rest[i]] * 1e6 + score[rest[i]];
      const kth = selectDescending(keys, wanted - 1);
      const kthMatched = Math.floor(kth / 1e6);
      const cut = kthMatched * 1e6 + floorOf(kth - kthMatched * 1e6, tolerance) - 1e-6;
      let n = 0;
      for (let i = 0; i < rest.length; i++) if (matched[rest[i]] * 1e6 + score[rest[i]] >= cut) rest[n++] = rest[i];
      rest = rest.subarray(0, n);
    }
    // Groups are found by scanning, not by sorting every row: the best row left leads, and every row left
    // that matches as many clauses and scores at least its floor joins it (rows that tie with the lead are
    // all in its group, so which of them leads does not matter). A page usually fills from one or two
    // groups, and of a large group only the members popular enough for the places left are ordered.
    const page: Array<{ doc: number; score: number }> = [];
    const members = this.buffers.listB;
    const slugOf = (doc: number) => this.docs[doc]!.facts.slug;
    while (rest.length > 0 && page.length < wanted) {
      let lead = rest[0];
      for (let i = 1; i < rest.length; i++) {
        const doc = rest[i];
        if (matched[doc] > matched[lead] || (matched[doc] === matched[lead] && score[doc] > score[lead])) lead = doc;
      }
      const floor = floorOf(score[lead], tolerance);
      const leadMatched = matched[lead];
      let inGroup = 0;
      let left = 0;
      for (let i = 0; i < rest.length; i++) {
        const doc = rest[i];
        if (matched[doc] === leadMatched && score[doc] >= floor) members[inGroup++] = doc;
        else rest[left++] = doc;
      }
      rest = rest.subarray(0, left);
      const places = wanted - page.length;
      let group: Int32Array = members.subarray(0, inGroup);
      if (group.length > 2 * places) group = this.mostPopular(group, places);
      const ordered = Array.from(group).sort((a, b) => this.popularity[b] - this.popularity[a] || score[b] - score[a] || compareText(slugOf(a), slugOf(b)));
      for (const doc of ordered) if (page.length < wanted) page.push({ doc, score: score[doc] });
    }
    return page.slice(offset);
  }

  /** Of a large group of equals, those popular enough for `places` places (popularity is 0-100). */
  private mostPopular(group: Int32Array, places: number): Int32Array {
    const counts = new Int32Array(102);
    for (const doc of group) counts[Math.min(101, Math.max(0, this.popularity[doc]))]++;
    let threshold = 101;
    for (let seen = 0; threshold > 0 && seen + counts[threshold] < places; threshold--) seen += counts[threshold];
    return group.filter((doc) => this.popularity[doc] >= threshold);
  }

  /** The fields a result matched: those of every alternative it matches, over all clauses. */
  private maskOf(doc: number, plan: Spec[][][]): number {
    let mask = 0;
    for (const alts of plan) {
      for (const specs of alts) {
        const scores = specs.map((spec) => spec.expansions.map((e) => this.scoreIn(e.term, doc)));
        if (specs.length === 0 || !scores.every((list) => list.some((s) => s > 0))) continue;
        for (const list of scores) for (const s of list) mask |= s % 1024;
      }
    }
    return mask;
  }

  /** A listing's encoded posting in a term's list, or 0 (binary search: lists are ordered by listing). */
  private scoreIn(term: number, doc: number): number {
    const docs = this.termDocs[term];
    let lo = 0;
    let hi = docs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (docs[mid] < doc) lo = mid + 1;
      else hi = mid;
    }
    return docs[lo] === doc ? this.termScores[term][lo] : 0;
  }
}

interface Rows {
  docs: Int32Array;
  score: Float64Array;
  matched: Int32Array;
}

const EMPTY = new Int32Array(0);

/**
 * `list` lengthened to `length`: in the same memory when it has the room, else copied into new memory with
 * half as much again to spare (none for a list that was empty: most terms are rare and never grow).
 */
function withRoom(list: Int32Array, length: number): Int32Array {
  if (list.byteOffset === 0 && list.buffer.byteLength >= length * 4) return new Int32Array(list.buffer, 0, length);
  const room = list.length === 0 ? length : length + (length >> 1);
  const grown = new Int32Array(new ArrayBuffer(room * 4), 0, length);
  grown.set(list);
  return grown;
}

/** What the index keeps of a listing it is given (see HeldListing). */
function held({ listing, summary }: IndexedListing): HeldListing {
  const { slug, category, popularity, freeTier, openaiCompatible, authType, contextTokens, sdkLanguages } = listing;
  return {
    facts: { slug, category, popularity, freeTier, openaiCompatible, authType, contextTokens, sdkLanguages },
    summary,
    // The name keys it answers to: its name, Chinese name, slug and aliases.
    names: [...new Set([listing.name, listing.nameCn, slug, ...(listing.aliases ?? [])].map(nameKey).filter(Boolean))],
  };
}

/**
 * A batch's new postings, given as (term, listing, score) triples, grouped by term in the order of `terms`
 * (each group in listing order): the group of terms[k] is docs/scores from starts[k] to starts[k + 1].
 */
function groupByTerm(triples: number[], terms: number[]): { docs: Int32Array; scores: Int32Array; starts: Int32Array } {
  let highest = 0;
  for (const term of terms) if (term > highest) highest = term;
  const slot = new Int32Array(highest + 1);
  terms.forEach((term, k) => (slot[term] = k));
  const starts = new Int32Array(terms.length + 1);
  for (let i = 0; i < triples.length; i += 3) starts[slot[triples[i]] + 1]++;
  for (let k = 0; k < terms.length; k++) starts[k + 1] += starts[k];
  const fill = starts.slice(0, terms.length);
  const docs = new Int32Array(triples.length / 3);
  const scores = new Int32Array(docs.length);
  let ordered = true;
  for (let i = 0; i < triples.length; i += 3) {
    const k = slot[triples[i]];
    const at = fill[k]++;
    docs[at] = triples[i + 1];
    scores[at] = triples[i + 2];
    if (at > starts[k] && docs[at - 1] > docs[at]) ordered = false;
  }
  // New listings get new numbers in order, so groups usually come sorted; a reused number may not.
  if (!ordered) {
    for (let k = 0; k < terms.length; k++) {
      const order = Array.from({ length: starts[k + 1] - starts[k] }, (_, i) => starts[k] + i).sort((a, b) => docs[a] - docs[b]);
      const d = order.map((i) => docs[i]);
      const sc = order.map((i) => scores[i]);
      docs.set(d, starts[k]);
      scores.set(sc, starts[k]);
    }
  }
  return { docs, scores, starts };
}

/** Two sorted lists as one sorted list. */
function mergeSorted<T>(a: readonly T[], b: readonly T[], compare: (x: T, y: T) => number): T[] {
  const out = new Array<T>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = compare(a[i], b[j]) <= 0 ? a[i++] : b[j++];
  while (i < a.length) out[k++] = a[i++];
  while (j < b.length) out[k++] = b[j++];
  return out;
}

/** The lowest score that still ties with `score`. */
function floorOf(score: number, tolerance: number): number {
  return score - Math.max(score * tolerance, tolerance * 5);
}

/** Code-unit order, as the dictionary is sorted (ASCII slugs and terms: byte order). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function noteOf(spec: Spec): Partial<Record<Expansion['kind'], string[]>> {
  const note: Partial<Record<Expansion['kind'], string[]>> = {};
  for (const e of spec.expansions) {
    const list = (note[e.kind] ??= []);
    if (list.length < NOTED_TERMS) list.push(e.text);
  }
  return note;
}

/** The k-th largest value (from 0) of `values`, which it reorders (quickselect). */
function selectDescending(values: Float64Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >>> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i] > pivot) i++;
      while (values[j] < pivot) j--;
      if (i <= j) {
        const t = values[i];
        values[i] = values[j];
        values[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return values[k];
  }
  return values[k];
}

/** Epochs kept free for one use of the search buffers (see ScoreBuffers.begin). */
const EPOCH_MARGIN = 1 << 24;

/**
 * Working memory of searches, one slot per listing number, reused from query to query: a value counts
 * only where its stamp is the current epoch, so nothing is cleared between uses.
 */
class ScoreBuffers {
  private epoch = 0;
  stamp = new Uint32Array(0);
  value = new Float64Array(0);
  alive = new Uint32Array(0);
  sum = new Float64Array(0);
  clauseStamp = new Uint32Array(0);
  clauseValue = new Float64Array(0);
  rowStamp = new Uint32Array(0);
  rowScore = new Float64Array(0);
  rowMatched = new Int32Array(0);
  /** Ranking keys of the rows of a search (see SearchIndex.rank). */
  keys = new Float64Array(0);
  /** Lists of listing numbers: a term's candidates and survivors, a clause's listings, a query's rows. */
  listA = new Int32Array(0);
  listB = new Int32Array(0);
  clauseDocs = new Int32Array(0);
  rowDocs = new Int32Array(0);

  fit(size: number): void {
    if (this.stamp.length >= size) return;
    const n = Math.max(size, this.stamp.length * 2, 1024);
    this.stamp = new Uint32Array(n);
    this.value = new Float64Array(n);
    this.alive = new Uint32Array(n);
    this.sum = new Float64Array(n);
    this.clauseStamp = new Uint32Array(n);
    this.clauseValue = new Float64Array(n);
    this.rowStamp = new Uint32Array(n);
    this.rowScore = new Float64Array(n);
    this.rowMatched = new Int32Array(n);
    this.keys = new Float64Array(n);
    this.listA = new Int32Array(n);
    this.listB = new Int32Array(n);
    this.clauseDocs = new Int32Array(n);
    this.rowDocs = new Int32Array(n);
  }

  /**
   * Called before each use of the buffers (a search, a batch's mark): when the epochs come near the top
   * of their range, every stamp is cleared and they start again. Never within a use, whose epochs must
   * all stay newer than every stamp: a search takes at most a few hundred of them, far below the margin.
   */
  begin(): void {
    if (this.epoch < 0xffffffff - EPOCH_MARGIN) return;
    for (const stamps of [this.stamp, this.alive, this.clauseStamp, this.rowStamp]) stamps.fill(0);
    this.epoch = 0;
  }

  /** A fresh epoch: every stamp so far is stale. */
  next(): number {
    if (this.epoch === 0xffffffff) throw new Error('search buffers: epochs exhausted within one use (see begin)');
    return ++this.epoch;
  }

  private termStamp = new Uint32Array(0);
  private termEpoch = 0;

  /** A function that says true the first time it is given each term (numbers below `size`) in this batch. */
  termMarker(size: number): (term: number) => boolean {
    if (this.termStamp.length < size + 1024) {
      const grown = new Uint32Array(Math.max(size + 1024, this.termStamp.length * 2));
      grown.set(this.termStamp);
      this.termStamp = grown;
    }
    const epoch = ++this.termEpoch;
    return (term) => {
      if (term >= this.termStamp.length) {
        const grown = new Uint32Array(Math.max(term + 1024, this.termStamp.length * 2));
        grown.set(this.termStamp);
        this.termStamp = grown;
      }
      if (this.termStamp[term] === epoch) return false;
      this.termStamp[term] = epoch;
      return true;
    };
  }

  /** A test for membership of `docs`, valid until the next call of next() or mark(). */
  mark(docs: number[]): (doc: number) => boolean {
    let max = 0;
    for (const doc of docs) if (doc > max) max = doc;
    this.fit(max + 1);
    this.begin();
    const epoch = this.next();
    for (const doc of docs) this.alive[doc] = epoch;
    const alive = this.alive;
    return (doc) => doc < alive.length && alive[doc] === epoch;
  }
}
