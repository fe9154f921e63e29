import { Command } from '@nestjs/cqrs';
import type { CommandResult, PublishOptions } from '../../../../event-store/command-runner';
import type { ErrorEntryDocument } from '../../error-entry.document';

/** Publish an error-reference entry, or revise it with a full new document. */
export class PublishErrorEntryCommand extends Command<CommandResult> {
  constructor(
    readonly entry: ErrorEntryDocument,
    readonly options: PublishOptions,
  ) {
    super();
  }
}
