import { FILTER_LIST } from '../contract/listing-filters';
import { OPENAPI_DOCUMENT } from '../openapi/openapi.document';
import { MCP_TOOL_NAMES } from '../http/mcp-paths';
import { ENTRY_POINTS } from './service-index';

/**
 * Two files the public directory's clients look for (see docs/api.md, "Clients of the public directory"):
 * /agents.txt, plain instructions for an agent, and /.well-known/ai-plugin.json, the plugin manifest that
 * points a client at the OpenAPI document. Both give absolute links from the base URL.
 */

const SUMMARY =
  'A read-only directory of third-party web APIs (chiefly AI, language-model and cloud APIs): search, compare, ' +
  'read a full listing with code examples, and look up the errors providers return. Bilingual (English and Chinese).';

export function agentsText(base: string): string {
  const at = (path: string) => `${base}${path}`;
  return [
    '# API Directory: instructions for agents',
    '',
    SUMMARY,
    'No key is needed; every operation is a GET (the MCP endpoint takes POST). Clients are rate limited: on 429, wait for Retry-After.',
    '',
    '## Start here',
    `- MCP (Streamable HTTP): ${at(ENTRY_POINTS.mcp)}  tools: ${MCP_TOOL_NAMES.join(', ')}`,
    `- OpenAPI document: ${at(ENTRY_POINTS.openapi)}`,
    `- Entry points as JSON: ${at('/')}`,
    `- llms.txt: ${at(ENTRY_POINTS.llmsTxt)}`,
    `- Every listing in full: ${at(ENTRY_POINTS.llmsFullTxt)}`,
    '',
    '## HTTP in one line each',
    `- Find an API for a task: ${at('/api/v1/tools/search?q=text%20to%20speech')} (filters: category, ${FILTER_LIST}; next page: nextCursor)`,
    `- Read one listing: ${at(ENTRY_POINTS.detail)}`,
    `- Compare up to 10: ${at(ENTRY_POINTS.compare)}`,
    `- List every API, a page at a time: ${at(ENTRY_POINTS.tools)}`,
    `- The model catalog, across providers (filters, sort=price&priceUnit=1m-input-tokens): ${at(ENTRY_POINTS.models)}`,
    `- One model with every provider that serves it, cheapest first: ${at(ENTRY_POINTS.model)}?priceUnit=1m-input-tokens`,
    `- Categories: ${at(ENTRY_POINTS.categories)}`,
    `- Errors providers return, with cause and fix: ${at(ENTRY_POINTS.errors)}`,
    `- What changed since you last looked: ${at(ENTRY_POINTS.changes)}?since=<cursor>`,
    '',
    'Errors are RFC 9457 problem documents (application/problem+json) naming the parameter at fault.',
    '',
  ].join('\n');
}

export function aiPluginManifest(base: string): string {
  return JSON.stringify({
    schema_version: 'v1',
    name_for_human: OPENAPI_DOCUMENT.info.title,
    name_for_model: 'api_directory',
    description_for_human: 'Search and compare third-party web APIs, with full listings and code examples.',
    description_for_model: `${SUMMARY} Search with a task or a product name, then read the listing by its slug for endpoints, authentication, pricing and a curl example.`,
    auth: { type: 'none' },
    api: { type: 'openapi', url: `${base}/openapi.json` },
  });
}
