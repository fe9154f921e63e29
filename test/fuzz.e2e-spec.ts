import { Logger } from '@nestjs/common';
import fc from 'fast-check';
import { connect } from 'node:net';
import { PAGE_CSP } from '../src/pages/page-errors.filter';
import { RunningService, startService } from './support/harness';
import { parseResponses, RawResponse } from './support/raw-http';

/**
 * A hostile client, generated: thousands of requests over raw sockets (so that nothing normalises them)
 * with paths and queries of every kind (percent-encoding good and bad, raw bytes that are not UTF-8,
 * segments over the router's limit, dot segments), every method, preflights with and without their
 * headers, headers too large or malformed, bodies where none belongs, broken HTTP versions. Whatever
 * comes, the service answers: never a 5xx, every error a problem document (or, on the pages, a page in
 * the site's style), and every answer carries the CORS and security headers: the JSON API's
 * Content-Security-Policy, or the pages' own (src/pages/).
 */
let service: RunningService;
let port: number;

beforeAll(async () => {
  // Limits high enough never to refuse: the hook runs on every request without turning the fuzz into 429s.
  service = await startService('fuzz', { RATE_LIMIT_PER_MINUTE: '1000000000', SEARCH_RATE_LIMIT_PER_MINUTE: '1000000000', HEADERS_TIMEOUT_MS: '2000', REQUEST_TIMEOUT_MS: '2000' });
  expect((await service.ingest(['fixtures'])).problems).toEqual([]);
  port = Number(new URL(service.baseUrl).port);
});
afterAll(() => service?.close());

/** Bytes as a latin1 string (one character per byte), so raw bytes and UTF-8 mix in one request. */
const utf8 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

// Weighted so that about half the requests are well-formed enough to reach a route.
const wellFormed = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[a-z0-9-]{1,24}$/) },
  { weight: 4, arbitrary: fc.constantFrom('openai', 'stripe', 'OpenAI', 'search', 'compare', 'categories', 'no-such-tool', '', '.', '..', 'openapi.json') },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }).map(encodeURIComponent) },
);
const badlyEncoded = fc.constantFrom('%', '%Z1', '%E0%A4%A', '%FF', '%C0%AF', '%00', '%2e%2e', '%ED%A0%80', '%F4%90%80%80', '%25', '%2F');
/** Bytes that are not ASCII, raw in the URL: not UTF-8 at all, or UTF-8 left unencoded. */
const rawBytes = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 6, min: 0x80, max: 0xff }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  fc.string({ unit: 'grapheme', maxLength: 8 }).map(utf8),
);
const segment = fc.oneof(
  { weight: 24, arbitrary: wellFormed },
  { weight: 3, arbitrary: badlyEncoded },
  { weight: 1, arbitrary: rawBytes },
  { weight: 1, arbitrary: fc.integer({ min: 150, max: 600 }).map((n) => 'a'.repeat(n)) },
);
const querySegment = fc.oneof({ weight: 40, arbitrary: wellFormed }, { weight: 4, arbitrary: badlyEncoded }, { weight: 1, arbitrary: rawBytes });
const prefix = fc.constantFrom('/', '/zh/', '/apis/', '/categories/', '/api/v1/tools/', '/api/v1/tools/search/', '/api/v1/', '/api/v1/errors/', '/healthz/', '/readyz/', '/metrics/', '/api/v1/openapi.json/', '//', '');
const path = fc.tuple(prefix, fc.array(segment, { maxLength: 4 })).map(([start, parts]) => start + parts.join('/'));
const queryKey = fc.oneof(fc.constantFrom('q', 'limit', 'category', 'ids', 'provider', 'status', 'cursor', 'freeTier', 'openaiCompatible', 'minContext', 'sdk', 'auth'), querySegment);
const queryValue = fc.oneof(querySegment, fc.integer({ min: -5, max: 1000 }).map(String), fc.constantFrom('openai,stripe', 'true', 'x'.repeat(250), '128k'));
const query = fc.option(
  fc.array(fc.tuple(queryKey, queryValue), { maxLength: 5 }).map((pairs) => '?' + pairs.map(([k, v]) => `${k}=${v}`).join('&')),
  { nil: '' },
);
const method = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('GET', 'HEAD', 'OPTIONS') },
  { weight: 2, arbitrary: fc.constantFrom('POST', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'CONNECT', 'PROPFIND', 'FOO', 'get') },
);
const version = fc.oneof({ weight: 12, arbitrary: fc.constant('HTTP/1.1') }, { weight: 1, arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/9') });
const header = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('User-Agent: fuzz', 'Accept: application/json', 'Accept-Language: zh-CN') },
  fc.constantFrom('Accept-Encoding: br', 'Accept-Encoding: gzip;q=0.5, br;q=0', 'Accept-Encoding: *;q=0', 'Accept-Encoding: br;q=abc'),
  fc.constantFrom('If-None-Match: *', 'If-None-Match: "abc", W/"def"'),
  fc.constantFrom('Origin: https://example.org', 'Origin: null'),
  fc.constantFrom('Access-Control-Request-Method: GET', 'Access-Control-Request-Method: DELETE', 'Access-Control-Request-Headers: x-anything'),
  fc.constantFrom('Expect: 100-continue', 'Expect: teapot'),
  fc.constantFrom('X-Forwarded-For: 203.0.113.9', 'Accept: text/html', 'Content-Type: application/json', 'Content-Length: abc', 'Transfer-Encoding: gzip, chunked'),
  { weight: 1, arbitrary: fc.constantFrom('Bad Header: x', 'X-Null: a\x00b', 'X-Latin: \xe9t\xe9') },
  fc.integer({ min: 1000, max: 24_000 }).map((n) => `X-Padding: ${'p'.repeat(n)}`),
  fc.string({ unit: 'grapheme-ascii', maxLength: 30 }).map((value) => `X-Random: ${value}`),
);
// Mostly a good Host; sometimes one that is no host (a 400 problem document, never a 5xx).
const host = fc.oneof(
  { weight: 12, arbitrary: fc.constant('directory.test') },
  { weight: 1, arbitrary: fc.constantFrom('a b', 'x:99999', 'a/b', 'user@host', 'host?x', '999.1.1.1', '[::1', '', 'directory.test:8080', '[::1]:3000', '127.0.0.1') },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 20 }) },
);
const body = fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 3000 }) });

