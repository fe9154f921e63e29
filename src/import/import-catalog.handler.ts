import { Logger } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { readFilesInParallel } from '../bulk/parallel-reading';
import { CategoryCatalog } from '../catalog/category-catalog';
import { AppConfig } from '../config/app-config';
import { assembleContent, collectFiles, LoadedContent, readContentFile } from '../content/content-files';
import type { CommandResult } from '../event-store/command-runner';
import { EventStore } from '../event-store/event-store.service';
import { PublishErrorEntryCommand } from '../error-reference/commands/publish-error-entry/publish-error-entry.command';
import { errorEntryAggregate } from '../error-reference/error-entry.aggregate';
import { PublishListingCommand } from '../listings/commands/publish-listing/publish-listing.command';
import { listingAggregate } from '../listings/listing.aggregate';
import { ProjectionRunner } from '../projections/projection-runner.service';
import { describeRedisError } from '../redis/redis-errors';
import { ImportCatalogCommand, ImportItemResult, ImportReport, ImportStoppedError } from './import-catalog.command';

/**
 * Commands in flight at once during an import. Their appends share round trips (auto-pipelining), so more
 * in flight means fewer, fuller round trips: appending 100,127 listings took 16.2 s with 64, 11.9 s with 512.
 */
export const IMPORT_CONCURRENCY = 512;
/** From this many files, they are read and validated on worker threads (see src/bulk/). */
export const BULK_FILES = 4000;
/** How long an import waits for the read models to show what it wrote. */
export const PROJECTION_WAIT_MS = 30_000;

/**
 * The import use case: validate every file first (nothing is written when any file is invalid), then send
 * one publish command per document, each based on the version the store held when the import started, so
 * that a change someone else made meanwhile is reported as a conflict instead of overwritten; then make
 * sure the read models show the result. Whatever stops it part-way (Redis unreachable, a failing command,
 * a stop asked for) ends it with ImportStoppedError, which reports what was written before it stopped.
 */
@CommandHandler(ImportCatalogCommand)
export class ImportCatalogHandler implements ICommandHandler<ImportCatalogCommand, ImportReport> {
  private readonly logger = new Logger(ImportCatalogHandler.name);

  constructor(
    private readonly commands: CommandBus,
    private readonly store: EventStore,
    private readonly categories: CategoryCatalog,
    private readonly projection: ProjectionRunner,
    private readonly config: AppConfig,
  ) {}

