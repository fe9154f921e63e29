import { DynamicModule, Module, RequestMethod } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { LoggerModule } from 'nestjs-pino';
import { ChangesModule } from './changes/changes.module';
import { LivenessListModule } from './liveness/read/liveness-list.module';
import { AppConfig } from './config/app-config';
import { CoreModule } from './core.module';
import { DiscoveryModule } from './discovery/discovery.module';
import { EventStoreModule } from './event-store/event-store.module';
import { ErrorReferenceModule } from './error-reference/read/error-reference-read.module';
import { ExportModule } from './export/export.module';
import { HealthModule } from './operations/health.module';
import { ProblemFilter } from './http/problem.filter';
import { ImportModule } from './catalog/import/import.module';
import { ReseedEmptyStore } from './catalog/import/reseed-empty-store';
import { McpModule } from './mcp/mcp.module';
import { OpenApiModule } from './openapi/openapi.module';
import { OperationsModule } from './operations/operations.module';
import { PagesModule } from './pages/pages.module';
import { ProjectionsModule } from './projections/projections.module';
import { ReadModelsModule } from './projections/read-models.module';
import { ToolsModule } from './listings/read/listings-read.module';
import { ModelsReadModule } from './models/read/models-read.module';

/**
 * The HTTP service: the reads (each a query on the QueryBus, answered by its handler, over the read API
 * as MCP tools at /mcp and as pages for people), the projection runner in the background (unless
 * PROJECTOR=off), and the import for seeding an empty store (at start, and when the store is found
 * emptied with RESEED_EMPTY_STORE=on).
 */
@Module({})
export class AppModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.register(config),
        CqrsModule.forRoot(),
        LoggerModule.forRoot({
          pinoHttp: { level: config.logLevel },
          // Request logs cost throughput on the hot read path; operators switch them on with LOG_REQUESTS=on.
          forRoutes: config.logRequests ? [{ path: '*path', method: RequestMethod.ALL }] : [],
        }),
        ProjectionsModule.register({ runInBackground: config.projectorEnabled }),
        ImportModule,
        ToolsModule,
        ModelsReadModule,
        ErrorReferenceModule,
        ChangesModule,
        LivenessListModule,
        ExportModule,
        McpModule,
        OpenApiModule,
        HealthModule,
        DiscoveryModule,
        OperationsModule,
        ReadModelsModule,
        EventStoreModule,
        PagesModule,
      ],
      // (The serving process only: it seeds an emptied store again when RESEED_EMPTY_STORE=on.)
      providers: [{ provide: APP_FILTER, useClass: ProblemFilter }, ReseedEmptyStore],
    };
  }
}
