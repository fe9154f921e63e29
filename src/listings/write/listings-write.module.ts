import { Module } from '@nestjs/common';
import { EventStoreModule } from '../../event-store/event-store.module';
import { PublishListingHandler } from './commands/publish-listing/publish-listing.handler';
import { WithdrawListingHandler } from './commands/withdraw-listing/withdraw-listing.handler';

@Module({
  imports: [EventStoreModule],
  providers: [PublishListingHandler, WithdrawListingHandler],
})
export class ListingsModule {}
