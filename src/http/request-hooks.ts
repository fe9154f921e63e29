import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { bodyLeftUnread } from './framework-errors';
import { ApiProblem, sendProblem } from './problem';
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

/** Seconds a client is asked to wait while the store is emptied or replaced (an operator's seed or restart). */
export const STORE_GATE_RETRY_AFTER_S = 30;
/** What the operator's endpoints answer whatever the store: they say what is wrong, they are not content. */
const UNGATED = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * While Redis no longer holds the store this process was serving (emptied, or another directory), every
 * content read answers 503 with Retry-After and `no-store`: the read models it would answer from are gone
 * or another's, and an empty directory marked cacheable (`total: 0`, a `llms.txt` with no listing) would be
 * copied by caches and agents as the truth. `/readyz` gives the cause and what to do.
 */
export function storeGateHook(store: { storeProblem(): string | null }) {
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const problem = store.storeProblem();
    if (problem === null || UNGATED.has(request.routeOptions.url ?? '')) return done();
    const retryAfter = String(STORE_GATE_RETRY_AFTER_S);
    void sendProblem(reply, request.url, new ApiProblem(503, 'store-unavailable', 'Service unavailable', `the directory cannot be served now: ${problem}`, { retryAfter: STORE_GATE_RETRY_AFTER_S }, { 'retry-after': retryAfter }));
  };
}
