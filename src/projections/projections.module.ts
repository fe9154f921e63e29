import { DynamicModule, Module } from '@nestjs/common';
import { EventStoreModule } from '../event-store/event-store.module';
import { Generations } from './generations';
import { PROJECTION_OPTIONS, ProjectionOptions, ProjectionRunner } from './projection-runner.service';
import { ProjectionWait } from './projection-wait';
import { ProjectorLease } from './projector-lease';
import { ReadModelChanges } from './read-model-changes';

/**
 * Read models in Redis, kept up to date from the event log. Registered once, at the root (global): the API
 * process with `runInBackground` (unless PROJECTOR=off), the CLI without (it projects on demand: ingest,
 * rebuild, project).
 */
@Module({})
export class ProjectionsModule {
  static register(options: ProjectionOptions): DynamicModule {
    return {
      module: ProjectionsModule,
      global: true,
      imports: [EventStoreModule],
      providers: [{ provide: PROJECTION_OPTIONS, useValue: options }, ProjectionRunner, ProjectionWait, Generations, ProjectorLease, ReadModelChanges],
      exports: [ProjectionRunner, ProjectionWait, Generations, ReadModelChanges],
    };
  }
}
