import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { closest, distance } from 'fastest-levenshtein';
import { badRequest, sendProblem } from './problem';

/**
 * Unknown query parameters on the JSON API are a 400 naming them, with the closest known name: an agent
 * that guesses `query=` or `free_tier=` would otherwise get every listing, unfiltered, marked success. The
 * known names are the OpenAPI document's, so a parameter is declared once (there) and both the document
 * and this check follow it. Pages, discovery files and MCP keep their own rules (MCP refuses unknown
 * arguments through its schemas).
 */
type OpenApiPaths = Record<string, { get?: object }>;

/** Names other directories and habits use, with the parameter that means the same here. */
const SYNONYMS: Readonly<Record<string, string>> = {
  query: 'q', search: 'q', text: 'q', keyword: 'q', keywords: 'q', term: 'q',
  page_size: 'limit', pagesize: 'limit', per_page: 'limit', perpage: 'limit', size: 'limit', count: 'limit', max: 'limit',
  page: 'cursor', offset: 'cursor', after: 'cursor', next: 'cursor',
  order: 'sort', orderby: 'sort', order_by: 'sort', sortby: 'sort', sort_by: 'sort',
  as_of: 'asOf', asof: 'asOf', at: 'asOf',
};

/** The query parameters of each JSON route, by the route pattern Fastify matches (`/api/v1/tools/:slug`). */
export function knownParametersByRoute(paths: OpenApiPaths): Map<string, readonly string[]> {
  const known = new Map<string, readonly string[]>();
  for (const [path, item] of Object.entries(paths)) {
    if (!path.startsWith('/api/')) continue;
    const parameters = (item.get as { parameters?: ReadonlyArray<{ name: string; in: string }> } | undefined)?.parameters ?? [];
    const names = parameters.filter((p) => p.in === 'query').map((p) => p.name);
    known.set(path.replace(/\{([^}]+)\}/g, ':$1'), names);
  }
  return known;
}

/** The known name a client probably meant: a synonym, the same name in another case or spelling, or the nearest. */
export function closestParameter(unknown: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const folded = unknown.toLowerCase().replace(/[-_\s]/g, '');
  const synonym = SYNONYMS[unknown.toLowerCase()] ?? SYNONYMS[folded];
  if (synonym !== undefined && known.includes(synonym)) return synonym;
  const sameWord = known.find((name) => name.toLowerCase() === folded);
  if (sameWord) return sameWord;
  const nearest = closest(folded, known.map((name) => name.toLowerCase()));
  const name = known.find((k) => k.toLowerCase() === nearest);
  // Only a near miss is a suggestion: a name sharing nothing with any known one gets the list instead.
  return name !== undefined && distance(folded, nearest) <= Math.max(2, Math.floor(nearest.length / 3)) ? name : undefined;
}

/** The onRequest hook (after routing): a documented JSON route given a query parameter it does not take is refused. */
export function unknownParameterHook(known: ReadonlyMap<string, readonly string[]>) {
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const names = known.get(request.routeOptions.url ?? '');
    if (names === undefined) return done();
    const query = request.query as Record<string, unknown>;
    for (const given in query) {
      if (names.includes(given)) continue;
      const suggestion = closestParameter(given, names);
      const accepted = names.length === 0 ? 'it takes no query parameters' : `it takes ${names.map((n) => `'${n}'`).join(', ')}`;
      const detail = `unknown parameter '${given}'${suggestion ? `: did you mean '${suggestion}'?` : ''} (${accepted})`;
      void sendProblem(reply, request.url, badRequest(detail, { parameter: given, ...(suggestion ? { didYouMean: suggestion } : {}) }));
      return;
    }
    done();
  };
}
