import { createHash } from 'node:crypto';

/**
 * Read models store response bodies ready to send, each with its ETag in front:
 * `<etag>\n<body>`. The API splits at the first newline (JSON bodies never start with one).
 */
export function etagOf(body: string | Buffer): string {
  return etagOfParts([body]);
}

/** The ETag of a body given in consecutive parts (the same as etagOf of their concatenation). */
export function etagOfParts(parts: ReadonlyArray<string | Uint8Array>): string {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part);
  return `"${hash.digest('base64url').slice(0, 22)}"`;
}

export function withEtag(body: string): string {
  return `${etagOf(body)}\n${body}`;
}

/** withEtag for a body given in consecutive parts, as parts (sent as one value: RespWriter.parts). */
export function withEtagParts(parts: ReadonlyArray<string | Uint8Array>): Array<string | Uint8Array> {
  return [`${etagOfParts(parts)}\n`, ...parts];
}

/** A body ready to send: its ETag and its bytes (encoded once, not on every request). */
export interface StoredBody {
  etag: string;
  body: Buffer;
}

export function splitEtag(stored: string): StoredBody {
  const cut = stored.indexOf('\n');
  return { etag: stored.slice(0, cut), body: Buffer.from(stored.slice(cut + 1)) };
}

export function storedBody(body: string): StoredBody {
  return { etag: etagOf(body), body: Buffer.from(body) };
}
