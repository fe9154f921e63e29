import { Module } from '@nestjs/common';
import { EventStoreModule } from '../../event-store/event-store.module';
import { ListingTimeline } from '../../listings/read/timeline/listing-timeline';
import { ReadModelsModule } from '../../projections/read-models.module';
import { CompareModelsController } from './compare/compare-models.controller';
import { CompareModelsHandler } from './compare/compare-models.handler';
import { GetModelController } from './detail/get-model.controller';
import { GetModelHandler } from './detail/get-model.handler';
import { ListModelsController } from './list/list-models.controller';
import { ListModelsHandler } from './list/list-models.handler';

/** The reads under /api/v1/models: the catalog, one model, models side by side. */
@Module({
  imports: [ReadModelsModule, EventStoreModule],
  controllers: [ListModelsController, CompareModelsController, GetModelController],
  providers: [ListModelsHandler, CompareModelsHandler, GetModelHandler, ListingTimeline],
})
export class ModelsReadModule {}
