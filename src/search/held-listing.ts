import type { ListingFilters } from '../contract/listing-filters';
import { aliasKey, type LifecycleStatus } from '../contract/vocabulary';
import type { LiveFilterValue } from '../liveness/liveness.schema';
import { lowestRates, lowestRatesByKind } from '../listings/write/listing-facts';
import type { ListingDocument } from '../listings/write/listing.document';
import type { OrderFacts } from './listing-order';
import type { IndexedListing } from './search-index';

/** The facts of a listing that searches filter and order by. */
export interface ListingFacts extends OrderFacts, Pick<ListingDocument, 'slug' | 'category' | 'popularity' | 'freeTier' | 'openaiCompatible' | 'authType' | 'contextTokens' | 'sdkLanguages'> {
  lifecycle: LifecycleStatus;
  /** Announced shutdown days (YYYY-MM-DD) of the listing and of its models that are not retired. */
  retiring: string[];
  /** Ids of the models it serves that are not retired, lowercase. */
  models: Set<string>;
  /** A published free allowance, or a free plan. */
  freeQuota: boolean;
  /** The lowest published rate in US dollars per unit, of the listing's own rates and its models'. */
  lowestRates: Map<string, number>;
  live: LiveFilterValue;
  tasks: ReadonlySet<string>;
  /** The transports of its provider's official MCP servers: remote, local. */
  mcp: ReadonlySet<'remote' | 'local'>;
  providerCountry: string | null;
  dataRegions: readonly string[];
  /** A payment API's buyers' countries ('*': worldwide) and payment methods. */
  buyerCountries: ReadonlySet<string>;
  paymentMethods: ReadonlySet<string>;
}

/**
 * What the index keeps of a listing besides its postings: its facts, its summary, and the keys of the names
 * it answers to. Not the document: at 100,000 listings that would be half a gigabyte in every process.
 */
export interface HeldListing {
  facts: ListingFacts;
  summary: string;
  names: string[];
}

/** What the index keeps of a listing it is given (see HeldListing). */
export function held({ listing, summary, live = 'unchecked' }: IndexedListing): HeldListing {
  const { slug, category, popularity, freeTier, openaiCompatible, authType, contextTokens, sdkLanguages } = listing;
  const served = (listing.models ?? []).filter((model) => model.lifecycle?.status !== 'retired');
  return {
    facts: {
      slug,
      category,
      popularity,
      freeTier,
      openaiCompatible,
      authType,
      contextTokens,
      sdkLanguages,
      lifecycle: listing.lifecycle?.status ?? LIFECYCLE_OF_STATUS[listing.status],
      retiring: [listing.lifecycle?.retiresAt, ...served.map((model) => model.lifecycle?.retiresAt)].filter((day): day is string => Boolean(day)),
      models: new Set(served.map((model) => model.id.toLowerCase())),
      lowestRates: lowestRates(listing),
      kindRates: lowestRatesByKind(listing),
      checkedDay: Math.floor(Date.parse(listing.lastUpdated) / 86_400_000),
      freeQuota: (listing.prices?.freeQuota.length ?? 0) > 0 || (listing.prices?.models.includes('free') ?? false),
      live,
      tasks: new Set(listing.tasks ?? []),
      mcp: new Set((listing.mcpServers ?? []).map((server) => (server.transport === 'stdio' ? 'local' : 'remote'))),
      providerCountry: listing.provider?.country ?? null,
      dataRegions: listing.provider?.dataRegions ?? [],
      buyerCountries: new Set([...(listing.markets?.worldwide ? ['*'] : []), ...(listing.markets?.buyerCountries ?? [])]),
      paymentMethods: new Set(listing.markets?.paymentMethods ?? []),
    },
    summary,
    // The name keys it answers to: its name, Chinese name, slug, aliases, and its models' ids.
    names: [...new Set([listing.name, listing.nameCn, slug, ...(listing.aliases ?? []), ...served.map((model) => model.id)].map(aliasKey).filter(Boolean))],
  };
}

/** A listing's lifecycle when it has none recorded, from the public directory's status. */
const LIFECYCLE_OF_STATUS: Record<ListingDocument['status'], LifecycleStatus> = { online: 'active', beta: 'preview', deprecated: 'deprecated' };

/**
 * A test of the listing numbered `doc` against the filters (a null filter is not set). Retired listings are
 * left out unless `includeRetired` or `lifecycle=retired` asks for them.
 */
export function listingFilter(filters: ListingFilters, docs: ReadonlyArray<HeldListing | null>, holdsRetired: boolean): (doc: number) => boolean {
  const { category, freeTier, openaiCompatible, auth, minContext, sdk, lifecycle, includeRetired, retiringWithin, model, freeQuota, maxPrice, priceUnit, live } = filters;
  const { task, mcp, providerCountry, dataRegion, buyerCountry, paymentMethod } = filters;
  const withRetired = includeRetired === true || lifecycle === 'retired';
  // Most searches set none: then no listing's facts are read (reading them took half of a broad query's time).
  if (Object.values(filters).every((value) => value === null) && (withRetired || !holdsRetired)) return () => true;
  const today = retiringWithin === null ? '' : new Date().toISOString().slice(0, 10);
  return (doc) => {
    const facts = docs[doc]!.facts;
    return (
      (withRetired || facts.lifecycle !== 'retired') &&
      (category === null || facts.category === category) &&
      (freeTier === null || facts.freeTier === freeTier) &&
      (openaiCompatible === null || facts.openaiCompatible === openaiCompatible) &&
      (auth === null || facts.authType === auth) &&
      (minContext === null || (facts.contextTokens ?? 0) >= minContext) &&
      (sdk === null || facts.sdkLanguages.includes(sdk)) &&
      (lifecycle === null || facts.lifecycle === lifecycle) &&
      (retiringWithin === null || facts.retiring.some((day) => day >= today && day <= retiringWithin)) &&
      (model === null || facts.models.has(model)) &&
      (freeQuota === null || facts.freeQuota === freeQuota) &&
      (maxPrice === null || priceUnit === null || (facts.lowestRates.get(priceUnit) ?? Infinity) <= maxPrice) &&
      (live === null || facts.live === live) &&
      (task === null || facts.tasks.has(task)) &&
      (mcp === null || (mcp === 'any' ? facts.mcp.size > 0 : facts.mcp.has(mcp))) &&
      (providerCountry === null || facts.providerCountry === providerCountry) &&
      (dataRegion === null || facts.dataRegions.includes(dataRegion)) &&
      (buyerCountry === null || facts.buyerCountries.has('*') || facts.buyerCountries.has(buyerCountry)) &&
      (paymentMethod === null || facts.paymentMethods.has(paymentMethod))
    );
  };
}
