import { z } from 'zod';
import { FILTER_ECHO, type FilterDefinition, type FilterKind } from '../contract/listing-filters';
import { AUTH_TYPES, COMPARED_RATE_UNITS, isRegionCode, LIFECYCLE_STATUSES, MCP_FILTER_VALUES, MODALITIES, MODEL_KINDS, PAYMENT_METHODS, RATE_UNITS, SDK_LANGUAGES, type SdkLanguage } from '../contract/vocabulary';
import { LIVE_FILTER_VALUES } from '../liveness/liveness.schema';
import { badRequest } from './problem';
import { parseCategory, type QueryParams, single } from './query-params';

/** An MCP argument's error message, given the issue (see the MCP tools' mustBe). */
type ArgumentError = (issue: { input?: unknown }) => string;

/**
 * One kind of filter, defined once: how a query parameter of the kind is read (the same parser reads MCP
 * arguments, passed as text), the value it holds once read (`echo`, in contract/listing-filters.ts), how
 * the OpenAPI document writes the parameter, and what JSON an MCP argument of the kind may be.
 */
interface KindDefinition {
  /** The query parameter's text (undefined or '' : not set) -> the value, or a 400 naming the parameter. */
  parse: (raw: string | undefined, name: string, definition: FilterDefinition) => unknown;
  /** The parameter's schema in the OpenAPI document. */
  parameter: z.ZodType;
  /** The JSON an MCP argument may be (its text goes on to `parse`). */
  argument: (error: ArgumentError) => z.ZodType<string | number | boolean>;
}

/** Names people write for SDK languages, beside the identifiers themselves. */
const SDK_NAMES: Record<string, SdkLanguage> = {
  node: 'javascript', nodejs: 'javascript', 'node.js': 'javascript', js: 'javascript', ts: 'typescript', golang: 'go',
  'c#': 'csharp', '.net': 'csharp', dotnet: 'csharp', 'c++': 'cpp', kt: 'kotlin', rb: 'ruby', py: 'python', objc: 'objective-c',
};

/** A message for a filter's bad value, the same over HTTP and MCP. */
function invalid(name: string, definition: FilterDefinition, raw: string | undefined) {
  return badRequest(`'${name}' must be ${definition.expected}, got '${raw}'`, { parameter: name });
}

/** One of a closed list of values, any case. */
function oneOf<T extends string>(values: readonly T[]): KindDefinition {
  return {
    parse: (given, name, definition) => {
      const raw = given?.trim().toLowerCase();
      if (!raw) return null;
      if ((values as readonly string[]).includes(raw)) return raw as T;
      throw invalid(name, definition, given);
    },
    parameter: z.enum(values as unknown as [T, ...T[]]),
    argument: (error) => z.string({ error }).meta({ enum: [...values] }),
  };
}

/**
 * A number, or its text (`128k`, `90d`), as a JSON argument: the JSON Schema says what a valid number is,
 * and the parser reads it, so an out-of-range number is refused with the HTTP API's message.
 */
const numberOrText = (bounds: { type?: 'integer'; minimum: number }) => (error: ArgumentError) => z.union([z.number().meta(bounds), z.string()], { error });

/** A number of tokens: digits, optionally with k (thousands) or m (millions): 128000, 128k, 1m. */
export function parseTokens(raw: string | undefined, name = 'minContext', definition?: FilterDefinition): number | null {
  const value = raw?.trim().toLowerCase();
  if (!value) return null;
  const match = /^(\d{1,10})([km]?)$/.exec(value);
  const tokens = match ? Number(match[1]) * (match[2] === 'k' ? 1000 : match[2] === 'm' ? 1_000_000 : 1) : 0;
  if (!match || tokens < 1) throw invalid(name, definition ?? { kind: 'tokens', description: '', expected: 'a positive number of tokens (e.g. 128000 or 128k)', example: '' }, raw);
  return tokens;
}

