import { badRequest } from '../http/problem';

/** Marks the cursor's format, so it can change later without old cursors being misread. */
const FORMAT = 'c1:';
/** A stream id of the log: milliseconds and a sequence number, each a 64-bit integer in Redis. */
const POSITION = /^(0|[1-9]\d{0,15})-(0|[1-9]\d{0,15})$/;

/**
 * A cursor of the change feed: an opaque token for a position of the event log. The log is never
 * trimmed, so a cursor stays valid for good, whatever the `limit` and in the JSON and Atom feeds alike.
 */
export function encodeChangeCursor(position: string): string {
  return Buffer.from(`${FORMAT}${position}`).toString('base64url');
}

/** The position a cursor names; a 400 naming `since` for anything this API did not give out. */
export function decodeChangeCursor(raw: string): string {
  const text = Buffer.from(raw, 'base64url').toString('utf8');
  const position = text.startsWith(FORMAT) ? text.slice(FORMAT.length) : '';
  // Base64 decoding skips stray characters: only the exact token this API gave out is accepted.
  if (!POSITION.test(position) || encodeChangeCursor(position) !== raw) {
    throw badRequest(`'since' is not a cursor of the change feed: send the 'nextCursor' (or a change's 'cursor') this API gave out, or leave 'since' out to start from the beginning`, {
      parameter: 'since',
    });
  }
  return position;
}
