import { z } from 'zod';
import { COMPARED_RATE_UNITS, LIFECYCLE_STATUSES, MODALITIES, MODEL_KINDS } from './vocabulary';
import { capabilitiesSchema, lifecycleSchema, rateSchema, sourceSchema } from './listing-facts';
import { LIVE_FILTER_VALUES } from '../liveness/liveness.schema';

/**
 * The model catalog's published shapes, in zod: a model entry (one upstream model, whoever serves it) with
 * its offers (each listing that serves it, under the id its API takes). Defined once: the JSON answers,
 * the OpenAPI component schemas, the MCP output schemas and the pages derive from these objects.
 */

const text = z.string();
const texts = z.array(z.string());
const date = z.string().meta({ format: 'date' });
const tokens = z.number().int().min(1).nullable();
const httpsUrl = z.string().regex(/^https:\/\//).meta({ format: 'uri' });

/** What a model does, across its offers: true when a current offer says so, false when every offer that says says not, null when none says. */
export const modelCapabilitiesSchema = z
  .object({
    tools: z.boolean().nullable().describe('Tool (function) calling.'),
    structuredOutput: z.boolean().nullable().describe('Output held to a JSON schema.'),
    reasoning: z.boolean().nullable().describe('A reasoning (thinking) mode.'),
    batch: z.boolean().nullable().describe('A batch API at some provider.'),
    fineTuning: z.boolean().nullable().describe('Fine-tuning at some provider.'),
    promptCaching: z.boolean().nullable().describe('Prompt caching at some provider.'),
    imageInput: z.boolean().describe('Reads images (an input modality of an offer).'),
    audioInput: z.boolean().describe('Hears audio.'),
    audioOutput: z.boolean().describe('Speaks: audio output.'),
    openWeights: z.boolean().describe('Its weights are published (see openWeights for the licence).'),
  })
  .describe("What the model does: each capability from its offers' sourced capabilities and modalities.");

/** The lowest current rate of a model in one unit, and who charges it. */
export const modelRateSchema = z
  .object({
    unit: z.enum(COMPARED_RATE_UNITS),
    price: z.number().min(0).describe('US dollars per unit.'),
    listing: text.describe('The listing that charges it.'),
    modelId: text.describe('The id that listing takes.'),
    appliesTo: text.nullable(),
  })
  .describe('The lowest current US-dollar rate of the model in a unit, among its offers that are not deprecated or retired.');

/** One listing's offer of a model, as a model's answers show it. */
export const modelOfferSchema = z
  .object({
    listing: text.describe("The listing's slug (GET /api/v1/tools/{listing})."),
    listingName: text,
    modelId: text.describe('The id this listing’s API takes.'),
    name: text.describe('The model’s name at this listing.'),
    currency: text.describe('The currency of prices (the listing’s).'),
    prices: z.array(rateSchema),
    contextTokens: tokens,
    maxOutputTokens: tokens,
    input: z.array(z.enum(MODALITIES)),
    output: z.array(z.enum(MODALITIES)),
    capabilities: capabilitiesSchema.nullable(),
    lifecycle: lifecycleSchema,
    liveness: z.enum(LIVE_FILTER_VALUES).describe("The listing's liveness state from the directory's probes (unchecked: not probed yet)."),
    source: sourceSchema,
  })
  .describe('A listing that serves the model: its id, prices, limits and lifecycle there.');

const modelCore = {
  id: text.describe('The model’s id in the directory: its entry’s id (gpt-oss-120b), or <listing>/<model id> for a model no entry names yet.'),
  name: text,
  family: text.nullable(),
  creator: text.nullable().describe('Who made it.'),
  creatorListing: text.nullable().describe("The maker's listing, where it has one."),
  kind: z.enum(MODEL_KINDS),
  input: z.array(z.enum(MODALITIES)).describe('Every input modality of its current offers.'),
  output: z.array(z.enum(MODALITIES)),
  contextTokens: tokens.describe('The largest context of its current offers.'),
  maxOutputTokens: tokens,
  capabilities: modelCapabilitiesSchema,
  openWeights: z.object({ licence: text, url: httpsUrl }).nullable(),
  releaseDate: date.nullable(),
  knowledgeCutoff: text.nullable().describe('YYYY-MM or YYYY-MM-DD, as the maker states it.'),
  lifecycle: z
    .object({
      status: z.enum(LIFECYCLE_STATUSES).describe('active where any offer is; else preview, deprecated, retired.'),
      retiresAt: date.nullable().describe('The earliest announced shutdown among its offers, if any.'),
      replacedBy: texts.describe('Model ids (of the directory) its offers name as successors.'),
    })
    .describe("The model's state across its offers; each offer's own is in offers."),
  lowestRates: z.array(modelRateSchema),
  offers: z.array(modelOfferSchema).describe('Every listing that serves it (cheapest first in the unit asked for, else by listing).'),
};

export const modelSummarySchema = z.object({ ...modelCore, score: z.number().describe('Relevance to q (0 without q).') });

/** A change of a model at one of its providers (price, context, lifecycle), from the event log. */
export const modelChangeSchema = z.object({
  occurredAt: z.string().meta({ format: 'date-time' }),
  listing: text,
  modelId: text,
  field: text.describe('prices, contextTokens, maxOutputTokens, lifecycle, or offer (added or removed).'),
  before: z.unknown(),
  after: z.unknown(),
});

export const modelDetailSchema = z.object({
  ...modelCore,
  aliases: texts,
  source: sourceSchema.nullable().describe("The maker's page the entry comes from (null for a model no entry names)."),
  history: z.array(modelChangeSchema).describe('Changes of its offers, newest first.'),
});

/** A model entry as published (the export's `models`): what the model is, whoever serves it; its offers are in each listing's `models`. */
export const modelEntrySchema = z.object({
  id: text,
  name: text,
  family: text,
  creator: text,
  creatorListing: text.nullable(),
  aliases: texts.nullable(),
  openWeights: z.object({ licence: text, url: httpsUrl }).nullable(),
  releaseDate: date.nullable(),
  knowledgeCutoff: text.nullable(),
  source: sourceSchema,
});

export type ModelSummary = z.infer<typeof modelSummarySchema>;
export type ModelDetail = z.infer<typeof modelDetailSchema>;
export type ModelOffer = z.infer<typeof modelOfferSchema>;
export type ModelChange = z.infer<typeof modelChangeSchema>;
export type ModelEntry = z.infer<typeof modelEntrySchema>;
