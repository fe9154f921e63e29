import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { ProblemFilter } from './api/problem.filter';
import { AppModule } from './app.module';
import { CatalogImportService } from './catalog/catalog-import.service';
import { formatProblem } from './catalog/content-files';
import { AppConfig } from './config/app-config';
import { EventStore } from './event-store/event-store.service';
import { ProjectionRunner } from './projections/projection-runner.service';

/** Builds the HTTP service (not listening yet). Shared by `main.ts` and the end-to-end tests. */
export async function createApp(config: AppConfig): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.register(config),
    new FastifyAdapter({ routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 } }),
    { bufferLogs: true },
  );
  app.useLogger(app.get(Logger));
  app.useGlobalFilters(new ProblemFilter());
  app.enableCors({ origin: '*', methods: ['GET', 'HEAD', 'OPTIONS'], exposedHeaders: ['ETag'], maxAge: 86400 });
  return app;
}

/** On first start (empty event store), ingests the fixtures so the directory has content. */
export async function seedIfEmpty(app: NestFastifyApplication, config: AppConfig): Promise<string | null> {
  if ((await app.get(EventStore).count()) > 0) return null;
  const report = await app.get(CatalogImportService).import([config.fixturesDir], { actor: 'seed' });
  if (report.problems.length > 0) {
    throw new Error(`fixtures are invalid, nothing was ingested:\n${report.problems.map(formatProblem).join('\n')}`);
  }
  const listings = report.results.filter((r) => r.kind === 'listing').length;
  return `empty event store: ingested ${listings} listings and ${report.results.length - listings} error entries from ${config.fixturesDir}`;
}

/** Starts the in-process projection runner unless PROJECTOR=off (then a separate process runs it). */
export function startProjector(app: NestFastifyApplication, config: AppConfig): void {
  if (config.projectorEnabled) app.get(ProjectionRunner).start();
}
