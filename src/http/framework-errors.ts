import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { isValidHost } from './host-header';
import { ApiProblem, PROBLEM_CONTENT_TYPE, problemJson, requestProblem, sendProblem } from './problem';

/** Told of every request answered here, outside the routes (for the request metrics). */
export type RejectionListener = (method: string, status: number) => void;

/** The methods of a read-only API. */
export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

/**
 * Fastify's `frameworkErrors`: what its router refuses before any hook runs, a path that is not valid
 * percent-encoded UTF-8 (400) or a path parameter over the router's limit (414), as problem documents
 * with the headers every answer carries.
 */
export function frameworkErrorHandler(headers: Array<[string, string]>, rejected: RejectionListener) {
  return (error: FastifyError, request: { method: string; url: string }, reply: FastifyReply): void => {
    const problem =
      error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? requestProblem(414, 'a path segment is longer than the directory allows (200 characters)')
        : requestProblem(400, error.code === 'FST_ERR_BAD_URL' ? 'the path is not valid percent-encoded UTF-8' : error.message);
    for (const [name, value] of headers) reply.header(name, value);
    rejected(request.method, problem.status);
    sendProblem(reply, request.url, problem);
  };
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before there is a request (bytes that
 * are not HTTP, a URL with raw bytes outside ASCII, headers over the size limit) and requests cut by the
 * header or request timeout, answered with a problem document on the socket, which is then closed. A
 * connection the client already reset gets nothing.
 *
 * Requests pipelined before the one refused were parsed and are being answered: the refusal waits for
 * their answers, so they go out first, in order, and names the request it refuses. Node reports the
 * parser's error again for every chunk that arrives after it, and a request timeout later still: one
 * connection gets one refusal.
 */
export function clientErrorHandler(headers: Array<[string, string]>, rejected: RejectionListener) {
  return (error: Error & { code?: string; rawPacket?: unknown; bytesParsed?: number }, socket: Duplex): void => {
    if (refusing.has(socket)) return;
    if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) {
      socket.destroy();
      return;
    }
    refusing.add(socket);
    const current = inFlight(socket);
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' && current?.headersSent) {
      // It timed out while being answered (answered before its body arrived): it has its answer, and the
      // connection closes after it, with no second one.
      current.once('close', () => socket.destroy());
      return;
    }
    const problem = clientProblem(error);
    const instance = requestTargetOf(Buffer.isBuffer(error.rawPacket) ? error.rawPacket : undefined, error.bytesParsed);
    const refuse = () => {
      // Answers of whole requests before it go first; the request the error is in (its body broke off,
      // or never came in time) gets this answer instead of its own.
      const before = inFlight(socket);
      if (before && !before.writableFinished && before.req.complete) {
        const next = () => {
          before.off('finish', next).off('close', next);
          refuse();
        };
        before.once('finish', next).once('close', next);
        return;
      }
      if (!socket.writable) return void socket.destroy();
      rejected('(unparsed)', problem.status);
      writeProblem(socket, headers, before && !before.req.complete ? (before.req.url ?? instance) : instance, problem);
    };
    refuse();
  };
}

/** Sockets whose refusal is written or waiting for the answers before it. */
const refusing = new WeakSet<Duplex>();

