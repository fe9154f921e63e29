import { z } from 'zod';
import { COMPARED_RATE_UNITS } from './vocabulary';
import { filtersSchema, listingSortSchema } from './listing-filters';
import { sourceSchema } from './listing-facts';
import { modelFiltersSchema, modelSortSchema } from './model-filters';
import { modelDetailSchema, modelEntrySchema, modelOfferSchema, modelSummarySchema } from './model-views';
import { livenessEntrySchema, livenessResponseSchema } from '../liveness/liveness.schema';
import {
  categorySchema,
  codeExampleSchema,
  comparisonRowSchema,
  errorEntrySchema,
  pricingComparisonRowSchema,
  searchResultSchema,
  similarApiSchema,
  toolDetailSchema,
  toolErrorEntrySchema,
  toolSummarySchema,
} from './listing-views';

/**
 * Every published response body, in zod: the envelopes around the listing views, the change feed, the
 * problem document and the discovery files. PUBLISHED_SCHEMAS names them: those names are the OpenAPI
 * document's component schemas (src/openapi/), and the MCP tools' output schemas are these objects too.
 */

const ok = z.literal(true);
const count = z.number().int().min(0);
const texts = z.array(z.string());

export const linksSchema = z.record(z.string(), z.union([z.string(), texts])).describe('Related resources (paths).');
const nextCursor = z.string().nullable().describe('Send as `cursor` (with the same other parameters) for the next page; null on the last page.');

