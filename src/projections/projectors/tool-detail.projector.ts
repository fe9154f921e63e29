import type { CategoryCatalog } from '../../catalog/category-catalog';
import type { ErrorEntryDocument } from '../../error-reference/error-entry.document';
import type { ListingDocument } from '../../listings/listing.document';
import { CatalogState, COMPARISON_SIZE, ListingCard } from '../catalog-state';
import { withEtag } from '../read-model-body';

export const API_PREFIX = '/api/v1';

/** Fields of a search result, in the order they are sent (the result adds score and matched). */
export const SUMMARY_FIELDS = [
  'slug', 'name', 'nameCn', 'category', 'categoryCn', 'description', 'descriptionCn', 'pricing', 'popularity',
  'status', 'website', 'docsUrl', 'auth', 'tags', 'sponsored',
] as const;

/** Fields of a comparison row: the same keys for every tool, null where a fact is unknown. */
export const COMPARISON_FIELDS = [
  'slug', 'name', 'nameCn', 'category', 'categoryCn', 'description', 'descriptionCn', 'website', 'docsUrl',
  'pricing', 'auth', 'rateLimit', 'latency', 'maxTokens', 'popularity', 'endpoints', 'sdks', 'features',
  'status', 'sponsored', 'tags', 'lastUpdated',
] as const;

export interface RenderedListing {
  /** ETag + newline + body of GET /tools/{slug}. */
  detail: string;
  summary: string;
  comparison: string;
  /** Listings this detail shows or names (it is re-rendered when one of them changes or appears). */
  uses: string[];
  /** Category whose most popular listings filled the pricing comparison, if any. */
  filledFrom: string | null;
}

/** What a listing renders to on its own, whatever the rest of the catalog holds. */
export interface StaticRendering {
  /**
   * The detail body up to the parts that show other documents: `{"success":true,"tool":{...` with the
   * listing's own fields, ready for renderDetail to complete.
   */
  detailHead: string;
  summary: string;
  comparison: string;
}

export interface RenderedDetail {
  /** ETag + newline + body of GET /tools/{slug}. */
  detail: string;
  uses: string[];
  filledFrom: string | null;
}

/**
 * Renders everything the API serves about one listing, ready to send: the detail document (with similar
 * APIs, pricing comparison and the provider's error entries resolved from the rest of the catalog), the
 * search summary and the comparison row.
 */
export function renderListing(listing: ListingDocument, state: CatalogState, categories: CategoryCatalog): RenderedListing {
  const own = renderStatic(listing, categories);
  const { detail, uses, filledFrom } = renderDetail(own.detailHead, listing, state);
  return { detail, summary: own.summary, comparison: own.comparison, uses, filledFrom };
}

/**
 * The part of a listing's rendering that depends on the listing alone. A rebuild does it while Redis
 * stores the share before, and completes the details once every listing is known.
 */
export function renderStatic(listing: ListingDocument, categories: CategoryCatalog): StaticRendering {
  const category = categories.get(listing.category);
  const tool = {
    slug: listing.slug,
    name: listing.name,
    nameCn: listing.nameCn,
    category: listing.category,
    categoryCn: category?.nameCn ?? null,
    description: listing.description,
    descriptionCn: listing.descriptionCn,
    website: listing.website,
    docsUrl: listing.docsUrl,
    pricing: listing.pricing,
    auth: listing.auth,
    rateLimit: listing.rateLimit,
    latency: listing.latency,
    maxTokens: listing.maxTokens,
    popularity: listing.popularity,
    endpoints: listing.endpoints,
    sdks: listing.sdks,
    features: listing.features,
    usageTips: listing.usageTips,
    sponsored: listing.sponsored,
    codeExamples: listing.codeExamples,
    tags: listing.tags,
    lastUpdated: listing.lastUpdated,
    status: listing.status,
  };
  // The same bytes as stringifying the whole detail at once: the tool object stays open (its last `}}`
  // cut) for the fields renderDetail appends, in the order the API has always sent them.
  const head = JSON.stringify({ success: true, tool });
  const withCategory = { ...listing, categoryCn: category?.nameCn ?? null } as Record<string, unknown>;
  return {
    detailHead: head.slice(0, -2),
    summary: JSON.stringify(pick(withCategory, SUMMARY_FIELDS)),
    comparison: JSON.stringify(pick(withCategory, COMPARISON_FIELDS)),
  };
}

/** Completes a detail from its head (renderStatic) with what it shows of the rest of the catalog. */
export function renderDetail(
  detailHead: string,
  listing: Pick<ListingCard, 'slug' | 'category' | 'similarApis'>,
  state: CatalogState,
): RenderedDetail {
  const { tail, uses, filledFrom } = renderDetailTail(listing, state);
  return { detail: withEtag(detailHead + tail), uses, filledFrom };
}

export interface DetailTail {
  /** What follows the detail's head (renderStatic): the parts that show other documents, and the end. */
  tail: string;
  uses: string[];
  filledFrom: string | null;
}

/** The end of a detail: what it shows of the rest of the catalog (similar APIs, pricing, errors, links). */
export function renderDetailTail(listing: Pick<ListingCard, 'slug' | 'category' | 'similarApis'>, state: CatalogState): DetailTail {
  const { similar, compared, filledFrom, uses } = relatedListings(listing, state);
  const similarApis = similar.map((c) => ({
    slug: c.slug,
    name: c.name,
    nameCn: c.nameCn,
    popularity: c.popularity,
    description: c.description,
    descriptionCn: c.descriptionCn,
  }));
  const pricingComparison = compared.map((c) => ({ slug: c.slug, name: c.name, pricing: c.pricing, auth: c.auth, popularity: c.popularity }));
  const errors = state.errorsOf(listing.slug).map(servedErrorFields);
  const links = {
    self: `${API_PREFIX}/tools/${listing.slug}`,
    category: `${API_PREFIX}/tools/search?category=${listing.category}`,
    compare: `${API_PREFIX}/tools/compare?ids=${[listing.slug, ...compared.map((c) => c.slug)].join(',')}`,
    errors: `${API_PREFIX}/errors?provider=${listing.slug}`,
    openapi: `${API_PREFIX}/openapi.json`,
  };
  const tail =
    `,"similarApis":${JSON.stringify(similarApis)},"pricingComparison":${JSON.stringify(pricingComparison)}` +
    `,"errors":${JSON.stringify(errors)}},"_links":${JSON.stringify(links)}}`;
  return { tail, uses, filledFrom };
}

/**
 * The listings a detail shows: its similar APIs that exist, and four for the pricing comparison (the similar
 * APIs first, then the most popular of its category).
 */
export function relatedListings(listing: Pick<ListingCard, 'slug' | 'category' | 'similarApis'>, state: CatalogState) {
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

function pick(source: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) out[field] = source[field] ?? null;
  return out;
}

/** An error entry as it appears inside a tool's detail. */
export function servedErrorFields(entry: ErrorEntryDocument) {
  return {
    status: entry.status,
    title: entry.title,
    titleCn: entry.titleCn,
    cause: entry.cause,
    causeCn: entry.causeCn,
    fix: entry.fix,
    fixCn: entry.fixCn,
    curlExample: entry.curlExample,
  };
}
