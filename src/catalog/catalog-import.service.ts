import { Injectable, Logger } from '@nestjs/common';
import { CommandBus, ICommand } from '@nestjs/cqrs';
import { CommandResult, CommandRunner } from '../event-store/command-runner';
import type { DocumentAggregate } from '../event-store/document-aggregate';
import { EventStore } from '../event-store/event-store.service';
import { PublishErrorEntryCommand } from '../error-reference/commands/publish-error-entry/publish-error-entry.command';
import { errorEntryAggregate } from '../error-reference/error-entry.aggregate';
import { PublishListingCommand } from '../listings/commands/publish-listing/publish-listing.command';
import { listingAggregate } from '../listings/listing.aggregate';
import { ProjectionRunner } from '../projections/projection-runner.service';
import { RedisConnection } from '../redis/redis-connection';
import { CategoryCatalog } from './category-catalog';
import { AppConfig } from '../config/app-config';
import { ContentProblem } from './content-files';
import { loadContentInParallel } from './parallel-content';

export interface ImportItemResult extends CommandResult {
  kind: 'listing' | 'error-entry';
  file: string;
}

/** One document of an import, and the command that publishes it. */
interface ImportItem {
  kind: ImportItemResult['kind'];
  file: string;
  aggregateType: string;
  id: string;
  /** The aggregate's version when the import started (0: not in the store). */
  base: number;
  /** documentDigest of the file's document. */
  digest: string;
  run(): Promise<CommandResult>;
}

export interface ImportReport {
  problems: ContentProblem[];
  results: ImportItemResult[];
  /** Whether the read models show the new events: applied here, by the running service, or not yet. */
  projection: 'applied' | 'applied-by-service' | 'pending' | 'not-needed';
  /** Where the time went, in milliseconds: reading and validating the files, appending, projecting. */
  phases: { readMs: number; appendMs: number; projectMs: number };
}

/**
 * Commands in flight at once during an import. Their appends share round trips (auto-pipelining), so more
 * in flight means fewer, fuller round trips: appending 100,127 listings took 16.2 s with 64, 11.9 s with 512.
 */
export const IMPORT_CONCURRENCY = 512;

export interface ImportOptions {
  actor: string;
  dryRun?: boolean;
  /** Commands in flight at once; their Redis calls share round trips (auto-pipelining). */
  concurrency?: number;
  /** How long to wait for a running service to project the events. */
  projectionTimeoutMs?: number;
}

/**
 * Editors' updates into the event store: validate every file first (nothing is written when any file is
 * invalid), then send one command per document through the CommandBus, based on the versions seen at
 * the start, so a concurrent change by someone else is reported as a conflict instead of overwritten.
 * A document equal to what the store held at the start (same digest at the same version) is reported
 * unchanged as of then, without a command: it writes nothing, so nothing can be overwritten.
 */
@Injectable()
export class CatalogImportService {
  private readonly logger = new Logger(CatalogImportService.name);

  constructor(
    private readonly commandBus: CommandBus,
    private readonly commandRunner: CommandRunner,
    private readonly store: EventStore,
    private readonly categories: CategoryCatalog,
    private readonly redis: RedisConnection,
    private readonly projection: ProjectionRunner,
    private readonly config: AppConfig,
  ) {}

  async import(paths: string[], options: ImportOptions): Promise<ImportReport> {
    // The documents read are dropped once appended (they are out of scope here): a large import held them
    // through the projection, and the projector's thread collected garbage over a heap twice the size.
    const { problems, results, phases } = await this.readAndAppend(paths, options);
    if (problems.length > 0) return { problems, results, projection: 'not-needed', phases };
    const appended = Date.now();
    const wrote = !options.dryRun && results.some((r) => ['published', 'revised'].includes(r.outcome));
    const projection = wrote ? await this.ensureProjected(options.projectionTimeoutMs ?? 30_000) : 'not-needed';
    phases.projectMs = Date.now() - appended;
    return { problems: [], results, projection, phases };
  }

