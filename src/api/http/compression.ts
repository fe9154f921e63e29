import { negotiate } from '@fastify/accept-negotiator';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { StoredBody } from '../../projections/read-model-body';

/**
 * Response compression, done once per body: a body is compressed the first time a client asks for an
 * encoding of it, and the result is kept on the body itself. Bodies live in the read cache until the read
 * models change, so a repeated request sends stored bytes either way, as it does without compression.
 * A detail of 12 KB goes out as 4.6 KB with brotli (5.2 KB with gzip), a page of 20 search results of
 * 24 KB as 6.8 KB: what an agent on a real network waits for.
 */

/** Encodings offered, preferred first: brotli is about a tenth smaller than gzip on these bodies. */
export const ENCODINGS = ['br', 'gzip'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** Below this, a body goes out as it is: a few hundred bytes saved cost more than they gain. */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * Brotli quality 6 and gzip level 6 take 0.1-0.4 ms for these bodies; brotli's higher qualities take
 * 5-20 ms for another tenth off, too much for the first request after every change.
 */
const BROTLI_QUALITY = 6;
const GZIP_LEVEL = 6;

const OFFERED: Encoding[] = [...ENCODINGS];

/** Accept-Encoding headers seen, and the encoding chosen for each: clients send the same one every time. */
const chosen = new Map<string, Encoding | null>();
const CHOSEN_LIMIT = 256;

/** The encoding to send for this Accept-Encoding header (weights and `*` as RFC 9110 says), or null for none. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  let encoding = chosen.get(acceptEncoding);
  if (encoding === undefined) {
    encoding = negotiate<Encoding>(acceptEncoding.toLowerCase(), OFFERED);
    // Headers are chosen by clients: keep the memory bounded whatever they send.
    if (chosen.size >= CHOSEN_LIMIT) chosen.clear();
    chosen.set(acceptEncoding, encoding);
  }
  return encoding;
}

/** What a stored body keeps of its compressed forms (null: not worth sending compressed). */
type EncodedForms = Partial<Record<Encoding, Buffer | null>>;
const encodedForms = new WeakMap<StoredBody, EncodedForms>();

/**
 * The body compressed with `encoding`, compressed on the first call and kept for as long as the body is;
 * null when the body is too small for it to pay, or does not get smaller.
 */
export function encodedBody(stored: StoredBody, encoding: Encoding): Buffer | null {
  if (stored.body.length < MIN_COMPRESSED_BYTES) return null;
  let forms = encodedForms.get(stored);
  if (!forms) encodedForms.set(stored, (forms = {}));
  let bytes = forms[encoding];
  if (bytes === undefined) {
    const compressed = compress(stored.body, encoding);
    bytes = compressed.length < stored.body.length ? compressed : null;
    forms[encoding] = bytes;
  }
  return bytes;
}

function compress(body: Buffer, encoding: Encoding): Buffer {
  if (encoding === 'gzip') return gzipSync(body, { level: GZIP_LEVEL });
  return brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}