  async execute({ paths, actor, dryRun, options }: ImportCatalogCommand): Promise<ImportReport> {
    const { signal, projectionWaitMs = PROJECTION_WAIT_MS } = options;
    const started = Date.now();
    const phases = { readMs: 0, appendMs: 0, projectMs: 0 };
    const stopped = (results: ImportItemResult[], reason: string) =>
      new ImportStoppedError({ problems: [], results, projection: 'not-needed', phases }, reason);
    let content: LoadedContent;
    let baseline: Awaited<ReturnType<EventStore['versionsAndDigests']>>;
    try {
      // What the store holds is read while the files are read.
      const reading = this.store.versionsAndDigests();
      reading.catch(() => undefined); // awaited below, after the files
      content = await this.read(paths);
      baseline = await reading;
    } catch (error) {
      phases.readMs = Date.now() - started;
      throw stopped([], reasonOf(error));
    }
    const { versions, digests } = baseline;
    const read = Date.now();
    phases.readMs = read - started;
    if (content.problems.length > 0) return { problems: content.problems, results: [], projection: 'not-needed', phases };

    const items: Array<{ kind: ImportItemResult['kind']; file: string; id: string; type: string; digest: string; send: () => Promise<CommandResult> }> = [];
    const base = (type: string, id: string) => ({
      actor,
      dryRun,
      baseVersion: versions.get(type)?.get(id) ?? 0,
      recordedDigest: digests.get(type)?.get(id),
    });
    for (const { file, listing, digest } of content.listings) {
      const options = { ...base(listingAggregate.aggregateType, listing.slug), contentDigest: digest };
      items.push({ kind: 'listing', file, id: listing.slug, type: listingAggregate.aggregateType, digest, send: () => this.commands.execute(new PublishListingCommand(listing, options)) });
    }
    for (const { file, id, entry, digest } of content.errorEntries) {
      const options = { ...base(errorEntryAggregate.aggregateType, id), contentDigest: digest };
      items.push({ kind: 'error-entry', file, id, type: errorEntryAggregate.aggregateType, digest, send: () => this.commands.execute(new PublishErrorEntryCommand(entry, options)) });
    }
    // A command that fails (Redis gone, a crash) stops the import: no more are sent, and the report says
    // what was written before it stopped.
    const settled = await runPool(items.map((item) => item.send), IMPORT_CONCURRENCY, signal);
    const results: ImportItemResult[] = items.map((item, i) => {
      const done = settled[i];
      const common = { kind: item.kind, file: item.file };
      if (done === undefined) return { ...common, aggregateId: item.id, outcome: 'not-sent', version: 0 };
      if ('error' in done) return { ...common, aggregateId: item.id, outcome: neverSent(done.error) ? 'not-sent' : 'failed', version: 0, detail: reasonOf(done.error) };
      return { ...common, ...done.value };
    });
    phases.appendMs = Date.now() - read;
    const failure = settled.find((done) => done !== undefined && 'error' in done);
    if (failure) throw stopped(results, reasonOf((failure as { error: unknown }).error));
    if (settled.includes(undefined)) throw stopped(results, reasonOf(signal?.reason ?? 'stopped on request'));

    // Documents found equal to the stored ones whose digest was not recorded (a store written before
    // digests were kept): record theirs, so the next import skips them. That only spares later imports
    // work, so a failure is reported, not fatal (the events are stored).
    if (!dryRun) {
      const unrecorded = items
        .map((item, i) => ({ item, result: results[i] }))
        .filter(({ item, result }) => {
          const recorded = digests.get(item.type)?.get(item.id);
          return result.outcome === 'unchanged' && !(recorded?.version === result.version && recorded.digest === item.digest);
        });
      await this.store
        .recordDigests(unrecorded.map(({ item, result }) => ({ aggregateType: item.type, aggregateId: item.id, version: result.version, digest: item.digest })))
        .catch((error: Error) => this.logger.warn(`content digests not recorded (the next import compares in full): ${error.message}`));
    }
    const appended = Date.now();
    phases.appendMs = appended - read;
    const wrote = !dryRun && results.some((r) => r.outcome === 'published' || r.outcome === 'revised');
    const report: ImportReport = { problems: [], results, projection: 'not-needed', phases };
    try {
      // Nothing written, but the read models may still lag behind an earlier import that ended with them
      // stale: this one makes sure of them too, so that its success means they show the files.
      if (wrote || (!dryRun && results.length > 0 && !(await this.projection.isCaughtUp()))) {
        report.projection = await this.projection.ensureProjected(projectionWaitMs, signal);
        if (report.projection === 'pending') {
          report.pendingBecause = signal?.aborted
            ? `the wait for the read models was stopped (${reasonOf(signal.reason)})`
            : `no projector applied the new events within ${Math.round(projectionWaitMs / 1000)} s, and this process could not take over: ${await this.projection.whyNotProjecting()}`;
        }
      }
    } catch (error) {
      report.projection = 'pending';
      report.pendingBecause = `projecting the new events failed: ${reasonOf(error)}`;
    }
    phases.projectMs = Date.now() - appended;
    return report;
  }

  /** Every file read and validated (on worker threads when there are many), then the rules across files. */
  private async read(paths: string[]): Promise<LoadedContent> {
    const { files, problems } = collectFiles(paths);
    const readings = files.length >= BULK_FILES ? await readFilesInParallel(files, this.config.projectorWorkers) : files.map(readContentFile);
    return assembleContent(readings, problems, this.categories, (slugs) => this.publishedListings(slugs));
  }

  /** Which of these listings the directory holds now, as the event store says (not the read models, which may lag). */
  private async publishedListings(slugs: string[]): Promise<Set<string>> {
    const documents = await this.store.documentsAt(listingAggregate, slugs, '+');
    return new Set([...documents].filter(([, listing]) => listing !== null).map(([slug]) => slug));
  }
}

/** How a job ended: its value, or what it threw. */
export type Settled<T> = { value: T } | { error: unknown };

/**
 * Runs jobs with at most `size` in flight; results keep the order of the jobs. Once a job fails or
 * `signal` fires no more are started (those in flight finish): the ones never started are `undefined`.
 */
export async function runPool<T>(jobs: Array<() => Promise<T>>, size: number, signal?: AbortSignal): Promise<Array<Settled<T> | undefined>> {
  const results = new Array<Settled<T> | undefined>(jobs.length).fill(undefined);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < jobs.length && !failed && !signal?.aborted) {
      const i = next++;
      try {
        results[i] = { value: await jobs[i]() };
      } catch (error) {
        results[i] = { error };
        failed = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, jobs.length) }, worker));
  return results;
}

/**
 * Whether a command failed before it left this process: the shared connection refuses commands while it
 * is down instead of queueing them (see RedisConnection), so they were certainly not written. Any other
 * failure may have come after Redis ran the command.
 */
function neverSent(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith("Stream isn't writeable");
}

/** An error's message (a Redis client's in words, see describeRedisError), or a stop reason, as one line. */
function reasonOf(error: unknown): string {
  return (error instanceof Error ? describeRedisError(error) : String(error)).split('\n')[0];
}
