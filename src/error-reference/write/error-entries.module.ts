import { Module } from '@nestjs/common';
import { EventStoreModule } from '../../event-store/event-store.module';
import { PublishErrorEntryHandler } from './commands/publish-error-entry/publish-error-entry.handler';
import { WithdrawErrorEntryHandler } from './commands/withdraw-error-entry/withdraw-error-entry.handler';

@Module({
  imports: [EventStoreModule],
  providers: [PublishErrorEntryHandler, WithdrawErrorEntryHandler],
})
export class ErrorEntriesModule {}
