import { badRequest } from '../../http/problem';
import { parseCategory, QueryParams, single } from '../../http/query-params';
import { FILTER_NAMES, FilterKind, FilterName, LISTING_FILTERS, ListingFilters } from '../../contract/listing-filters';
import { LIVE_FILTER_VALUES } from '../../liveness/liveness.schema';
import { AUTH_TYPES, AuthType, COMPARED_RATE_UNITS, LIFECYCLE_STATUSES, SDK_LANGUAGES, SdkLanguage } from '../../contract/vocabulary';

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
  lifecycle: (raw, name) => parseOneOf(raw, name, LIFECYCLE_STATUSES),
  days: (raw, name) => parseDays(raw, name),
  model: (raw, name) => parseModel(raw, name),
  amount: (raw, name) => parseAmount(raw, name),
  unit: (raw, name) => parseOneOf(raw, name, COMPARED_RATE_UNITS),
  live: (raw, name) => parseOneOf(raw, name, LIVE_FILTER_VALUES),
};

/**
 * The filters of a request's query parameters (see LISTING_FILTERS). Each narrows the result; an unknown
 * category finds nothing (it is not an error), any other bad value is a 400 naming the parameter.
 */
export function parseFilters(params: QueryParams): ListingFilters {
  const filters: Record<string, unknown> = {};
  for (const name of FILTER_NAMES) filters[name] = PARSERS[LISTING_FILTERS[name].kind](single(params, name), name);
  // A price means nothing without its unit, and a unit nothing without a price.
  if ((filters.maxPrice === null) !== (filters.priceUnit === null)) {
    const missing = filters.maxPrice === null ? 'maxPrice' : 'priceUnit';
    throw badRequest(`'maxPrice' and 'priceUnit' go together: give '${missing}' too (e.g. maxPrice=1&priceUnit=1m-input-tokens)`, { parameter: missing });
  }
  return filters as ListingFilters;
}

export function parseOneOf<T extends string>(given: string | undefined, name: FilterName, values: readonly T[]): T | null {
  const raw = given?.trim().toLowerCase();
  if (!raw) return null;
  if ((values as readonly string[]).includes(raw)) return raw as T;
  throw invalid(name, given);
}

/** A number of days (`90d` or `90`), as the last day it covers from today (UTC): the answer stays the same all that day. */
function parseDays(given: string | undefined, name: FilterName): string | null {
  const raw = given?.trim().toLowerCase();
  if (!raw) return null;
  const match = /^(\d{1,4})d?$/.exec(raw);
  const days = match ? Number(match[1]) : 0;
  if (days < 1 || days > 3650) throw invalid(name, given);
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

function parseModel(given: string | undefined, name: FilterName): string | null {
  const raw = given?.trim().toLowerCase();
  if (!raw) return null;
  if (!/^@?[a-z0-9][a-z0-9._:/@+-]{0,99}$/.test(raw)) throw invalid(name, given);
  return raw;
}

function parseAmount(given: string | undefined, name: FilterName): number | null {
  const raw = given?.trim();
  if (!raw) return null;
  if (!/^\d{1,9}(\.\d{1,6})?$/.test(raw)) throw invalid(name, given);
  return Number(raw);
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
