import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandResult, DocumentCommands } from '../../../../event-store/command-runner';
import { errorEntryAggregate } from '../../error-entry.aggregate';
import { errorEntryId } from '../../error-entry.document';
import { PublishErrorEntryCommand } from './publish-error-entry.command';

/** Publishes or revises an error entry: expected version, the digest shortcut and dry runs (see DocumentCommands.publish). */
@CommandHandler(PublishErrorEntryCommand)
export class PublishErrorEntryHandler implements ICommandHandler<PublishErrorEntryCommand, CommandResult> {
  constructor(private readonly runner: DocumentCommands) {}

  execute({ entry, options }: PublishErrorEntryCommand): Promise<CommandResult> {
    return this.runner.publish(errorEntryAggregate, errorEntryId(entry), entry, options);
  }
}
