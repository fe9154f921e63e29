import { z } from 'zod';
import { CURRENCIES, LIFECYCLE_STATUSES, LIMIT_METRICS, LIMIT_PERIODS, LIMIT_SCOPES, MCP_AUTH, MCP_TRANSPORTS, MODALITIES, MODEL_KINDS, PACKAGE_REGISTRIES, PAYMENT_METHODS, PRICING_MODELS, QUOTA_PERIODS, RATE_UNITS } from './vocabulary';

/**
 * The facts agents decide by, as the views publish them (src/listings/write/listing-facts.ts has the content
 * files' side; listing-contract.spec.ts holds the two together, nested fields included).
 */

const text = z.string();
/**
 * A string of `min` to `max` characters. The content files' DTOs set these bounds (src/listings/write/);
 * the published schemas state them again, so that a client knows them, and listing-contract.spec.ts holds
 * the two equal.
 */
export const bounded = (min: number, max: number) => z.string().min(min).max(max);
/** The bounds of a source's quote and of the reason for a source off the provider's domains. */
const quote = bounded(1, 300);
const offDomainReason = bounded(1, 200);
const date = z.string().meta({ format: 'date' });
const httpsUrl = z.string().regex(/^https:\/\//).meta({ format: 'uri' });

export const sourceSchema = z
  .object({
    url: httpsUrl.describe('The page that states the fact.'),
    checked: date.describe('The day an editor last checked the fact there.'),
    quote: quote.nullable().describe('A few words of the page that state it.'),
    offDomainReason: offDomainReason.nullable().describe("Why a page off the provider's domains is the source; null when it is on them."),
    staleAfter: date.describe('After this day the check is older than the directory allows (180 days): treat the fact as stale until it is checked again.'),
  })
  .describe('Where a fact comes from and when it was checked.');

export const lifecycleSchema = z
  .object({
    status: z.enum(LIFECYCLE_STATUSES),
    since: date.nullable().describe('The day the current status began, when known.'),
    retiresAt: date.nullable().describe('The announced shutdown date.'),
    replacedBy: z.array(text).max(5).nullable().describe("What to move to: listing slugs (a listing's lifecycle) or model ids of the same listing (a model's)."),
    migrationUrl: httpsUrl.nullable(),
    reason: bounded(1, 300).nullable(),
    source: sourceSchema.nullable(),
  })
  .describe('Where the listing or model is in its life, and what replaces it.');

export const rateSchema = z.object({
  unit: z.enum(RATE_UNITS),
  price: z.number().min(0),
  percent: z.number().min(0).max(100).nullable().describe('A percentage charged besides the price (card payments).'),
  appliesTo: bounded(1, 80).nullable().describe('The tier, plan or part of the service it applies to.'),
  note: bounded(1, 200).nullable(),
  source: sourceSchema.nullable().describe("Where this rate comes from when another page than its block's (the prices', or its model's) states it; null: the block's source."),
});

export const pricesSchema = z
  .object({
    currency: z.enum(CURRENCIES),
    models: z.array(z.enum(PRICING_MODELS)),
    freeQuota: z
      .array(z.object({ unit: z.enum(RATE_UNITS), amount: z.number().min(0), period: z.enum(QUOTA_PERIODS), conditions: bounded(1, 200).nullable() }))
      .max(20),
    rates: z.array(rateSchema).max(60),
    batchDiscount: z.number().min(0).max(1).nullable().describe('The share taken off for batch requests.'),
    source: sourceSchema,
  })
  .describe('Prices as data, beside `pricing`.');

export const priceFromSchema = z
  .object({
    unit: z.enum(RATE_UNITS).describe('The main unit: the one most of the current rates are in.'),
    price: z.number().min(0),
    percent: z.number().min(0).max(100).nullable().describe('A percentage charged besides the price (card payments).'),
    currency: z.enum(CURRENCIES).describe("The listing's currency."),
    appliesTo: text.nullable(),
    model: z.object({ id: text.describe('The id the API takes.'), name: text }).nullable().describe("The model it is for; null: the listing's own rate."),
    source: sourceSchema,
  })
  .describe(
    "A listing's price from: of its own rates and its current models' (deprecated and retired models, whose shutdown is announced or past, are left out), those in the main unit, the lowest percentage (a flat rate has none), then the lowest price.",
  );

export const rateLimitsSchema = z
  .object({
    limits: z.array(
      z.object({
        tier: text.describe("free, paid, tier-1 ... tier-5, enterprise or default where they fit, else the provider's own plan name (hobby, scale...)."),
        scope: z.enum(LIMIT_SCOPES),
        metric: z.enum(LIMIT_METRICS),
        per: z.enum(LIMIT_PERIODS).nullable().describe('The window; null for concurrent requests.'),
        limit: z.number().min(0),
        appliesTo: bounded(1, 120).nullable().describe('The model or endpoint it applies to, when not the whole API.'),
      }),
    )
      .max(60),
    headers: z.array(text).max(20).describe('Response headers that report the limits.'),
    source: sourceSchema,
  })
  .describe('Rate limits as data, beside `rateLimit`.');

const stated = z.boolean().nullable();
export const capabilitiesSchema = z
  .object({
    tools: stated.describe('Tool (function) calling.'),
    structuredOutput: stated.describe('Output held to a JSON schema given with the request.'),
    reasoning: stated.describe('A reasoning (thinking) mode.'),
    batch: stated.describe('A batch (asynchronous, discounted) API for it.'),
    fineTuning: stated.describe('Fine-tuning through this API.'),
    promptCaching: stated.describe('Prompt caching (cached input billed apart).'),
    source: sourceSchema,
  })
  .describe('Each capability true, false, or null where the provider does not say; image and audio are in input and output.');

const regionCode = text.describe('Lowercase ISO 3166-1 alpha-2 country code, or eu.');

export const providerSchema = z
  .object({
    name: bounded(1, 120).describe("The company's name."),
    nameCn: bounded(1, 60).nullable().describe("The company's Chinese name, where it has one."),
    country: regionCode.nullable().describe("Where the company is headquartered: lowercase ISO 3166-1 alpha-2 code; null where no page of the provider's says."),
    dataRegions: z.array(regionCode).max(30).describe('Where it says it processes or stores data (country codes, or eu); empty when it does not say.'),
    source: sourceSchema,
    dataRegionsSource: sourceSchema.nullable(),
  })
  .describe('Who runs the API and where.');

export const mcpServerSchema = z
  .object({
    name: bounded(1, 120),
    transport: z.enum(MCP_TRANSPORTS).describe('streamable-http or sse: a remote server at url; stdio: a local server run from package.'),
    url: text.regex(/^https:\/\//).nullable().describe('The endpoint of a remote server; a per-account part such as {server_id} is left as written.'),
    package: z.object({ registry: z.enum(PACKAGE_REGISTRIES), name: bounded(1, 200) }).nullable().describe('The package of a local server.'),
    auth: z.array(z.enum(MCP_AUTH)).min(1).describe('How a client authenticates: oauth, api-key or none.'),
    covers: bounded(3, 300).describe('What it lets an agent do.'),
    coversCn: bounded(2, 300),
    lifecycle: lifecycleSchema,
    source: sourceSchema,
  })
  .describe("An official MCP server of the provider's.");

export const marketsSchema = z
  .object({
    worldwide: z.boolean().describe('Buyers can pay from anywhere.'),
    buyerCountries: z.array(regionCode).max(250).describe('Countries whose buyers can pay.'),
    merchantCountries: z.array(regionCode).max(250).describe('Countries where a business can sign up and be paid out.'),
    settlementCurrencies: z.array(text).max(200).describe('Currencies it pays out in (ISO 4217).'),
    paymentMethods: z.array(z.enum(PAYMENT_METHODS)),
    source: sourceSchema,
  })
  .describe("A payment API's markets.");

export const modelSchema = z.object({
  id: text.describe('The id the API takes.'),
  name: bounded(1, 100),
  kind: z.enum(MODEL_KINDS),
  input: z.array(z.enum(MODALITIES)),
  output: z.array(z.enum(MODALITIES)),
  contextTokens: z.number().int().min(1).nullable(),
  maxOutputTokens: z.number().int().min(1).nullable(),
  prices: z.array(rateSchema).max(20),
  lifecycle: lifecycleSchema,
  source: sourceSchema,
  canonical: text.nullable().describe('The model entry this offer serves (GET /api/v1/models/{id}): the same upstream model whoever serves it; null where the model has no entry of its own yet.'),
  capabilities: capabilitiesSchema.nullable().describe('What the model does as this API serves it; null where not recorded yet.'),
});

export const factSourcesSchema = z
  .object({
    auth: sourceSchema.nullable(),
    freeTier: sourceSchema.nullable(),
    openaiCompatible: sourceSchema.nullable(),
    contextTokens: sourceSchema.nullable(),
  })
  .describe("Sources of the listing's own decision facts; null for a fact not yet confirmed on the provider's pages.");

/** A fact last checked longer ago than this is stale: served with `staleAfter`, listed by check:content. */
export const STALE_AFTER_DAYS = 180;

/** The day a check made on `checked` (YYYY-MM-DD) grows stale. */
export function staleAfter(checked: string): string {
  return new Date(Date.parse(`${checked}T00:00:00Z`) + STALE_AFTER_DAYS * 86_400_000).toISOString().slice(0, 10);
}

/** Fields of the facts' views that the content files do not have: worked out when a listing is rendered. */
export const DERIVED_SOURCE_FIELDS = ['staleAfter'] as const;

type Dated<S> = S & { staleAfter: string };
type SourceData = { url: string; checked: string; quote: string | null; offDomainReason: string | null };

/** A source as the views serve it: with the day its check grows stale. */
export function datedSource<S extends SourceData>(source: S | null | undefined): Dated<S> | null {
  return source ? { ...source, staleAfter: staleAfter(source.checked) } : null;
}

/** A lifecycle as the views serve it: its source dated. */
export function datedLifecycle<L extends { source?: SourceData | null }>(lifecycle: L | null | undefined) {
  return lifecycle ? { ...lifecycle, source: datedSource(lifecycle.source ?? null) } : null;
}

/** Rates as the views serve them: each with its own source dated (a rate stored before rates had sources has none: its block's is its source). */
export function datedRates<R extends { source?: SourceData | null }>(rates: readonly R[]) {
  return rates.map((rate) => ({ ...rate, source: datedSource(rate.source ?? null) }));
}
