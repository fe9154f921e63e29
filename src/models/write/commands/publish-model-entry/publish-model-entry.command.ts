import { Command } from '@nestjs/cqrs';
import type { CommandResult, PublishOptions } from '../../../../event-store/command-runner';
import type { ModelEntryDocument } from '../../model-entry.document';

/** Publish a model entry, or revise it with a full new document. */
export class PublishModelEntryCommand extends Command<CommandResult> {
  constructor(
    readonly entry: ModelEntryDocument,
    readonly options: PublishOptions,
  ) {
    super();
  }
}
