import { Module } from '@nestjs/common';
import { EventStoreModule } from '../event-store/event-store.module';
import { ReadModelWatcher } from './read-model-watcher';
import { ReadModels } from './read-models.service';

/** The query side's access to the read models and the search index (see ReadModels), and its watcher of them. */
@Module({
  imports: [EventStoreModule],
  providers: [ReadModels, ReadModelWatcher],
  exports: [ReadModels],
})
export class ReadModelsModule {}
