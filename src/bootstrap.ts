import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import type { FastifyServerOptions } from 'fastify';
import type { Server } from 'node:http';
import { AppModule } from './app.module';
import { AppConfig } from './config/app-config';
import { clientErrorHandler, connectHandler, expectationFailedHandler, frameworkErrorHandler, refuseBodiesAndWrites, RejectionListener } from './http/framework-errors';
import { countingHook, firstRequestHook, storeGateHook } from './http/request-hooks';
import { knownParametersByRoute, unknownParameterHook } from './http/unknown-parameters';
import { OPENAPI_DOCUMENT } from './openapi/openapi.document';
import { alwaysHeaders } from './http/response-headers';
import { Connections } from './operations/connections';
import { Draining } from './operations/draining';
import { ProjectionState } from './projections/projection-state';
import { Metrics } from './operations/metrics';
import { RequestBudget } from './operations/request-rate-limit';

export { seedIfEmpty } from './catalog/import/seed-if-empty';

/**
 * Starts listening. Fastify's own listen, not Nest's: Nest logs a failure (the port in use) before
 * throwing it, and the process says it once, in its own words.
 */
export async function listen(app: NestFastifyApplication, port: number, host: string): Promise<void> {
  await app.getHttpAdapter().getInstance().listen({ port, host });
}

/** How often Node checks connections against the header and request timeouts (its default, 30 s, let a stalled request live up to 30 s past its timeout). */
const TIMEOUT_CHECK_MS = 1000;

/** Builds the HTTP service (not listening yet). Shared by `main.ts` and the end-to-end tests. */
export async function createApp(config: AppConfig): Promise<NestFastifyApplication> {
  const headers = alwaysHeaders(config.hsts);
  // Answers written before Nest's hooks run are counted once the metrics exist (they do before listen).
  let counting: Metrics | null = null;
  const rejected: RejectionListener = (method, status) => counting?.rejected(method, status);
  const adapter = new FastifyAdapter({
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // (A hop count is Fastify's too; the adapter's type leaves it out.)
    trustProxy: config.trustProxy as boolean | string[],
    // The whole request (headers and body) must arrive within this; the headers within headersTimeout.
    requestTimeout: config.requestTimeoutMs,
    // (A missing Host is refused by refuseBodiesAndWrites with a problem document; Node's own answer is a bare 400.)
    http: { headersTimeout: config.headersTimeoutMs, connectionsCheckingInterval: TIMEOUT_CHECK_MS, requireHostHeader: false },
    // While stopping, requests on open connections are served (Fastify's own 503 is not a problem document).
    return503OnClosing: false,
    frameworkErrors: frameworkErrorHandler(headers, rejected) as unknown as FastifyServerOptions['frameworkErrors'],
    clientErrorHandler: clientErrorHandler(headers, rejected) as unknown as FastifyServerOptions['clientErrorHandler'],
  });
  // A module that fails to build (a FIXTURES_DIR without categories) is thrown to the caller, which says
  // so in one line; Nest would print its stack and abort the process.
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config), adapter, { bufferLogs: true, abortOnError: false, autoFlushLogs: false });
  app.useLogger(app.get(Logger));
  app.flushLogs();
  // The first request hook (the adapter's, before Nest's and the router's): headers, OPTIONS, draining.
  adapter.setOnRequestHook(firstRequestHook(headers, app.get(Draining)));

  const metrics = app.get(Metrics);
  counting = metrics;
  const server = app.getHttpServer() as Server;
  app.get(Connections).watch(server);
  server.on('checkExpectation', expectationFailedHandler(headers, rejected));
  server.on('connect', connectHandler(headers, rejected));
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', refuseBodiesAndWrites);
  fastify.addHook('onRequest', storeGateHook(app.get(ProjectionState)));
  if (config.rateLimitPerMinute > 0) fastify.addHook('onRequest', app.get(RequestBudget).hook());
  fastify.addHook('onRequest', unknownParameterHook(knownParametersByRoute(OPENAPI_DOCUMENT.paths)));
  fastify.addHook('onResponse', countingHook(metrics));
  return app;
}
