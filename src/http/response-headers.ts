import type { SecurityHeadersOptions } from '@nestjs/common';
// The resolver behind app.useSecurityHeaders(): the same headers for the answers written outside Nest's hook.
import { resolveSecurityHeaders } from '@nestjs/core/security/security-headers.js';

/** Response headers browsers may read across origins (CORS is open: the API is meant to be called from anywhere). */
export const EXPOSED_HEADERS = ['ETag', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'];

/**
 * Security headers for a JSON API (helmet's option names, resolved by Nest's app.useSecurityHeaders()):
 * a body must never be run, framed or sniffed as something else (CSP `default-src 'none'; frame-ancestors
 * 'none'`, nosniff, X-Frame-Options for older browsers), no Referer leaks from it, and other origins may
 * read it (Cross-Origin-Resource-Policy: cross-origin, as CORS is `*`). Headers meant for HTML pages
 * (COOP, Origin-Agent-Cluster, DNS prefetch, download options, Flash policies, the XSS auditor) are left
 * out. HSTS only when the operator says every client comes over HTTPS.
 */
export function securityHeaderOptions(hsts: boolean): SecurityHeadersOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    originAgentCluster: false,
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: hsts ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xContentTypeOptions: true,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: { action: 'deny' },
    xPermittedCrossDomainPolicies: false,
    xPoweredBy: true,
    xXssProtection: false,
  };
}

/** The security headers, as [lower-case name, value]. */
export function securityHeaders(hsts: boolean): Array<[string, string]> {
  return resolveSecurityHeaders(securityHeaderOptions(hsts)).headers.map(([name, value]) => [name.toLowerCase(), value] as [string, string]);
}

/**
 * What every answer carries, also those written before any hook runs (a URL the router cannot decode, a
 * request Node cannot parse): the CORS headers of a simple request and the security headers.
 */
export function alwaysHeaders(hsts: boolean): Array<[string, string]> {
  return [['access-control-allow-origin', '*'], ['access-control-expose-headers', EXPOSED_HEADERS.join(', ')], ...securityHeaders(hsts)];
}
