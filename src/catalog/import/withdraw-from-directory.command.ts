import { Command } from '@nestjs/cqrs';
import type { DocumentKind } from '../content/content-files';
import type { CommandResult } from '../../event-store/command-runner';
import type { ProjectionOutcome } from '../../projections/projection-wait';

/** What an editor's withdrawal did, and whether the read models show it yet. */
export interface WithdrawalReport {
  result: CommandResult;
  /** 'not-needed' when nothing was withdrawn. */
  projection: ProjectionOutcome | 'not-needed';
  /** Why the read models do not show it yet, when `projection` is 'pending'. */
  pendingBecause?: string;
}

/**
 * The editors' withdrawal use case (`ingest withdraw`): take a listing (or an error entry) out of the
 * directory, then make sure the read models show it, as an import does.
 */
export class WithdrawFromDirectoryCommand extends Command<WithdrawalReport> {
  constructor(
    readonly kind: DocumentKind,
    readonly id: string,
    readonly actor: string,
    readonly reason: string | null,
    /** Listings that replace a withdrawn listing (named by the 410 its detail answers from then on). */
    readonly replacedBy: string[],
    /** How long to wait for the read models to show it. */
    readonly projectionWaitMs: number,
  ) {
    super();
  }
}
