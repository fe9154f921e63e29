import { Module } from '@nestjs/common';
import { EventStoreModule } from '../event-store/event-store.module';
import { ProjectionRunner } from './projection-runner.service';
import { ReadModelReader } from './read-model.reader';

@Module({
  imports: [EventStoreModule],
  providers: [ProjectionRunner, ReadModelReader],
  exports: [ProjectionRunner, ReadModelReader],
})
export class ProjectionsModule {}