  private async readAndAppend(paths: string[], options: ImportOptions): Promise<Omit<ImportReport, 'projection'>> {
    const started = Date.now();
    // What the store holds is read while the threads read the files (this thread is idle meanwhile).
    const baseline = this.store.versionsAndDigests();
    baseline.catch(() => undefined); // awaited below, after the files
    const content = await loadContentInParallel(paths, this.categories, this.publishedListings(), this.config.projectorWorkers);
    const { versions, digests } = await baseline;
    const read = Date.now();
    const phases = { readMs: read - started, appendMs: 0, projectMs: 0 };
    if (content.problems.length > 0) return { problems: content.problems, results: [], phases };

    const items: ImportItem[] = [];
    const add = <D extends object>(
      kind: ImportItem['kind'],
      aggregate: DocumentAggregate<D>,
      id: string,
      file: string,
      document: D,
      digest: string,
      command: (base: number) => ICommand,
    ) => {
      const base = versions.get(aggregate.aggregateType)?.get(id) ?? 0;
      items.push({
        kind,
        file,
        aggregateType: aggregate.aggregateType,
        id,
        base,
        digest,
        run: () =>
          options.dryRun
            ? this.commandRunner.preview(aggregate, id, (state) => aggregate.decidePublish(state, document, base, digest))
            : this.commandBus.execute<ICommand, CommandResult>(command(base)),
      });
    };
    for (const { file, listing, digest } of content.listings) {
      add('listing', listingAggregate, listing.slug, file, listing, digest, (base) => new PublishListingCommand(listing, options.actor, base, digest));
    }
    for (const { file, id, entry, digest } of content.errorEntries) {
      add('error-entry', errorEntryAggregate, id, file, entry, digest, (base) => new PublishErrorEntryCommand(entry, options.actor, base, digest));
    }

    // A file whose document has the digest the store recorded at the version read above changes
    // nothing: it is reported unchanged at that version without a command (a command reads the
    // aggregate's events and compares field by field: about 10 s for 100,000 unchanged listings).
    const results = new Array<ImportItemResult>(items.length);
    const compared: number[] = [];
    items.forEach((item, i) => {
      const recorded = digests.get(item.aggregateType)?.get(item.id);
      if (recorded?.version === item.base && recorded.digest === item.digest) {
        results[i] = { kind: item.kind, file: item.file, aggregateId: item.id, outcome: 'unchanged', version: item.base };
      } else compared.push(i);
    });
    const outcomes = await runPool(
      compared.map((i) => () => items[i].run()),
      options.concurrency ?? IMPORT_CONCURRENCY,
    );
    compared.forEach((i, n) => (results[i] = { kind: items[i].kind, file: items[i].file, ...outcomes[n] }));

    // Documents a command found equal to the stored ones without a matching digest (a store written
    // before digests were kept): record theirs, so the next import skips them. That only spares later
    // imports work, so a failure is reported, not fatal (the events are stored).
    if (!options.dryRun) {
      const unrecorded = compared.filter((i) => results[i].outcome === 'unchanged');
      await this.store
        .recordDigests(
          unrecorded.map((i) => ({ aggregateType: items[i].aggregateType, aggregateId: items[i].id, version: results[i].version, digest: items[i].digest })),
        )
        .catch((error: Error) => this.logger.warn(`content digests not recorded (the next import compares in full): ${error.message}`));
    }
    phases.appendMs = Date.now() - read;
    return { problems: [], results, phases };
  }

  /**
   * Makes the read models catch up with the store: here, if no service holds the projector lease; else
   * by waiting for the running service to apply the newest event.
   */
  async ensureProjected(timeoutMs: number): Promise<ImportReport['projection']> {
    if (await this.projection.catchUp()) return 'applied';
    const last = await this.store.lastPosition();
    return (await this.projection.waitUntilProjected(last, timeoutMs)) ? 'applied-by-service' : 'pending';
  }

  /** Slugs of the listings in the directory now, from the aggregates' latest events. */
  private async publishedListings(): Promise<Set<string>> {
    const generation = await this.redis.client.get(this.redis.keys.currentGeneration);
    if (generation === null) return new Set();
    return new Set(await this.redis.client.hkeys(this.redis.keys.generation(Number(generation)).summaries));
  }
}

/** Runs jobs with at most `size` in flight; results keep the order of the jobs. */
export async function runPool<T>(jobs: Array<() => Promise<T>>, size: number): Promise<T[]> {
  const results = new Array<T>(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, jobs.length) }, worker));
  return results;
}
