import { Command } from '@nestjs/cqrs';
import type { CommandResult } from '../../../../event-store/command-runner';

/** Take a listing out of the directory. Withdrawing an unknown or withdrawn listing reports not-found. */
export class WithdrawListingCommand extends Command<CommandResult> {
  constructor(
    readonly slug: string,
    readonly actor: string,
    readonly reason: string | null = null,
    /** Listings that replace it (named by the 410 its detail answers from then on). */
    readonly replacedBy: string[] = [],
  ) {
    super();
  }
}
