import { CommandBus } from '@nestjs/cqrs';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { AppConfig } from './config/app-config';
import { formatProblem } from './content/content-files';
import { EventStore } from './event-store/event-store.service';
import { ImportCatalogCommand } from './import/import-catalog.command';

/** Builds the HTTP service (not listening yet). Shared by `main.ts` and the end-to-end tests. */
export async function createApp(config: AppConfig): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.register(config),
    new FastifyAdapter({ routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 } }),
    { bufferLogs: true },
  );
  app.useLogger(app.get(Logger));
  app.enableCors({ origin: '*', methods: ['GET', 'HEAD', 'OPTIONS'], exposedHeaders: ['ETag'], maxAge: 86400 });
  return app;
}

/** On first start (empty event store), ingests the fixtures so the directory has content. */
export async function seedIfEmpty(app: NestFastifyApplication, config: AppConfig): Promise<string | null> {
  if ((await app.get(EventStore).count()) > 0) return null;
  const report = await app.get(CommandBus).execute(new ImportCatalogCommand([config.fixturesDir], 'seed'));
  if (report.problems.length > 0) {
    throw new Error(`fixtures are invalid, nothing was ingested:\n${report.problems.map(formatProblem).join('\n')}`);
  }
  const listings = report.results.filter((r) => r.kind === 'listing').length;
  return `empty event store: ingested ${listings} listings and ${report.results.length - listings} error entries from ${config.fixturesDir}`;
}
