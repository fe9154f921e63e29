import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { bodyLeftUnread } from './framework-errors';
import { preflightHeaders } from './response-headers';

/**
 * The hooks every request meets (installed by src/bootstrap.ts): written here, beside the headers and
 * refusals they apply, so a request's way through the service runs in src/http/ and the capabilities, not
 * in the file that builds the app. What they need of the operations (whether the process is stopping, the
 * request count) is given to them, not imported.
 */

/**
 * The adapter's first request hook, before Nest's and the router's: the CORS and security headers every
 * answer carries, and every OPTIONS answered 204 here, a bare one too (it asks what the resource allows).
 * Not app.enableCors(): open CORS needs no per-request decision, and the plugin's hook cost about a third
 * of a cached read's throughput (bench/README.md).
 */
export function firstRequestHook(headers: ReadonlyArray<readonly [string, string]>, draining: { readonly active: boolean }) {
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const response = reply.raw;
    for (const [name, value] of headers) response.setHeader(name, value);
    // A body nothing will read: the connection closes after the answer instead of waiting for it. While
    // stopping, every answer asks the client to reconnect (to another process).
    if (draining.active || bodyLeftUnread(request)) response.setHeader('connection', 'close');
    if (request.method === 'OPTIONS') {
      void reply.code(204).headers(preflightHeaders(request.headers)).send();
      return;
    }
    done();
  };
}

/** The last hook of an answered request: counts it by method, route pattern and status. */
export function countingHook(metrics: { request(method: string, route: string, status: number, seconds: number): void }) {
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    metrics.request(request.method, request.routeOptions.url ?? '(unmatched)', reply.statusCode, reply.elapsedTime / 1000);
    done();
  };
}
