import { ENTRY_POINTS } from './service-index';

/** RFC 9727's media type of an API catalog. */
export const API_CATALOG_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

/**
 * /.well-known/api-catalog (RFC 9727): a linkset (RFC 9264) naming the directory's API with its description
 * (the OpenAPI document), its documentation for agents (llms.txt) and its status (/readyz), absolute.
 */
export function apiCatalog(base: string): string {
  return JSON.stringify({
    linkset: [
      {
        anchor: `${base}/api/v1`,
        'service-desc': [{ href: `${base}${ENTRY_POINTS.openapi}`, type: 'application/vnd.oai.openapi+json;version=3.0' }],
        'service-doc': [{ href: `${base}${ENTRY_POINTS.llmsTxt}`, type: 'text/markdown' }],
        'service-meta': [{ href: `${base}/`, type: 'application/json' }],
        status: [{ href: `${base}${ENTRY_POINTS.ready}`, type: 'application/json' }],
      },
    ],
  });
}
