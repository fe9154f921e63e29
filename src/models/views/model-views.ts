import { datedLifecycle, datedRates, datedSource } from '../../contract/listing-facts';
import type { ModelEntry, ModelOffer, ModelSummary } from '../../contract/model-views';
import { aliasKey, COMPARED_RATE_UNITS, type ComparedRateUnit, type LifecycleStatus } from '../../contract/vocabulary';
import type { LiveFilterValue } from '../../liveness/liveness.schema';
import type { ListingDocument } from '../../listings/write/listing.document';
import type { ModelEntryDocument } from '../write/model-entry.document';
import { isCurrent } from '../../listings/write/listing-facts';


/**
 * The id in the model catalog of a model a listing serves: the entry it names (`canonical`), else its own
 * id under the listing's (`mistral/mistral-large-latest`), lowercase.
 */
export function modelEntryId(listingSlug: string, offer: { id: string; canonical?: string | null }): string {
  return offer.canonical ?? `${listingSlug}/${offer.id}`.toLowerCase();
}

/** What the model index keeps of a listing: what its offers need (the document itself is let go). */
export interface OfferingListing {
  slug: string;
  name: string;
  category: string;
  lifecycle: LifecycleStatus;
  currency: string;
  /** A published free allowance (or a free plan). */
  freeQuota: boolean;
  live: LiveFilterValue;
  models: NonNullable<ListingDocument['models']>;
}

/** What the model index keeps of a listing (its liveness state as published). */
export function offeringListing(listing: ListingDocument, live: LiveFilterValue): OfferingListing {
  return {
    slug: listing.slug,
    name: listing.name,
    category: listing.category,
    lifecycle: listing.lifecycle?.status ?? 'active',
    currency: listing.prices?.currency ?? 'USD',
    freeQuota: (listing.prices?.freeQuota.length ?? 0) > 0 || (listing.prices?.models.includes('free') ?? false),
    live,
    models: listing.models ?? [],
  };
}

/** An offer as the catalog groups it: the listing that serves the model, and its line for it. */
export interface OfferAt {
  listing: OfferingListing;
  offer: OfferingListing['models'][number];
}

/**
 * A model of the catalog, worked out once per change: the model as its answers show it (without score),
 * the facts the filters test, and the words a query matches.
 */
export interface ModelView {
  model: Omit<ModelSummary, 'score'>;
  /** The model as a list answer sends it, without its score: JSON ending in `}`. */
  json: string;
  /** The lowest current US-dollar rate per unit (offers not deprecated or retired). */
  lowest: Map<ComparedRateUnit, number>;
  listings: Set<string>;
  categories: Set<string>;
  /** Announced shutdown days of its offers that are not retired. */
  retiring: string[];
  /** Some listing that serves it has a free allowance, or some offer a rate of 0. */
  freeQuota: boolean;
  /** The liveness states of the listings that serve it. */
  live: Set<LiveFilterValue>;
  /** Name keys (aliasKey) of its id, name and aliases: a query equal to one of them ranks the model first. */
  names: string[];
  /** Its texts a query matches, by field. */
  words: Array<['name' | 'id' | 'alias' | 'offer' | 'family' | 'creator', string]>;
  aliases: string[];
  entry: ModelEntryDocument | null;
}

const STATUS_RANK: Record<LifecycleStatus, number> = { active: 0, preview: 1, deprecated: 2, retired: 3 };
const FLAGS = ['tools', 'structuredOutput', 'reasoning', 'batch', 'fineTuning', 'promptCaching'] as const;