export const problemSchema = z
  .looseObject({
    success: z.literal(false),
    error: z.string().describe('The human message (the same as detail).'),
    type: z.string().meta({ format: 'uri' }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string(),
  })
  .describe('RFC 9457 problem document; may carry `parameter` (the parameter at fault), `slug` or `notFound`.');

export const searchResponseSchema = z.object({
  success: ok,
  total: count.describe('Number of matching listings before limit (exact).'),
  returned: count,
  query: z.string().nullable(),
  category: z.string().nullable(),
  limit: z.number().int().describe('The limit applied (after clamping).'),
  filters: filtersSchema,
  sort: listingSortSchema,
  terms: texts.describe('The terms searched for, after synonyms, typo corrections and prefix completion.'),
  interpretation: z
    .array(
      z.object({
        input: z.string().describe('A word or phrase of the query (normalised).'),
        matchedAs: texts.describe('What it matched in the index: the word, its corrections or completions, or synonym phrases.'),
        via: z.array(z.enum(['exact', 'prefix', 'typo', 'synonym', 'bigrams', 'joined', 'split', 'filter', 'sort'])),
      }),
    )
    .describe('How each part of the query was understood, in query order.'),
  nextCursor,
  results: z.array(searchResultSchema),
  _links: linksSchema,
});

export const listResponseSchema = z.object({
  success: ok,
  total: count.describe('Listings that pass the filters.'),
  returned: count,
  limit: z.number().int(),
  filters: filtersSchema,
  sort: listingSortSchema,
  nextCursor,
  categories: texts.describe('Every category slug of the directory.'),
  tools: z.array(toolSummarySchema),
  _links: linksSchema,
});

export const toolDetailResponseSchema = z.object({ success: ok, tool: toolDetailSchema, _links: linksSchema });

/** One field a revision changed, with its value before and after. */
const fieldChange = z.object({ field: z.string(), before: z.unknown().describe('The value before (null: none).'), after: z.unknown().describe('The value after.') });

/** A listing no longer served: withdrawn from the directory, or retired by its provider. */
export const goneListingSchema = z
  .object({
    slug: z.string(),
    status: z.enum(['withdrawn', 'retired']),
    since: z.string().nullable().describe('When it was withdrawn (a time) or retired (a day).'),
    reason: z.string().nullable(),
    replacedBy: texts.describe('Listings to use instead.'),
  })
  .describe('A listing that was withdrawn or retired: its detail answers 410.');

export const compareResponseSchema = z.object({
  success: ok,
  total: count,
  compared: z.array(comparisonRowSchema).describe('One row per found tool, with the same keys for every tool.'),
  notFound: texts.describe('Requested slugs that are not in the directory and never were.'),
  gone: z.array(goneListingSchema).describe('Requested listings that were withdrawn or retired, with their successors.'),
  rates: z
    .array(
      z.object({
        unit: z.enum(COMPARED_RATE_UNITS),
        currency: z.literal('USD'),
        lowest: z.record(z.string(), z.number().nullable()).describe('By slug: the lowest published rate of this unit, its own or one of its current models\' (deprecated and retired models, whose shutdown is announced or past, are left out); null where it publishes none.'),
      }),
    )
    .describe('The rates of one unit side by side, for each unit a compared listing publishes a flat US-dollar rate for (rates with a percentage, such as card fees, and the unit `other` are left out: see each row\'s prices).'),
  _links: linksSchema,
});

/** A listing as published at a past moment (GET /api/v1/tools/{slug}?asOf=). */
export const toolAsOfResponseSchema = z.object({
  success: ok,
  asOf: z.string().meta({ format: 'date-time' }).describe('The moment asked for.'),
  tool: toolDetailSchema,
  _links: linksSchema,
});


/** One change in a listing's history. */
export const historyChangeSchema = z.object({
  version: z.number().int().min(1),
  occurredAt: z.string().meta({ format: 'date-time' }),
  kind: z.enum(['published', 'revised', 'withdrawn']),
  changes: z.array(fieldChange).nullable().describe('revised: each public field it changed, before and after; null otherwise.'),
  reason: z.string().nullable().describe("withdrawn: the editor's reason."),
  replacedBy: texts.nullable().describe('withdrawn: the listings named to replace it.'),
  forced: z.boolean().describe('The editor overwrote changes made since the version their file was based on, on purpose.'),
});

export const historyResponseSchema = z.object({
  success: ok,
  slug: z.string(),
  version: z.number().int().min(1).describe('The current version.'),
  live: z.boolean().describe('false when the listing is withdrawn now.'),
  total: count.describe('Changes in all.'),
  returned: count,
  limit: z.number().int(),
  nextBefore: z.number().int().nullable().describe('Send as `before` for the next (older) page; null on the last.'),
  changes: z.array(historyChangeSchema).describe('Newest first.'),
  _links: linksSchema,
});

export const categoriesResponseSchema = z.object({
  success: ok,
  total: count.describe('Number of categories.'),
  totalListings: count.describe('Sum of the counts.'),
  categories: z.array(categorySchema),
  _links: linksSchema,
});

export const errorsResponseSchema = z.object({
  success: ok,
  total: count,
  provider: z.string().nullable(),
  status: z.number().int().nullable(),
  errors: z.array(errorEntrySchema),
  _links: linksSchema,
});


export const CHANGE_TYPES = ['published', 'revised', 'withdrawn'] as const;
export const CHANGE_KINDS = ['listing', 'error-entry', 'liveness', 'model'] as const;

/** One change of the directory as the feed serves it. Who made it is left out. */
export const changeSchema = z.object({
  cursor: z.string().describe('Where this change sits in the log: send it as `since` for the changes after it.'),
  type: z.enum(CHANGE_TYPES),
  kind: z.enum(CHANGE_KINDS).describe("liveness: the prober published a listing's liveness (published) or a change of its state or of a target's (revised); `changes` gives the state and targets before and after. model: a model entry (what a model is, whoever serves it); a change of a model's offer (its price, context or lifecycle at one provider) is a change of that provider's listing, in `models`."),
  id: z.string().describe("The listing's slug (for liveness too), the error entry's `id` (as in listErrorReference), or the model entry's id."),
  version: z.number().int().min(1).describe("The version of the listing, entry or listing's liveness after this change."),
  occurredAt: z.string().meta({ format: 'date-time' }),
  changedFields: texts.nullable().describe('revised: the top-level fields of the document that changed; null otherwise.'),
  changes: z
    .array(fieldChange)
    .nullable()
    .describe('revised: each changed field with its value before and after; null otherwise. Values are as the document holds them (the views show some resolved: see the detail).'),
  reason: z.string().nullable().describe("withdrawn: the editor's reason, when one was given; null otherwise."),
  replacedBy: texts.nullable().describe('withdrawn: the listings that replace it, when the editor named them; null otherwise.'),
  _links: z.object({
    self: z.string().describe("Where the thing is now: the listing's detail, or the provider's error list."),
    listing: z.string().optional().describe("error-entry: the provider's listing, whose detail lists its errors."),
    liveness: z.string().optional().describe('liveness: the liveness of every listing.'),
  }),
});

export const changesResponseSchema = z.object({
  success: ok,
  since: z.string().nullable().describe('The cursor the page starts after (null: from the beginning).'),
  limit: z.number().int().describe('The limit applied (after clamping).'),
  returned: count,
  hasMore: z.boolean().describe('Whether more changes follow now: read on with `nextCursor`; otherwise poll with it later.'),
  nextCursor: z.string().describe('Where this page ends (the same `since` when nothing is new): the `since` of the next request. Always given.'),
  changes: z.array(changeSchema),
  _links: linksSchema,
});

/** GET /api/v1/export: the whole catalog at one position of the log, and the change-feed cursor of that position. */
export const exportSchema = z
  .object({
    success: ok,
    schemaVersion: z.literal(1).describe('The version of this shape; a new one gets a new number.'),
    asOf: z.string().meta({ format: 'date-time' }).nullable().describe('The moment asked for; null: as the directory is now.'),
    cursor: z.string().describe('The change-feed cursor the export is consistent with: GET /api/v1/changes?since=<cursor> gives every change after it.'),
    categories: z.array(categorySchema),
    errors: z.array(errorEntrySchema),
    tools: z.array(toolDetailSchema).describe('Every live listing, as its detail shows it (its `models` are its offers, each naming its model entry in `canonical`).'),
    total: count.describe('Listings in `tools`.'),
    models: z.array(modelEntrySchema).describe('Every model entry (what a model is, whoever serves it), by id.'),
    _links: linksSchema,
  })
  .describe('The whole catalog, consistent with a change-feed cursor.');

export const serviceIndexSchema = z.object({
  success: ok,
  name: z.string(),
  version: z.string(),
  description: z.string(),
  authentication: z.string(),
  mcp: z.object({ url: z.string(), transport: z.string(), alsoAt: z.string(), tools: texts }),
  documents: z.object({ openapi: z.string(), llmsTxt: z.string(), llmsFullTxt: z.string(), apiCatalog: z.string(), agentsTxt: z.string(), aiPlugin: z.string() }),
  changes: z.object({ json: z.string(), atom: z.string() }),
  health: z.object({ live: z.string(), ready: z.string() }),
  operations: z.array(z.object({ operationId: z.string().nullable(), method: z.string(), path: z.string(), summary: z.string().nullable() })),
  _links: linksSchema,
});

const linkTarget = z.object({ href: z.string().meta({ format: 'uri' }), type: z.string() });
export const apiCatalogSchema = z.object({
  linkset: z.array(
    z.object({
      anchor: z.string().meta({ format: 'uri' }),
      'service-desc': z.array(linkTarget),
      'service-doc': z.array(linkTarget),
      'service-meta': z.array(linkTarget),
      status: z.array(linkTarget),
    }),
  ),
});

export const aiPluginManifestSchema = z.object({
  schema_version: z.string(),
  name_for_human: z.string(),
  name_for_model: z.string(),
  description_for_human: z.string(),
  description_for_model: z.string(),
  auth: z.object({ type: z.literal('none') }),
  api: z.object({ type: z.literal('openapi'), url: z.string().meta({ format: 'uri' }) }),
});

export const modelListResponseSchema = z.object({
  success: ok,
  total: count.describe('Models that pass the filters (exact).'),
  returned: count,
  limit: z.number().int().describe('The limit applied (after clamping).'),
  filters: modelFiltersSchema,
  sort: modelSortSchema,
  nextCursor,
  models: z.array(modelSummarySchema),
  _links: linksSchema,
});

export const modelDetailResponseSchema = z.object({ success: ok, model: modelDetailSchema, _links: linksSchema });

export const modelCompareResponseSchema = z.object({
  success: ok,
  priceUnit: z.enum(COMPARED_RATE_UNITS).describe('The unit rates are put side by side in.'),
  compared: z.array(modelSummarySchema).describe('Each model found, in the order asked for (offers cheapest first in priceUnit).'),
  rates: z
    .array(
      z.object({
        id: z.string(),
        price: z.number().min(0).nullable().describe('Its lowest current US-dollar rate in priceUnit among offers not deprecated or retired; null: none.'),
        listing: z.string().nullable(),
        modelId: z.string().nullable(),
        appliesTo: z.string().nullable(),
        source: sourceSchema.nullable().describe('The page that states the rate.'),
      }),
    )
    .describe('One rate per compared model, side by side.'),
  notFound: texts.describe('Requested ids that are no model of the catalog.'),
  _links: linksSchema,
});

export const taskSchema = z.object({
  slug: z.string().describe('What the `task` filter takes.'),
  name: z.string(),
  nameCn: z.string(),
  synonyms: texts.describe('Other ways to say it in English; search matches them.'),
  synonymsCn: texts.describe('Other ways to say it in Chinese.'),
  count: count.describe('Listings that do it now.'),
});

export const tasksResponseSchema = z.object({ success: ok, total: count, tasks: z.array(taskSchema), _links: linksSchema });

/** Every published shape by the name the OpenAPI document gives it (its components.schemas). */
export const PUBLISHED_SCHEMAS = {
  Problem: problemSchema,
  Links: linksSchema,
  Filters: filtersSchema,
  ToolSummary: toolSummarySchema,
  SearchResult: searchResultSchema,
  SearchResponse: searchResponseSchema,
  ListResponse: listResponseSchema,
  CodeExample: codeExampleSchema,
  SimilarApi: similarApiSchema,
  PricingComparisonRow: pricingComparisonRowSchema,
  ToolErrorEntry: toolErrorEntrySchema,
  ToolDetail: toolDetailSchema,
  ToolDetailResponse: toolDetailResponseSchema,
  ComparisonRow: comparisonRowSchema,
  GoneListing: goneListingSchema,
  CompareResponse: compareResponseSchema,
  ToolAsOfResponse: toolAsOfResponseSchema,
  HistoryChange: historyChangeSchema,
  HistoryResponse: historyResponseSchema,
  Category: categorySchema,
  CategoriesResponse: categoriesResponseSchema,
  ErrorEntry: errorEntrySchema,
  ErrorsResponse: errorsResponseSchema,
  LivenessEntry: livenessEntrySchema,
  LivenessResponse: livenessResponseSchema,
  Change: changeSchema,
  ChangesResponse: changesResponseSchema,
  Export: exportSchema,
  ServiceIndex: serviceIndexSchema,
  ApiCatalog: apiCatalogSchema,
  AiPluginManifest: aiPluginManifestSchema,
  Task: taskSchema,
  TasksResponse: tasksResponseSchema,
  ModelEntry: modelEntrySchema,
  ModelFilters: modelFiltersSchema,
  ModelSummary: modelSummarySchema,
  ModelOffer: modelOfferSchema,
  ModelDetail: modelDetailSchema,
  ModelListResponse: modelListResponseSchema,
  ModelDetailResponse: modelDetailResponseSchema,
  ModelCompareResponse: modelCompareResponseSchema,
} satisfies Record<string, z.ZodType>;
export type PublishedSchemaName = keyof typeof PUBLISHED_SCHEMAS;

export type SearchResponse = z.infer<typeof searchResponseSchema>;
export type TasksResponse = z.infer<typeof tasksResponseSchema>;
export type ModelListResponse = z.infer<typeof modelListResponseSchema>;
export type ModelDetailResponse = z.infer<typeof modelDetailResponseSchema>;
export type ModelCompareResponse = z.infer<typeof modelCompareResponseSchema>;
export type ListResponse = z.infer<typeof listResponseSchema>;
export type ToolDetailResponse = z.infer<typeof toolDetailResponseSchema>;
export type CompareResponse = z.infer<typeof compareResponseSchema>;
export type CategoriesResponse = z.infer<typeof categoriesResponseSchema>;
export type ErrorsResponse = z.infer<typeof errorsResponseSchema>;
export type Change = z.infer<typeof changeSchema>;
/** Why a listing is no longer served: withdrawn from the directory, or retired by its provider. */
export type GoneListing = z.infer<typeof goneListingSchema>;
export type ChangeType = (typeof CHANGE_TYPES)[number];
export type ChangeKind = (typeof CHANGE_KINDS)[number];
