import type { McpToolName } from '../http/mcp-paths';
import type { Query } from '@nestjs/cqrs';
import { z } from 'zod';
import { listErrorsQueryOf } from '../error-reference/read/list-errors-params';
import { badRequest } from '../http/problem';
import { MAX_LIMIT, QueryParams } from '../http/query-params';
import { FILTER_LIST, FILTER_NAMES, FilterName, LISTING_FILTERS, LISTING_SORT, LISTING_SORTS } from '../contract/listing-filters';
import { FILTER_KINDS } from '../http/filter-kinds';
import type { StoredBody } from '../http/stored-body';
import { ListCategoriesQuery } from '../categories/read/list-categories.query';
import { compareQueryOf, MAX_COMPARE, MIN_COMPARE } from '../listings/read/compare/compare-params';
import { GetToolQuery } from '../listings/read/detail/get-tool.query';
import { listQueryOf } from '../listings/read/list/list-params';
import { MAX_QUERY_LENGTH, searchQueryOf } from '../listings/read/search/search-params';
import type { SearchToolsQuery } from '../listings/read/search/search-tools.query';
import {
  categoriesOutputSchema,
  compareOutputSchema,
  detailOutputSchema,
  errorsOutputSchema,
  listOutputSchema,
  modelCompareOutputSchema,
  modelDetailOutputSchema,
  modelListOutputSchema,
  searchOutputSchema,
} from './mcp-output-schemas';
import { MODEL_FILTER_NAMES, MODEL_FILTERS, MODEL_SORT, MODEL_SORTS, type ModelFilterName } from '../contract/model-filters';
import { compareModelsQueryOf, MAX_COMPARE_MODELS, MIN_COMPARE_MODELS } from '../models/read/compare/compare-models-params';
import { GetModelQuery } from '../models/read/detail/get-model.query';
import { listModelsQueryOf } from '../models/read/list/list-models-params';
import type { ListModelsQuery } from '../models/read/list/list-models.query';
import { parsePriceUnit } from '../models/read/model-params';
import { compareModelsText, modelsText, modelText } from './mcp-model-text';
import { categoriesText, compareText, detailText, errorsText, listText, searchText } from './mcp-text';

/**
 * The MCP tools: the public directory's five (`search_tools`, `get_tool`, `compare_tools`,
 * `list_categories`, `list_tools`, with the arguments its clients send) plus `get_errors`. Each is a thin
 * adapter: it builds the query the HTTP controller builds for the same request, with the same parsers (so
 * limits, filters, cursors and their error messages are the HTTP API's), and renders the answer as text.
 */
