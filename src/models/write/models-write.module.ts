import { Module } from '@nestjs/common';
import { EventStoreModule } from '../../event-store/event-store.module';
import { PublishModelEntryHandler } from './commands/publish-model-entry/publish-model-entry.handler';
import { WithdrawModelEntryHandler } from './commands/withdraw-model-entry/withdraw-model-entry.handler';

@Module({
  imports: [EventStoreModule],
  providers: [PublishModelEntryHandler, WithdrawModelEntryHandler],
})
export class ModelsModule {}
