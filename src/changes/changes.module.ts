import { Module } from '@nestjs/common';
import { EventStoreModule } from '../event-store/event-store.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ChangeLog } from './change-log';
import { ChangesFeedHandler } from './changes-feed.handler';
import { ListChangesController } from './list-changes.controller';
import { ListChangesHandler } from './list-changes.handler';

/** GET /api/v1/changes (JSON) and /api/v1/changes.atom: the change feed, read from the event log. */
@Module({
  imports: [ReadModelsModule, EventStoreModule],
  controllers: [ListChangesController],
  providers: [ChangeLog, ListChangesHandler, ChangesFeedHandler],
})
export class ChangesModule {}
