import { DynamicModule, Global, Module } from '@nestjs/common';
import { CategoryCatalog } from './catalog/category-catalog';
import { AppConfig } from './config/app-config';
import { RedisConnection } from './redis/redis-connection';

/** What every capability needs: settings, the Redis connection and the category names. */
@Global()
@Module({})
export class CoreModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        { provide: AppConfig, useValue: config },
        RedisConnection,
        { provide: CategoryCatalog, useFactory: () => CategoryCatalog.fromDirectory(config.fixturesDir) },
      ],
      exports: [AppConfig, RedisConnection, CategoryCatalog],
    };
  }
}
