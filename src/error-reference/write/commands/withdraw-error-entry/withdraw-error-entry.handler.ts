import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandResult, DocumentCommands } from '../../../../event-store/command-runner';
import { errorEntryAggregate } from '../../error-entry.aggregate';
import { WithdrawErrorEntryCommand } from './withdraw-error-entry.command';

@CommandHandler(WithdrawErrorEntryCommand)
export class WithdrawErrorEntryHandler implements ICommandHandler<WithdrawErrorEntryCommand, CommandResult> {
  constructor(private readonly runner: DocumentCommands) {}

  execute({ id, actor, reason }: WithdrawErrorEntryCommand): Promise<CommandResult> {
    return this.runner.run(errorEntryAggregate, id, (state) => errorEntryAggregate.decideWithdraw(state, reason), actor);
  }
}
