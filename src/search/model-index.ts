import type { ModelFilters, ModelSort } from '../contract/model-filters';
import { aliasKey, type ComparedRateUnit } from '../contract/vocabulary';
import type { ModelEntryDocument } from '../models/write/model-entry.document';
import { buildModelView, modelEntryId, type ModelView, type OfferAt, type OfferingListing } from '../models/views/model-views';

import { allowedEdits } from './search-query';
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
    const today = new Date().toISOString().slice(0, 10);
    const passes = (view: ModelView) => passesFilters(view, filters, today);
    let order: Int32Array | number[];
    if (sort === 'relevance' && scores) {
      order = [...scores.keys()].sort((a, b) => scores.get(b)! - scores.get(a)! || built.orders.popular.indexOf(a) - built.orders.popular.indexOf(b));
    } else if (sort === 'price') {
      order = built.priceOrder(filters.priceUnit!);
    } else {
      order = built.orders[sort === 'relevance' ? 'popular' : sort];
    }
    const page: ModelPage['models'] = [];
    let total = 0;
    let withoutRate = 0;
    for (let i = 0; i < order.length; i++) {
      const view = built.views[order[i]];
      if (scores && !scores.has(order[i])) continue;
      if (!passes(view)) continue;
      if (sort === 'price' && !view.lowest.has(filters.priceUnit!)) withoutRate++;
      if (total >= offset && page.length < limit) page.push({ view, score: scores?.get(order[i]) ?? 0 });
      total++;
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

/** Whether a model passes every filter set. */
function passesFilters(view: ModelView, f: ModelFilters, today: string): boolean {
  const m = view.model;
  if (f.kind !== null && m.kind !== f.kind) return false;
  if (f.input !== null && !m.input.includes(f.input)) return false;
  if (f.output !== null && !m.output.includes(f.output)) return false;
  if (f.minContext !== null && (m.contextTokens ?? 0) < f.minContext) return false;
  if (f.minOutput !== null && (m.maxOutputTokens ?? 0) < f.minOutput) return false;
  for (const flag of ['tools', 'structuredOutput', 'reasoning', 'batch', 'fineTuning', 'promptCaching', 'openWeights'] as const) {
    if (f[flag] !== null && (m.capabilities[flag] === true) !== f[flag]) return false;
  }
  if (f.listing !== null && !view.listings.has(f.listing)) return false;
  if (f.category !== null && !view.categories.has(f.category)) return false;
  const lifecycle = m.lifecycle.status;
  if (f.lifecycle !== null ? lifecycle !== f.lifecycle : lifecycle === 'retired' && f.includeRetired !== true) return false;
  if (f.retiringWithin !== null && !view.retiring.some((day) => day >= today && day <= f.retiringWithin!)) return false;
  if (f.maxPrice !== null && !((view.lowest.get(f.priceUnit!) ?? Infinity) <= f.maxPrice)) return false;
  if (f.freeQuota !== null && view.freeQuota !== f.freeQuota) return false;
  if (f.live !== null && !view.live.has(f.live)) return false;
  return true;
}

/** The catalog's views and the orders they are read in, worked out once per change. */
class Built {
  readonly byId = new Map<string, number>();
  readonly orders: Record<Exclude<ModelSort, 'relevance' | 'price'>, Int32Array>;
  /** Each word of each model's names -> the models with the weight of the field it is in. */
  readonly postings = new Map<string, Map<number, number>>();
  /** Every word, sorted (for prefixes and typos). */
  readonly terms: string[];
  private readonly byPrice = new Map<ComparedRateUnit, Int32Array>();

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
  }

  /** Cheapest first in the unit, models without a current rate in it last (by name). */
  priceOrder(unit: ComparedRateUnit): Int32Array {
    let order = this.byPrice.get(unit);
    if (!order) {
      const views = this.views;
      const price = (i: number) => views[i].lowest.get(unit) ?? Infinity;
      order = Int32Array.from(views.map((_, i) => i).sort((a, b) => price(a) - price(b) || views[a].model.name.localeCompare(views[b].model.name, 'en')));
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
