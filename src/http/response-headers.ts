import type { IncomingHttpHeaders } from 'node:http';

/** Response headers browsers may read across origins (CORS is open: the API is meant to be called from anywhere). */
export const EXPOSED_HEADERS = ['ETag', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'];

/** The methods a browser may use here: reads, and POST for the MCP endpoint (MCP clients that run in a browser). */
const CORS_METHODS = 'GET, HEAD, OPTIONS, POST';
/** How long a browser may keep a preflight's answer (a day). */
const PREFLIGHT_MAX_AGE_S = '86400';

/**
 * Security headers for a JSON API: a body must never be run, framed or sniffed as something else (CSP
 * `default-src 'none'; frame-ancestors 'none'`, nosniff, X-Frame-Options for older browsers), no Referer
 * leaks from it, and other origins may read it (Cross-Origin-Resource-Policy: cross-origin, as CORS is
 * `*`). These are helmet's values for those options; its headers meant for HTML pages (COOP,
 * Origin-Agent-Cluster, DNS prefetch, download options, Flash policies, the XSS auditor) are left out.
 * HSTS only when the operator says every client comes over HTTPS.
 */
export function securityHeaders(hsts: boolean): Array<[string, string]> {
  const headers: Array<[string, string]> = [
    ['content-security-policy', "default-src 'none';frame-ancestors 'none'"],
    ['cross-origin-resource-policy', 'cross-origin'],
    ['referrer-policy', 'no-referrer'],
    ['x-content-type-options', 'nosniff'],
    ['x-frame-options', 'DENY'],
  ];
  if (hsts) headers.push(['strict-transport-security', 'max-age=31536000; includeSubDomains']);
  return headers;
}

/**
 * What every answer carries, set once per request by the first request hook and also written on answers
 * made before any hook runs (a URL the router cannot decode, a request Node cannot parse): the CORS
 * headers of a simple request and the security headers. CORS is open (`*`, no credentials), so it needs no
 * per-request decision; written here it costs a few `setHeader` calls, where the CORS plugin's hook cost
 * about a third of the throughput of a cached read (bench/README.md).
 */
export function alwaysHeaders(hsts: boolean): Array<[string, string]> {
  return [['access-control-allow-origin', '*'], ['access-control-expose-headers', EXPOSED_HEADERS.join(', ')], ...securityHeaders(hsts)];
}

/**
 * The answer to any `OPTIONS` (204), beside the headers every answer carries: a CORS preflight learns
 * what it may send (the headers it asked for are allowed: nothing here reads credentials), as a bare
 * `OPTIONS` does.
 */
export function preflightHeaders(request: IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {
    'access-control-allow-methods': CORS_METHODS,
    'access-control-max-age': PREFLIGHT_MAX_AGE_S,
    'content-length': '0',
  };
  const asked = request['access-control-request-headers'];
  if (asked) {
    headers['access-control-allow-headers'] = asked;
    headers.vary = 'Access-Control-Request-Headers';
  }
  return headers;
}