/** The view of one model: its entry (null: a model no entry names yet) and the offers that serve it. */
export function buildModelView(id: string, entry: ModelEntryDocument | null, at: OfferAt[]): ModelView {
  const offers = [...at].sort((a, b) => (a.listing.slug < b.listing.slug ? -1 : a.listing.slug > b.listing.slug ? 1 : a.offer.id < b.offer.id ? -1 : 1));
  const current = offers.filter(({ offer }) => offer.lifecycle.status !== 'retired');
  const serving = current.length > 0 ? current : offers;
  const kinds = new Map<string, number>();
  for (const { offer } of serving) kinds.set(offer.kind, (kinds.get(offer.kind) ?? 0) + 1);
  const kind = [...kinds].sort((a, b) => b[1] - a[1])[0][0] as ModelSummary['kind'];
  const union = (pick: (o: OfferAt['offer']) => readonly string[]) => [...new Set(serving.flatMap(({ offer }) => pick(offer)))] as ModelSummary['input'];
  const input = union((o) => o.input);
  const output = union((o) => o.output);
  const largest = (pick: (o: OfferAt['offer']) => number | null) => serving.reduce<number | null>((max, { offer }) => (pick(offer) !== null && pick(offer)! > (max ?? 0) ? pick(offer) : max), null);
  const flag = (name: (typeof FLAGS)[number]) => {
    const said = serving.map(({ offer }) => offer.capabilities?.[name]).filter((v): v is boolean => v === true || v === false);
    return said.includes(true) ? true : said.length > 0 ? false : null;
  };
  const statuses = offers.map(({ offer }) => offer.lifecycle.status);
  const status = statuses.reduce((best, s) => (STATUS_RANK[s] < STATUS_RANK[best] ? s : best), 'retired' as LifecycleStatus);
  const retiring = current.map(({ offer }) => offer.lifecycle.retiresAt).filter((day): day is string => Boolean(day)).sort();
  const replacedBy = successorsOf(id, offers);
  const { lowest, lowestRates } = lowestRatesOf(offers);
  const name = entry?.name ?? serving[0].offer.name;
  const model: ModelView['model'] = {
    id,
    name,
    family: entry?.family ?? null,
    creator: entry?.creator ?? null,
    creatorListing: entry?.creatorListing ?? null,
    kind,
    input,
    output,
    contextTokens: largest((o) => o.contextTokens),
    maxOutputTokens: largest((o) => o.maxOutputTokens),
    capabilities: {
      tools: flag('tools'),
      structuredOutput: flag('structuredOutput'),
      reasoning: flag('reasoning') ?? (kind === 'reasoning' ? true : null),
      batch: flag('batch'),
      fineTuning: flag('fineTuning'),
      promptCaching: flag('promptCaching'),
      imageInput: input.includes('image'),
      audioInput: input.includes('audio'),
      audioOutput: output.includes('audio'),
      openWeights: Boolean(entry?.openWeights),
    },
    openWeights: entry?.openWeights ?? null,
    releaseDate: entry?.releaseDate ?? null,
    knowledgeCutoff: entry?.knowledgeCutoff ?? null,
    lifecycle: { status, retiresAt: retiring[0] ?? null, replacedBy },
    lowestRates,
    offers: offers.map(offerView),
  };
  const aliases = entry?.aliases ?? [];
  return {
    model,
    json: JSON.stringify(model),
    lowest,
    listings: new Set(offers.map(({ listing }) => listing.slug)),
    categories: new Set(offers.map(({ listing }) => listing.category)),
    retiring,
    freeQuota: offers.some(({ listing, offer }) => listing.freeQuota || offer.prices.some((rate) => rate.price === 0 && !(rate.percent ?? 0))),
    live: new Set(offers.map(({ listing }) => listing.live)),
    names: [...new Set([id, name, ...aliases, ...offers.map(({ offer }) => offer.id)].map(aliasKey))],
    words: searchWords(id, name, entry, offers),
    aliases,
    entry,
  };
}

/** The models that replace this one, by directory id: an offer names its successor by model id of the same listing. */
function successorsOf(id: string, offers: OfferAt[]): string[] {
  const idAt = (listing: OfferingListing, modelId: string) => {
    const successor = listing.models.find((model) => model.id === modelId);
    return successor ? modelEntryId(listing.slug, successor) : null;
  };
  return [...new Set(offers.flatMap(({ listing, offer }) => (offer.lifecycle.replacedBy ?? []).map((m) => idAt(listing, m)).filter((s): s is string => s !== null && s !== id)))];
}

