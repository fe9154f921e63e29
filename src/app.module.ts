import { DynamicModule, Module, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { ApiModule } from './api/api.module';
import { CatalogModule } from './catalog/catalog.module';
import { AppConfig } from './config/app-config';
import { CoreModule } from './core.module';
import { ProjectionsModule } from './projections/projections.module';

/** The HTTP service: read API, in-process projection runner, first-start seeding. */
@Module({})
export class AppModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.register(config),
        LoggerModule.forRoot({
          pinoHttp: { level: config.logLevel },
          // Request logs cost throughput on the hot read path; operators switch them on with LOG_REQUESTS=on.
          forRoutes: config.logRequests ? [{ path: '*path', method: RequestMethod.ALL }] : [],
        }),
        ApiModule,
        ProjectionsModule,
        CatalogModule,
      ],
    };
  }
}
