import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandResult, DocumentCommands } from '../../../../event-store/command-runner';
import { modelEntryAggregate } from '../../model-entry.aggregate';
import { PublishModelEntryCommand } from './publish-model-entry.command';

/** Publishes or revises a model entry: expected version, the digest shortcut and dry runs (see DocumentCommands.publish). */
@CommandHandler(PublishModelEntryCommand)
export class PublishModelEntryHandler implements ICommandHandler<PublishModelEntryCommand, CommandResult> {
  constructor(private readonly runner: DocumentCommands) {}

  execute({ entry, options }: PublishModelEntryCommand): Promise<CommandResult> {
    return this.runner.publish(modelEntryAggregate, entry.id, entry, options);
  }
}
