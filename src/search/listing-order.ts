import type { ListingOrder, ListingSort } from '../contract/listing-filters';
import { COMPARED_RATE_UNITS, type ComparedRateUnit, type ModelKind } from '../contract/vocabulary';

/** The facts of a listing an order reads. */
export interface OrderFacts {
  popularity: number;
  contextTokens: number | null;
  /** The day its facts were last checked (lastUpdated), as days since 1970. */
  checkedDay: number;
  /** Its lowest US-dollar rate per unit (see lowestRates). */
  lowestRates: ReadonlyMap<string, number>;
  /** The same, of its served models of each kind only; null when it serves no model. */
  kindRates: ReadonlyMap<ModelKind, ReadonlyMap<string, number>> | null;
}

/** The key of a listing without the fact ordered by: after every listing with it. */
const LAST = -Number.MAX_VALUE;

/** The order asked for: by what, and for price, in which unit and of which kind of model. */
export type OrderBy = Pick<ListingOrder, 'by' | 'priceUnit' | 'modelKind'>;

export const POPULAR: OrderBy = { by: 'popular', priceUnit: null, modelKind: null };

/**
 * A listing's place in an order as one number, larger first (then slug, A to Z): what a list cursor holds.
 * Popularity; the context window; the day last checked; the rate, negated, for price. A listing without
 * the fact gets the lowest key, so it comes last.
 */
export function orderKey(facts: OrderFacts, order: OrderBy): number {
  switch (order.by) {
    case 'price': {
      const rate = rateOf(facts, order);
      return rate === undefined ? LAST : -rate;
    }
    case 'context':
      return facts.contextTokens ?? LAST;
    case 'checked':
      return facts.checkedDay;
    default:
      return facts.popularity;
  }
}

/** The listing's rate an order by price compares (undefined: it has none). */
export function rateOf(facts: OrderFacts, { priceUnit, modelKind }: OrderBy): number | undefined {
  if (priceUnit === null) return undefined;
  return (modelKind === null ? facts.lowestRates : facts.kindRates?.get(modelKind))?.get(priceUnit);
}

/** Whether an order leaves some listings last for want of its fact (price without a rate). */
export const lacksFact = (facts: OrderFacts, order: OrderBy): boolean => order.by === 'price' && rateOf(facts, order) === undefined;

/**
 * For an order by price asked for in words (`cheapest`) without `priceUnit`: the unit in which most of the
 * found listings have a rate (of that kind of model, when the query names one), ties going to the unit
 * listed first (1m-input-tokens). Null when none has a rate.
 */
export function commonUnit(found: Iterable<OrderFacts>, modelKind: ModelKind | null): ComparedRateUnit | null {
  const counts = new Map<string, number>();
  for (const facts of found) {
    const rates = modelKind === null ? facts.lowestRates : facts.kindRates?.get(modelKind);
    for (const unit of rates?.keys() ?? []) counts.set(unit, (counts.get(unit) ?? 0) + 1);
  }
  let best: ComparedRateUnit | null = null;
  for (const unit of COMPARED_RATE_UNITS) if ((counts.get(unit) ?? 0) > (best === null ? 0 : counts.get(best)!)) best = unit;
  return best;
}

/** The name of an order's cache slot (orders are worked out once per change of the index). */
export const orderName = (order: OrderBy): string => `${order.by}:${order.priceUnit ?? ''}:${order.modelKind ?? ''}`;

export type { ListingSort };
