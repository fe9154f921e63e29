import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandResult, DocumentCommands } from '../../../../event-store/command-runner';
import { listingAggregate } from '../../listing.aggregate';
import { PublishListingCommand } from './publish-listing.command';

/** Publishes or revises a listing: expected version, the digest shortcut and dry runs (see DocumentCommands.publish). */
@CommandHandler(PublishListingCommand)
export class PublishListingHandler implements ICommandHandler<PublishListingCommand, CommandResult> {
  constructor(private readonly runner: DocumentCommands) {}

  execute({ listing, options }: PublishListingCommand): Promise<CommandResult> {
    return this.runner.publish(listingAggregate, listing.slug, listing, options);
  }
}
