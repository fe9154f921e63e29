import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { storedBody } from './stored-body';
import { chooseEncoding, encodedBody, MIN_COMPRESSED_BYTES, negotiate } from './compression';

const body = () => storedBody(JSON.stringify({ success: true, items: Array.from({ length: 200 }, (_, i) => ({ i, name: `listing ${i}` })) }));

it('compresses a body once per encoding and keeps the result with the body', () => {
  const stored = body();
  const br = encodedBody(stored, 'br')!;
  const gzip = encodedBody(stored, 'gzip')!;
  expect(br.etag).toBe(`W/${stored.etag.slice(0, -1)}-br"`);
  expect(gzip.etag).toBe(`W/${stored.etag.slice(0, -1)}-gzip"`);
  expect(brotliDecompressSync(br.bytes).equals(stored.body)).toBe(true);
  expect(gunzipSync(gzip.bytes).equals(stored.body)).toBe(true);
  // The same bytes, not compressed again: what a cached body sends on every later request.
  expect(encodedBody(stored, 'br')).toBe(br);
  expect(encodedBody(stored, 'gzip')).toBe(gzip);
  // Another body with the same content is another entry (forms live and die with their body).
  expect(encodedBody(body(), 'br')).not.toBe(br);
});

it('leaves small bodies, and bodies that do not shrink, uncompressed', () => {
  expect(encodedBody(storedBody('{"success":true}'), 'br')).toBeNull();
  // Random bytes do not shrink: sent as they are rather than larger.
  const incompressible = { etag: '"random"', body: randomBytes(4 * MIN_COMPRESSED_BYTES) };
  expect(encodedBody(incompressible, 'br')).toBeNull();
  expect(encodedBody(incompressible, 'gzip')).toBeNull();
});

it('chooses right whatever Accept-Encoding headers clients send', () => {
  for (let i = 0; i < 1000; i++) {
    expect(chooseEncoding(`x-${i}, gzip;q=0.${(i % 9) + 1}`)).toBe('gzip');
  }
  expect(chooseEncoding('br;q=0.1, gzip;q=0.2')).toBe('gzip');
  expect(chooseEncoding('gzip, br')).toBe('br');
  expect(chooseEncoding(undefined)).toBeNull();
  expect(chooseEncoding('')).toBeNull();
});

it.each([
  ['br', 'br'],
  ['gzip', 'gzip'],
  ['gzip, deflate, br', 'br'],
  ['gzip, deflate, br, zstd', 'br'],
  ['gzip;q=1.0, identity; q=0.5, *;q=0', 'gzip'],
  ['br;q=0.5, gzip', 'gzip'],
  ['br;q=0.5, gzip;q=0.5', 'br'],
  ['br;q=0, *', 'gzip'],
  ['*;q=0.5, br;q=0', 'gzip'],
  ['*', 'br'],
  ['*;q=0', null],
  ['x-gzip', 'gzip'],
  ['X-GZIP;q=0.3, br;q=0.2', 'gzip'],
  // Weights outside RFC 9110's grammar are read as the numbers they write.
  ['br;q=1.5, gzip;q=0.1', 'br'],
  ['br;q=.5, gzip;q=0.6', 'gzip'],
  ['br;q=0.0001', 'br'],
  ['br;q=abc, gzip;q=0.1', 'gzip'],
  ['br;level=5', 'br'],
  [' Br ; Q=0.9 , gzip;q=0.8', 'br'],
  ['deflate, identity', null],
  [',,;', null],
  ['', null],
])('Accept-Encoding %j gives %s', (header, expected) => {
  expect(negotiate(header)).toBe(expected);
});
