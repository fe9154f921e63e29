import { z } from 'zod';
import { AUTH_TYPES, COMPARED_RATE_UNITS, LIFECYCLE_STATUSES, MCP_FILTER_VALUES, MODALITIES, MODEL_KINDS, PAYMENT_METHODS, SDK_LANGUAGES } from './vocabulary';
import { LIVE_FILTER_VALUES } from '../liveness/liveness.schema';

/**
 * The filters of search and list, defined once: the HTTP query parameters (read by kind, src/http/filter-kinds.ts), their OpenAPI parameters, the MCP tools' arguments and the `filters` echoed in answers are
 * all derived from this table.
 */
export type FilterKind = 'category' | 'boolean' | 'auth' | 'tokens' | 'sdk' | 'lifecycle' | 'days' | 'model' | 'amount' | 'unit' | 'live' | 'modelKind' | 'modality' | 'slug' | 'text' | 'mcp' | 'country' | 'paymentMethod';

export interface FilterDefinition {
  kind: FilterKind;
  description: string;
  /** What a valid value is, as error messages say it (`'freeTier' must be true or false, got 'x'`). */
  expected: string;
  example: string | boolean | number;
}

export const LISTING_FILTERS = {
  category: {
    kind: 'category',
    description: 'A category slug (from the categories list), e.g. llm. An unknown category finds nothing; it is not an error.',
    expected: 'a category slug',
    example: 'llm',
  },
  freeTier: {
    kind: 'boolean',
    description: 'true: only APIs usable without paying; false: only those that are not. A listing that does not state it matches neither.',
    expected: 'true or false',
    example: true,
  },
  openaiCompatible: {
    kind: 'boolean',
    description: "true: only APIs that accept OpenAI's chat-completions format; false: only those that do not. A listing that does not state it matches neither.",
    expected: 'true or false',
    example: true,
  },
  auth: {
    kind: 'auth',
    description: 'Only APIs whose primary authentication is this scheme (a listing that does not state it matches none).',
    expected: `one of ${AUTH_TYPES.join(', ')}`,
    example: 'bearer',
  },
  minContext: {
    kind: 'tokens',
    description: 'At least this many tokens of context: digits, or with k or m (128000, 128k, 1m).',
    expected: 'a positive number of tokens (e.g. 128000 or 128k)',
    example: '128k',
  },
  sdk: {
    kind: 'sdk',
    description: `Only APIs with an official SDK in this language (${SDK_LANGUAGES.join(', ')}; node, js, ts, golang, c# and .net are read as their language).`,
    expected: `one of ${SDK_LANGUAGES.join(', ')}`,
    example: 'python',
  },
  lifecycle: {
    kind: 'lifecycle',
    description: 'Only listings in this stage of their life: preview, active, deprecated or retired.',
    expected: `one of ${LIFECYCLE_STATUSES.join(', ')}`,
    example: 'deprecated',
  },
  includeRetired: {
    kind: 'boolean',
    description: 'true: retired listings too. They are left out otherwise (unless lifecycle=retired asks for them); their details answer 410.',
    expected: 'true or false',
    example: true,
  },
  retiringWithin: {
    kind: 'days',
    description: 'Only listings whose shutdown, or the shutdown of one of their models, is announced within this many days from today, e.g. 90d; echoed as the last day it covers (YYYY-MM-DD).',
    expected: 'a number of days from 1 to 3650, e.g. 90d',
    example: '90d',
  },
  model: {
    kind: 'model',
    description: 'Only listings that serve this model, by the id the API takes (any case), e.g. gpt-6-luna.',
    expected: 'a model id',
    example: 'gpt-6-luna',
  },
  freeQuota: {
    kind: 'boolean',
    description: 'true: only listings with a published free allowance (or a free plan); false: only those without.',
    expected: 'true or false',
    example: true,
  },
  maxPrice: {
    kind: 'amount',
    description: "Only listings with a published rate per `priceUnit` (their own or one of their models') of at most this many US dollars.",
    expected: 'an amount in US dollars, e.g. 0.5',
    example: 1,
  },
  priceUnit: {
    kind: 'unit',
    description: 'The unit of maxPrice (given with it): a rate unit of the facts as data but `other`, e.g. 1m-input-tokens. Rates with a percentage (card fees) are not compared: their cost depends on the amount; nor are the rates of deprecated or retired models.',
    expected: `one of ${COMPARED_RATE_UNITS.join(', ')}`,
    example: '1m-input-tokens',
  },
  live: {
    kind: 'live',
    description: "Only listings in this liveness state, from the directory's own probes: ok (every target answers), degraded (some do not), down (no endpoint answers), unchecked (not checked yet).",
    expected: `one of ${LIVE_FILTER_VALUES.join(', ')}`,
    example: 'ok',
  },
  task: {
    kind: 'slug',
    description: 'Only listings that do this task, a slug of GET /api/v1/tasks (object-detection, ocr, translation...). An unknown task finds nothing.',
    expected: 'a task slug',
    example: 'ocr',
  },
  mcp: {
    kind: 'mcp',
    description: 'Only listings whose provider runs an official MCP server: remote (at a URL, Streamable HTTP or SSE), local (a package to run), or any.',
    expected: `one of ${MCP_FILTER_VALUES.join(', ')}`,
    example: 'remote',
  },
  providerCountry: {
    kind: 'country',
    description: 'Only listings whose provider is headquartered in this country: a two-letter country code (cn, us, fr).',
    expected: 'a two-letter country code (ISO 3166-1, e.g. cn)',
    example: 'cn',
  },
  dataRegion: {
    kind: 'country',
    description: 'Only listings whose provider says it processes or stores data in this region: a two-letter country code, or eu.',
    expected: 'a two-letter country code (ISO 3166-1, e.g. us) or eu',
    example: 'eu',
  },
  buyerCountry: {
    kind: 'country',
    description: "Only payment APIs whose buyers can pay from this country (those that take payments worldwide, and those naming it): a two-letter country code.",
    expected: 'a two-letter country code (ISO 3166-1, e.g. cn)',
    example: 'cn',
  },
  paymentMethod: {
    kind: 'paymentMethod',
    description: `Only payment APIs that take this payment method: ${PAYMENT_METHODS.join(', ')}.`,
    expected: `one of ${PAYMENT_METHODS.join(', ')}`,
    example: 'alipay',
  },
} as const satisfies Record<string, FilterDefinition>;

