import { createHash } from 'node:crypto';
import { badRequest } from '../http/problem';

/**
 * An opaque `cursor` for the next page: where the page ends, and a fingerprint of the request it belongs
 * to (its other parameters), so a cursor given to another query is refused rather than misread. It holds
 * no state on the server and stays valid as long as the request does.
 */
export function encodeCursor(position: Record<string, string | number>, request: string): string {
  return Buffer.from(JSON.stringify({ ...position, f: fingerprint(request) })).toString('base64url');
}

/** The position a cursor holds, checked against the request it must belong to; a 400 naming `cursor` otherwise. */
export function decodeCursor<T extends Record<string, string | number>>(raw: string | undefined, request: string, shape: Record<keyof T, 'string' | 'number'>): T | null {
  if (raw === undefined || raw.trim() === '') return null;
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
  if (!wellFormed) throw badRequest(`'cursor' is not a cursor this API gave out`, { parameter: 'cursor' });
  if (position!.f !== fingerprint(request)) {
    throw badRequest(`'cursor' belongs to another request: send it with the same other parameters as the page it came from`, { parameter: 'cursor' });
  }
  return position as T;
}

function fingerprint(request: string): string {
  return createHash('sha1').update(request).digest('base64url').slice(0, 10);
}
