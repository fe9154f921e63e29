import { badRequest } from '../http/problem';
import { parseCategory, QueryParams, single } from '../http/query-params';
import { FILTER_NAMES, FilterKind, FilterName, LISTING_FILTERS, ListingFilters } from '../contract/listing-filters';
import { AUTH_TYPES, AuthType, SDK_LANGUAGES, SdkLanguage } from '../listings/listing.document';

/** Names people write for SDK languages, beside the identifiers themselves. */
const SDK_NAMES: Record<string, SdkLanguage> = {
  node: 'javascript', nodejs: 'javascript', 'node.js': 'javascript', js: 'javascript', ts: 'typescript', golang: 'go',
  'c#': 'csharp', '.net': 'csharp', dotnet: 'csharp', 'c++': 'cpp', kt: 'kotlin', rb: 'ruby', py: 'python', objc: 'objective-c',
};

/** How each kind of filter is read from a query parameter (null: not set). */
const PARSERS: { [K in FilterKind]: (raw: string | undefined, name: FilterName) => unknown } = {
  category: (raw) => parseCategory(raw),
  boolean: (raw, name) => parseBoolean(raw, name),
  auth: (raw) => parseAuth(raw),
  tokens: (raw) => parseTokens(raw),
  sdk: (raw) => parseSdk(raw),
};

/**
 * The filters of a request's query parameters (see LISTING_FILTERS). Each narrows the result; an unknown
 * category finds nothing (it is not an error), any other bad value is a 400 naming the parameter.
 */
export function parseFilters(params: QueryParams): ListingFilters {
  const filters: Record<string, unknown> = {};
  for (const name of FILTER_NAMES) filters[name] = PARSERS[LISTING_FILTERS[name].kind](single(params, name), name);
  return filters as ListingFilters;
}

/** A message for a filter's bad value, the same over HTTP and MCP. */
function invalid(name: FilterName, raw: string | undefined) {
  return badRequest(`'${name}' must be ${LISTING_FILTERS[name].expected}, got '${raw}'`, { parameter: name });
}

function parseBoolean(given: string | undefined, name: FilterName): boolean | null {
  const raw = given?.trim().toLowerCase();
  if (raw === undefined || raw === '') return null;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw invalid(name, raw);
}

export function parseAuth(raw: string | undefined): AuthType | null {
  const value = raw?.trim().toLowerCase().replace(/[_\s]/g, '-');
  if (!value) return null;
  if ((AUTH_TYPES as readonly string[]).includes(value)) return value as AuthType;
  throw invalid('auth', raw);
}

/** A number of tokens: digits, optionally with k (thousands) or m (millions): 128000, 128k, 1m. */
export function parseTokens(raw: string | undefined): number | null {
  const value = raw?.trim().toLowerCase();
  if (!value) return null;
  const match = /^(\d{1,10})([km]?)$/.exec(value);
  const tokens = match ? Number(match[1]) * (match[2] === 'k' ? 1000 : match[2] === 'm' ? 1_000_000 : 1) : 0;
  if (!match || tokens < 1) throw invalid('minContext', raw);
  return tokens;
}

export function parseSdk(raw: string | undefined): SdkLanguage | null {
  const value = raw?.trim().toLowerCase();
  if (!value) return null;
  if ((SDK_LANGUAGES as readonly string[]).includes(value)) return value as SdkLanguage;
  if (SDK_NAMES[value]) return SDK_NAMES[value];
  throw invalid('sdk', raw);
}

/** The filters as query parameters, in a fixed order (for canonical URLs). */
export function filterParams(filters: ListingFilters): Array<[string, string]> {
  return Object.entries(filters)
    .filter(([, value]) => value !== null)
    .map(([name, value]) => [name, String(value)]);
}