export type FilterName = keyof typeof LISTING_FILTERS;
export const FILTER_NAMES = Object.keys(LISTING_FILTERS) as FilterName[];
/** The filters' names as prose lists them ("freeTier, openaiCompatible, ..."), beside `category`. */
export const FILTER_LIST = FILTER_NAMES.filter((name) => name !== 'category').join(', ');

/** The value each kind of filter holds once read (null: not set); how each is read is src/http/filter-kinds.ts. */
export const FILTER_ECHO = {
  category: z.string().nullable(),
  boolean: z.boolean().nullable(),
  auth: z.enum(AUTH_TYPES).nullable(),
  tokens: z.number().int().min(1).nullable(),
  sdk: z.enum(SDK_LANGUAGES).nullable(),
  lifecycle: z.enum(LIFECYCLE_STATUSES).nullable(),
  days: z.string().meta({ format: 'date' }).nullable(),
  model: z.string().nullable(),
  amount: z.number().min(0).nullable(),
  unit: z.enum(COMPARED_RATE_UNITS).nullable(),
  live: z.enum(LIVE_FILTER_VALUES).nullable(),
  modelKind: z.enum(MODEL_KINDS).nullable(),
  modality: z.enum(MODALITIES).nullable(),
  slug: z.string().nullable(),
  text: z.string().nullable(),
  mcp: z.enum(MCP_FILTER_VALUES).nullable(),
  country: z.string().nullable(),
  paymentMethod: z.enum(PAYMENT_METHODS).nullable(),
} as const satisfies Record<FilterKind, z.ZodType>;
type FiltersShape = { [N in FilterName]: (typeof FILTER_ECHO)[(typeof LISTING_FILTERS)[N]['kind']] };

/** The filters applied, as answers echo them. */
export const filtersSchema = z
  .object(Object.fromEntries(FILTER_NAMES.map((name) => [name, FILTER_ECHO[LISTING_FILTERS[name].kind]])) as FiltersShape)
  .describe('The filters applied (null: not set), those asked for in words included.');

export type ListingFilters = z.infer<typeof filtersSchema>;

export const NO_FILTERS = Object.fromEntries(FILTER_NAMES.map((name) => [name, null])) as ListingFilters;

/** How listings can be ordered, in search and in the list. */
export const LISTING_SORTS = ['relevance', 'popular', 'price', 'context', 'checked'] as const;
export type ListingSort = (typeof LISTING_SORTS)[number];
export const LISTING_SORT = {
  description:
    "The order: relevance (to q; search's default), popular (the list's default, and search's without q), price (lowest current US-dollar rate in " +
    'priceUnit first, which it needs; listings without such a rate last, counted in sort.withoutRate), context (largest context window first), ' +
    'checked (facts checked against the provider most recently first). In search, words of q ask for an order too (cheapest, longest context: see interpretation); the parameter wins.',
  expected: `one of ${LISTING_SORTS.join(', ')}`,
  example: 'price',
} as const;

/** The order applied, as search and the list echo it. */
export const listingSortSchema = z
  .object({
    by: z.enum(LISTING_SORTS),
    priceUnit: z.enum(COMPARED_RATE_UNITS).nullable().describe('With sort=price: the unit rates are compared in (priceUnit, or for words of q such as cheapest, the unit most results have a rate in).'),
    modelKind: z
      .enum(MODEL_KINDS)
      .nullable()
      .describe('With sort=price: only the rates of models of this kind count (when q names one: embedding, rerank, speech...); null: every rate of the listing.'),
    withoutRate: z.number().int().min(0).describe('With sort=price: listings that pass but have no such rate; they come last.'),
  })
  .describe('The order applied.');
export type ListingOrder = z.infer<typeof listingSortSchema>;
