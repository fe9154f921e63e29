import type { ModelFilters, ModelSort } from '../contract/model-filters';
import { aliasKey, type ComparedRateUnit } from '../contract/vocabulary';
import type { ModelEntryDocument } from '../models/write/model-entry.document';
import { buildModelView, modelEntryId, type ModelView, type OfferAt, type OfferingListing } from '../models/views/model-views';

import { allowedEdits } from './search-query';
import { ModelFilterColumns } from './model-filter-columns';
import { indexTerms, joinedTerms } from './tokenizer';
import { lowerBound, termsWithinEdits } from './typo-terms';

/** A page of the catalog: the models that pass, in order, and how many there are. */
export interface ModelPage {
  total: number;
  /** The page's models with their relevance to q (0 without q). */
  models: Array<{ view: ModelView; score: number }>;
  /** With sort=price: how many of the models that pass have no current rate in the unit (they come last). */
  withoutRate: number;
}

/** Field weights of a query's match: names first, then what the model is called at its offers, then who made it. */
const WEIGHTS = { name: 1, id: 1, alias: 0.9, offer: 0.8, family: 0.7, creator: 0.5 } as const;
type Field = keyof typeof WEIGHTS;

/**
 * The model catalog held in each serving process's memory, beside the search index of listings and fed by
 * the same follower of the event log: every model entry, and every offer of every listing, grouped by the
 * model they serve. Filters and sorts answer from memory: each sort has its order worked out once per
 * change of the catalog, so a query walks that order, tests each model's facts, and stops counting at the
 * end (no sort per query). A query with `q` matches the words of each model's names, ids, family, aliases
 * and maker, as listing search does (prefixes, typos, Chinese bigrams).
 *
 * Changes come in batches (the follower's pages of events); the views are rebuilt on the next read after
 * a change, all at once: content changes are rare, reads are many.
 */
export class ModelIndex {
  private readonly listings = new Map<string, OfferingListing>();
  private readonly entries = new Map<string, ModelEntryDocument>();
  private built: Built | null = null;

  /** Applies a batch: listings (null: withdrawn) and model entries (null: withdrawn) that changed. */
  apply(listings: ReadonlyMap<string, OfferingListing | null>, entries: ReadonlyMap<string, ModelEntryDocument | null>): void {
    for (const [slug, listing] of listings) {
      if (listing && listing.models.length > 0) this.listings.set(slug, listing);
      else this.listings.delete(slug);
    }
    for (const [id, entry] of entries) {
      if (entry) this.entries.set(id, entry);
      else this.entries.delete(id);
    }
    if (listings.size > 0 || entries.size > 0) this.built = null;
  }

  /** Models in the catalog (those some listing serves). */
  get size(): number {
    return this.build().views.length;
  }

  /** One model by its id (any case), or null. */
  get(id: string): ModelView | null {
    const built = this.build();
    const at = built.byId.get(id.toLowerCase());
    return at === undefined ? null : built.views[at];
  }

  /** The models that pass the filters, in the order asked for, a page at a time. */
  query(filters: ModelFilters, sort: ModelSort, { offset, limit }: { offset: number; limit: number }): ModelPage {
    const built = this.build();
    const scores = filters.q ? this.match(built, filters.q) : null;
    const passes = built.columns.passes(filters, new Date().toISOString().slice(0, 10));
    const prices = sort === 'price' ? built.columns.lowestIn(filters.priceUnit!) : null;
    const sorted = sort === 'price' ? built.priceOrder(filters.priceUnit!) : built.orders[sort === 'relevance' ? 'popular' : sort];
    // With q, only the models that match are walked: by score, or by their place in the order asked for.
    let order: Int32Array | number[] = sorted;
    if (scores) {
      const rank = built.rankIn(sorted);
      order = [...scores.keys()].sort(sort === 'relevance' ? (a, b) => scores.get(b)! - scores.get(a)! || rank[a] - rank[b] : (a, b) => rank[a] - rank[b]);
    }
    // How many pass, and (sorted by price) how many have no rate: counted in index order, which reads the
    // filter columns in sequence rather than at the order's jumps.
    let total = 0;
    let withoutRate = 0;
    const count = (at: number) => {
      if (!passes(at)) return;
      total++;
      if (prices && prices[at] === Infinity) withoutRate++;
    };
    if (scores) for (const at of scores.keys()) count(at);
    else for (let at = 0; at < built.views.length; at++) count(at);
    // The page: the order walked until it is full.
    const page: ModelPage['models'] = [];
    for (let i = 0, passed = 0; i < order.length && page.length < limit; i++) {
      const at = order[i];
      if (passes(at) && passed++ >= offset) page.push({ view: built.views[at], score: scores?.get(at) ?? 0 });
    }
    return { total, models: page, withoutRate };
  }

