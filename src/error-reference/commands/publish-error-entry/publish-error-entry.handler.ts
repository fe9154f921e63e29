import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandResult, CommandRunner } from '../../../event-store/command-runner';
import { errorEntryId } from '../../error-entry.document';
import { errorEntryAggregate } from '../../error-entry.aggregate';
import { PublishErrorEntryCommand } from './publish-error-entry.command';

@CommandHandler(PublishErrorEntryCommand)
export class PublishErrorEntryHandler implements ICommandHandler<PublishErrorEntryCommand, CommandResult> {
  constructor(private readonly runner: CommandRunner) {}

  execute({ entry, actor, baseVersion, contentDigest }: PublishErrorEntryCommand): Promise<CommandResult> {
    return this.runner.run(
      errorEntryAggregate,
      errorEntryId(entry),
      (state) => errorEntryAggregate.decidePublish(state, entry, baseVersion, contentDigest),
      actor,
      baseVersion === 0,
    );
  }
}
