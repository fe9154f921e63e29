import { priceFrom } from './price-from';
import type { Category, Categories } from '../../categories/categories';
import type { ErrorEntryDocument } from '../../error-reference/write/error-entry.document';
import type { ListingDocument } from '../write/listing.document';
import type { Liveness } from '../../liveness/liveness.schema';
import {
  COMPARISON_FIELDS,
  DETAIL_FIELDS,
  pricingComparisonRowSchema,
  similarApiSchema,
  SUMMARY_FIELDS,
  TOOL_ERROR_FIELDS,
} from '../../contract/listing-views';
import { datedLifecycle, datedRates, datedSource } from '../../contract/listing-facts';
import { RenderState, COMPARISON_SIZE, ListingCard } from './render-state';
import { withEtag } from '../../http/stored-body';

export const API_PREFIX = '/api/v1';

export interface RenderedListing {
  /** ETag + newline + body of GET /tools/{slug}. */
  detail: string;
  comparison: string;
  /** Listings this detail shows or names (it is re-rendered when one of them changes or appears). */
  uses: string[];
  /** Category whose most popular listings filled the pricing comparison, if any. */
  filledFrom: string | null;
}

/**
 * Renders what the read models keep of one listing, ready to send: the detail document (with similar APIs,
 * pricing comparison and the provider's error entries resolved from the rest of the catalog) and the
 * comparison row.
 */
export function renderListing(listing: ListingDocument, state: RenderState, categories: Categories): RenderedListing {
  const fields = viewOf(listing, categories.get(listing.category), state.liveness.get(listing.slug) ?? null);
  const { similar, compared, filledFrom, uses } = relatedListings(listing, state);
  const tool = detailTool(listing, state, categories);
  const links = {
    self: `${API_PREFIX}/tools/${listing.slug}`,
    category: `${API_PREFIX}/tools/search?category=${listing.category}`,
    compare: `${API_PREFIX}/tools/compare?ids=${[listing.slug, ...compared.map((c) => c.slug)].join(',')}`,
    errors: `${API_PREFIX}/errors?provider=${listing.slug}`,
    openapi: `${API_PREFIX}/openapi.json`,
  };
  return {
    detail: withEtag(JSON.stringify({ success: true, tool, _links: links })),
    // The public directory's comparison links through referralUrl, falling back to the website: so does ours.
    comparison: JSON.stringify(pick({ ...fields, referralUrl: listing.website }, COMPARISON_FIELDS)),
    uses,
    filledFrom,
  };
}

/** The detail's `tool`: the listing's fields, the listings it shows, its provider's error entries. */
export function detailTool(listing: ListingDocument, state: RenderState, categories: Categories): Record<string, unknown> {
  const { similar, compared } = relatedListings(listing, state);
  return {
    ...pick(viewOf(listing, categories.get(listing.category), state.liveness.get(listing.slug) ?? null), DETAIL_FIELDS),
    similarApis: similar.map((card) => pick(card, SIMILAR_API_FIELDS)),
    pricingComparison: compared.map((card) => pick(card, PRICING_COMPARISON_FIELDS)),
    errors: state.errorsOf(listing.slug).map(servedErrorFields),
  };
}

/** A listing as a search result or list entry shows it (JSON, before score and matched fields). */
export function renderSummary(listing: ListingDocument, category: Category | undefined, liveness: Liveness | null = null): string {
  return JSON.stringify(pick(viewOf(listing, category, liveness), SUMMARY_FIELDS));
}

/**
 * What the views show of a listing beyond its own fields: the category's Chinese name, code examples with
 * a `title` beside `label` (the public directory's name for it), the first curl example on its own, and
 * `referralUrl`, null: the directory takes no referral fees, so it has no referral links; and the
 * listing's liveness as the prober published it (null: not checked yet); its price from (./price-from.ts).
 */
