import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EventStoreModule } from '../event-store/event-store.module';
import { PublishErrorEntryHandler } from './commands/publish-error-entry/publish-error-entry.handler';
import { WithdrawErrorEntryHandler } from './commands/withdraw-error-entry/withdraw-error-entry.handler';

@Module({
  imports: [CqrsModule, EventStoreModule],
  providers: [PublishErrorEntryHandler, WithdrawErrorEntryHandler],
})
export class ErrorReferenceModule {}
