import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EventStore } from '../../../../event-store/event-store.service';
import { CommandResult, DocumentCommands } from '../../../../event-store/command-runner';
import { listingAggregate } from '../../listing.aggregate';
import { WithdrawListingCommand } from './withdraw-listing.command';

@CommandHandler(WithdrawListingCommand)
export class WithdrawListingHandler implements ICommandHandler<WithdrawListingCommand, CommandResult> {
  constructor(
    private readonly runner: DocumentCommands,
    private readonly store: EventStore,
  ) {}

  /** Successors must be listings of the directory now: the 410 of the withdrawn one sends readers to them. */
  async execute({ slug, actor, reason, replacedBy }: WithdrawListingCommand): Promise<CommandResult> {
    const live = await this.store.documentsAt(listingAggregate, replacedBy, '+');
    const missing = replacedBy.filter((successor) => successor === slug || !live.get(successor));
    if (missing.length > 0) {
      return { aggregateId: slug, outcome: 'refused', version: 0, detail: `${missing.map((s) => `'${s}'`).join(', ')} cannot replace it: not a listing of the directory${missing.includes(slug) ? ' (or the listing itself)' : ''}` };
    }
    return this.runner.run(listingAggregate, slug, (state) => listingAggregate.decideWithdraw(state, reason, replacedBy), actor);
  }
}
