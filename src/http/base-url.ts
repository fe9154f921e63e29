import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';

/** Names of this machine: a request for one of them is someone on the machine (or its port mapping). */
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
/**
 * Distinct bases one process builds documents for, at most: each is a rendering (and a compressed copy) of
 * the large documents (sitemap, llms-full.txt) kept in the read cache. Loopback names with any port count;
 * past the bound, new ones get the fallback base. Four, because they must all fit the read cache together:
 * at 5,000 listings a base's two large documents take about 10 MB of its 128 MB for responses, and with 16
 * made-up bases they pushed each other (and everything else) out, each push a render (bench:abuse).
 */
export const MAX_BASES = 4;
const basesSeen = new WeakMap<AppConfig, Set<string>>();

/**
 * The directory's own address, for the documents that must give absolute links (llms.txt, the sitemap,
 * the API catalog, the change feed, the MCP endpoint's URL). Never a Host a client made up, since those
 * documents are cached and served to everyone:
 * - PUBLIC_BASE_URL when the operator set it (in production, set it);
 * - else the request's own Host when it is a loopback name (`localhost`, `127.0.0.1`, `[::1]`, any port:
 *   a developer's machine, a compose port mapping) or one of PUBLIC_HOSTS (a name alone allows any port);
 * - else `http://localhost:<the port the request came in on>`.
 * A Host that is not a host at all was refused with 400 before (refuseBodiesAndWrites).
 */
export function baseUrlOf(request: FastifyRequest, config: AppConfig): string {
  if (config.publicBaseUrl !== null) return config.publicBaseUrl;
  const host = request.host.toLowerCase();
  const fallback = `http://localhost:${request.socket.localPort ?? config.port}`;
  if (!answersFor(host, config.publicHosts)) return fallback;
  const base = `${request.protocol}://${host}`;
  let seen = basesSeen.get(config);
  if (!seen) basesSeen.set(config, (seen = new Set()));
  if (seen.has(base)) return base;
  if (seen.size >= MAX_BASES) return fallback;
  seen.add(base);
  return base;
}

/** Whether the service gives links to `host` (name or name:port, lowercase). */
export function answersFor(host: string, publicHosts: readonly string[]): boolean {
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '');
  return LOOPBACK_NAMES.has(name) || publicHosts.includes(host) || publicHosts.includes(name);
}
