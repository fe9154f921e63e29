import { createHash } from 'node:crypto';
import { badRequest } from './problem';

/**
 * A place in a list's order: the last listing's key in that order (its popularity, or the fact it is
 * ordered by, see orderKey), then its slug. A page that starts after it keeps its place whatever changes before it.
 */
export interface BrowsePosition {
  key: number;
  slug: string;
}

/**
 * Opaque `cursor`s for the next page: where the page ends, and a fingerprint of the request it belongs
 * to (its other parameters), so a cursor given to another query is refused rather than misread. They hold
 * no state on the server and stay valid as long as the request does. Inside, a cursor is base64url JSON
 * with one-letter keys (kept short in URLs, and unchanged so cursors given out earlier still work):
 * `p` key (popularity, or the fact ordered by) and `s` slug of a browse position, `o` a search's offset, `f` the request's fingerprint.
 */
export function browseCursor(position: BrowsePosition, request: string): string {
  return encode({ p: position.key, s: position.slug }, request);
}

/** The browse position a list cursor holds (null when none was sent); a 400 naming `cursor` when it is not one of ours. */
export function browsePositionOf(raw: string | null, request: string): BrowsePosition | null {
  const position = decode<{ p: number; s: string }>(raw, request, { p: 'number', s: 'string' });
  return position && { key: position.p, slug: position.s };
}

export function offsetCursor(offset: number, request: string): string {
  return encode({ o: offset }, request);
}

/** The offset a search cursor holds (0 when none was sent); a 400 naming `cursor` when it is not one of ours. */
export function offsetOf(raw: string | null, request: string): number {
  const position = decode<{ o: number }>(raw, request, { o: 'number' });
  if (!position) return 0;
  if (!Number.isSafeInteger(position.o) || position.o < 0) throw notOurs();
  return position.o;
}

function encode(position: Record<string, string | number>, request: string): string {
  return Buffer.from(JSON.stringify({ ...position, f: fingerprint(request) })).toString('base64url');
}

function decode<T extends Record<string, string | number>>(raw: string | null, request: string, shape: Record<keyof T, 'string' | 'number'>): T | null {
  if (raw === null || raw.trim() === '') return null;
  const text = raw.trim();
  let position: Record<string, unknown> | null = null;
  // Only the exact text given out: Node's decoder skips characters outside the alphabet, and a cursor
  // with anything added would be accepted, and repeated in the page's links as sent.
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.toString('base64url') === text) {
    try {
      position = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
    } catch {
      /* reported below */
    }
  }
  const wellFormed = position !== null && typeof position === 'object' && Object.entries(shape).every(([key, type]) => typeof position![key] === type);
  if (!wellFormed) throw notOurs();
  if (position!.f !== fingerprint(request)) {
    throw badRequest(`'cursor' belongs to another request: send it with the same other parameters as the page it came from`, { parameter: 'cursor' });
  }
  return position as T;
}

function notOurs() {
  return badRequest(`'cursor' is not a cursor this API gave out`, { parameter: 'cursor' });
}

function fingerprint(request: string): string {
  return createHash('sha1').update(request).digest('base64url').slice(0, 10);
}
