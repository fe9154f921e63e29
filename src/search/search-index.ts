import type { BrowsePosition } from '../http/paging-cursor';
import type { Category, Task } from '../categories/categories';
import type { ListingFilters } from '../contract/listing-filters';
import { LIVE_FILTER_VALUES, LiveFilterValue } from '../liveness/liveness.schema';
import type { ListingOrder, ListingSort } from '../contract/listing-filters';
import { commonUnit, lacksFact, orderKey, orderName, POPULAR, type OrderBy } from './listing-order';
import { type ListingDocument } from '../listings/write/listing.document';
import { aliasKey } from '../contract/vocabulary';
import { PostingScorer } from './listing-postings';
import { NewPostings, PostingLists } from './posting-lists';
import { ClauseInterpretation, interpret, planQuery } from './query-plan';
import { clearRows, compareText, matchedMask, rankPage, scoreRows, WorkingArrays } from './ranking';
import { matchedFields } from './search-fields';
import { held, listingFilter, type HeldListing } from './held-listing';
import { parseQuery } from './search-query';

/** A listing as the index is given it: the document (tokenised, then let go), its category, its summary. */
export interface IndexedListing {
  listing: ListingDocument;
  category: Category | undefined;
  /** The tasks it does, with their names and synonyms (from the task list). */
  tasks?: Task[];
  /** The search summary as the API sends it (JSON). */
  summary: string;
  /** The listing's liveness state as published (unchecked: none yet). */
  live?: LiveFilterValue;
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
  /** The order applied: the one asked for, else the one the query asked for in words, else relevance. */
  sort: ListingOrder;
}

export type { BrowsePosition };

export interface BrowsePage {
  /** Listings that pass the filters. */
  total: number;
  listings: FoundListing[];
  /** Where the next page starts, when more listings follow. */
  next: BrowsePosition | null;
  /** With an order by price: the listings that pass but have no such rate (they come last). */
  withoutRate: number;
}

/**
 * The search index, held in the memory of each serving process: what a search or a browse needs of every
 * listing (filters are evaluated here), and the postings of every term (see PostingLists). It is fed the
 * listings that changed, batch by batch (see IndexFollower); whatever the batches, it answers as an index
 * built at once from the listings it holds.
 *
 * Why in process: agents' queries are a long tail that the response cache does not help, and a search run
 * as a Lua script in Redis made every query queue on Redis's single thread. Here a query costs one
 * process's CPU and no round trip, and capacity grows with the serving processes.
 *
 * Listings are numbered inside the index (numbers are reused); what it gives out is slugs and summaries.
 */
export class SearchIndex {
  private readonly lists = new PostingLists();
  private readonly scorer = new PostingScorer();
  private readonly docIds = new Map<string, number>();
  private readonly docs: Array<HeldListing | null> = [];
  /** The terms of each listing: the lists it leaves when revised or withdrawn. */
  private readonly docTerms: Array<Int32Array | null> = [];
  private readonly freeDocs: number[] = [];
  /** Name keys (see aliasKey) of every listing's name, Chinese name, slug and aliases -> the listings. */
  private readonly names = new Map<string, Set<number>>();
  /** Every listing in each order asked for since the last change (see orderName), best first, then by slug. */
  private readonly orders = new Map<string, number[]>();
  /** The arrays searches work in, between searches (see WorkingArrays). */
  private work: WorkingArrays | null = null;
  /** Retired listings held (searches leave them out unless asked). */
  private retired = 0;

  /** Listings held. */
  get size(): number {
    return this.docIds.size;
  }

  /** Whether the index holds this listing. */
  has(slug: string): boolean {
    return this.docIds.has(slug);
  }

  /**
   * The slug of the one listing a name (its name, Chinese name, slug or an alias, in any case and spacing)
   * belongs to; null when none does, or several do (a model id several listings serve).
   */
  slugNamed(name: string): string | null {
    const docs = this.names.get(aliasKey(name));
    if (!docs || docs.size !== 1) return null;
    return this.docs[[...docs][0]]?.facts.slug ?? null;
  }

  /** Listings (retired ones left out) by liveness state: for /api/v1/liveness and /metrics, not for searches. */
  liveCounts(): Record<LiveFilterValue, number> {
    const counts = Object.fromEntries(LIVE_FILTER_VALUES.map((state) => [state, 0])) as Record<LiveFilterValue, number>;
    for (const doc of this.docIds.values()) {
      const facts = this.docs[doc]!.facts;
      if (facts.lifecycle !== 'retired') counts[facts.live]++;
    }
    return counts;
  }

