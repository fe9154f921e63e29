import { z } from 'zod';
import { FILTER_ECHO, type FilterDefinition, LISTING_FILTERS } from './listing-filters';
import { COMPARED_RATE_UNITS, MODALITIES, MODEL_KINDS } from './vocabulary';

/**
 * The filters of the model catalog (GET /api/v1/models, the MCP tool search_models, the /models page),
 * defined once like the listings' (see listing-filters.ts): the HTTP parsing, the OpenAPI parameters, the
 * MCP arguments and the `filters` echo derive from this table. Filters the listings have too are theirs,
 * word for word.
 */
export const MODEL_FILTERS = {
  q: {
    kind: 'text',
    description: "Words of the model's name, id (any provider's), family, aliases or maker: prefixes and typos are matched as in listing search, e.g. gpt-oss or llama 4.",
    expected: 'words to search for',
    example: 'gpt-oss',
  },
  kind: {
    kind: 'modelKind',
    description: `Only models of this kind: ${MODEL_KINDS.join(', ')}.`,
    expected: `one of ${MODEL_KINDS.join(', ')}`,
    example: 'embedding',
  },
  input: {
    kind: 'modality',
    description: `Only models that take this input at some provider: ${MODALITIES.join(', ')}.`,
    expected: `one of ${MODALITIES.join(', ')}`,
    example: 'image',
  },
  output: {
    kind: 'modality',
    description: `Only models that give this output: ${MODALITIES.join(', ')}.`,
    expected: `one of ${MODALITIES.join(', ')}`,
    example: 'audio',
  },
  minContext: { ...LISTING_FILTERS.minContext, description: 'At least this many tokens of context at some provider: digits, or with k or m (200k, 1m).', example: '200k' },
  minOutput: {
    kind: 'tokens',
    description: 'At least this many output tokens in one answer at some provider: digits, or with k or m (32k).',
    expected: 'a positive number of tokens (e.g. 32000 or 32k)',
    example: '32k',
  },
  tools: { kind: 'boolean', description: 'true: only models with tool (function) calling at some provider that says so; false: the others.', expected: 'true or false', example: true },
  structuredOutput: { kind: 'boolean', description: 'true: only models whose output can be held to a JSON schema at some provider.', expected: 'true or false', example: true },
  reasoning: { kind: 'boolean', description: 'true: only models with a reasoning (thinking) mode.', expected: 'true or false', example: true },
  batch: { kind: 'boolean', description: 'true: only models with a batch API at some provider.', expected: 'true or false', example: true },
  fineTuning: { kind: 'boolean', description: 'true: only models that some provider fine-tunes.', expected: 'true or false', example: true },
  promptCaching: { kind: 'boolean', description: 'true: only models with prompt caching at some provider.', expected: 'true or false', example: true },
  openWeights: { kind: 'boolean', description: 'true: only models whose weights are published (open models); false: only closed ones.', expected: 'true or false', example: true },
  listing: {
    kind: 'slug',
    description: 'Only models this listing serves (a listing slug, e.g. groq).',
    expected: 'a listing slug',
    example: 'groq',
  },
  category: { ...LISTING_FILTERS.category, description: 'Only models served by a listing of this category (e.g. llm). An unknown category finds nothing.' },
  lifecycle: {
    ...LISTING_FILTERS.lifecycle,
    description: 'Only models in this stage of their life across their offers (active where any provider serves it as current): preview, active, deprecated or retired. Retired models are left out otherwise.',
  },
  includeRetired: { ...LISTING_FILTERS.includeRetired, description: 'true: models no provider serves any more too.' },
  retiringWithin: {
    ...LISTING_FILTERS.retiringWithin,
    description: 'Only models with a shutdown announced at some provider within this many days from today, e.g. 90d (each offer says where and when); echoed as the last day it covers.',
  },
  maxPrice: {
    ...LISTING_FILTERS.maxPrice,
    description: "Only models with a current rate per `priceUnit` of at most this many US dollars at some provider (offers that are deprecated or retired are not counted).",
  },
  priceUnit: {
    ...LISTING_FILTERS.priceUnit,
    description: 'The unit of maxPrice and of sort=price, e.g. 1m-input-tokens: a rate unit of the facts as data but other.',
  },
  freeQuota: { kind: 'boolean', description: 'true: only models with a free offer (a provider with a free allowance, or a rate of 0).', expected: 'true or false', example: true },
  live: { ...LISTING_FILTERS.live, description: "Only models served by a listing in this liveness state, from the directory's probes." },
} as const satisfies Record<string, FilterDefinition>;

export type ModelFilterName = keyof typeof MODEL_FILTERS;
/** The filters that test a capability flag of a model (`capabilities.<name>`), true or false. */
export const CAPABILITY_FILTERS = ['tools', 'structuredOutput', 'reasoning', 'batch', 'fineTuning', 'promptCaching', 'openWeights'] as const satisfies readonly ModelFilterName[];
export const MODEL_FILTER_NAMES = Object.keys(MODEL_FILTERS) as ModelFilterName[];

/** How the catalog can be ordered. */
export const MODEL_SORTS = ['relevance', 'popular', 'price', 'context', 'released', 'name'] as const;
export type ModelSort = (typeof MODEL_SORTS)[number];
export const MODEL_SORT = {
  description:
    'The order: relevance (to q; the default with q), popular (most providers first; the default without q), price (cheapest current rate in priceUnit first, which it needs; models without a rate in that unit last, counted in sort.withoutRate), context (largest first), released (newest first), name.',
  expected: `one of ${MODEL_SORTS.join(', ')}`,
  example: 'price',
} as const;

type ModelFiltersShape = { [N in ModelFilterName]: (typeof FILTER_ECHO)[(typeof MODEL_FILTERS)[N]['kind']] };

/** The filters applied, as the catalog's answers echo them. */
export const modelFiltersSchema = z
  .object(Object.fromEntries(MODEL_FILTER_NAMES.map((name) => [name, FILTER_ECHO[MODEL_FILTERS[name].kind]])) as ModelFiltersShape)
  .describe('The filters applied (null: not set).');
export type ModelFilters = z.infer<typeof modelFiltersSchema>;

export const modelSortSchema = z
  .object({
    by: z.enum(MODEL_SORTS),
    priceUnit: z.enum(COMPARED_RATE_UNITS).nullable().describe('The unit prices are compared in (sort=price).'),
    withoutRate: z.number().int().min(0).describe('With sort=price: models that pass the filters but have no current US-dollar rate in the unit; they come last.'),
  })
  .describe('The order applied.');
