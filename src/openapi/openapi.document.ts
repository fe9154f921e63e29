import { encodeChangeCursor } from '../changes/change-cursor';
import { CHANGES_DEFAULT_LIMIT, CHANGES_MAX_LIMIT } from '../changes/list-changes-params';
import { ENCODINGS, MIN_COMPRESSED_BYTES } from '../http/compression';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../http/query-params';
import { z } from 'zod';
import { FILTER_NAMES, LISTING_FILTERS, LISTING_SORT, LISTING_SORTS } from '../contract/listing-filters';
import { MODEL_FILTER_NAMES, MODEL_FILTERS, MODEL_SORT, MODEL_SORTS } from '../contract/model-filters';
import { DEFAULT_COMPARE_UNIT, MAX_COMPARE_MODELS, MIN_COMPARE_MODELS } from '../models/read/compare/compare-models-params';
import { LIVE_FILTER_VALUES } from '../liveness/liveness.schema';
import type { PublishedSchemaName } from '../contract/responses';
import { MAX_COMPARE, MIN_COMPARE } from '../listings/read/compare/compare-params';
import { HISTORY_DEFAULT_LIMIT, HISTORY_MAX_LIMIT } from '../listings/read/history/listing-history-params';
import { LIST_DEFAULT_LIMIT } from '../listings/read/list/list-params';
import { MAX_QUERY_LENGTH } from '../listings/read/search/search-params';
import { componentSchemas, jsonSchemaOf } from './component-schemas';
import { FILTER_KINDS } from '../http/filter-kinds';

/**
 * The OpenAPI 3.0.0 description of the read API, version 1.0.0. Paths, parameters and prose are written
 * here because they describe behaviour (limits, statuses, caching); the component schemas are derived from
 * the published zod schemas (src/contract/, see component-schemas.ts). test/openapi.e2e-spec.ts asks every
 * path for every status documented here and checks each answer against this document.
 */
const str = { type: 'string' };
const int = { type: 'integer' };
const ref = (name: PublishedSchemaName) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ 'application/json': { schema } });
const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ref('Problem') } } });
const cached = {
  ETag: {
    description:
      'Entity tag of the body; send it back in If-None-Match, with the same Accept-Encoding, to get 304. A compressed ' +
      'response carries a weak tag of its own for its coding (W/"<tag>-br", W/"<tag>-gzip").',
    schema: str,
  },
  'Cache-Control': { description: 'public, max-age=60, stale-while-revalidate=60', schema: str },
  Vary: { description: 'Accept-Encoding: the body is sent compressed or not depending on it.', schema: str },
  'Content-Encoding': {
    description: `br or gzip when the client accepts it (Accept-Encoding as RFC 9110 reads it: weights, q=0 refuses, * for codings not listed; br on a tie) and the body is ${MIN_COMPRESSED_BYTES} bytes or more; absent otherwise.`,
    schema: { type: 'string', enum: [...ENCODINGS] },
  },
};
const rateLimitHeaders = {
  'RateLimit-Limit': { description: 'Requests this client may make a minute (of the budget closest to running out, when two apply).', schema: int },
  'RateLimit-Remaining': { description: 'What is left of that budget in the current window.', schema: int },
  'RateLimit-Reset': { description: 'Seconds until the window closes and the budget is whole again.', schema: int },
};
const ok = (description: string, schema: object) => ({ description, headers: { ...cached, ...rateLimitHeaders }, content: json(schema) });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
/** What any operation may answer besides its own statuses (the request itself, its client's budget). */
const everyOperation = { 429: responseRef('TooManyRequests') };
const notModified = { description: 'Not modified: the If-None-Match tag still matches.' };
const unavailable = problem('The directory store is unreachable; retry shortly.');
const exportBusy = {
  ...problem('The directory store is unreachable, or this process streams as many exports as it takes at once (EXPORTS_IN_FLIGHT); retry after Retry-After.'),
  headers: { 'Retry-After': { description: 'Seconds to wait (when the exports are the reason).', schema: int } },
};
const goneProblem = (description: string) => ({ description, content: { 'application/problem+json': { schema: { allOf: [ref('Problem')], description: 'Also: slug, gone (withdrawn or retired), since, reason, replacedBy, _links.' } } } });

const UNKNOWN_PARAMETER =
  'A query parameter this operation does not take: `parameter` names it, `didYouMean` the closest one it takes (query → q, free_tier → freeTier), `detail` lists them.';

/** The model catalog's filters, as query parameters (from its table of filters). */
const modelFilterParameters = MODEL_FILTER_NAMES.map((name) => {
  const { kind, description, example } = MODEL_FILTERS[name];
  return { name, in: 'query', required: false, description, schema: jsonSchemaOf(FILTER_KINDS[kind].parameter), example };
});