export const FILTER_KINDS: Record<FilterKind, KindDefinition> = {
  category: { parse: (raw) => parseCategory(raw), parameter: z.string(), argument: (error) => z.string({ error }) },
  boolean: {
    parse: (given, name, definition) => {
      const raw = given?.trim().toLowerCase();
      if (raw === undefined || raw === '') return null;
      if (raw === 'true' || raw === '1') return true;
      if (raw === 'false' || raw === '0') return false;
      throw invalid(name, definition, raw);
    },
    parameter: z.boolean(),
    argument: (error) => z.boolean({ error }),
  },
  auth: {
    parse: (given, name, definition) => {
      const value = given?.trim().toLowerCase().replace(/[_\s]/g, '-');
      if (!value) return null;
      if ((AUTH_TYPES as readonly string[]).includes(value)) return value;
      throw invalid(name, definition, given);
    },
    parameter: z.enum(AUTH_TYPES),
    argument: (error) => z.string({ error }).meta({ enum: [...AUTH_TYPES] }),
  },
  tokens: { parse: (raw, name, definition) => parseTokens(raw, name, definition), parameter: z.string().regex(/^[0-9]+[kKmM]?$/), argument: numberOrText({ type: 'integer', minimum: 1 }) },
  sdk: {
    parse: (given, name, definition) => {
      const value = given?.trim().toLowerCase();
      if (!value) return null;
      if ((SDK_LANGUAGES as readonly string[]).includes(value)) return value;
      if (SDK_NAMES[value]) return SDK_NAMES[value];
      throw invalid(name, definition, given);
    },
    parameter: z.string(),
    argument: (error) => z.string({ error }),
  },
  lifecycle: oneOf(LIFECYCLE_STATUSES),
  days: {
    // A number of days (`90d` or `90`), as the last day it covers from today (UTC): the answer stays the same all that day.
    parse: (given, name, definition) => {
      const raw = given?.trim().toLowerCase();
      if (!raw) return null;
      const match = /^(\d{1,4})d?$/.exec(raw);
      const days = match ? Number(match[1]) : 0;
      if (days < 1 || days > 3650) throw invalid(name, definition, given);
      return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    },
    parameter: z.string().regex(/^[0-9]{1,4}d?$/),
    argument: numberOrText({ type: 'integer', minimum: 1 }),
  },
  model: {
    parse: (given, name, definition) => {
      const raw = given?.trim().toLowerCase();
      if (!raw) return null;
      if (!/^@?[a-z0-9][a-z0-9._:/@+-]{0,99}$/.test(raw)) throw invalid(name, definition, given);
      return raw;
    },
    parameter: z.string(),
    argument: (error) => z.string({ error }),
  },
  amount: {
    parse: (given, name, definition) => {
      const raw = given?.trim();
      if (!raw) return null;
      if (!/^\d{1,9}(\.\d{1,6})?$/.test(raw)) throw invalid(name, definition, given);
      return Number(raw);
    },
    parameter: z.number().min(0),
    argument: numberOrText({ minimum: 0 }),
  },
  unit: { ...oneOf(COMPARED_RATE_UNITS), parameter: z.enum(RATE_UNITS) },
  live: oneOf(LIVE_FILTER_VALUES),
  modelKind: oneOf(MODEL_KINDS),
  modality: oneOf(MODALITIES),
  slug: {
    parse: (given, name, definition) => {
      const raw = given?.trim().toLowerCase();
      if (!raw) return null;
      if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(raw) || raw.length > 64) throw invalid(name, definition, given);
      return raw;
    },
    parameter: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/),
    argument: (error) => z.string({ error }),
  },
  mcp: oneOf(MCP_FILTER_VALUES),
  country: {
    parse: (given, name, definition) => {
      const raw = given?.trim().toLowerCase();
      if (!raw) return null;
      if (!isRegionCode(raw)) throw invalid(name, definition, given);
      return raw;
    },
    parameter: z.string().regex(/^[A-Za-z]{2}$/),
    argument: (error) => z.string({ error }),
  },
  paymentMethod: oneOf(PAYMENT_METHODS),
  text: {
    parse: (given, name, definition) => {
      const raw = given?.trim() ?? '';
      if (raw === '') return null;
      if ([...raw].length > 200) throw badRequest(`'${name}' must be at most 200 characters, got ${[...raw].length}`, { parameter: name });
      void definition;
      return raw;
    },
    parameter: z.string().max(200),
    argument: (error) => z.string({ error }),
  },
};

/** Every filter of a table read from a request's query parameters (null: not set); a bad value is a 400 naming its parameter. */
export function parseFilterParams<T extends Record<string, FilterDefinition>>(table: T, params: QueryParams): { [N in keyof T]: unknown } {
  const filters: Record<string, unknown> = {};
  for (const [name, definition] of Object.entries(table)) filters[name] = FILTER_KINDS[definition.kind].parse(single(params, name), name, definition);
  return filters as { [N in keyof T]: unknown };
}

/**
 * A price means nothing without its unit; a unit means nothing without a price, unless it names the unit a
 * sort compares prices in (`unitAlone`: the model catalog's sort=price).
 */
export function pairedPrice(filters: { maxPrice: unknown; priceUnit: unknown }, { unitAlone = false } = {}): void {
  if (unitAlone && filters.maxPrice === null) return;
  if ((filters.maxPrice === null) !== (filters.priceUnit === null)) {
    const missing = filters.maxPrice === null ? 'maxPrice' : 'priceUnit';
    throw badRequest(`'maxPrice' and 'priceUnit' go together: give '${missing}' too (e.g. maxPrice=1&priceUnit=1m-input-tokens)`, { parameter: missing });
  }
}

/** The filters as query parameters, in a fixed order (for canonical URLs). */
export function filterParams(filters: object): Array<[string, string]> {
  return Object.entries(filters)
    .filter(([, value]) => value !== null)
    .map(([name, value]) => [name, String(value)]);
}

/** A filter of a table as an OpenAPI query parameter. */
export function filterParameter(name: string, definition: FilterDefinition) {
  return { name, in: 'query', required: false, description: definition.description, schema: FILTER_KINDS[definition.kind].parameter, example: definition.example };
}
