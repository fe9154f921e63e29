import { Command } from '@nestjs/cqrs';
import type { CommandResult } from '../event-store/command-runner';
import type { ContentProblem } from '../content/content-files';

/** Import editors' files (listings and error entries, YAML or JSON, files or folders) into the directory. */
export class ImportCatalogCommand extends Command<ImportReport> {
  constructor(
    readonly paths: string[],
    readonly actor: string,
    readonly dryRun = false,
  ) {
    super();
  }
}

export interface ImportItemResult extends CommandResult {
  kind: 'listing' | 'error-entry';
  file: string;
}

export interface ImportReport {
  /** Invalid files (nothing was written when there is any). */
  problems: ContentProblem[];
  /** One per document, in file order. */
  results: ImportItemResult[];
  /** Whether the read models show the new events: applied here, by the running service, or not yet. */
  projection: 'applied' | 'applied-by-service' | 'pending' | 'not-needed';
  /** Where the time went, in milliseconds: reading and validating the files, appending, projecting. */
  phases: { readMs: number; appendMs: number; projectMs: number };
}