const requestBytes = fc.record({ method, path, query, version, host, headers: fc.array(header, { maxLength: 3 }), body, declaredExtra: fc.constantFrom(0, 0, 0, 10, 100_000) }).map((r) => {
  const lines = [`${r.method} ${r.path}${r.query} ${r.version}`, `Host: ${r.host}`, 'Connection: close', ...r.headers];
  if (r.body !== null) lines.push(`Content-Length: ${r.body.length + r.declaredExtra}`);
  return { description: r, bytes: Buffer.from(`${lines.join('\r\n')}\r\n\r\n${r.body ?? ''}`, 'latin1'), head: r.method === 'HEAD' };
});

/** The first answer to `bytes` on a fresh connection (as soon as it is complete), or null if the connection closed without one. */
function firstAnswer(bytes: Buffer, head: boolean): Promise<RawResponse | null> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (answer: RawResponse | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const tryParse = (final: boolean) => {
      const text = Buffer.concat(chunks).toString('latin1');
      // (A 100 Continue before it is interim: the answer is the first final one.)
      const answer = parseResponses(text, head).find((r) => r.status >= 200);
      if (answer && (final || Buffer.byteLength(answer.body) >= Number(answer.headers['content-length'] ?? 0) || head)) finish(answer);
      else if (final) finish(null);
    };
    const timer = setTimeout(() => tryParse(true), 8000);
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      tryParse(false);
    });
    socket.on('close', () => tryParse(true));
    socket.on('error', () => undefined);
  });
}

it('answers 3,000 generated hostile requests without a 5xx, every error a problem document or a page, with CORS and security headers', async () => {
  const errors = jest.spyOn(Logger.prototype, 'error');
  const statuses = new Map<number, number>();
  try {
    await fc.assert(
      fc.asyncProperty(requestBytes, async ({ bytes, head }) => {
        const answer = await firstAnswer(bytes, head);
        expect(answer).not.toBeNull();
        const { status, headers } = answer!;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        expect(status).toBeLessThan(500);
        expect(headers['access-control-allow-origin']).toBe('*');
        expect(headers['x-content-type-options']).toBe('nosniff');
        // A page (HTML for people) carries the pages' policy; everything else the JSON API's.
        const page = headers['content-security-policy'] === PAGE_CSP;
        if (!page) expect(headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
        expect(headers['referrer-policy']).toBe('no-referrer');
        expect(headers['cross-origin-resource-policy']).toBe('cross-origin');
        if (status >= 400 && page) {
          expect(headers['content-type']).toBe('text/html; charset=utf-8');
          // An error page names its status; a search or comparison form refused as 400 shows the form
          // again with an alert saying what was wrong (the pages test checks its words).
          if (!head) expect(answer!.body.includes(`${status}`) || (status === 400 && answer!.body.includes('role="alert"'))).toBe(true);
        } else if (status >= 400) {
          expect(headers['content-type']).toBe('application/problem+json; charset=utf-8');
          if (!head) {
            const problem = JSON.parse(answer!.body);
            expect(problem).toMatchObject({ success: false, status, type: expect.stringMatching(/^https:\/\//), title: expect.any(String), detail: expect.any(String), error: problem.detail, instance: expect.any(String) });
          }
        }
      }),
      { numRuns: 3000, interruptAfterTimeLimit: 100_000 },
    );
    // Nothing was the service's fault: no error logged.
    expect(errors).not.toHaveBeenCalled();
  } finally {
    errors.mockRestore();
    console.log(`statuses of the generated requests: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
  }
  // ...and it still serves.
  expect((await fetch(`${service.baseUrl}/api/v1/tools/openai`)).status).toBe(200);
}, 150_000);
