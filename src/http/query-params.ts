import { badRequest } from './problem';

/** Parameters every read shares, checked by hand on the hot path (no reflection, no class instances). */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** A request's query parameters as Fastify parses them. */
export type QueryParams = Record<string, string | string[] | undefined>;

/** A parameter given at most once, as a string (or undefined). */
export function single(query: QueryParams, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw badRequest(`'${name}' must be given once`, { parameter: name });
  return value;
}

/**
 * `limit`: default 20; a non-integer or a value below 1 is an error; above 100 is clamped to 100. A read
 * with pages of another size passes its own default and maximum.
 */
export function parseLimit(raw: string | undefined, fallback = DEFAULT_LIMIT, max = MAX_LIMIT): number {
  if (raw === undefined || raw === '') return fallback;
  // Any run of digits: however many, above the maximum is the maximum (as docs/api.md, "Paging and limits", says).
  if (!/^\d+$/.test(raw.trim())) {
    throw badRequest(`'limit' must be a whole number from 1 to ${max}, got '${raw}'`, { parameter: 'limit' });
  }
  const limit = Number(raw.trim());
  if (limit < 1) throw badRequest(`'limit' must be at least 1, got ${limit}`, { parameter: 'limit' });
  return Math.min(limit, max);
}

/** `category`: a category slug, any case; an unknown one finds nothing (it is not an error). */
export function parseCategory(raw: string | undefined): string | null {
  const category = raw?.trim().toLowerCase() ?? '';
  return category === '' ? null : category;
}


/**
 * A moment: a day (YYYY-MM-DD, meaning the end of that day, UTC) or a UTC time (YYYY-MM-DDThh:mm:ssZ,
 * optionally with milliseconds), as an ISO string; null when not given; a 400 naming the parameter otherwise.
 */
export function parseMoment(raw: string | undefined, name: string): string | null {
  const given = raw?.trim();
  if (given === undefined || given === '') return null;
  const moment = /^\d{4}-\d{2}-\d{2}$/.test(given) ? `${given}T23:59:59.999Z` : given;
  const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/.test(moment) ? Date.parse(moment) : NaN;
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== moment.slice(0, 10)) {
    throw badRequest(`'${name}' must be a day (YYYY-MM-DD) or a moment in UTC (YYYY-MM-DDThh:mm:ssZ), got '${given}'`, { parameter: name });
  }
  // The store's positions are milliseconds since 1970: nothing it holds is older, and an earlier moment
  // cannot be asked of it (Redis refuses a negative stream position).
  if (time < 0) throw badRequest(`'${name}' must be 1970-01-01 or later, got '${given}'`, { parameter: name });
  return new Date(time).toISOString();
}
