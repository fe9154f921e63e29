import { Module } from '@nestjs/common';
import { EventStoreModule } from '../event-store/event-store.module';
import { ReadModels } from './read-models.service';

/** The query side's access to the read models and the search index (see ReadModels). */
@Module({
  imports: [EventStoreModule],
  providers: [ReadModels],
  exports: [ReadModels],
})
export class ReadModelsModule {}
