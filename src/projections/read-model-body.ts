import { createHash } from 'node:crypto';

/**
 * Read models store response bodies ready to send, each with its ETag in front:
 * `<etag>\n<body>`. The API splits at the first newline (JSON bodies never start with one).
 */
export function etagOf(body: string): string {
  return `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
}

export function withEtag(body: string): string {
  return `${etagOf(body)}\n${body}`;
}

export function splitEtag(stored: string): { etag: string; body: string } {
  const cut = stored.indexOf('\n');
  return { etag: stored.slice(0, cut), body: stored.slice(cut + 1) };
}