/** The filters of search and list, as query parameters (from the one table of filters). */
const filterParameters = FILTER_NAMES.map((name) => {
  const { kind, description, example } = LISTING_FILTERS[name];
  return { name, in: 'query', required: false, description, schema: jsonSchemaOf(FILTER_KINDS[kind].parameter), example };
});
const listingSortParameter = { name: 'sort', in: 'query', required: false, description: LISTING_SORT.description, schema: { type: 'string', enum: [...LISTING_SORTS] }, example: 'price' };
const cursorParameter = { name: 'cursor', in: 'query', required: false, description: 'The `nextCursor` of the page before (from the same request with the same other parameters).', schema: str };
/** The change feed's parameters, shared by its JSON and Atom forms. */
const changesParameters = [
  {
    name: 'since',
    in: 'query',
    required: false,
    description:
      'A cursor: the `nextCursor` of the last page read (or any change\'s `cursor`); the changes after it. Absent: from the beginning ' +
      '(JSON) or the newest changes (Atom). Cursors are opaque and stay valid for good; one this API did not give out, or one of ' +
      'another store, is a 400.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]+$' },
    example: encodeChangeCursor('1764000000000-0'),
  },
  {
    name: 'limit',
    in: 'query',
    required: false,
    description: `Changes per page: default ${CHANGES_DEFAULT_LIMIT}; above ${CHANGES_MAX_LIMIT} is clamped to ${CHANGES_MAX_LIMIT} (the applied value is echoed); a non-integer or a value below 1 is a 400.`,
    schema: { type: 'integer', minimum: 1, default: CHANGES_DEFAULT_LIMIT },
    example: CHANGES_DEFAULT_LIMIT,
  },
];
export const OPENAPI_DOCUMENT = {
  openapi: '3.0.0',
  info: {
    title: 'API Directory',
    version: '1.0.0',
    description:
      'A read-only directory of third-party web APIs (chiefly AI, language-model and cloud APIs) for agents and developers: ' +
      'search, compare, read a full listing, list categories, and look up common provider errors. Content is bilingual ' +
      '(English and Chinese). No authentication is required; every operation is a GET. Errors are RFC 9457 problem ' +
      'documents (application/problem+json) that also carry `success: false` and `error`, with the CORS headers, whatever ' +
      'the status: besides those of each operation, any request may get 400 (malformed request), 404 (no such route), ' +
      '405 (a method other than GET, HEAD, OPTIONS), 408 (request too slow), 414, 417, 429 (rate limited: see ' +
      'RateLimit-* and Retry-After), 431 (headers too large) or 503 (store unreachable); see components.responses. ' +
      'Every 200 carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (unless the operator turned the limits off). Responses of ' +
      `${MIN_COMPRESSED_BYTES} bytes or more are compressed with brotli or gzip when the request accepts it (Accept-Encoding), ` +
      'each coding under a weak ETag of its own.',
  },
  servers: [{ url: '/' }],
  // No operation needs a credential.
  security: [],
  tags: [{ name: 'tools' }, { name: 'models' }, { name: 'errors' }, { name: 'changes' }, { name: 'liveness' }, { name: 'discovery' }],
  paths: {
    '/': {
      get: {
        operationId: 'getServiceIndex',
        tags: ['discovery'],
        summary: 'Every entry point, for an agent that knows only the base URL',
        description:
          'The operations (from this document), the MCP server, llms.txt, the API catalog and the change feed, as relative links. ' +
          'Its Link header names this document (rel="service-desc"), llms.txt (rel="service-doc"), the API catalog (rel="api-catalog") and /readyz (rel="status").',
        responses: { 200: ok('The index.', ref('ServiceIndex')), 304: notModified, ...everyOperation },
      },
    },
    '/llms.txt': {
      get: {
        operationId: 'getLlmsTxt',
        tags: ['discovery'],
        summary: 'The directory for a language model (llms.txt format)',
        description: 'Markdown: what the directory is, how to reach it (MCP, OpenAPI, list, search, change feed), and its APIs by category, the most popular of each with a link to the rest. Links are absolute (PUBLIC_BASE_URL, else the request\'s host).',
        responses: { 200: { description: 'llms.txt', headers: cached, content: { 'text/markdown': { schema: str } } }, 304: notModified, 503: unavailable, ...everyOperation },
      },
    },
    '/llms-full.txt': {
      get: {
        operationId: 'getLlmsFullTxt',
        tags: ['discovery'],
        summary: 'Every listing in full, for a language model',
        description: 'Markdown: for each listing (the most popular thousand of a larger catalog): descriptions in both languages, pricing and free tier, authentication, limits, context, OpenAI compatibility, SDKs, endpoints and a curl example.',
        responses: { 200: { description: 'llms-full.txt', headers: cached, content: { 'text/markdown': { schema: str } } }, 304: notModified, 503: unavailable, ...everyOperation },
      },
    },
    '/.well-known/api-catalog': {
      get: {
        operationId: 'getApiCatalog',
        tags: ['discovery'],
        summary: 'The API catalog (RFC 9727)',
        description: 'A linkset (RFC 9264) with the API, its description (this document), its documentation for agents (llms.txt) and its status.',
        responses: { 200: { description: 'The catalog.', headers: cached, content: { 'application/linkset+json': { schema: ref('ApiCatalog') } } }, 304: notModified, ...everyOperation },
      },
    },
    '/agents.txt': {
      get: {
        operationId: 'getAgentsTxt',
        tags: ['discovery'],
        summary: 'Plain instructions for an agent (as the public directory serves them)',
        description: 'Text: where to start (MCP, this document, llms.txt) and one line per HTTP operation, with absolute links.',
        responses: { 200: { description: 'agents.txt', headers: cached, content: { 'text/plain': { schema: str } } }, 304: notModified, ...everyOperation },
      },
    },
    '/.well-known/ai-plugin.json': {
      get: {
        operationId: 'getAiPluginManifest',
        tags: ['discovery'],
        summary: 'The plugin manifest that points a client at this document',
        description: 'JSON: schema_version, names and descriptions for people and models, auth {type: none}, and api {type: openapi, url: <base>/openapi.json}. No logo, contact or legal URL: the directory has none to give.',
        responses: { 200: ok('The manifest.', ref('AiPluginManifest')), 304: notModified, ...everyOperation },
      },
    },
    '/robots.txt': {
      get: {
        operationId: 'getRobotsTxt',
        tags: ['discovery'],
        summary: 'robots.txt: everything may be read',
        description: 'Text: every path may be crawled, and where agents should start (llms.txt, this document, the MCP server).',
        responses: { 200: { description: 'robots.txt', headers: cached, content: { 'text/plain': { schema: str } } }, 304: notModified, ...everyOperation },
      },
    },
    '/api/v1/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        tags: ['discovery'],
        summary: 'This document (also at /openapi.json)',
        description: 'The OpenAPI 3.0.0 description of every operation, with the response schemas the service is tested against.',
        responses: { 200: ok('The OpenAPI 3.0.0 document.', { type: 'object', required: ['openapi', 'info', 'paths'] }), 304: notModified, ...everyOperation },
      },
    },
    '/api/v1/tools/search': {
      get: {
        operationId: 'searchTools',
        tags: ['tools'],
        summary: 'Search listings by topic, name or category',
        description:
          'Ranked full-text search over name, slug, Chinese name and aliases (the names people use: ChatGPT, DALL·E, Kimi), tags, ' +
          'category names, descriptions (English and Chinese), features and pricing text (not usage tips). A query that is exactly a ' +
          'listing\'s name or alias puts it first. Understands synonyms (tts, 语音合成), typos, unfinished last words, words typed apart or ' +
          'together (open ai, dall-e), facts asked for in words (free, openai compatible), which apply as the filters, and orders asked ' +
          'for in words (cheapest, longest context), which apply as `sort` (cheapest compares the rates of the kind of model the query ' +
          'names, embedding or rerank, in the unit most results have a rate in, unless `priceUnit` says); ' +
          '`interpretation` says how each part of the query was read. `q`, `category` and the filters combine, each narrowing the ' +
          'result. Listings matching more parts of the query rank above listings matching fewer; popularity only breaks near-ties. ' +
          'Without `q` the listings of the filters (or all) are returned by popularity. An unknown category gives an empty ' +
          'result, not an error. Ordered by a fact (`sort` other than relevance), a search keeps the listings that match the most parts ' +
          'of the query, by that fact, then by relevance. `nextCursor` continues the order.',
        parameters: [
          { name: 'q', in: 'query', required: false, description: `Free text, at most ${MAX_QUERY_LENGTH} characters.`, schema: { type: 'string', maxLength: MAX_QUERY_LENGTH }, example: 'text to speech' },
          ...filterParameters,
          listingSortParameter,
          {
            name: 'limit',
            in: 'query',
            required: false,
            description: `Maximum number of results: default ${DEFAULT_LIMIT}; values above ${MAX_LIMIT} are clamped to ${MAX_LIMIT} (the applied value is echoed); a non-integer or a value below 1 is a 400.`,
            schema: { type: 'integer', minimum: 1, default: DEFAULT_LIMIT },
          },
          cursorParameter,
        ],
        responses: {
          200: ok('Search results, best first.', ref('SearchResponse')),
          304: notModified,
          400: problem('A parameter is malformed (non-integer or non-positive limit, q too long, a bad filter value, sort or cursor, sort=price without priceUnit, a parameter given twice); `parameter` names it.'),
          503: unavailable,
          ...everyOperation,
        },
      },
    },
    '/api/v1/tools': {
      get: {
        operationId: 'listTools',
        tags: ['tools'],
        summary: 'Every listing, most popular first, a page at a time',
        description:
          `The whole directory as summaries, by popularity (then slug) or the \`sort\` asked for, narrowed by the filters. Pages of \`limit\` (default ${LIST_DEFAULT_LIMIT}, at most ${MAX_LIMIT}); ` +
          '`nextCursor` (and `_links.next`) leads to the next page, and stays valid when listings are added or withdrawn in between. `categories` lists every category slug.',
        parameters: [
          ...filterParameters,
          listingSortParameter,
          { name: 'limit', in: 'query', required: false, description: `Listings per page: default ${LIST_DEFAULT_LIMIT}; above ${MAX_LIMIT} is clamped; a non-integer or a value below 1 is a 400.`, schema: { type: 'integer', minimum: 1, default: LIST_DEFAULT_LIMIT } },
          cursorParameter,
        ],
        responses: {
          200: ok('A page of listings.', ref('ListResponse')),
          304: notModified,
          400: problem('A parameter is malformed (limit, a filter value, sort, sort=price without priceUnit, sort=relevance, a cursor from another request); `parameter` names it.'),
          503: unavailable,
          ...everyOperation,
        },
      },
    },
    '/api/v1/tools/compare': {
      get: {
        operationId: 'compareTools',
        tags: ['tools'],
        summary: 'Compare several listings side by side',
        description: `\`ids\` holds ${MIN_COMPARE} to ${MAX_COMPARE} distinct comma-separated slugs. Unknown slugs are listed in \`notFound\` and withdrawn or retired ones in \`gone\` (with their successors), never dropped silently; when none can be compared the answer is 404.`,
        parameters: [{ name: 'ids', in: 'query', required: true, description: 'Comma-separated tool slugs, e.g. openai,anthropic.', schema: str, example: 'openai,anthropic' }],
        responses: {
          200: ok('One row per found tool, with the same keys for every tool (null where a fact is unknown).', ref('CompareResponse')),
          304: notModified,
          400: problem(`\`ids\` missing, or fewer than ${MIN_COMPARE} or more than ${MAX_COMPARE} distinct slugs.`),
          404: problem('None of the requested slugs is in the directory (the body lists them in `notFound`, and withdrawn or retired ones in `gone`).'),
          503: unavailable,
          ...everyOperation,
        },
      },
    },
    '/api/v1/models': {
      get: {
        operationId: 'listModels',
        tags: ['models'],
        summary: 'The model catalog: every model of every listing, filtered, searched and sorted',
        description:
          'One entry per upstream model (gpt-oss-120b), whoever serves it, with each listing that serves it as an offer (the id its API takes, ' +
          'its prices, context, capabilities, lifecycle and liveness). `q` matches names, ids at any provider, family, aliases and maker ' +
          '(prefixes and typos as in listing search); the filters narrow, each a 400 naming it when malformed; `sort` orders (price needs ' +
          '`priceUnit`: the lowest current US-dollar rate of each model in that unit, offers deprecated or retired left out; models without ' +
          'one come last and are counted in `sort.withoutRate`). Retired models are left out unless asked for.',
        parameters: [
          ...modelFilterParameters,
          { name: 'sort', in: 'query', required: false, description: MODEL_SORT.description, schema: { type: 'string', enum: [...MODEL_SORTS] }, example: 'price' },
          { name: 'limit', in: 'query', required: false, description: `Models per page: default ${DEFAULT_LIMIT}; above ${MAX_LIMIT} is clamped; a non-integer or a value below 1 is a 400.`, schema: { type: 'integer', minimum: 1, default: DEFAULT_LIMIT } },
          cursorParameter,
        ],
        responses: {
          200: ok('A page of models.', ref('ModelListResponse')),
          304: notModified,
          400: problem('A parameter is malformed (a filter value, sort, sort=price without priceUnit, limit, a cursor from another request); `parameter` names it.'),
          503: unavailable,
          ...everyOperation,
        },
      },
    },
    '/api/v1/models/compare': {
      get: {
        operationId: 'compareModels',
        tags: ['models'],
        summary: 'Compare models side by side, with their rates in one unit and their sources',
        description: `\`ids\` holds ${MIN_COMPARE_MODELS} to ${MAX_COMPARE_MODELS} distinct model ids. \`rates\` puts each model's lowest current US-dollar rate in \`priceUnit\` (default ${DEFAULT_COMPARE_UNIT}) side by side, with the listing that charges it and the page that states it. Unknown ids are listed in \`notFound\`; when none is found the answer is 404.`,
        parameters: [
          { name: 'ids', in: 'query', required: true, description: 'Comma-separated model ids, e.g. gpt-oss-120b,gpt-oss-20b.', schema: str, example: 'gpt-oss-120b,gpt-oss-20b' },
          { name: 'priceUnit', in: 'query', required: false, description: MODEL_FILTERS.priceUnit.description, schema: jsonSchemaOf(FILTER_KINDS.unit.parameter), example: '1m-input-tokens' },
        ],
        responses: {
          200: ok('The models found, and their rates side by side.', ref('ModelCompareResponse')),
          304: notModified,
          400: problem(`\`ids\` missing or not ${MIN_COMPARE_MODELS} to ${MAX_COMPARE_MODELS} distinct ids, or a bad priceUnit.`),
          404: problem('None of the requested ids is a model of the catalog (the body lists them in `notFound`).'),
          503: unavailable,
          ...everyOperation,
        },
      },
    },
    '/api/v1/models/{id}': {
      get: {
        operationId: 'getModel',
        tags: ['models'],
        summary: 'One model: every provider that serves it, its lifecycle and successors, its history',
        description:
          'The model with every offer (cheapest first in `priceUnit` when given), its capabilities, weights and licence, release date, ' +
          'lifecycle across its offers with successors, the source of its entry, and its history: changes of its offers\u2019 prices, context ' +
          'and lifecycle from the event log, with values before and after, newest first. A model no entry names yet has the id ' +
          '<listing>/<model id>, which may hold slashes.',
        parameters: [
          { name: 'id', in: 'path', required: true, description: 'The model id (gpt-oss-120b).', schema: str, example: 'gpt-oss-120b' },
          { name: 'priceUnit', in: 'query', required: false, description: 'Orders the offers cheapest first in this unit.', schema: jsonSchemaOf(FILTER_KINDS.unit.parameter), example: '1m-input-tokens' },
        ],
        responses: {
          200: ok('The model.', ref('ModelDetailResponse')),
          304: notModified,
          400: problem('A bad priceUnit.'),
          404: problem('No model has this id (the body says where to search).'),
          503: unavailable,
          ...everyOperation,
        },
      },
    },
    '/api/v1/tasks': {
      get: {
        operationId: 'listTasks',
        tags: ['tools'],
        summary: 'What listings do: the task list, with how many listings do each',
        description: 'Every task (object detection, OCR, translation...) with its English and Chinese names, the synonyms search matches, and the number of listings that do it now. Pass a slug as `task` to search or list.',
        responses: { 200: ok('Every task.', ref('TasksResponse')), 304: notModified, 503: unavailable, ...everyOperation },
      },
    },
    '/api/v1/tools/categories': {
      get: {
        operationId: 'getCategories',
        tags: ['tools'],
        summary: 'List categories with their number of listings',
        description: 'Every category with its English and Chinese name and the number of listings it holds now; `totalListings` is their sum.',
        responses: { 200: ok('Every category, with live counts.', ref('CategoriesResponse')), 304: notModified, 503: unavailable, ...everyOperation },
      },
    },
    '/api/v1/tools/{slug}': {
      get: {
        operationId: 'getToolDetail',
        tags: ['tools'],
        summary: 'The complete specification of one listing, now or as it was',
        description:
          'All fields of the listing with code examples, similar APIs, a pricing comparison with four other listings, the provider\'s entries of the error reference, and the facts as data (lifecycle, models, prices, rate limits) with their sources. `categories`, `search` and `compare` are routes, never slugs. ' +
          'A listing withdrawn from the directory, or retired by its provider, answers 410 with when, why and `replacedBy`. With `asOf`, the listing as published at that moment (from the event log): its own fields as they were, the similar APIs and error entries as they are now, and no pricing comparison.',
        parameters: [
          { name: 'slug', in: 'path', required: true, description: 'A tool slug (any case).', schema: { type: 'string', pattern: '^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$', maxLength: 64 }, example: 'openai' },
          { name: 'asOf', in: 'query', required: false, description: 'A day (YYYY-MM-DD: as at the end of that day, UTC) or a moment (YYYY-MM-DDThh:mm:ssZ).', schema: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,3})?Z)?$' }, example: '2026-11-24' },
        ],
        responses: {
          200: ok('The listing (with asOf: as it was then, and `asOf` echoed).', { oneOf: [ref('ToolDetailResponse'), ref('ToolAsOfResponse')] }),
          304: notModified,
          400: problem('`asOf` is not a day or a UTC moment; `parameter` names it.'),
          404: problem('No listing has this slug (or, with asOf, none had by then); `didYouMean` lists up to three listings it most likely meant.'),
          410: goneProblem('The listing was withdrawn from the directory or retired by its provider (or, with asOf, was withdrawn at that moment): `gone`, `since`, `reason` and `replacedBy` say when, why and what to use instead.'),
          414: responseRef('UriTooLong'),
          503: unavailable,
          ...everyOperation,
        },
      },
    },
    '/api/v1/tools/{slug}/history': {
      get: {
        operationId: 'getToolHistory',
        tags: ['tools'],
        summary: 'Every change of one listing, with values before and after',
        description:
          'From the event log: each publication, revision and withdrawal, newest first, with its time and version and, for a revision, each public field it changed with its value before and after. A withdrawn listing keeps its history. Pages of `limit`; `nextBefore` (and `_links.next`) leads to older changes.',
        parameters: [
          { name: 'slug', in: 'path', required: true, description: 'A tool slug (any case).', schema: { type: 'string', pattern: '^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$', maxLength: 64 }, example: 'openai' },
          { name: 'limit', in: 'query', required: false, description: `Changes per page: default ${HISTORY_DEFAULT_LIMIT}, at most ${HISTORY_MAX_LIMIT} (clamped).`, schema: { type: 'integer', minimum: 1, default: HISTORY_DEFAULT_LIMIT } },
          { name: 'before', in: 'query', required: false, description: 'The `nextBefore` of the page before: changes below that version.', schema: { type: 'integer', minimum: 1 } },
        ],
        responses: {
          200: ok('The changes, newest first.', ref('HistoryResponse')),
          304: notModified,
          400: problem('`limit` or `before` is malformed; `parameter` names it.'),
          404: problem('No listing with this slug was ever published.'),
          503: unavailable,
          ...everyOperation,
        },
      },
    },
    '/api/v1/errors': {
      get: {
        operationId: 'listErrorReference',
        tags: ['errors'],
        summary: 'The published reference of common provider errors',
        description: 'Each entry: the HTTP status a provider returns, a title, the cause and the fix in English and Chinese, and a curl example. Narrow by provider slug and status; an unknown provider gives an empty list.',
        parameters: [
          { name: 'provider', in: 'query', required: false, description: 'A listing slug, e.g. openai.', schema: str, example: 'openai' },
          { name: 'status', in: 'query', required: false, description: 'An HTTP status code.', schema: { type: 'integer', minimum: 100, maximum: 599 }, example: 429 },
        ],
        responses: {
          200: ok('Entries sorted by provider, status and title.', ref('ErrorsResponse')),
          304: notModified,
          400: problem('`status` is not an HTTP status code.'),
          503: unavailable,
          ...everyOperation,
        },
      },
    },
    '/api/v1/liveness': {
      get: {
        operationId: 'listLiveness',
        tags: ['liveness'],
        summary: 'Whether what each listing points at still answers, by state',
        description:
          "The directory's own probes of each listing's website, docs, endpoints (those without {placeholders}), machine-readable API " +
          'description and status page: requests without credentials, whose answer gives each target a state (ok; auth-required, a 401 ' +
          'or 403 without a key, which means alive; moved; wrong-shape; not-found; tls-error; dns-failure; unreachable; server-error; ' +
          "refused, not fetched by the prober's safety rules). A listing's state rolls them up: ok (every target answers), degraded " +
          '(some do not), down (no endpoint answers). A failure is published once two probes some time apart saw it; a recovery at ' +
          'once; each change is an event of the log and an entry of the change feed (`kind: liveness`). Most popular first; `counts` ' +
          'gives the listings in each state (retired listings left out, as in the list). The same state filters the list and search ' +
          'as `live=`; each listing\'s `liveness` is on its detail, summary and comparison row.',
        parameters: [
          { name: 'state', in: 'query', required: false, description: 'Only listings in this state (unchecked: not checked yet).', schema: jsonSchemaOf(z.enum(LIVE_FILTER_VALUES)), example: 'down' },
          { name: 'limit', in: 'query', required: false, description: `Listings per page: default ${MAX_LIMIT}, at most ${MAX_LIMIT} (clamped); a non-integer or a value below 1 is a 400.`, schema: { type: 'integer', minimum: 1, default: MAX_LIMIT } },
          cursorParameter,
        ],
        responses: {
          200: ok('A page of listings with their liveness.', ref('LivenessResponse')),
          304: notModified,
          400: problem('`state` is not one of ok, degraded, down, unchecked, or `limit` or `cursor` is malformed, or one is given twice; `parameter` names it.'),
          503: unavailable,
          ...everyOperation,
        },
      },
    },
    '/api/v1/changes': {
      get: {
        operationId: 'listChanges',
        tags: ['changes'],
        summary: 'What was published, revised and withdrawn, oldest first, from a cursor',
        description:
          'The change feed, read from the event log: every publication, revision and withdrawal of a listing or an error-reference ' +
          'entry, oldest first, each with its time, the version it made, `changedFields` (revised) or `reason` (withdrawn), and links to ' +
          'what changed. An agent that mirrors the directory reads it from the beginning, then polls with `nextCursor`: it is always ' +
          'given (where the page ends, or the same `since` when nothing is new), and `hasMore` says whether to read on now or poll later. ' +
          'Only what the details and lists already show is in the feed: it stops at the position of the log the read models have ' +
          'applied. Cursors are opaque tokens over positions of the log, which is never trimmed: a cursor stays valid for good, with any ' +
          '`limit`, and in the Atom feed too. A full page never changes; pages at the head grow as changes arrive (same caching as ' +
          'the other reads: ETag, 304). Who made a change is not published. A fetched link gives the thing as it is now: a listing ' +
          'published and withdrawn since is a 404 there, and its withdrawal comes further down the feed. A listing\'s detail also shows ' +
          'its provider\'s errors (an error entry\'s change links that listing as `_links.listing`) and facts of related listings ' +
          '(`similarApis`, `pricingComparison`), which change with them without a change of their own.',
        parameters: changesParameters,
        responses: {
          200: ok('A page of changes, oldest first.', ref('ChangesResponse')),
          304: notModified,
          400: problem('`since` is not a cursor of this directory, or `limit` is malformed, or one is given twice; `parameter` names it.'),
          503: unavailable,
          ...everyOperation,
        },
      },
    },
    '/api/v1/changes.atom': {
      get: {
        operationId: 'getChangesFeed',
        tags: ['changes'],
        summary: 'The change feed as Atom, newest first',
        description:
          'The same changes as an Atom 1.0 feed (RFC 4287) for feed readers, newest entry first. Without `since` it holds the newest ' +
          '`limit` changes (what a reader polls); with it, the page `listChanges` gives for that cursor, with a `next` link (RFC 5005) ' +
          'while more follow. The feed id is its URL without parameters; an entry id is the change\'s own permanent UUID ' +
          '(`urn:uuid:...`), the same on every page that shows it. Each entry has the change as its title, the time it happened as ' +
          '`updated`, a link to what changed, the type and kind as categories, and a summary (the name, the version, the changed fields ' +
          'or the reason). Links are absolute, from PUBLIC_BASE_URL when the service has it, else from the host the request came to.',
        parameters: changesParameters,
        responses: {
          200: {
            description: 'An Atom feed document.',
            headers: cached,
            content: { 'application/atom+xml': { schema: { type: 'string', description: 'An Atom 1.0 feed document (RFC 4287).' } } },
          },
          304: notModified,
          400: problem('`since` is not a cursor of this directory, `limit` is malformed, or the Host header is not a host name.'),
          503: unavailable,
          ...everyOperation,
        },
      },
    },
    '/rss.xml': {
      get: {
        operationId: 'getChangesRss',
        tags: ['changes'],
        summary: 'The change feed as RSS 2.0, newest first',
        description: 'The same entries as the Atom feed, as RSS 2.0 for the readers of the public directory\'s /rss.xml: a guid per change (its permanent id, not a link), RFC 822 dates, the same `since` and `limit`.',
        parameters: changesParameters,
        responses: {
          200: { description: 'An RSS 2.0 document.', headers: cached, content: { 'application/rss+xml': { schema: { type: 'string', description: 'An RSS 2.0 document.' } } } },
          304: notModified,
          400: problem('`since` is not a cursor of this directory, `limit` is malformed, or the Host header is not a host name.'),
          503: unavailable,
          ...everyOperation,
        },
      },
    },
    '/api/v1/export': {
      get: {
        operationId: 'exportCatalog',
        tags: ['changes'],
        summary: 'The whole catalog in one request, consistent with a change-feed cursor',
        description:
          'Every live listing\'s detail, the categories and the error reference, as of one position of the event log, with the change-feed `cursor` of that position: export once, then follow GET /api/v1/changes?since=<cursor>. Streamed (the service holds a share of the listings at a time), compressed as the client accepts, under a weak ETag naming the position (304 when it still matches). With `asOf`, the catalog as it was at that moment. Its JSON Schema: /api/v1/export.schema.json. A client streams one export at a time and a process a few (429 or 503 with Retry-After past them).',
        parameters: [{ name: 'asOf', in: 'query', required: false, description: 'A day (YYYY-MM-DD: as at the end of that day, UTC) or a moment (YYYY-MM-DDThh:mm:ssZ).', schema: { type: 'string' }, example: '2026-11-24' }],
        responses: {
          200: ok('The catalog.', ref('Export')),
          304: notModified,
          400: problem('`asOf` is not a day or a UTC moment, or before 1970.'),
          503: exportBusy,
          ...everyOperation,
        },
      },
    },
    '/api/v1/export.schema.json': {
      get: {
        operationId: 'getExportSchema',
        tags: ['changes'],
        summary: 'The JSON Schema (draft 2020-12) of the export',
        description: 'Made from the same schema as the export itself; `schemaVersion` in the export names its version.',
        responses: { 200: ok('A JSON Schema.', { type: 'object', required: ['$schema', 'type', 'properties'] }), 304: notModified, ...everyOperation },
      },
    },
    '/api/data': {
      get: {
        operationId: 'getPublicDirectoryData',
        tags: ['discovery'],
        summary: 'The catalog in the shape the public directory serves at /api/data (also /api/data.json)',
        description: 'A JSON array of every live listing (its detail fields), each with `_meta` { totalApis, siteDescription, siteUrl, bilingual, lastUpdated }, for clients of the public directory. New clients should use /api/v1/export.',
        responses: { 200: ok('The listings.', { type: 'array', items: { type: 'object', required: ['slug', 'name', '_meta'] } }), 304: notModified, 503: unavailable, ...everyOperation },
      },
    },
    '/api/data.json': {
      get: {
        operationId: 'getPublicDirectoryDataJson',
        tags: ['discovery'],
        summary: 'The same as /api/data',
        description: 'The public directory serves the same array at both paths; so does this one.',
        responses: { 200: ok('The listings.', { type: 'array', items: { type: 'object', required: ['slug', 'name', '_meta'] } }), 304: notModified, 503: unavailable, ...everyOperation },
      },
    },
    '/structured-data.json': {
      get: {
        operationId: 'getStructuredData',
        tags: ['discovery'],
        summary: 'schema.org data about the directory (JSON-LD)',
        description: 'The site with its search action, its categories with the number of listings each holds now (the counts of GET /api/v1/tools/categories), and the catalog as a dataset.',
        responses: { 200: { description: 'JSON-LD.', headers: cached, content: { 'application/ld+json': { schema: { type: 'object', required: ['@context', '@graph'] } } } }, 304: notModified, 503: unavailable, ...everyOperation },
      },
    },
    '/api/ai.txt': {
      get: {
        operationId: 'getAiTxt',
        tags: ['discovery'],
        summary: "The public directory's text for language models: moved to /llms-full.txt",
        description: 'Answers 301 with Location: /llms-full.txt, which holds every listing in full for a language model.',
        responses: { 301: { description: 'Moved permanently to /llms-full.txt.', headers: { Location: { description: '/llms-full.txt', schema: str } } }, ...everyOperation },
      },
    },
  },
  components: {
    responses: {
      BadRequest: problem(
        'The request itself is malformed, whatever its path: not valid HTTP/1.1, a URL with bytes outside ASCII or that is not valid percent-encoded UTF-8, or a GET or HEAD with a body (which is not read: the connection is closed after the answer).',
      ),
      MethodNotAllowed: {
        ...problem('The directory is read-only: it answers GET, HEAD and OPTIONS only (CONNECT and other methods included).'),
        headers: { Allow: { description: 'GET, HEAD, OPTIONS', schema: str } },
      },
      RequestTimeout: problem('The request line and headers did not arrive within the header timeout (10 s by default), or the whole request within the request timeout (30 s); the connection is closed.'),
      UriTooLong: problem('A path segment is longer than 200 characters (no slug is).'),
      ExpectationFailed: problem("An Expect header other than '100-continue'."),
      TooManyRequests: {
        ...problem(
          'The client (its address, or its IPv6 /64) spent its budget: requests a minute (600 by default) or, for searchTools, searches a minute that the cache could not answer (60 by default). ' +
            'The answer comes after a pause of a second; retry after Retry-After seconds. `limit` and `retryAfter` repeat the figures.',
        ),
        headers: { 'Retry-After': { description: 'Seconds to wait before the next request.', schema: int }, ...rateLimitHeaders },
      },
      HeadersTooLarge: problem('The request line and headers together are larger than 16 KiB.'),
      UnknownParameter: problem(UNKNOWN_PARAMETER),
      ServiceUnavailable: unavailable,
    },
    schemas: componentSchemas(),
  },
};

// Every JSON operation refuses a query parameter it does not take (src/http/unknown-parameters.ts): its 400
// says so beside its own reasons, or is that refusal alone.
for (const [path, item] of Object.entries(OPENAPI_DOCUMENT.paths as Record<string, { get: { responses: Record<string, unknown> } }>)) {
  if (!path.startsWith('/api/')) continue;
  const responses = item.get.responses;
  const own = responses[400] as { description: string } | undefined;
  if (own) own.description += ` Also: ${UNKNOWN_PARAMETER}`;
  else responses[400] = responseRef('UnknownParameter');
}
