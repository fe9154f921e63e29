import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EventStoreModule } from '../event-store/event-store.module';
import { PublishListingHandler } from './commands/publish-listing/publish-listing.handler';
import { WithdrawListingHandler } from './commands/withdraw-listing/withdraw-listing.handler';

@Module({
  imports: [CqrsModule, EventStoreModule],
  providers: [PublishListingHandler, WithdrawListingHandler],
})
export class ListingsModule {}
