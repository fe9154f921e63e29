import { MCP_PATH, MCP_TOOL_NAMES, WELL_KNOWN_MCP_PATH } from '../http/mcp-paths';
import { API_PREFIX } from '../listings/views/listing-views';
import { OPENAPI_DOCUMENT } from '../openapi/openapi.document';
import { storedBody } from '../http/stored-body';

/** Where an agent that knows only the base URL finds everything (relative to the base URL). */
export const ENTRY_POINTS = {
  openapi: `${API_PREFIX}/openapi.json`,
  mcp: `/${MCP_PATH}`,
  mcpWellKnown: `/${WELL_KNOWN_MCP_PATH}`,
  llmsTxt: '/llms.txt',
  llmsFullTxt: '/llms-full.txt',
  apiCatalog: '/.well-known/api-catalog',
  changes: `${API_PREFIX}/changes`,
  changesAtom: `${API_PREFIX}/changes.atom`,
  tools: `${API_PREFIX}/tools`,
  models: `${API_PREFIX}/models`,
  model: `${API_PREFIX}/models/{id}`,
  tasks: `${API_PREFIX}/tasks`,
  search: `${API_PREFIX}/tools/search?q={query}`,
  detail: `${API_PREFIX}/tools/{slug}`,
  compare: `${API_PREFIX}/tools/compare?ids={slugs}`,
  categories: `${API_PREFIX}/tools/categories`,
  errors: `${API_PREFIX}/errors`,
  liveness: `${API_PREFIX}/liveness`,
  robots: '/robots.txt',
  agentsTxt: '/agents.txt',
  aiPlugin: '/.well-known/ai-plugin.json',
  live: '/healthz',
  ready: '/readyz',
};

/**
 * GET /: a JSON index of every entry point: the operations (read from the OpenAPI document, so the two never
 * disagree), the MCP server, llms.txt, the API catalog and the change feed. Made once.
 */
export const SERVICE_INDEX = storedBody(
  JSON.stringify({
    success: true,
    name: OPENAPI_DOCUMENT.info.title,
    version: OPENAPI_DOCUMENT.info.version,
    description: OPENAPI_DOCUMENT.info.description,
    authentication: 'none: every operation is a GET and needs no key',
    mcp: { url: ENTRY_POINTS.mcp, transport: 'streamable-http', alsoAt: ENTRY_POINTS.mcpWellKnown, tools: MCP_TOOL_NAMES },
    documents: {
      openapi: ENTRY_POINTS.openapi,
      llmsTxt: ENTRY_POINTS.llmsTxt,
      llmsFullTxt: ENTRY_POINTS.llmsFullTxt,
      apiCatalog: ENTRY_POINTS.apiCatalog,
      agentsTxt: ENTRY_POINTS.agentsTxt,
      aiPlugin: ENTRY_POINTS.aiPlugin,
    },
    changes: { json: ENTRY_POINTS.changes, atom: ENTRY_POINTS.changesAtom },
    health: { live: ENTRY_POINTS.live, ready: ENTRY_POINTS.ready },
    operations: Object.entries(OPENAPI_DOCUMENT.paths as Record<string, Record<string, { operationId?: string; summary?: string }>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ operationId: operation.operationId ?? null, method: method.toUpperCase(), path, summary: operation.summary ?? null })),
    ),
    _links: ENTRY_POINTS,
  }),
);

/**
 * The Link header of GET / (RFC 8288): the OpenAPI document as the service description (RFC 8631), the API
 * catalog (RFC 9727) and llms.txt.
 */
export const SERVICE_LINKS = [
  `<${ENTRY_POINTS.openapi}>; rel="service-desc"; type="application/vnd.oai.openapi+json;version=3.0"`,
  `<${ENTRY_POINTS.llmsTxt}>; rel="service-doc"; type="text/markdown"`,
  `<${ENTRY_POINTS.apiCatalog}>; rel="api-catalog"`,
  `<${ENTRY_POINTS.ready}>; rel="status"`,
].join(', ');
