import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandResult, CommandRunner } from '../../../event-store/command-runner';
import { listingAggregate } from '../../listing.aggregate';
import { PublishListingCommand } from './publish-listing.command';

@CommandHandler(PublishListingCommand)
export class PublishListingHandler implements ICommandHandler<PublishListingCommand, CommandResult> {
  constructor(private readonly runner: CommandRunner) {}

  execute({ listing, actor, baseVersion, contentDigest }: PublishListingCommand): Promise<CommandResult> {
    return this.runner.run(
      listingAggregate,
      listing.slug,
      (state) => listingAggregate.decidePublish(state, listing, baseVersion, contentDigest),
      actor,
      baseVersion === 0,
    );
  }
}
