import { Command } from '@nestjs/cqrs';
import type { CommandResult, PublishOptions } from '../../../../event-store/command-runner';
import type { ListingDocument } from '../../listing.document';

/** Publish a listing, or revise it with a full new document. Identical content produces no event. */
export class PublishListingCommand extends Command<CommandResult> {
  constructor(
    readonly listing: ListingDocument,
    readonly options: PublishOptions,
  ) {
    super();
  }
}
