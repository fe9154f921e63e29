import { z } from 'zod';
import { AUTH_TYPES, CODE_LANGUAGES, LISTING_STATUSES, SDK_LANGUAGES } from './vocabulary';
import { livenessSchema } from '../liveness/liveness.schema';
import { bounded, factSourcesSchema, priceFromSchema, lifecycleSchema, marketsSchema, mcpServerSchema, modelSchema, pricesSchema, providerSchema, rateLimitsSchema } from './listing-facts';

/**
 * The published views of a listing, in zod: every field a view may show is defined once here (type and
 * description), and each view is an ordered list of those fields. The renderers send exactly these keys in
 * this order; the OpenAPI component schemas, the MCP output schemas and the TypeScript types are derived
 * from the same objects. A field added to the content DTO (src/listings/write/listing.document.ts) must be added
 * here too, or to UNPUBLISHED_LISTING_FIELDS: listing-contract.spec.ts holds the two together field by field.
 */

const text = z.string();
const texts = z.array(z.string());
const nullableText = z.string().nullable();
/** A list of `min` to `max` strings of 1 to `length` characters each (the content files' bounds, see `bounded`). */
const boundedList = (min: number, max: number, length: number) => z.array(bounded(1, length)).min(min).max(max);
const httpsUrl = z.string().regex(/^https:\/\//).meta({ format: 'uri' });

export const codeExampleSchema = z
  .object({
    label: bounded(1, 120),
    title: bounded(1, 120).describe('The same as label (the public directory calls it title).'),
    language: z.enum(CODE_LANGUAGES),
    code: bounded(1, 6000),
  });

const popularity = z.number().int().min(0).max(100).describe('Editorial estimate of adoption, 0-100.');

/** Another listing as a detail shows it among its similar APIs. */
export const similarApiSchema = z
  .object({ slug: text, name: text, nameCn: text, popularity: popularity, description: text, descriptionCn: text });

/** Every field a view of a listing may show, defined once. */
export const LISTING_VIEW_FIELDS = {
  slug: text.describe('Identifier in URLs and in compare ids: lowercase letters, digits and hyphens.'),
  name: bounded(1, 120),
  nameCn: bounded(1, 120).describe('The name in Chinese.'),
  category: text.describe('A category slug (see getCategories).'),
  categoryCn: nullableText.describe("The category's Chinese name; null when the category has none."),
  description: bounded(20, 300),
  descriptionCn: bounded(10, 300),
  website: httpsUrl,
  docsUrl: httpsUrl,
  pricing: bounded(3, 400).describe('The pricing model in words, with the free tier if any.'),
  auth: boundedList(1, 10, 300).describe('Authentication schemes as the provider documents them.'),
  rateLimit: bounded(3, 400),
  latency: bounded(2, 200),
  maxTokens: bounded(1, 120).nullable().describe('Largest context in words; null where the API has none.'),
  popularity,
  endpoints: z
    .array(text.regex(/^https:\/\//).describe('Absolute URL; path placeholders such as {id} are left as written.'))
    .min(1)
    .max(30),
  sdks: boundedList(1, 20, 40),
  features: boundedList(0, 20, 300),
  usageTips: boundedList(0, 20, 400),
  sponsored: z.boolean().describe('Paid placement. Never changes search rank.'),
  codeExamples: z.array(codeExampleSchema).min(1).max(10),
  tags: texts.min(1).max(30),
  lastUpdated: z.string().meta({ format: 'date' }).describe('The day the facts were last checked.'),
  status: z.enum(LISTING_STATUSES),
  aliases: boundedList(0, 20, 60).describe('Other names people and agents use for the API or its products (English or Chinese), former names too.'),
  freeTier: z.boolean().nullable().describe("Whether the API can be used without paying, on an ongoing basis; null where no page of the provider's states it."),
  openaiCompatible: z.boolean().nullable().describe("Whether the API accepts OpenAI's chat-completions wire format; null where no page of the provider's states it."),
  authType: z.enum(AUTH_TYPES).nullable().describe("The primary authentication scheme (details in `auth`); null where no page of the provider's states it."),
  contextTokens: z.number().int().min(1).nullable().describe('Largest context, in tokens, of the models the listing names; null where the API has none.'),
  sdkLanguages: z.array(z.enum(SDK_LANGUAGES)).min(1).max(20).describe('Languages of the official SDKs (curl: the plain HTTP API; cli: an official command line).'),
  similarApis: z.array(similarApiSchema).max(10).describe('The listings the editor named as similar, as they are now.'),
  lifecycle: lifecycleSchema.nullable().describe('Where the listing is in its life; null where it has not been recorded yet.'),
  openapiUrl: httpsUrl.nullable().describe("The provider's machine-readable API description, where one is published."),
  statusPageUrl: httpsUrl.nullable().describe("The provider's status page."),
  models: z.array(modelSchema).max(80).nullable().describe('The models the API serves; null where the listing sells none or they are not recorded yet.'),
  prices: pricesSchema.nullable(),
  rateLimits: rateLimitsSchema.nullable(),
  sources: factSourcesSchema.nullable(),
  provider: providerSchema.nullable().describe('Who runs the API and where; null where not recorded yet.'),
  tasks: texts.max(12).nullable().describe('What the listing does, as task slugs (GET /api/v1/tasks names them in both languages); null where not recorded yet.'),
  mcpServers: z.array(mcpServerSchema).max(10).nullable().describe("The provider's official MCP servers; [] where it runs none, null where not recorded yet."),
  markets: marketsSchema.nullable().describe("A payment API's markets; null for other listings and where not recorded yet."),
  priceFrom: priceFromSchema.nullable().describe("The lowest current rate in the listing's main unit, with the model it is for; null where no prices are recorded."),
  liveness: livenessSchema.nullable().describe("Whether what the listing points at still answers, from the directory's own probes; null when it has not been checked yet."),
  referralUrl: nullableText.describe('The directory takes no referral fees: null in summaries and details; the website in comparison rows, as the public directory sends it.'),
  curlExample: nullableText.describe('The first curl (bash) example, or null.'),
};
export type ListingViewField = keyof typeof LISTING_VIEW_FIELDS;

/** Fields of the content files that no view shows: the provider's domains (a rule for URLs) and the editor's note. */
export const UNPUBLISHED_LISTING_FIELDS = ['domains', 'note'] as const;
/** Fields of the content files that name other listings, which the detail shows resolved (slug, name, popularity...). */
export const RESOLVED_LISTING_FIELDS = ['similarApis'] as const;
/** Fields views add to a listing's own: resolved from the category and the code examples, the prober's findings, or for old clients. */
export const DERIVED_LISTING_FIELDS = ['categoryCn', 'referralUrl', 'curlExample', 'liveness', 'priceFrom'] as const;

/** The facts agents filter on, in every view of a listing. */
const FACT_FIELDS = ['aliases', 'freeTier', 'openaiCompatible', 'authType', 'contextTokens', 'sdkLanguages', 'lifecycle', 'liveness', 'priceFrom'] as const;
/** The facts as data, with their sources: in full on a detail and a comparison row. */
const DATA_FIELDS = ['models', 'prices', 'rateLimits', 'sources', 'openapiUrl', 'statusPageUrl', 'provider', 'tasks', 'mcpServers', 'markets'] as const;
/** Kept for clients of the public directory this API stays compatible with. */
const COMPATIBILITY_FIELDS = ['referralUrl', 'curlExample'] as const;

/** Fields of a search result or list entry, in the order they are sent (a search result adds score and matched). */
export const SUMMARY_FIELDS = [
  'slug', 'name', 'nameCn', 'category', 'categoryCn', 'description', 'descriptionCn', 'pricing', 'popularity',
  'status', 'website', 'docsUrl', 'auth', 'tags', 'sponsored', ...FACT_FIELDS, ...COMPATIBILITY_FIELDS,
] as const satisfies readonly ListingViewField[];

/** Fields of a comparison row: the same keys for every tool. */
export const COMPARISON_FIELDS = [
  'slug', 'name', 'nameCn', 'category', 'categoryCn', 'description', 'descriptionCn', 'website', 'docsUrl',
  'pricing', 'auth', 'rateLimit', 'latency', 'maxTokens', 'popularity', 'endpoints', 'sdks', 'features',
  'status', 'sponsored', 'tags', 'lastUpdated', ...FACT_FIELDS, ...DATA_FIELDS, ...COMPATIBILITY_FIELDS,
] as const satisfies readonly ListingViewField[];

/** Fields of the detail's `tool` from the listing itself, before what it shows of other documents. */
export const DETAIL_FIELDS = [
  'slug', 'name', 'nameCn', 'category', 'categoryCn', 'description', 'descriptionCn', 'website', 'docsUrl',
  'pricing', 'auth', 'rateLimit', 'latency', 'maxTokens', 'popularity', 'endpoints', 'sdks', 'features',
  'usageTips', 'sponsored', 'codeExamples', 'tags', 'lastUpdated', 'status', ...FACT_FIELDS, ...DATA_FIELDS, ...COMPATIBILITY_FIELDS,
] as const satisfies readonly ListingViewField[];

/** The fields of a view, in its order, as a zod object shape. */
function fieldsOf<K extends ListingViewField>(keys: readonly K[]): { [F in K]: (typeof LISTING_VIEW_FIELDS)[F] } {
  const shape = {} as { [F in K]: (typeof LISTING_VIEW_FIELDS)[F] };
  for (const key of keys) shape[key] = LISTING_VIEW_FIELDS[key];
  return shape;
}

export const toolSummarySchema = z.object(fieldsOf(SUMMARY_FIELDS));

/** Names of the fields a search can match (see src/search/search-fields.ts, which weighs each). */
export const MATCHABLE_FIELDS = ['name', 'nameCn', 'aliases', 'tags', 'category', 'description', 'descriptionCn', 'features', 'pricing', 'models', 'tasks', 'provider', 'markets'] as const;

export const searchResultSchema = z
  .object({
    ...fieldsOf(SUMMARY_FIELDS),
    score: z.number().describe('Relevance score (0 when browsing without q).'),
    matched: z.array(z.enum(MATCHABLE_FIELDS)).describe('Fields where the query matched.'),
  });

export const pricingComparisonRowSchema = z
  .object({ slug: text, name: text, pricing: text, auth: texts, popularity });

/** An error entry as the error reference serves it (GET /api/v1/errors). */
export const ERROR_ENTRY_VIEW_FIELDS = {
  id: text.describe('provider-status-title, e.g. openai-429-rate-limit-exceeded.'),
  provider: text.describe('The slug of the listing whose API returns it.'),
  providerName: nullableText.describe("The provider listing's name; null if it is not in the directory."),
  status: z.number().int().min(100).max(599),
  title: bounded(2, 120),
  titleCn: bounded(1, 120),
  cause: bounded(10, 1000),
  causeCn: bounded(5, 1000),
  fix: bounded(10, 1000),
  fixCn: bounded(5, 1000),
  curlExample: bounded(1, 3000).nullable(),
  rateLimitsUrl: nullableText.describe("A 429 entry: the provider's listing, whose `rateLimits` give its limits as data (tier, scope, metric, window) or the headers that report them; null for other statuses, and where the provider's limits are not yet given as data."),
};
/** Fields of the model-entry content files that no view shows: the maker's domains (a rule for sources) and the editor's note. */
export const UNPUBLISHED_MODEL_ENTRY_FIELDS = ['domains', 'note'] as const;
/** Fields of the error-entry content files that no view shows. */
export const UNPUBLISHED_ERROR_ENTRY_FIELDS = ['note'] as const;
/** Fields of an entry inside a listing's detail (the provider is the listing itself). */
export const TOOL_ERROR_FIELDS = ['status', 'title', 'titleCn', 'cause', 'causeCn', 'fix', 'fixCn', 'curlExample'] as const;

export const errorEntrySchema = z.object(ERROR_ENTRY_VIEW_FIELDS);
export const toolErrorEntrySchema = errorEntrySchema.pick(Object.fromEntries(TOOL_ERROR_FIELDS.map((f) => [f, true])) as Record<(typeof TOOL_ERROR_FIELDS)[number], true>);

export const toolDetailSchema = z
  .object({
    ...fieldsOf(DETAIL_FIELDS),
    similarApis: LISTING_VIEW_FIELDS.similarApis,
    pricingComparison: z.array(pricingComparisonRowSchema).max(4),
    errors: z.array(toolErrorEntrySchema).describe("The provider's entries of the error reference."),
  });

export const comparisonRowSchema = z.object(fieldsOf(COMPARISON_FIELDS));

export const categorySchema = z
  .object({ slug: text, name: text, nameCn: text, count: z.number().int().min(0).describe('Listings in the category now.') });

export type ToolSummary = z.infer<typeof toolSummarySchema>;
export type SearchResult = z.infer<typeof searchResultSchema>;
export type ToolDetail = z.infer<typeof toolDetailSchema>;
export type ComparisonRow = z.infer<typeof comparisonRowSchema>;
export type ErrorEntryView = z.infer<typeof errorEntrySchema>;
export type ToolErrorEntry = z.infer<typeof toolErrorEntrySchema>;
