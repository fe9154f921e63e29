import type { ListingFilters } from '../contract/listing-filters';
import { filterParams } from '../listings/read/listing-filters';
import type { Lang } from './messages';

/**
 * Where each page lives. English pages have no prefix, Chinese ones are under `/zh`; the paths do not
 * collide with the JSON routes (`/api/...`, `/llms.txt`, `/mcp`...): a listing is `/apis/{slug}` (the
 * public directory's `/api/{slug}` redirects there), a category `/categories/{slug}`.
 *
 * A page's path is written without its language prefix (`/apis/openai`) and put in a language with
 * `inLang`; its query parameters are in a fixed order, so the path is also its canonical URL and its key
 * in the read cache.
 */
export const PAGE_PATHS = {
  home: '/',
  search: '/search',
  compare: '/compare',
  errors: '/errors',
  changes: '/changes',
  models: '/models',
  listing: (slug: string) => `/apis/${encodeURIComponent(slug)}`,
  category: (slug: string) => `/categories/${encodeURIComponent(slug)}`,
  model: (id: string) => `/models/${encodeURIComponent(id)}`,
};

/** A request's path and query without its language prefix (`/zh/apis/x` → `/apis/x`, `/zh` → `/`). */
export function withoutLang(url: string): string {
  return url.replace(/^\/zh(?=\/|$)/, '') || '/';
}

/** Whether a request's path is one of the pages (in either language), not a JSON route or a file. */
export function isPagePath(url: string): boolean {
  const path = withoutLang(url.split('?')[0]);
  return /^\/(?:|search|compare|errors|changes|models|apis\/[^/]+|categories\/[^/]+|models\/.+)\/?$/.test(path);
}

/** The language of a request's path: `/zh` and everything under `/zh/` is Chinese. */
export function langOfPath(url: string): Lang {
  const path = url.split('?')[0];
  return path === '/zh' || path.startsWith('/zh/') ? 'zh' : 'en';
}

/** A page path (with its query) in a language. */
export function inLang(lang: Lang, path: string): string {
  if (lang === 'en') return path;
  return path === '/' ? '/zh/' : path.startsWith('/?') ? `/zh/${path.slice(1)}` : `/zh${path}`;
}

/** A path with query parameters (those with a value), in the order given. */
export function withQuery(path: string, params: Array<[string, string | null | undefined]>): string {
  const present = params.filter((pair): pair is [string, string] => pair[1] !== null && pair[1] !== undefined && pair[1] !== '');
  return present.length === 0 ? path : `${path}?${new URLSearchParams(present)}`;
}

/** The search page for a query, filters and cursor. */
export function searchPath(q: string | null, filters: ListingFilters, cursor: string | null = null, sort: string | null = null): string {
  return withQuery(PAGE_PATHS.search, [['q', q?.trim() ?? null], ...filterParams(filters), ['sort', sort], ['cursor', cursor]]);
}

/** The comparison page of these slugs. */
export function comparePath(ids: string[]): string {
  return ids.length === 0 ? PAGE_PATHS.compare : `${PAGE_PATHS.compare}?ids=${ids.map(encodeURIComponent).join(',')}`;
}

/** The error reference, narrowed to a provider and a status. */
export function errorsPath(provider: string | null, status: number | null): string {
  return withQuery(PAGE_PATHS.errors, [['provider', provider], ['status', status === null ? null : String(status)]]);
}
