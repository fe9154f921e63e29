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
    const test = built.columns.test(filters, new Date().toISOString().slice(0, 10));
    const prices = sort === 'price' ? built.columns.lowestIn(filters.priceUnit!) : null;
    const sorted = sort === 'price' ? built.priceOrder(filters.priceUnit!) : built.orders[sort === 'relevance' ? 'popular' : sort];
    // With q, only the models that match are walked, by score or by their place in the order asked for;
    // `places` holds, for each place of that order, where the model and its score are in the matches.
    const matches = filters.q ? this.match(built, filters.q) : null;
    let order: Int32Array = sorted;
    let places: Int32Array | null = null;
    if (matches) {
      const { models, scores } = matches;
      const rank = built.rankIn(sorted);
      const byRank = (a: number, b: number) => rank[models[a]] - rank[models[b]];
      places = Int32Array.from(models.keys()).sort(sort === 'relevance' ? (a, b) => scores[b] - scores[a] || byRank(a, b) : byRank);
      order = places.map((k) => models[k]);
    }
    // How many pass, and (sorted by price) how many have no rate: counted in index order, which reads the
    // filter columns in sequence rather than at the order's jumps.
    const candidates = matches ? matches.models.length : built.views.length;
    let total = 0;
    let withoutRate = 0;
    for (let k = 0; k < candidates; k++) {
      const at = matches ? matches.models[k] : k;
      if (!test.passes(at)) continue;
      total++;
      if (prices && prices[at] === Infinity) withoutRate++;
    }
    // The page: the order walked until it is full.
    const page: ModelPage['models'] = [];
    for (let i = 0, passed = 0; i < order.length && page.length < limit; i++) {
      const at = order[i];
      if (test.passes(at) && passed++ >= offset) page.push({ view: built.views[at], score: places ? matches!.scores[places[i]] : 0 });
    }
    return { total, models: page, withoutRate };
  }

  /**
   * The models whose words match every word of `q` (exactly, as a prefix, or within the typos allowed for
   * its length), each with its score: the matched fields' weights, exact matches counting most, and a
   * model whose name, id or alias is the whole query first. A word as short as "gpt" can match a fifth
   * of the catalog, so the work is done in typed arrays, not maps.
   */
  private match(built: Built, q: string): Matches {
    const words = [...new Set(indexTerms(q, false))];
    // Each model's best weight for the current word (0: not found), kept all zero between words and calls.
    const found = built.scratch;
    let models: number[] = [];
    const scores = built.sums;
    let scored: number[] = [];
    let touched: number[] = [];
    try {
      for (const [w, word] of words.entries()) {
        touched = [];
        const add = (term: string, quality: number) => {
          const list = built.postings.get(term);
          if (!list) return;
          for (let k = 0; k < list.models.length; k++) {
            const model = list.models[k];
            const score = list.weights[k] * quality;
            if (found[model] === 0) touched.push(model);
            if (score > found[model]) found[model] = score;
          }
        };
        add(word, 1);
        if (word.length >= 2) {
          for (let i = lowerBound(built.terms, word); i < built.terms.length && built.terms[i].startsWith(word); i++) if (built.terms[i] !== word) add(built.terms[i], 0.8);
        }
        const edits = allowedEdits(word);
        if (edits > 0) for (const { term, edits: made } of termsWithinEdits(built.terms, word, edits)) if (made > 0) add(term, made === 1 ? 0.6 : 0.4);
        // Every word must match: the first word's models, then those of them the next word finds too.
        models = (w === 0 ? touched : models).filter((model) => found[model] > 0);
        if (w === 0) scored = models;
        for (const model of models) scores[model] += found[model];
        for (const model of touched) found[model] = 0;
        if (models.length === 0) break;
      }
      const named = new Set(built.named.get(aliasKey(q)));
      const matched = Int32Array.from(models);
      const matchedScores = Float64Array.from(matched, (model) => Math.round((scores[model] + (named.has(model) ? 10 : 0)) * 1000) / 1000);
      return { models: matched, scores: matchedScores };
    } finally {
      // The scratch rows are left all zero, whatever happened (every model with a sum is among the first word's).
      for (const model of touched) found[model] = 0;
      for (const model of scored) scores[model] = 0;
    }
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
  readonly postings = new Map<string, { models: Int32Array; weights: Float64Array }>();
  /** Each name key (id, name, alias, offer id) -> the models it names: a query equal to one ranks them first. */
  readonly named = new Map<string, number[]>();
  /** A query's working figures, one per model: all zero between uses (see ModelIndex.match). */
  readonly scratch: Float64Array;
  readonly sums: Float64Array;
  /** Every word, sorted (for prefixes and typos). */
  readonly terms: string[];
  private readonly byPrice = new Map<ComparedRateUnit, Int32Array>();
  private readonly ranks = new Map<Int32Array, Int32Array>();

  constructor(readonly views: ModelView[]) {
    const postings = new Map<string, Map<number, number>>();
    views.forEach((view, i) => {
      this.byId.set(view.model.id.toLowerCase(), i);
      for (const [field, text] of view.words) post(postings, i, WEIGHTS[field], text);
      for (const name of view.names) {
        const models = this.named.get(name);
        if (models) models.push(i);
        else this.named.set(name, [i]);
      }
    });
    for (const [term, list] of postings) this.postings.set(term, { models: Int32Array.from(list.keys()), weights: Float64Array.from(list.values()) });
    this.terms = [...this.postings.keys()].sort();
    this.scratch = new Float64Array(views.length);
    this.sums = new Float64Array(views.length);
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
}

/** Files `text`'s words under `model` with the weight of its field (the best, where a word is in two). */
function post(postings: Map<string, Map<number, number>>, model: number, weight: number, text: string): void {
  for (const term of new Set([...indexTerms(text, false), ...joinedTerms(text)])) {
    let list = postings.get(term);
    if (!list) postings.set(term, (list = new Map()));
    if ((list.get(model) ?? 0) < weight) list.set(model, weight);
  }
}

/** The models a query's words match (by index), and the score of each, in the same order. */
interface Matches {
  models: Int32Array;
  scores: Float64Array;
}
