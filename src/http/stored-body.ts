import { hash } from 'node:crypto';

/**
 * Read models store response bodies ready to send, each with its ETag in front:
 * `<etag>\n<body>`. The API splits at the first newline (JSON bodies never start with one).
 */
export function etagOf(body: string | Buffer): string {
  return `"${hash('sha1', body, 'base64url').slice(0, 22)}"`;
}

export function withEtag(body: string): string {
  return `${etagOf(body)}\n${body}`;
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
  // Encoded once and hashed as bytes: hashing the string would encode it a second time.
  const bytes = Buffer.from(body);
  return { etag: etagOf(bytes), body: bytes };
}