function viewOf(listing: ListingDocument, category: Category | undefined, liveness: Liveness | null): Record<string, unknown> {
  const facts = withStaleness(listing);
  return {
    ...listing,
    liveness,
    ...facts,
    priceFrom: priceFrom(facts),
    categoryCn: category?.nameCn ?? null,
    codeExamples: listing.codeExamples.map(({ label, language, code }) => ({ label, title: label, language, code })),
    curlExample: listing.codeExamples.find((example) => example.language === 'bash')?.code ?? null,
    referralUrl: null,
  };
}

const dated = datedSource;

/** The listing's facts as data, each source with the day its check grows stale (`staleAfter`). */
function withStaleness({ lifecycle, models, prices, rateLimits, sources, provider, mcpServers, markets }: ListingDocument) {
  return {
    lifecycle: datedLifecycle(lifecycle),
    // A model stored before offers named their entry and capabilities has neither: null, as the view says.
    models: models && models.map((model) => ({
      ...model,
      prices: datedRates(model.prices),
      lifecycle: datedLifecycle(model.lifecycle),
      source: dated(model.source),
      canonical: model.canonical ?? null,
      capabilities: model.capabilities ? { ...model.capabilities, source: dated(model.capabilities.source) } : null,
    })),
    provider: provider && { ...provider, source: dated(provider.source), dataRegionsSource: dated(provider.dataRegionsSource ?? null) },
    mcpServers: mcpServers && mcpServers.map((server) => ({ ...server, lifecycle: datedLifecycle(server.lifecycle), source: dated(server.source) })),
    markets: markets && { ...markets, source: dated(markets.source) },
    prices: prices && { ...prices, rates: datedRates(prices.rates), source: dated(prices.source) },
    rateLimits: rateLimits && { ...rateLimits, source: dated(rateLimits.source) },
    // Every fact is named; one not yet sourced is null.
    sources: sources && {
      auth: dated(sources.auth ?? null),
      freeTier: dated(sources.freeTier ?? null),
      openaiCompatible: dated(sources.openaiCompatible ?? null),
      contextTokens: dated(sources.contextTokens ?? null),
    },
  };
}

/**
 * The listings a detail shows: its similar APIs that exist, and four for the pricing comparison (the similar
 * APIs first, then the most popular of its category).
 */
export function relatedListings(listing: Pick<ListingCard, 'slug' | 'category' | 'similarApis'>, state: RenderState) {
  const similar = listing.similarApis
    .filter((slug) => slug !== listing.slug)
    .map((slug) => state.cards.get(slug))
    .filter((card): card is ListingCard => card !== undefined);
  const compared: ListingCard[] = similar.slice(0, COMPARISON_SIZE);
  let filledFrom: string | null = null;
  if (compared.length < COMPARISON_SIZE) {
    filledFrom = listing.category;
    for (const slug of state.categoryTop(listing.category)) {
      if (compared.length >= COMPARISON_SIZE) break;
      if (slug === listing.slug || compared.some((c) => c.slug === slug)) continue;
      compared.push(state.cards.get(slug)!);
    }
  }
  // Declared similar APIs count as used even while they do not exist: when one is published, this
  // listing must be rendered again to show it.
  const uses = [...new Set([...listing.similarApis, ...compared.map((c) => c.slug)])].filter((slug) => slug !== listing.slug);
  return { similar, compared, filledFrom, uses };
}

const SIMILAR_API_FIELDS = Object.keys(similarApiSchema.shape);
const PRICING_COMPARISON_FIELDS = Object.keys(pricingComparisonRowSchema.shape);

function pick(source: object, fields: readonly string[]): Record<string, unknown> {
  const from = source as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of fields) out[field] = from[field] ?? null;
  return out;
}

/** An error entry as it appears inside a tool's detail. */
export function servedErrorFields(entry: ErrorEntryDocument): Record<string, unknown> {
  return pick(entry, TOOL_ERROR_FIELDS);
}
