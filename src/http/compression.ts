import Negotiator from 'negotiator';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { StoredBody } from './stored-body';

/**
 * Response compression, done once per body: a body is compressed the first time a client asks for an
 * encoding of it, and the result is kept with the body (a weak map: it goes when the body goes). Bodies live in the read cache until the read
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

/** The encoding to send for this Accept-Encoding header, or null for none (see negotiate). */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | null {
  return acceptEncoding ? negotiate(acceptEncoding) : null;
}

/** Codings offered to `negotiator`, preferred first: x-gzip is gzip (RFC 9110 section 8.4.1.3), offered under both names. */
const OFFERED = ['br', 'gzip', 'x-gzip'];
/** negotiator 1.x takes the server's preference for ties as an option, which its published types lack. */
type EncodingOf = (available: string[], options: { preferred: string[] }) => string | undefined;

/**
 * RFC 9110 section 12.5.3, by `negotiator`: each listed coding has its weight (1 when none is given; 0
 * refuses it), and `*` gives its weight only to the codings not listed; names are case-insensitive. The
 * offered encoding of highest weight above 0 wins, brotli on a tie. A weight outside RFC 9110's grammar is
 * read as the number it writes (`q=.5` is 0.5). (@fastify/accept-negotiator, tried first, let `*`
 * override an explicit `br;q=0`; negotiator does not.)
 */
export function negotiate(header: string): Encoding | null {
  const negotiator = new Negotiator({ headers: { 'accept-encoding': header } });
  const coding = (negotiator.encoding as unknown as EncodingOf).call(negotiator, OFFERED, { preferred: OFFERED });
  return coding === 'br' ? 'br' : coding === 'gzip' || coding === 'x-gzip' ? 'gzip' : null;
}

/** The ETag of a body's compressed form: the weak form of its own tag with the coding added, e.g. W/"abc-br". */
export function encodedEtag(etag: string, encoding: Encoding): string {
  return `W/${etag.slice(0, -1)}-${encoding}"`;
}

/** A body compressed with one coding, and the ETag it goes out with (see encodedEtag). */
export interface EncodedForm {
  bytes: Buffer;
  etag: string;
}

/** What a stored body keeps of its compressed forms (null: not worth sending compressed). */
type EncodedForms = Partial<Record<Encoding, EncodedForm | null>>;
const encodedForms = new WeakMap<StoredBody, EncodedForms>();

/**
 * The body compressed with `encoding`, and its tag: made on the first call and kept for as long as the
 * body is; null when the body is too small for it to pay, or does not get smaller.
 */
export function encodedBody(stored: StoredBody, encoding: Encoding): EncodedForm | null {
  if (stored.body.length < MIN_COMPRESSED_BYTES) return null;
  let forms = encodedForms.get(stored);
  if (!forms) encodedForms.set(stored, (forms = {}));
  let form = forms[encoding];
  if (form === undefined) {
    const compressed = compress(stored.body, encoding);
    form = compressed.length < stored.body.length ? { bytes: compressed, etag: encodedEtag(stored.etag, encoding) } : null;
    forms[encoding] = form;
  }
  return form;
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
