import { badRequest } from './problem';

/** Parameters of the read API, checked by hand on the hot path (no reflection, no class instances). */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
export const MAX_QUERY_LENGTH = 200;
export const MIN_COMPARE = 2;
export const MAX_COMPARE = 10;

type Query = Record<string, string | string[] | undefined>;

/** A parameter given at most once, as a string (or undefined). */
export function single(query: Query, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw badRequest(`'${name}' must be given once`, { parameter: name });
  return value;
}

/** `limit`: default 20; a non-integer or a value below 1 is an error; above 100 is clamped to 100. */
export function parseLimit(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_LIMIT;
  if (!/^\d{1,9}$/.test(raw.trim())) {
    throw badRequest(`'limit' must be a whole number from 1 to ${MAX_LIMIT}, got '${raw}'`, { parameter: 'limit' });
  }
  const limit = Number(raw.trim());
  if (limit < 1) throw badRequest(`'limit' must be at least 1, got ${limit}`, { parameter: 'limit' });
  return Math.min(limit, MAX_LIMIT);
}

export function parseSearchText(raw: string | undefined): string | null {
  const q = raw?.trim() ?? '';
  if (q.length > MAX_QUERY_LENGTH) {
    throw badRequest(`'q' must be at most ${MAX_QUERY_LENGTH} characters, got ${q.length}`, { parameter: 'q' });
  }
  return q === '' ? null : q;
}

export function parseCategory(raw: string | undefined): string | null {
  const category = raw?.trim().toLowerCase() ?? '';
  return category === '' ? null : category;
}

/** `ids`: required, comma-separated, 2 to 10 distinct slugs (case and spaces ignored, repeats merged). */
export function parseIds(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') {
    throw badRequest(`'ids' is required: ${MIN_COMPARE} to ${MAX_COMPARE} comma-separated tool slugs, e.g. ids=openai,anthropic`, {
      parameter: 'ids',
    });
  }
  const ids = [...new Set(raw.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean))];
  if (ids.length < MIN_COMPARE || ids.length > MAX_COMPARE) {
    throw badRequest(`'ids' must name ${MIN_COMPARE} to ${MAX_COMPARE} distinct tool slugs, got ${ids.length}`, { parameter: 'ids' });
  }
  return ids;
}