/** The answer Node is writing on a connection now (pipelined ones wait behind it); null when none. */
export function inFlight(socket: Duplex): ServerResponse | null {
  return (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage ?? null;
}

/**
 * Node's 'connect' event: a CONNECT request (a proxy tunnel), which Node would answer by closing the
 * connection: 405 as a problem document instead.
 */
export function connectHandler(headers: Array<[string, string]>, rejected: RejectionListener) {
  return (request: IncomingMessage, socket: Duplex): void => {
    rejected('CONNECT', 405);
    writeProblem(socket, headers, request.url ?? '', requestProblem(405, `the directory is no proxy: it answers ${ALLOWED_METHODS}`, { allow: ALLOWED_METHODS }));
  };
}

/** A whole answer written on the socket, then the connection closed. */
function writeProblem(socket: Duplex, headers: Array<[string, string]>, instance: string, problem: ApiProblem): void {
  const body = problemJson(instance, problem);
  const head = [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}`,
    ...headers.map(([name, value]) => `${name}: ${value}`),
    `content-type: ${PROBLEM_CONTENT_TYPE}`,
    'cache-control: no-store',
    ...Object.entries(problem.headers).map(([name, value]) => `${name}: ${value}`),
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}

function clientProblem(error: { code?: string }): ApiProblem {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return requestProblem(408, 'the request did not arrive in time');
    case 'HPE_HEADER_OVERFLOW':
      return requestProblem(431, 'the request line and headers are larger than the directory accepts (16 KiB)');
    case 'HPE_INVALID_METHOD':
      return requestProblem(405, `the directory answers ${ALLOWED_METHODS} only`, { allow: ALLOWED_METHODS });
    case 'HPE_INVALID_URL':
      return requestProblem(400, 'the URL is not valid: it must be ASCII, other bytes percent-encoded');
    default:
      return requestProblem(400, `the request is not valid HTTP/1.1: ${NOT_HTTP[error.code ?? ''] ?? 'it does not read as a request'}`);
  }
}

/**
 * What is wrong with a request Node's parser refused, in the directory's words: the parser's own
 * messages ("Invalid header token", "Expected HTTP/, RTSP/ or ICE/") describe its state, not the request.
 */
const NOT_HTTP: Record<string, string> = {
  HPE_INVALID_HEADER_TOKEN: 'a header name or value holds a character headers may not have',
  HPE_INVALID_VERSION: 'the request line must end with HTTP/1.1 (or HTTP/1.0) and CRLF',
  HPE_INVALID_CONSTANT: 'the request line must end with HTTP/1.1 (or HTTP/1.0) and CRLF',
  HPE_LF_EXPECTED: 'every line must end with CRLF',
  HPE_CR_EXPECTED: 'every line must end with CRLF',
  HPE_INVALID_CONTENT_LENGTH: 'Content-Length must be a single number',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length must be a single number',
  HPE_INVALID_TRANSFER_ENCODING: 'Transfer-Encoding must end with chunked and is not sent with Content-Length',
  HPE_INVALID_CHUNK_SIZE: 'the chunked body is malformed',
  HPE_STRICT: 'the chunked body is malformed',
  HPE_PAUSED_H2_UPGRADE: 'the directory speaks HTTP/1.1 (HTTP/2 only over TLS, through a proxy)',
};

/**
 * The request target of the request Node could not parse, when its request line is in the bytes before
 * the point where parsing failed (for `instance`): the last request line there, since pipelined requests
 * before it share the packet.
 */
function requestTargetOf(raw: Buffer | undefined, bytesParsed: number | undefined): string {
  if (!raw) return '';
  const text = raw.subarray(0, bytesParsed === undefined ? raw.length : bytesParsed + 1).toString('latin1');
  const lines = [...text.matchAll(/(?:^|\n)[A-Z]+ (\S{1,2048}) HTTP\/1\.[01]\r?\n/g)];
  const line = lines.at(-1);
  if (!line) return '';
  // Raw bytes outside printable ASCII are shown percent-encoded: `instance` stays a URI reference.
  return line[1].replace(/[^\x21-\x7e]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/**
 * Node's 'checkExpectation': an Expect header other than 100-continue. Node's own answer is a bare 417;
 * this one is a problem document.
 */
export function expectationFailedHandler(headers: Array<[string, string]>, rejected: RejectionListener) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    const problem = requestProblem(417, "the directory meets no Expect header but '100-continue'");
    const body = problemJson(request.url ?? '', problem);
    rejected(request.method ?? '(unparsed)', 417);
    response.writeHead(417, { ...Object.fromEntries(headers), 'content-type': PROBLEM_CONTENT_TYPE, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body), connection: 'close' });
    response.end(body);
  };
}

/** Whether a request says a body follows. */
export function hasBody(headers: IncomingHttpHeaders): boolean {
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
}

/**
 * Whether the request has a body nothing will read: a GET, HEAD or OPTIONS (refused or answered at
 * once), or a request no route takes. Its connection is closed after the answer rather than left to
 * wait for the body.
 */
export function bodyLeftUnread(request: FastifyRequest): boolean {
  const method = request.method;
  return hasBody(request.headers) && (request.is404 || method === 'GET' || method === 'HEAD' || method === 'OPTIONS');
}

/**
 * An onRequest hook: an HTTP/1.1 request without Host, or with one that is not a host (the links the
 * service builds would not be URLs), is refused (400, as HTTP requires), a GET or HEAD
 * with a body is refused (400), and a method no route takes (POST, PUT,
 * DELETE... on a read-only API) is 405, before anything reads the body. (OPTIONS never gets here: the
 * CORS hook answers it.)
 */
export function refuseBodiesAndWrites(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  const method = request.method;
  if (request.headers.host === undefined) {
    if (request.raw.httpVersion === '1.1') return done(requestProblem(400, 'an HTTP/1.1 request must name its Host'));
  } else if (!isValidHost(request.host)) {
    return done(requestProblem(400, 'the Host header is not a host name or address with an optional port'));
  }
  if (method === 'GET' || method === 'HEAD') return done(hasBody(request.headers) ? requestProblem(400, `a ${method} request carries no body`) : undefined);
  if (method === 'OPTIONS' || !request.is404) return done();
  done(requestProblem(405, `the directory is read-only: it answers ${ALLOWED_METHODS}`, { allow: ALLOWED_METHODS }));
}