  /**
   * The models whose words match every word of `q` (exactly, as a prefix, or within the typos allowed for
   * its length), each with its score: the matched fields' weights, exact matches counting most, and a
   * model whose name, id or alias is the whole query first.
   */
  private match(built: Built, q: string): Map<number, number> {
    const words = [...new Set(indexTerms(q, false))];
    const scores = new Map<number, number>();
    if (words.length === 0) return scores;
    let first = true;
    for (const word of words) {
      const found = new Map<number, number>();
      const add = (term: string, quality: number) => {
        for (const [model, weight] of built.postings.get(term) ?? []) found.set(model, Math.max(found.get(model) ?? 0, weight * quality));
      };
      add(word, 1);
      if (word.length >= 2) {
        for (let i = lowerBound(built.terms, word); i < built.terms.length && built.terms[i].startsWith(word); i++) if (built.terms[i] !== word) add(built.terms[i], 0.8);
      }
      const edits = allowedEdits(word);
      if (edits > 0) for (const { term, edits: made } of termsWithinEdits(built.terms, word, edits)) if (made > 0) add(term, made === 1 ? 0.6 : 0.4);
      for (const model of first ? found.keys() : [...scores.keys()]) {
        const score = found.get(model);
        if (score === undefined) scores.delete(model);
        else scores.set(model, (scores.get(model) ?? 0) + score);
      }
      first = false;
      if (scores.size === 0) return scores;
    }
    const whole = aliasKey(q);
    for (const model of scores.keys()) if (built.views[model].names.includes(whole)) scores.set(model, scores.get(model)! + 10);
    for (const [model, score] of scores) scores.set(model, Math.round(score * 1000) / 1000);
    return scores;
  }

  private build(): Built {
    if (this.built) return this.built;
    const offers = new Map<string, OfferAt[]>();
    for (const listing of this.listings.values()) {
      if (listing.lifecycle === 'retired') continue;
      for (const offer of listing.models) {
        const id = modelEntryId(listing.slug, offer);
        const list = offers.get(id);
        if (list) list.push({ listing, offer });
        else offers.set(id, [{ listing, offer }]);
      }
    }
    const views: ModelView[] = [];
    for (const [id, at] of [...offers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      views.push(buildModelView(id, this.entries.get(id) ?? null, at));
    }
    this.built = new Built(views);
    return this.built;
  }
}

/** The catalog's views and the orders they are read in, worked out once per change. */
class Built {
  readonly byId = new Map<string, number>();
  readonly orders: Record<Exclude<ModelSort, 'relevance' | 'price'>, Int32Array>;
  readonly columns: ModelFilterColumns;
  /** Each word of each model's names -> the models with the weight of the field it is in. */
  readonly postings = new Map<string, Map<number, number>>();
  /** Every word, sorted (for prefixes and typos). */
  readonly terms: string[];
  private readonly byPrice = new Map<ComparedRateUnit, Int32Array>();
  private readonly ranks = new Map<Int32Array, Int32Array>();

  constructor(readonly views: ModelView[]) {
    views.forEach((view, i) => {
      this.byId.set(view.model.id.toLowerCase(), i);
      for (const [field, text] of view.words) this.post(i, field, text);
    });
    this.terms = [...this.postings.keys()].sort();
    const ordered = (compare: (a: ModelView, b: ModelView) => number) =>
      Int32Array.from(views.map((_, i) => i).sort((a, b) => compare(views[a], views[b]) || (views[a].model.id < views[b].model.id ? -1 : 1)));
    const desc = (x: number | null, y: number | null) => (y ?? -1) - (x ?? -1);
    this.orders = {
      popular: ordered((a, b) => b.model.offers.length - a.model.offers.length || (b.model.releaseDate ?? '').localeCompare(a.model.releaseDate ?? '')),
      context: ordered((a, b) => desc(a.model.contextTokens, b.model.contextTokens)),
      released: ordered((a, b) => (b.model.releaseDate ?? '').localeCompare(a.model.releaseDate ?? '')),
      name: ordered((a, b) => a.model.name.localeCompare(b.model.name, 'en')),
    };
    this.columns = new ModelFilterColumns(views);
  }

  /** Each model's place in `order` (one of this catalog's orders), worked out on first use. */
  rankIn(order: Int32Array): Int32Array {
    let rank = this.ranks.get(order);
    if (!rank) {
      rank = new Int32Array(order.length);
      order.forEach((model, place) => (rank![model] = place));
      this.ranks.set(order, rank);
    }
    return rank;
  }

  /** Cheapest first in the unit, models without a current rate in it last (by name). */
  priceOrder(unit: ComparedRateUnit): Int32Array {
    let order = this.byPrice.get(unit);
    if (!order) {
      const views = this.views;
      const price = this.columns.lowestIn(unit);
      order = Int32Array.from(views.map((_, i) => i).sort((a, b) => price[a] - price[b] || views[a].model.name.localeCompare(views[b].model.name, 'en')));
      this.byPrice.set(unit, order);
    }
    return order;
  }

  private post(model: number, field: Field, text: string): void {
    const weight = WEIGHTS[field];
    for (const term of new Set([...indexTerms(text, false), ...joinedTerms(text)])) {
      let list = this.postings.get(term);
      if (!list) this.postings.set(term, (list = new Map()));
      if ((list.get(model) ?? 0) < weight) list.set(model, weight);
    }
  }
}
