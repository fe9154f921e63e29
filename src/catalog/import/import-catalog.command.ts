import { Command } from '@nestjs/cqrs';
import type { CommandResult } from '../../event-store/command-runner';
import type { ContentProblem, DocumentKind } from '../content/content-files';

/** Import editors' files (listings, model entries and error entries, YAML or JSON, files or folders) into the directory. */
export class ImportCatalogCommand extends Command<ImportReport> {
  constructor(
    readonly paths: string[],
    readonly actor: string,
    readonly dryRun = false,
    readonly options: ImportOptions = {},
  ) {
    super();
  }
}

export interface ImportOptions {
  /** How long to wait for the read models to show what was written (default PROJECTION_WAIT_MS). */
  projectionWaitMs?: number;
  /** Stops the import: no command is sent after it fires (those in flight finish), and the wait for the read models ends. */
  signal?: AbortSignal;
  /** Revisions may add domains to a listing (the editor checked the new ones on purpose). */
  allowNewDomains?: boolean;
  /** Files based on an older version overwrite what changed since, on purpose (recorded on the event). */
  force?: boolean;
  /** Files of withdrawn documents publish them again. */
  republish?: boolean;
}

/**
 * What happened to one document: what its command did, or, when the import stopped part-way, `failed`
 * (its command got no answer: it may or may not have been written) or `not-sent`.
 */
export interface ImportItemResult extends Omit<CommandResult, 'outcome'> {
  kind: DocumentKind;
  file: string;
  outcome: CommandResult['outcome'] | 'failed' | 'not-sent';
}

export interface ImportReport {
  /** Invalid files (nothing was written when there is any). */
  problems: ContentProblem[];
  /**
   * Files refused because of what the directory holds (nothing was written when there is any): based on
   * an older version than the current one, or for a withdrawn document.
   */
  refused?: ContentProblem[];
  /** One per document, in file order. */
  results: ImportItemResult[];
  /**
   * Whether the read models show the new events: applied here, by the running service, or not
   * ('pending': no projector applied them within the wait, and this process could not; see `pendingBecause`).
   */
  projection: 'applied' | 'applied-by-service' | 'pending' | 'not-needed';
  /** Why the read models do not show the new events yet, when `projection` is 'pending'. */
  pendingBecause?: string;
  /** Where the time went, in milliseconds: reading and validating the files, appending, projecting. */
  phases: { readMs: number; appendMs: number; projectMs: number };
}

/**
 * The import stopped before every document was handled (Redis unreachable, a failing command, a stop
 * asked for): `report.results` says, per document, what was written before it stopped (`published`,
 * `revised`), what may have been (`failed`) and what was not sent. Re-running the import is safe: it
 * skips what was written (unchanged) and writes the rest.
 */
export class ImportStoppedError extends Error {
  constructor(
    readonly report: ImportReport,
    readonly reason: string,
  ) {
    const written = report.results.filter((r) => r.outcome === 'published' || r.outcome === 'revised').length;
    super(`the import stopped part-way (${reason}): ${written} document(s) written before it stopped; re-running it is safe`);
    this.name = 'ImportStoppedError';
  }
}
