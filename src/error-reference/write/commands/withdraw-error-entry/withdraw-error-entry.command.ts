import { Command } from '@nestjs/cqrs';
import type { CommandResult } from '../../../../event-store/command-runner';

/** Take an entry out of the error reference, by its id (provider-status-title). */
export class WithdrawErrorEntryCommand extends Command<CommandResult> {
  constructor(
    readonly id: string,
    readonly actor: string,
    readonly reason: string | null = null,
  ) {
    super();
  }
}
