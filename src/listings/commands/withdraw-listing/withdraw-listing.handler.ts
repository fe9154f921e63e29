import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandResult, CommandRunner } from '../../../event-store/command-runner';
import { listingAggregate } from '../../listing.aggregate';
import { WithdrawListingCommand } from './withdraw-listing.command';

@CommandHandler(WithdrawListingCommand)
export class WithdrawListingHandler implements ICommandHandler<WithdrawListingCommand, CommandResult> {
  constructor(private readonly runner: CommandRunner) {}

  execute({ slug, actor, reason }: WithdrawListingCommand): Promise<CommandResult> {
    return this.runner.run(listingAggregate, slug, (state) => listingAggregate.decideWithdraw(state, reason), actor);
  }
}
