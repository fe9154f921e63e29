import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandResult, DocumentCommands } from '../../../../event-store/command-runner';
import { modelEntryAggregate } from '../../model-entry.aggregate';
import { WithdrawModelEntryCommand } from './withdraw-model-entry.command';

@CommandHandler(WithdrawModelEntryCommand)
export class WithdrawModelEntryHandler implements ICommandHandler<WithdrawModelEntryCommand, CommandResult> {
  constructor(private readonly runner: DocumentCommands) {}

  execute({ id, actor, reason }: WithdrawModelEntryCommand): Promise<CommandResult> {
    return this.runner.run(modelEntryAggregate, id, (state) => modelEntryAggregate.decideWithdraw(state, reason), actor);
  }
}
