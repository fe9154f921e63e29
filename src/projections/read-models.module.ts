import { Module } from '@nestjs/common';
import { EventStoreModule } from '../event-store/event-store.module';
import { LiveSearchIndex } from '../search/live-search-index';
import { ProjectionState } from './projection-state';
import { ReadModelWatcher } from './read-model-watcher';
import { ReadModels } from './read-models.service';
import { ResponseCache } from './response-cache';

/**
 * The query side's parts of the read models, each injected where it is used: reads of the live generation
 * (ReadModels), whole responses kept until they change (ResponseCache), the search index kept up with them
 * (LiveSearchIndex), and the projection's state (ProjectionState). ReadModels builds the other three and
 * keeps them in step.
 */
@Module({
  imports: [EventStoreModule],
  providers: [
    ReadModels,
    ReadModelWatcher,
    { provide: ResponseCache, useFactory: (readModels: ReadModels) => readModels.responses, inject: [ReadModels] },
    { provide: LiveSearchIndex, useFactory: (readModels: ReadModels) => readModels.search, inject: [ReadModels] },
    { provide: ProjectionState, useFactory: (readModels: ReadModels) => readModels.state, inject: [ReadModels] },
  ],
  exports: [ReadModels, ResponseCache, LiveSearchIndex, ProjectionState],
})
export class ReadModelsModule {}
