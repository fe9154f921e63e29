import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { AppConfig } from './config/app-config';

export { seedIfEmpty } from './import/seed-if-empty';

/** Builds the HTTP service (not listening yet). Shared by `main.ts` and the end-to-end tests. */
export async function createApp(config: AppConfig): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.register(config),
    new FastifyAdapter({ routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 } }),
    { bufferLogs: true },
  );
  app.useLogger(app.get(Logger));
  // POST: the MCP endpoint, for MCP clients that run in a browser.
  app.enableCors({ origin: '*', methods: ['GET', 'HEAD', 'OPTIONS', 'POST'], exposedHeaders: ['ETag'], maxAge: 86400 });
  return app;
}