export interface DirectoryTool<Shape extends z.ZodRawShape, Output, Q extends Query<StoredBody>> {
  name: McpToolName;
  title: string;
  description: string;
  inputSchema: Shape;
  outputSchema: z.ZodType<Output>;
  /** The query for these arguments; throws an ApiProblem (a tool error) when they are wrong. */
  query(args: z.infer<z.ZodObject<Shape>>): Q;
  /** The answer as text an agent reads. */
  text(output: Output, query: Q): string;
  /** The message when the query finds nothing to answer with (a 404): the HTTP API's points at HTTP routes. */
  notFound?(args: z.infer<z.ZodObject<Shape>>, detail: string, extra: Record<string, unknown>): string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDirectoryTool = DirectoryTool<z.ZodRawShape, any, Query<StoredBody>>;

function defineTool<Shape extends z.ZodRawShape, Output, Q extends Query<StoredBody>>(tool: DirectoryTool<Shape, Output, Q>): AnyDirectoryTool {
  return tool as unknown as AnyDirectoryTool;
}

/** `search_tools` returns 10 by default, as the public directory does (it stops at 25; here, as over HTTP, at 100). */
export const SEARCH_TOOLS_DEFAULT_LIMIT = 10;
/** `list_tools` returns 20 by default, as the public directory does. */
export const LIST_TOOLS_DEFAULT_LIMIT = 20;

/** Arguments as the HTTP API's query parameters (strings), so the same parsers read them. */
function paramsOf(args: Record<string, string | number | boolean | undefined>): QueryParams {
  const params: QueryParams = {};
  for (const [name, value] of Object.entries(args)) if (value !== undefined && value !== null) params[name] = String(value);
  return params;
}

/** A message for a missing argument or one of the wrong type or range, worded like the HTTP API's (`'limit' must be ..., got 'abc'`). */
function mustBe(name: string, expected: string) {
  return (issue: { input?: unknown }) => {
    if (issue.input === undefined) return `'${name}' is required: ${expected}`;
    const got = typeof issue.input === 'string' ? `'${issue.input}'` : JSON.stringify(issue.input);
    return `'${name}' must be ${expected}, got ${got}`;
  };
}

function limitArgument(defaultLimit: number) {
  const error = mustBe('limit', `a whole number from 1 to ${MAX_LIMIT}`);
  return z
    .number({ error })
    .int({ error })
    .min(1, { error })
    .optional()
    .describe(`How many to return: default ${defaultLimit}; more than ${MAX_LIMIT} is read as ${MAX_LIMIT}.`);
}

const cursorArgument = z
  .string({ error: mustBe('cursor', 'the nextCursor of an earlier answer') })
  .optional()
  .describe('The nextCursor of the previous page, sent with the same other arguments.');

/**
 * A value of a fixed list, as a JSON argument: the JSON Schema names the values, and the HTTP API's parser
 * reads it (any case, as a query parameter is read), so both accept and refuse the same values with the
 * same message.
 */
/** The filters of search and list, from the one table of filters (the HTTP API's query parameters of the same names). */
const filterArguments = Object.fromEntries(
  FILTER_NAMES.map((name) => {
    const { kind, description, expected } = LISTING_FILTERS[name];
    return [name, FILTER_KINDS[kind].argument(mustBe(name, expected)).optional().describe(description)];
  }),
) as Record<FilterName, z.ZodOptional<z.ZodType<string | number | boolean>>>;

const listingSortArgument = z
  .string({ error: mustBe('sort', LISTING_SORT.expected) })
  .meta({ enum: [...LISTING_SORTS] })
  .optional()
  .describe(LISTING_SORT.description);

const searchTools = defineTool({
  name: 'search_tools',
  title: 'Search the API directory',
  description:
    'Find third-party web APIs for a task. Ranked search over names, tags, categories and descriptions, in English or ' +
    'Chinese, and by the ids of the models an API serves; synonyms, typos and unfinished words are understood. Narrow it ' +
    `with category and the filters (${FILTER_LIST}). Returns summaries best first (slug, name, category, description, pricing, ` +
    `facts), ${SEARCH_TOOLS_DEFAULT_LIMIT} by default, and nextCursor for the next page. Words such as "cheapest" or "longest context" order the ` +
    'results (or give sort: price with priceUnit, context, checked). Use get_tool with a slug for the full listing.',
  inputSchema: {
    query: z
      .string({ error: mustBe('query', 'the words to search for (a string), e.g. "text to speech"') })
      .max(MAX_QUERY_LENGTH, { error: (issue) => `'query' must be at most ${MAX_QUERY_LENGTH} characters, got ${(issue.input as string).length}` })
      .describe(`What the API should do or be called, e.g. "text to speech" or "向量数据库" (at most ${MAX_QUERY_LENGTH} characters).`),
    ...filterArguments,
    sort: listingSortArgument,
    limit: limitArgument(SEARCH_TOOLS_DEFAULT_LIMIT),
    cursor: cursorArgument,
  },
  outputSchema: searchOutputSchema,
  query: ({ query, limit, ...rest }) => {
    if (query.trim() === '') {
      throw badRequest(`'query' must not be empty: give the words to search for (list_tools browses without a query)`, { parameter: 'query' });
    }
    return searchQueryOf(paramsOf({ ...rest, q: query, limit: limit ?? SEARCH_TOOLS_DEFAULT_LIMIT }));
  },
  text: (output, query: SearchToolsQuery) => searchText(output, query.offset),
});

const getTool = defineTool({
  name: 'get_tool',
  title: 'Get one API listing',
  description:
    'The full listing of one API by its slug (from search_tools or list_tools): description in English and Chinese, ' +
    'website and docs, pricing, authentication, rate limit, latency, max tokens, endpoints, SDKs, features, usage tips, ' +
    "code examples (curlExample: a ready curl command), similar APIs, a pricing comparison and the provider's known errors; " +
    'and the facts as data, each with its source page and the day it was checked: the models (kind, context, max output, ' +
    'prices per unit, shutdown dates and successors), prices (pricing models, free quotas, rates, batch discount), rate ' +
    'limits (tier, scope, limit per window, the headers that report them), and which facts are not yet confirmed.',
  inputSchema: {
    slug: z
      .string({ error: mustBe('slug', 'a tool slug, e.g. "openai"') })
      .trim()
      .min(1, { error: `'slug' must not be empty: give a tool slug, e.g. "openai"` })
      .describe('The tool slug, e.g. "openai" (any case).'),
  },
  outputSchema: detailOutputSchema,
  query: ({ slug }) => new GetToolQuery(slug),
  text: detailText,
  notFound: ({ slug }, _, { didYouMean }) => {
    const closest = Array.isArray(didYouMean) && didYouMean.length > 0 ? `did you mean ${didYouMean.join(', ')}? ` : '';
    return `no tool with slug '${slug.toLowerCase()}'; ${closest}search_tools with query "${slug}" finds the right slug`;
  },
});

const compareTools = defineTool({
  name: 'compare_tools',
  title: 'Compare APIs side by side',
  description:
    `Put ${MIN_COMPARE} to ${MAX_COMPARE} APIs side by side with the same fields for each: pricing, free tier, ` +
    'authentication, rate limit, latency, max tokens, context, endpoints, SDKs, features, status, popularity, and the ' +
    'facts as data: models, prices and rate limits, each with its source. rates puts the lowest flat US-dollar rate of each unit ' +
    "side by side (each listing's own or one of its current models'; deprecated models and rates with a percentage are left out). Slugs that are not in the directory are listed in notFound.",
  inputSchema: {
    ids: z
      .union([z.string(), z.array(z.string())], { error: mustBe('ids', `${MIN_COMPARE} to ${MAX_COMPARE} comma-separated tool slugs, e.g. "openai,anthropic"`) })
      .describe(`${MIN_COMPARE} to ${MAX_COMPARE} tool slugs, comma-separated ("openai,anthropic") or as a list.`),
  },
  outputSchema: compareOutputSchema,
  query: ({ ids }) => compareQueryOf(paramsOf({ ids: Array.isArray(ids) ? ids.join(',') : ids })),
  text: compareText,
  notFound: (_, detail) => `${detail}; search_tools finds the right slugs`,
});

const listCategories = defineTool({
  name: 'list_categories',
  title: 'List the categories',
  description: 'Every category of the directory with its slug, English and Chinese names and number of listings. Pass a slug as category to search_tools or list_tools.',
  inputSchema: {},
  outputSchema: categoriesOutputSchema,
  query: () => new ListCategoriesQuery(),
  text: categoriesText,
});

const listTools = defineTool({
  name: 'list_tools',
  title: 'Browse the API directory',
  description:
    `Every listing, most popular first, ${LIST_TOOLS_DEFAULT_LIMIT} at a time by default (at most ${MAX_LIMIT}), narrowed by ` +
    `category and the filters (${FILTER_LIST}), or ordered by sort (price with priceUnit, context, checked). nextCursor leads to the next page.`,
  inputSchema: { ...filterArguments, sort: listingSortArgument, limit: limitArgument(LIST_TOOLS_DEFAULT_LIMIT), cursor: cursorArgument },
  outputSchema: listOutputSchema,
  query: ({ limit, ...rest }) => listQueryOf(paramsOf({ ...rest, limit: limit ?? LIST_TOOLS_DEFAULT_LIMIT })),
  text: listText,
});

const getErrors = defineTool({
  name: 'get_errors',
  title: 'Look up provider errors',
  description:
    "The directory's reference of common errors that API providers return, each with its HTTP status, cause and fix " +
    '(in English and Chinese) and a curl example, narrowed by provider slug and status. Use it when a call to an API fails.',
  inputSchema: {
    provider: z
      .string({ error: mustBe('provider', 'a tool slug, e.g. "openai"') })
      .optional()
      .describe('A tool slug, e.g. "openai".'),
    status: z
      .number({ error: mustBe('status', 'an HTTP status code (100-599)') })
      .int({ error: mustBe('status', 'an HTTP status code (100-599)') })
      .optional()
      .describe('An HTTP status code, e.g. 429.'),
  },
  outputSchema: errorsOutputSchema,
  query: ({ provider, status }) => listErrorsQueryOf(paramsOf({ provider, status })),
  text: errorsText,
});

/** The model catalog's filters, from its one table (the HTTP API's query parameters of the same names); `q` is `query`. */
const modelFilterArguments = Object.fromEntries(
  MODEL_FILTER_NAMES.filter((name) => name !== 'q').map((name) => {
    const { kind, description, expected } = MODEL_FILTERS[name];
    return [name, FILTER_KINDS[kind].argument(mustBe(name, expected)).optional().describe(description)];
  }),
) as Record<Exclude<ModelFilterName, 'q'>, z.ZodOptional<z.ZodType<string | number | boolean>>>;

const searchModels = defineTool({
  name: 'search_models',
  title: 'Search the model catalog',
  description:
    'Find models across every provider: one entry per upstream model (gpt-oss-120b), with each provider that serves it (the id its API ' +
    'takes, prices, context, capabilities, lifecycle). Filter by kind, input/output modality, minContext, capabilities (tools, ' +
    'structuredOutput, reasoning, openWeights...), listing, lifecycle, retiringWithin, maxPrice with priceUnit; sort by price (with ' +
    'priceUnit: cheapest current rate first), context, released or popular. E.g. the cheapest model that reads images with 200k context: ' +
    'input=image, minContext=200k, sort=price, priceUnit=1m-input-tokens.',
  inputSchema: {
    query: z.string({ error: mustBe('query', 'words of a model name or id (a string)') }).max(200).optional().describe('Words of a model name, id, family or maker, e.g. "gpt-oss" or "llama 4".'),
    ...modelFilterArguments,
    sort: z.string({ error: mustBe('sort', MODEL_SORT.expected) }).meta({ enum: [...MODEL_SORTS] }).optional().describe(MODEL_SORT.description),
    limit: limitArgument(SEARCH_TOOLS_DEFAULT_LIMIT),
    cursor: cursorArgument,
  },
  outputSchema: modelListOutputSchema,
  query: ({ query, limit, ...rest }) => listModelsQueryOf(paramsOf({ ...rest, q: query, limit: limit ?? SEARCH_TOOLS_DEFAULT_LIMIT })),
  text: (output, query: ListModelsQuery) => modelsText(output, query.offset),
});

const getModel = defineTool({
  name: 'get_model',
  title: 'Get one model with every provider that serves it',
  description:
    'One model by its id (from search_models): every provider that serves it with the id its API takes, prices per unit (cheapest first ' +
    'in priceUnit when given), context and output limits, capabilities, lifecycle and liveness, each with its source; the model’s ' +
    'weights and licence, release date, successors, and its history (price, context and lifecycle changes).',
  inputSchema: {
    id: z.string({ error: mustBe('id', 'a model id, e.g. "gpt-oss-120b"') }).trim().min(1, { error: `'id' must not be empty: give a model id, e.g. "gpt-oss-120b"` }).describe('The model id, e.g. "gpt-oss-120b".'),
    priceUnit: FILTER_KINDS.unit.argument(mustBe('priceUnit', MODEL_FILTERS.priceUnit.expected)).optional().describe('Orders the providers cheapest first in this unit, e.g. 1m-input-tokens.'),
  },
  outputSchema: modelDetailOutputSchema,
  query: ({ id, priceUnit }) => new GetModelQuery(id.toLowerCase(), parsePriceUnit(paramsOf({ priceUnit }))),
  text: modelText,
  notFound: ({ id }) => `no model with id '${id.toLowerCase()}'; search_models with query "${id}" finds the right id`,
});

const compareModels = defineTool({
  name: 'compare_models',
  title: 'Compare models side by side',
  description: `Put ${MIN_COMPARE_MODELS} to ${MAX_COMPARE_MODELS} models side by side: each one's lowest current rate in priceUnit (default 1m-input-tokens) with who charges it and the page that says so, and their context, capabilities and lifecycle. Ids not in the catalog are listed in notFound.`,
  inputSchema: {
    ids: z.union([z.string(), z.array(z.string())], { error: mustBe('ids', `${MIN_COMPARE_MODELS} to ${MAX_COMPARE_MODELS} model ids`) }).describe('Model ids, comma-separated or as a list.'),
    priceUnit: FILTER_KINDS.unit.argument(mustBe('priceUnit', MODEL_FILTERS.priceUnit.expected)).optional().describe('The unit rates are compared in.'),
  },
  outputSchema: modelCompareOutputSchema,
  query: ({ ids, priceUnit }) => compareModelsQueryOf(paramsOf({ ids: Array.isArray(ids) ? ids.join(',') : ids, priceUnit })),
  text: compareModelsText,
  notFound: (_, detail) => `${detail}; search_models finds the right ids`,
});

export const DIRECTORY_TOOLS: readonly AnyDirectoryTool[] = [searchTools, getTool, compareTools, listCategories, listTools, getErrors, searchModels, getModel, compareModels];