  /** Listings (retired ones left out) that do each task, by task slug: for GET /api/v1/tasks. */
  taskCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const doc of this.docIds.values()) {
      const facts = this.docs[doc]!.facts;
      if (facts.lifecycle === 'retired') continue;
      for (const task of facts.tasks) counts.set(task, (counts.get(task) ?? 0) + 1);
    }
    return counts;
  }

  /** Applies what a batch of events left of each listing it touched: the new document, or null when withdrawn. */
  apply(changes: ReadonlyMap<string, IndexedListing | null>): void {
    /** Listings whose postings go (revised or withdrawn), and the terms they had. */
    const gone = new Uint8Array(this.docs.length);
    const losing = new Set<number>();
    const placed: Array<[number, IndexedListing]> = [];
    const freed: number[] = [];
    for (const [slug, next] of changes) {
      let doc = this.docIds.get(slug);
      if (doc !== undefined) {
        gone[doc] = 1;
        for (const term of this.docTerms[doc]!) losing.add(term);
        this.unname(doc);
        if (this.docs[doc]!.facts.lifecycle === 'retired') this.retired--;
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
      placed.push([doc, next]);
    }
    // Scored in the order of their numbers, so each term's new postings come in listing order.
    const added = new Map<number, NewPostings>();
    for (const [doc, next] of placed.sort((a, b) => a[0] - b[0])) {
      const listing = held(next);
      this.docs[doc] = listing;
      if (listing.facts.lifecycle === 'retired') this.retired++;
      const terms: number[] = [];
      this.scorer.score(next.listing, next.category, next.tasks ?? [], (text) => this.lists.idOf(text), (term, score) => {
        terms.push(term);
        const postings = added.get(term) ?? added.set(term, { docs: [], scores: [] }).get(term)!;
        postings.docs.push(doc);
        postings.scores.push(score);
      });
      this.docTerms[doc] = Int32Array.from(terms);
      for (const key of listing.names) {
        if (!this.names.has(key)) this.names.set(key, new Set());
        this.names.get(key)!.add(doc);
      }
    }
    this.lists.apply(gone, losing, added);
    this.freeDocs.push(...freed);
    this.orders.clear();
  }

  /**
   * Runs a query: every listing that matches at least one of its parts and passes the filters (those
   * given, and those it asks for in words), ranked (see ranking.ts), and the page from `offset`. Without
   * `q`, the listings that pass, by popularity.
   */
  search(q: string | null, filters: ListingFilters, { limit, offset }: { limit: number; offset: number }, sort: ListingSort | null = null): SearchAnswer {
    const query = q === null ? { clauses: [], facets: [], nameKey: null, modelKind: null } : parseQuery(q, this.lists);
    // Facts asked for in words (`free`, `openai compatible`) filter like the parameters, which win; so does
    // an order asked for in words (`cheapest`, `longest context`), unless `sort` is given.
    const applied = { ...filters };
    let asked: ListingSort | null = sort;
    for (const facet of query.facets) {
      if ('filter' in facet) applied[facet.filter] ??= true;
      else asked ??= facet.sort;
    }
    // A price order compares the rates of the kind of model the query names (`cheapest embedding model`).
    const order: OrderBy = { by: asked ?? (query.clauses.length > 0 ? 'relevance' : 'popular'), priceUnit: applied.priceUnit, modelKind: null };
    if (order.by === 'price') order.modelKind = query.modelKind;
    if (query.clauses.length === 0) {
      // A q with nothing searchable in it (only stop words or punctuation) finds nothing; it does not browse.
      if (q !== null && query.facets.length === 0) return { filters: applied, interpretation: [], sort: { ...order, withoutRate: 0 }, total: 0, hits: [] };
      if (order.by === 'relevance') order.by = 'popular';
      this.chooseUnit(order, this.passing(applied));
      const page = this.browse(applied, { limit, offset }, order);
      const sorted = { ...order, withoutRate: page.withoutRate };
      return { filters: applied, interpretation: interpret([], [], query.facets, sorted), sort: sorted, total: page.total, hits: page.listings.map((found) => ({ ...found, score: '0', matched: [] })) };
    }
    const plan = planQuery(query.clauses, this.lists, this.size);
    const named = [...((query.nameKey && this.names.get(query.nameKey)) || [])];
    // Taken for this search and given back clean: a search that throws leaves them to be made again.
    const work = this.work && this.work.capacity >= this.docs.length ? this.work : new WorkingArrays(this.docs.length);
    this.work = null;
    const rows = scoreRows(query.clauses, plan, work, this.filterOf(applied), named);
    let total = rows.docs.length;
    let page: number[];
    let withoutRate = 0;
    if (order.by === 'relevance') {
      page = rankPage(rows, offset, limit, (doc) => this.docs[doc]!.facts.popularity, (doc) => this.docs[doc]!.facts.slug);
    } else {
      // Ordered by a fact: the listings that match the most parts of the query (all of them, when any
      // does), by that fact, then by relevance. A listing that matched one word of three is not an answer,
      // however cheap.
      let most = 0;
      for (const doc of rows.docs) most = Math.max(most, rows.matched[doc]);
      const found = Array.from(rows.docs).filter((doc) => rows.matched[doc] === most);
      this.chooseUnit(order, found);
      const key = new Map(found.map((doc) => [doc, orderKey(this.docs[doc]!.facts, order)]));
      found.sort((a, b) => key.get(b)! - key.get(a)! || rows.score[b] - rows.score[a] || this.docs[b]!.facts.popularity - this.docs[a]!.facts.popularity || compareText(this.docs[a]!.facts.slug, this.docs[b]!.facts.slug));
      for (const doc of found) if (lacksFact(this.docs[doc]!.facts, order)) withoutRate++;
      total = found.length;
      page = found.slice(offset, offset + limit);
    }
    const hits = page.map((doc) => ({
      slug: this.docs[doc]!.facts.slug,
      summary: this.docs[doc]!.summary,
      score: rows.score[doc].toFixed(3),
      matched: matchedFields(matchedMask(doc, plan)),
    }));
    clearRows(rows);
    this.work = work;
    const sorted = { ...order, withoutRate };
    return { filters: applied, sort: sorted, total, hits, interpretation: interpret(query.clauses, plan, query.facets, sorted) };
  }

  /**
   * An order by price asked for without a unit (words such as `cheapest`) takes the unit most of the found
   * listings have a rate in; with no rate of the kind of model named, it compares every rate instead.
   */
  private chooseUnit(order: OrderBy, found: Iterable<number>): void {
    if (order.by !== 'price' || order.priceUnit !== null) return;
    const facts = [...found].map((doc) => this.docs[doc]!.facts);
    order.priceUnit = commonUnit(facts, order.modelKind);
    if (order.priceUnit === null && order.modelKind !== null) {
      order.modelKind = null;
      order.priceUnit = commonUnit(facts, null);
    }
  }

  /** The listings that pass the filters (for choosing a unit when the query has no words to search). */
  private *passing(filters: ListingFilters): Iterable<number> {
    const passes = this.filterOf(filters);
    for (const doc of this.docIds.values()) if (passes(doc)) yield doc;
  }

  /**
   * The listings that pass the filters, in an order (by popularity unless asked), then by slug: `limit` of
   * them, from position `offset` among those that pass, or after a position (a cursor); and how many pass
   * in all.
   */
  browse(filters: ListingFilters, { limit, offset = 0, after }: { limit: number; offset?: number; after?: BrowsePosition }, order: OrderBy = POPULAR): BrowsePage {
    const passes = this.filterOf(filters);
    const listings: FoundListing[] = [];
    let last: { key: number; slug: string } | null = null;
    let total = 0;
    let withoutRate = 0;
    /** Listings that pass from the start of the page on: more than `limit`, and more follow. */
    let fromStart = 0;
    for (const doc of this.order(order)) {
      if (!passes(doc)) continue;
      const { facts, summary } = this.docs[doc]!;
      const key = orderKey(facts, order);
      const started = after ? key < after.key || (key === after.key && facts.slug > after.slug) : total >= offset;
      total++;
      if (lacksFact(facts, order)) withoutRate++;
      if (started && fromStart++ < limit) {
        listings.push({ slug: facts.slug, summary });
        last = { key, slug: facts.slug };
      }
    }
    return { total, listings, next: last && fromStart > limit ? last : null, withoutRate };
  }

  /** Every listing in an order, worked out again after a batch changed the listings. */
  private order(order: OrderBy): number[] {
    const name = orderName(order);
    let docs = this.orders.get(name);
    if (!docs) {
      const key = new Map([...this.docIds.values()].map((doc) => [doc, orderKey(this.docs[doc]!.facts, order)]));
      docs = [...key.keys()].sort((a, b) => key.get(b)! - key.get(a)! || compareText(this.docs[a]!.facts.slug, this.docs[b]!.facts.slug));
      this.orders.set(name, docs);
    }
    return docs;
  }

  /** A test of a listing against the filters (see listingFilter). */
  private filterOf(filters: ListingFilters): (doc: number) => boolean {
    return listingFilter(filters, this.docs, this.retired > 0);
  }

  /** Takes a listing's name keys out of the name look-up. */
  private unname(doc: number): void {
    for (const key of this.docs[doc]!.names) {
      const docs = this.names.get(key)!;
      docs.delete(doc);
      if (docs.size === 0) this.names.delete(key);
    }
  }
}
