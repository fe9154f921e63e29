import { Module } from '@nestjs/common';
import { EventStoreModule } from '../../event-store/event-store.module';
import { OperationsModule } from '../../operations/operations.module';
import { ReadModelsModule } from '../../projections/read-models.module';
import { ListCategoriesController } from '../../categories/read/list-categories.controller';
import { ListCategoriesHandler } from '../../categories/read/list-categories.handler';
import { ListTasksController } from '../../categories/read/list-tasks.controller';
import { ListTasksHandler } from '../../categories/read/list-tasks.handler';
import { CompareToolsController } from './compare/compare-tools.controller';
import { CompareToolsHandler } from './compare/compare-tools.handler';
import { GetToolController } from './detail/get-tool.controller';
import { GetToolHandler } from './detail/get-tool.handler';
import { ListToolsController } from './list/list-tools.controller';
import { ListToolsHandler } from './list/list-tools.handler';
import { SearchToolsController } from './search/search-tools.controller';
import { SearchToolsHandler } from './search/search-tools.handler';
import { ListingHistoryController } from './history/listing-history.controller';
import { ListingHistoryHandler } from './history/listing-history.handler';
import { ListingTimeline } from './timeline/listing-timeline';

/** The reads under /api/v1/tools: one folder each, with its query, handler, controller and parameters. */
@Module({
  imports: [ReadModelsModule, OperationsModule, EventStoreModule],
  controllers: [ListToolsController, SearchToolsController, CompareToolsController, ListCategoriesController, ListTasksController, ListingHistoryController, GetToolController],
  providers: [ListToolsHandler, SearchToolsHandler, CompareToolsHandler, ListCategoriesHandler, ListTasksHandler, GetToolHandler, ListingHistoryHandler, ListingTimeline],
})
export class ToolsModule {}