/** The lowest current rate in US dollars per compared unit over every offer, with the offer that gives it. */
function lowestRatesOf(offers: OfferAt[]): { lowest: Map<ComparedRateUnit, number>; lowestRates: ModelSummary['lowestRates'] } {
  const lowest = new Map<ComparedRateUnit, number>();
  const lowestRates: ModelSummary['lowestRates'] = [];
  for (const { listing, offer } of offers) {
    if (listing.currency !== 'USD' || !isCurrent(offer.lifecycle)) continue;
    for (const rate of offer.prices) {
      if (rate.unit === 'other' || (rate.percent ?? 0) > 0) continue;
      const unit = rate.unit as ComparedRateUnit;
      if (rate.price < (lowest.get(unit) ?? Infinity)) {
        lowest.set(unit, rate.price);
        const row = { unit, price: rate.price, listing: listing.slug, modelId: offer.id, appliesTo: rate.appliesTo ?? null };
        const at = lowestRates.findIndex((r) => r.unit === unit);
        if (at >= 0) lowestRates[at] = row;
        else lowestRates.push(row);
      }
    }
  }
  lowestRates.sort((a, b) => COMPARED_RATE_UNITS.indexOf(a.unit) - COMPARED_RATE_UNITS.indexOf(b.unit));
  return { lowest, lowestRates };
}

/** The words a model is found by, each with the field it is in (weighed by field, see the model index). */
function searchWords(id: string, name: string, entry: ModelEntryDocument | null, offers: OfferAt[]): ModelView['words'] {
  return [
    ['name', name],
    ['id', id],
    ...(entry?.aliases ?? []).map((alias) => ['alias', alias] as ['alias', string]),
    ...offers.flatMap(({ offer }) => [['offer', offer.id], ['offer', offer.name]] as Array<['offer', string]>),
    ...(entry ? [['family', entry.family], ['creator', entry.creator]] as Array<['family' | 'creator', string]> : []),
  ];
}

/** One offer as the model's answers show it: the listing's line for it, its sources dated. */
function offerView({ listing, offer }: OfferAt): ModelOffer {
  return {
    listing: listing.slug,
    listingName: listing.name,
    modelId: offer.id,
    name: offer.name,
    currency: listing.currency,
    prices: datedRates(offer.prices),
    contextTokens: offer.contextTokens,
    maxOutputTokens: offer.maxOutputTokens,
    input: offer.input,
    output: offer.output,
    capabilities: offer.capabilities ? { ...offer.capabilities, source: datedSource(offer.capabilities.source)! } : null,
    lifecycle: datedLifecycle(offer.lifecycle)!,
    liveness: listing.live,
    source: datedSource(offer.source)!,
  };
}

/** A model as a list answer sends it, with its score. */
export function modelSummaryJson(view: ModelView, score: number): string {
  return `${view.json.slice(0, -1)},"score":${score}}`;
}

/** The offers of a model, cheapest first in `unit` (offers without a current rate in it last, by listing). */
export function offersByPrice(offers: ModelOffer[], unit: ComparedRateUnit | null): ModelOffer[] {
  if (!unit) return offers;
  const price = (offer: ModelOffer) =>
    offer.currency === 'USD' && offer.lifecycle.status !== 'retired'
      ? Math.min(...offer.prices.filter((rate) => rate.unit === unit && !(rate.percent ?? 0)).map((rate) => rate.price))
      : Infinity;
  return [...offers].sort((a, b) => price(a) - price(b));
}

/** A model entry as published: its fields but the maker's domains and the editor's note, its source dated. */
export function publishedModelEntry(entry: ModelEntryDocument): ModelEntry {
  return {
    id: entry.id,
    name: entry.name,
    family: entry.family,
    creator: entry.creator,
    creatorListing: entry.creatorListing,
    aliases: entry.aliases,
    openWeights: entry.openWeights,
    releaseDate: entry.releaseDate,
    knowledgeCutoff: entry.knowledgeCutoff,
    source: datedSource(entry.source)!,
  };
}
