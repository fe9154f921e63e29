import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { WithdrawErrorEntryCommand } from '../../error-reference/write/commands/withdraw-error-entry/withdraw-error-entry.command';
import type { CommandResult } from '../../event-store/command-runner';
import { WithdrawListingCommand } from '../../listings/write/commands/withdraw-listing/withdraw-listing.command';
import { WithdrawModelEntryCommand } from '../../models/write/commands/withdraw-model-entry/withdraw-model-entry.command';
import { ProjectionWait } from '../../projections/projection-wait';
import { WithdrawalReport, WithdrawFromDirectoryCommand } from './withdraw-from-directory.command';

@CommandHandler(WithdrawFromDirectoryCommand)
export class WithdrawFromDirectoryHandler implements ICommandHandler<WithdrawFromDirectoryCommand, WithdrawalReport> {
  constructor(
    private readonly commands: CommandBus,
    private readonly projection: ProjectionWait,
  ) {}

  async execute({ kind, id, actor, reason, replacedBy, projectionWaitMs }: WithdrawFromDirectoryCommand): Promise<WithdrawalReport> {
    const result: CommandResult = await this.commands.execute(
      kind === 'error-entry'
        ? new WithdrawErrorEntryCommand(id, actor, reason)
        : kind === 'model'
          ? new WithdrawModelEntryCommand(id, actor, reason)
          : new WithdrawListingCommand(id, actor, reason, replacedBy),
    );
    if (result.outcome !== 'withdrawn') return { result, projection: 'not-needed' };
    return { result, ...(await this.projection.untilProjected(projectionWaitMs)) };
  }
}
