import { CommandBus } from '@nestjs/cqrs';
import { Command, CommandRunner, Option } from 'nest-commander';
import { AppConfig, redactUrl } from '../../src/config/app-config';
import { DocumentKind, formatProblem } from '../../src/catalog/content/content-files';
import { ImportCatalogCommand, ImportItemResult, ImportReport, ImportStoppedError } from '../../src/catalog/import/import-catalog.command';
import { PROJECTION_WAIT_MS } from '../../src/catalog/import/import-catalog.handler';
import { EXIT, reportStaleReadModels } from '../exit-codes';

interface IngestOptions {
  dryRun?: boolean;
  allowNewDomains?: boolean;
  force?: boolean;
  republish?: boolean;
  actor: string;
  wait?: string;
}

/**
 * `ingest <files or folders>`: validates every file, then publishes or revises each document and prints
 * `published | revised (fields) | unchanged | conflict` per item. With any invalid file nothing is written.
 * Exit codes: see ingest/exit-codes.ts.
 */
@Command({
  name: 'ingest',
  arguments: '<paths...>',
  description: 'validate and ingest listing, model-entry and error-entry files (YAML or JSON), or folders of them',
  options: { isDefault: true },
})
export class IngestCommand extends CommandRunner {
  constructor(
    private readonly commands: CommandBus,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async run(paths: string[], options: IngestOptions): Promise<void> {
    const dryRun = options.dryRun === true;
    if (options.wait !== undefined && (!/^\d+$/.test(options.wait) || Number(options.wait) > 3600)) {
      console.error(`--wait: must be a whole number of seconds from 0 to 3600, not '${options.wait}'`);
      process.exitCode = EXIT.invalidInput;
      return;
    }
    // Ctrl-C (or a TERM from a supervisor) stops sending: the commands in flight finish, and the report
    // says what was written. A second Ctrl-C quits at once (the handlers are gone by then).
    const stop = new AbortController();
    const onSignal = (signal: NodeJS.Signals) => {
      console.error(`${signal}: stopping; the commands in flight finish first (again to quit at once)`);
      stop.abort(`stopped by ${signal}`);
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    let report: ImportReport;
    try {
      const projectionWaitMs = options.wait === undefined ? PROJECTION_WAIT_MS : Number(options.wait) * 1000;
      report = await this.commands.execute(new ImportCatalogCommand(paths, options.actor, dryRun, { projectionWaitMs, signal: stop.signal, allowNewDomains: options.allowNewDomains === true, force: options.force === true, republish: options.republish === true }));
    } catch (error) {
      if (!(error instanceof ImportStoppedError)) throw error;
      this.printStopped(error, dryRun);
      process.exitCode = EXIT.stopped;
      return;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    if (report.problems.length > 0) {
      for (const problem of report.problems) console.error(formatProblem(problem));
      console.error(`${report.problems.length} problem(s) found; nothing was written.`);
      process.exitCode = EXIT.invalidInput;
      return;
    }
    if (report.refused && report.refused.length > 0) {
      for (const problem of report.refused) console.error(formatProblem(problem));
      console.error(`${report.refused.length} file(s) refused by what the directory holds now; nothing was written.`);
      process.exitCode = EXIT.refusedByStore;
      return;
    }
    const prefix = dryRun ? 'would be ' : '';
    const lines = report.results.map((result) => `${prefix}${describe(result)}`);
    lines.push(summarise(report.results, dryRun));
    const { readMs, appendMs, projectMs } = report.phases;
    lines.push(`time: reading and validating ${readMs} ms, appending ${appendMs} ms, projecting ${projectMs} ms`);
    // One write: a console.log per line is a system call per line (about 1 s for 100,000 listings).
    process.stdout.write(`${lines.join('\n')}\n`);
    if (report.results.some((r) => r.outcome === 'conflict')) process.exitCode = EXIT.conflict;
    if (report.projection === 'pending') reportStaleReadModels(report.pendingBecause ?? 'no projector applied the new events');
  }

  /** What an import that stopped part-way wrote before it stopped, and what to do now. */
  private printStopped(error: ImportStoppedError, dryRun: boolean): void {
    const { results } = error.report;
    const count = (outcome: ImportItemResult['outcome']) => results.filter((r) => r.outcome === outcome).length;
    // A dry run writes nothing, whatever it decided before it stopped.
    const written = dryRun ? 0 : count('published') + count('revised');
    const failed = dryRun ? 0 : count('failed');
    const lines = results
      .filter((r) => r.outcome !== 'not-sent')
      .map((r) => (dryRun ? `would be ${describe(r)}` : r.outcome === 'published' || r.outcome === 'revised' ? `${describe(r)}, from ${r.file}` : describe(r)));
    if (results.length > 0) lines.push(summarise(results, dryRun));
    if (lines.length > 0) process.stdout.write(`${lines.join('\n')}\n`);
    const notSent = count('not-sent');
    const redis = this.config.redisClusterNodes.join(',') || redactUrl(this.config.redisUrl);
    const cause = /connect|connection|Redis did not answer|host name|stream isn't writeable|max retries|ECONNREFUSED|ETIMEDOUT|EPIPE|ECONNRESET/i.test(error.reason)
      ? `Redis at ${redis} is unreachable (${error.reason})`
      : error.reason;
    const parts = [
      written > 0
        ? `written before it stopped: ${written} document(s) (${count('published')} published, ${count('revised')} revised), listed above with their files`
        : 'nothing was written before it stopped',
    ];
    if (failed > 0) parts.push(`no answer for ${failed} (listed above as failed: they may or may not have been written)`);
    if (notSent > 0) parts.push(`not sent: ${notSent}`);
    const rerun =
      written + failed > 0
        ? 'Re-running the same ingest is safe: what was written is found unchanged and skipped, and the rest is written.'
        : 'Run the same ingest again once that is fixed.';
    console.error(`the import stopped part-way: ${cause}.\n${parts.join('; ')}.\n${rerun}`);
  }

  @Option({ flags: '--dry-run', description: 'print what would change, write nothing' })
  parseDryRun(): boolean {
    return true;
  }

  @Option({ flags: '--force', description: 'files based on an older version overwrite what changed since (recorded on the event)' })
  parseForce(): boolean {
    return true;
  }

  @Option({ flags: '--republish', description: 'files of withdrawn listings or error entries publish them again' })
  parseRepublish(): boolean {
    return true;
  }

  @Option({ flags: '--allow-new-domains', description: "let revisions add domains to a listing (they decide which URLs it may link to): check the new ones first" })
  parseAllowNewDomains(): boolean {
    return true;
  }

  @Option({ flags: '--actor <name>', description: 'who makes the change (recorded on events)', defaultValue: process.env.USER ?? 'editor' })
  parseActor(value: string): string {
    return value;
  }

  @Option({
    flags: '--wait <seconds>',
    description: `seconds to wait for a running projector to show the change before exiting ${EXIT.readModelsStale} (default ${PROJECTION_WAIT_MS / 1000})`,
  })
  parseWait(value: string): string {
    return value;
  }
}

/** How the CLI names each kind of document, one and several. */
export const KIND_NAMES: Record<DocumentKind, string> = { listing: 'listing', 'error-entry': 'error entry', model: 'model entry' };
const KIND_PLURALS: Record<DocumentKind, string> = { listing: 'listings', 'error-entry': 'error entries', model: 'model entries' };

export function describe(result: ImportItemResult): string {
  const what = `${KIND_NAMES[result.kind]} ${result.aggregateId}`;
  switch (result.outcome) {
    case 'revised':
      return `revised ${what} (${(result.changedFields ?? []).join(', ')})`;
    case 'conflict':
      return `conflict ${what}: ${result.detail ?? 'changed concurrently'} (${result.file}); re-run ingest after checking the current version`;
    case 'failed':
      return `failed ${what} (${result.file}): ${result.detail}; it may or may not have been written`;
    default:
      return `${result.outcome} ${what}`;
  }
}

export function summarise(results: ImportItemResult[], dryRun: boolean): string {
  const parts: string[] = [];
  for (const kind of ['listing', 'model', 'error-entry'] as const) {
    const mine = results.filter((r) => r.kind === kind);
    if (mine.length === 0) continue;
    const counts = new Map<string, number>();
    for (const r of mine) counts.set(r.outcome, (counts.get(r.outcome) ?? 0) + 1);
    const label = KIND_PLURALS[kind];
    parts.push(`${mine.length} ${label}: ${[...counts].map(([o, n]) => `${n} ${o}`).join(', ')}`);
  }
  return `${dryRun ? '(dry run) ' : ''}${parts.join('; ') || 'nothing to ingest'}`;
}
