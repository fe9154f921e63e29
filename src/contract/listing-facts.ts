import { z } from 'zod';
import {
  CURRENCIES,
  LIFECYCLE_STATUSES,
  LIMIT_METRICS,
  LIMIT_PERIODS,
  LIMIT_SCOPES,
  MODALITIES,
  MODEL_KINDS,
  PRICING_MODELS,
  QUOTA_PERIODS,
  RATE_UNITS,
} from '../listings/listing-facts';

/**
 * The facts agents decide by, as the views publish them (src/listings/listing-facts.ts has the content
 * files' side; listing-contract.spec.ts holds the two together, nested fields included).
 */

const text = z.string();
const date = z.string().meta({ format: 'date' });
const httpsUrl = z.string().regex(/^https:\/\//).meta({ format: 'uri' });

export const sourceSchema = z
  .object({
    url: httpsUrl.describe('The page that states the fact.'),
    checked: date.describe('The day an editor last checked the fact there.'),
    quote: text.nullable().describe('A few words of the page that state it.'),
    offDomainReason: text.nullable().describe("Why a page off the provider's domains is the source; null when it is on them."),
    staleAfter: date.describe('After this day the check is older than the directory allows (180 days): treat the fact as stale until it is checked again.'),
  })
  .describe('Where a fact comes from and when it was checked.');

export const lifecycleSchema = z
  .object({
    status: z.enum(LIFECYCLE_STATUSES),
    since: date.nullable().describe('The day the current status began, when known.'),
    retiresAt: date.nullable().describe('The announced shutdown date.'),
    replacedBy: z.array(text).nullable().describe("What to move to: listing slugs (a listing's lifecycle) or model ids of the same listing (a model's)."),
    migrationUrl: httpsUrl.nullable(),
    reason: text.nullable(),
    source: sourceSchema.nullable(),
  })
  .describe('Where the listing or model is in its life, and what replaces it.');

export const rateSchema = z.object({
  unit: z.enum(RATE_UNITS),
  price: z.number().min(0),
  percent: z.number().min(0).max(100).nullable().describe('A percentage charged besides the price (card payments).'),
  appliesTo: text.nullable().describe('The tier, plan or part of the service it applies to.'),
  note: text.nullable(),
  source: sourceSchema.nullable().describe("Where this rate comes from when another page than its block's (the prices', or its model's) states it; null: the block's source."),
});

export const pricesSchema = z
  .object({
    currency: z.enum(CURRENCIES),
    models: z.array(z.enum(PRICING_MODELS)),
    freeQuota: z.array(
      z.object({ unit: z.enum(RATE_UNITS), amount: z.number().min(0), period: z.enum(QUOTA_PERIODS), conditions: text.nullable() }),
    ),
    rates: z.array(rateSchema),
    batchDiscount: z.number().min(0).max(1).nullable().describe('The share taken off for batch requests.'),
    source: sourceSchema,
  })
  .describe('Prices as data, beside `pricing`.');

export const rateLimitsSchema = z
  .object({
    limits: z.array(
      z.object({
        tier: text.describe("free, paid, tier-1 ... tier-5, enterprise or default where they fit, else the provider's own plan name (hobby, scale...)."),
        scope: z.enum(LIMIT_SCOPES),
        metric: z.enum(LIMIT_METRICS),
        per: z.enum(LIMIT_PERIODS).nullable().describe('The window; null for concurrent requests.'),
        limit: z.number().min(0),
        appliesTo: text.nullable().describe('The model or endpoint it applies to, when not the whole API.'),
      }),
    ),
    headers: z.array(text).describe('Response headers that report the limits.'),
    source: sourceSchema,
  })
  .describe('Rate limits as data, beside `rateLimit`.');

export const modelSchema = z.object({
  id: text.describe('The id the API takes.'),
  name: text,
  kind: z.enum(MODEL_KINDS),
  input: z.array(z.enum(MODALITIES)),
  output: z.array(z.enum(MODALITIES)),
  contextTokens: z.number().int().min(1).nullable(),
  maxOutputTokens: z.number().int().min(1).nullable(),
  prices: z.array(rateSchema),
  lifecycle: lifecycleSchema,
  source: sourceSchema,
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
