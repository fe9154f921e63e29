import { DynamicModule, Global, Module } from '@nestjs/common';
import { Categories } from './categories/categories';
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
        { provide: Categories, useFactory: () => Categories.fromDirectory(config.fixturesDir) },
      ],
      exports: [AppConfig, RedisConnection, Categories],
    };
  }
}
