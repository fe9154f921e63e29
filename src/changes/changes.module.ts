import { Module } from '@nestjs/common';
import { EventStoreModule } from '../event-store/event-store.module';
import { ReadModelsModule } from '../projections/read-models.module';
import { ChangeLog } from './change-log';
import { ChangesFeedHandler } from './changes-feed.handler';
import { LatestChangesHandler } from './latest-changes.handler';
import { ListChangesController } from './list-changes.controller';
import { ListChangesHandler } from './list-changes.handler';

/**
 * GET /api/v1/changes (JSON) and /api/v1/changes.atom: the change feed, read from the event log; and the
 * newest changes, for the pages.
 */
@Module({
  imports: [ReadModelsModule, EventStoreModule],
  controllers: [ListChangesController],
  providers: [ChangeLog, ListChangesHandler, ChangesFeedHandler, LatestChangesHandler],
})
export class ChangesModule {}
