import { Command } from '@nestjs/cqrs';
import type { CommandResult } from '../../../../event-store/command-runner';

/** Take a model entry out of the directory, by its id. */
export class WithdrawModelEntryCommand extends Command<CommandResult> {
  constructor(
    readonly id: string,
    readonly actor: string,
    readonly reason: string | null = null,
  ) {
    super();
  }
}
