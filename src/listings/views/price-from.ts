import { RATE_UNITS, type LifecycleStatus, type RateUnit } from '../../contract/vocabulary';
import { isCurrent } from '../write/listing-facts';

/**
 * A listing's "price from": the lowest current rate in its main unit, and the model it is for. Every view
 * of a listing carries it (`priceFrom`), so a search result, a comparison row, an agent and the page's
 * decision summary give the same answer.
 */

interface RateLike<S> {
  unit: RateUnit;
  price: number;
  percent?: number | null;
  appliesTo?: string | null;
  source?: S | null;
}

export interface PricedListing<S> {
  prices?: { currency: string; rates: ReadonlyArray<RateLike<S>>; source: S } | null;
  models?: ReadonlyArray<{ id: string; name: string; prices: ReadonlyArray<RateLike<S>>; lifecycle: { status: LifecycleStatus; retiresAt?: string | null } | null; source: S }> | null;
}

export interface PriceFrom<S> {
  unit: RateUnit;
  price: number;
  percent: number | null;
  currency: string;
  appliesTo: string | null;
  /** The model's id as the API takes it, and its name; null: the listing's own rate. */
  model: { id: string; name: string } | null;
  /** The rate's own source, else its model's, else the prices'. */
  source: S;
}

/**
 * The unit most of the current rates are in (a language-model API's input tokens, a payment API's
 * transactions), ties to the unit listed first in RATE_UNITS; never `other`, whose rates are in units of
 * their own that no price from could compare (null where it is the only one).
 */
function mainUnit(units: RateUnit[]): RateUnit | null {
  const counts = new Map<RateUnit, number>();
  for (const unit of units) counts.set(unit, (counts.get(unit) ?? 0) + 1);
  let best: RateUnit | null = null;
  for (const unit of RATE_UNITS) {
    const count = counts.get(unit) ?? 0;
    if (unit !== 'other' && count > 0 && (best === null || count > counts.get(best)!)) best = unit;
  }
  return best;
}

/**
 * Of the listing's own rates and its current models' (deprecated and retired ones left out: see isCurrent),
 * those in the main unit; of these the lowest percentage (a flat rate has none), then the lowest price. In the
 * listing's currency, whatever it is. Null where it records no prices or no current rate.
 */
export function priceFrom<S>(listing: PricedListing<S>): PriceFrom<S> | null {
  const prices = listing.prices;
  if (!prices) return null;
  const current = (listing.models ?? []).filter((model) => model.lifecycle !== null && isCurrent(model.lifecycle));
  const rates = [
    ...prices.rates.map((rate) => ({ rate, model: null as (typeof current)[number] | null })),
    ...current.flatMap((model) => model.prices.map((rate) => ({ rate, model }))),
  ];
  const unit = mainUnit(rates.map(({ rate }) => rate.unit));
  if (unit === null) return null;
  const [lowest] = rates
    .filter(({ rate }) => rate.unit === unit)
    .sort((a, b) => (a.rate.percent ?? 0) - (b.rate.percent ?? 0) || a.rate.price - b.rate.price);
  const { rate, model } = lowest;
  return {
    unit,
    price: rate.price,
    percent: rate.percent ?? null,
    currency: prices.currency,
    appliesTo: rate.appliesTo ?? null,
    model: model ? { id: model.id, name: model.name } : null,
    source: rate.source ?? model?.source ?? prices.source,
  };
}
