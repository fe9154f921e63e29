import { badRequest } from '../http/problem';
import { parseCategory, QueryParams, single } from '../http/query-params';
import { AUTH_TYPES, AuthType, SDK_LANGUAGES, SdkLanguage } from '../listings/listing.document';
import type { ListingFilter, SearchIndex } from '../search/search-index';

/**
 * What a search or list may be narrowed to: a category and the facts agents decide by. Each narrows the
 * result; an unknown category finds nothing (it is not an error), any other bad value is a 400 naming
 * the parameter.
 */
export interface ListingFilters {
  category: string | null;
  /** true: only listings that can be used without paying; false: only those that cannot. */
  freeTier: boolean | null;
  /** true: only listings that accept OpenAI's chat-completions format; false: only those that do not. */
  openaiCompatible: boolean | null;
  /** The primary authentication scheme. */
  auth: AuthType | null;
  /** At least this many tokens of context. */
  minContext: number | null;
  /** An official SDK (or curl, or a CLI) in this language. */
  sdk: SdkLanguage | null;
}

export const NO_FILTERS: ListingFilters = { category: null, freeTier: null, openaiCompatible: null, auth: null, minContext: null, sdk: null };

/** Names people write for SDK languages, beside the identifiers themselves. */
const SDK_NAMES: Record<string, SdkLanguage> = {
  node: 'javascript', nodejs: 'javascript', 'node.js': 'javascript', js: 'javascript', ts: 'typescript', golang: 'go',
  'c#': 'csharp', '.net': 'csharp', dotnet: 'csharp', 'c++': 'cpp', kt: 'kotlin', rb: 'ruby', py: 'python', objc: 'objective-c',
};

/** The filters of a request's query parameters (`category`, `freeTier`, `openaiCompatible`, `auth`, `minContext`, `sdk`). */
export function parseFilters(params: QueryParams): ListingFilters {
  return {
    category: parseCategory(single(params, 'category')),
    freeTier: parseBoolean(params, 'freeTier'),
    openaiCompatible: parseBoolean(params, 'openaiCompatible'),
    auth: parseAuth(single(params, 'auth')),
    minContext: parseTokens(single(params, 'minContext')),
    sdk: parseSdk(single(params, 'sdk')),
  };
}

function parseBoolean(params: QueryParams, name: string): boolean | null {
  const raw = single(params, name)?.trim().toLowerCase();
  if (raw === undefined || raw === '') return null;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw badRequest(`'${name}' must be true or false, got '${raw}'`, { parameter: name });
}

export function parseAuth(raw: string | undefined): AuthType | null {
  const value = raw?.trim().toLowerCase().replace(/[_\s]/g, '-');
  if (!value) return null;
  if ((AUTH_TYPES as readonly string[]).includes(value)) return value as AuthType;
  throw badRequest(`'auth' must be one of ${AUTH_TYPES.join(', ')}, got '${raw}'`, { parameter: 'auth' });
}

/** A number of tokens: digits, optionally with k (thousands) or m (millions): 128000, 128k, 1m. */
export function parseTokens(raw: string | undefined): number | null {
  const value = raw?.trim().toLowerCase();
  if (!value) return null;
  const match = /^(\d{1,10})([km]?)$/.exec(value);
  const tokens = match ? Number(match[1]) * (match[2] === 'k' ? 1000 : match[2] === 'm' ? 1_000_000 : 1) : 0;
  if (!match || tokens < 1) throw badRequest(`'minContext' must be a positive number of tokens (e.g. 128000 or 128k), got '${raw}'`, { parameter: 'minContext' });
  return tokens;
}

export function parseSdk(raw: string | undefined): SdkLanguage | null {
  const value = raw?.trim().toLowerCase();
  if (!value) return null;
  if ((SDK_LANGUAGES as readonly string[]).includes(value)) return value as SdkLanguage;
  if (SDK_NAMES[value]) return SDK_NAMES[value];
  throw badRequest(`'sdk' must be one of ${SDK_LANGUAGES.join(', ')}, got '${raw}'`, { parameter: 'sdk' });
}

/** Whether any filter is set. */
export function hasFilters(filters: ListingFilters): boolean {
  return Object.values(filters).some((value) => value !== null);
}

/** The filters as query parameters, in a fixed order (for canonical URLs). */
export function filterParams(filters: ListingFilters): Array<[string, string]> {
  return Object.entries(filters)
    .filter(([, value]) => value !== null)
    .map(([name, value]) => [name, String(value)]);
}

/** A test of a listing of the index against the filters, or null when there is none. */
export function listingFilter(index: SearchIndex, filters: ListingFilters): ListingFilter | null {
  if (!hasFilters(filters)) return null;
  const { category, freeTier, openaiCompatible, auth, minContext, sdk } = filters;
  return (doc) => {
    const listing = index.listing(doc).facts;
    return (
      (category === null || listing.category === category) &&
      (freeTier === null || listing.freeTier === freeTier) &&
      (openaiCompatible === null || listing.openaiCompatible === openaiCompatible) &&
      (auth === null || listing.authType === auth) &&
      (minContext === null || (listing.contextTokens ?? 0) >= minContext) &&
      (sdk === null || listing.sdkLanguages.includes(sdk))
    );
  };
}
