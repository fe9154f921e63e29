import { Logger } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { readFilesInParallel } from '../bulk/parallel-reading';
import { Categories } from '../../categories/categories';
import { AppConfig } from '../../config/app-config';
import { assembleContent, BASED_ON_FIELD, collectFiles, ContentProblem, DirectoryHoldings, DocumentKind, FileReading, LoadedContent, readContentFile } from '../content/content-files';
import type { CommandResult } from '../../event-store/command-runner';
import { EventStore } from '../../event-store/event-store.service';
import { PublishErrorEntryCommand } from '../../error-reference/write/commands/publish-error-entry/publish-error-entry.command';
import { errorEntryAggregate } from '../../error-reference/write/error-entry.aggregate';
import { PublishListingCommand } from '../../listings/write/commands/publish-listing/publish-listing.command';
import { listingAggregate } from '../../listings/write/listing.aggregate';
import { PublishModelEntryCommand } from '../../models/write/commands/publish-model-entry/publish-model-entry.command';
import { modelEntryAggregate } from '../../models/write/model-entry.aggregate';
import type { ListingDocument } from '../../listings/write/listing.document';
import { canonicalJson, diffFields, type DocumentAggregate, type DocumentEventTypes, type RevisedData } from '../../event-store/document-aggregate';
import type { StoredEvent } from '../../event-store/event-envelope';
import { ProjectionWait } from '../../projections/projection-wait';
import { describeRedisError, redisFailureOf } from '../../redis/redis-errors';
import { ImportCatalogCommand, ImportItemResult, ImportReport, ImportStoppedError } from './import-catalog.command';

/**
 * Commands in flight at once during an import. Their appends share round trips (auto-pipelining), so more
 * in flight means fewer, fuller round trips: appending 100,127 listings took 16.2 s with 64, 11.9 s with 512.
 */
export const IMPORT_CONCURRENCY = 512;
/** From this many files, they are read and validated on worker threads (see src/catalog/bulk/). */
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
    private readonly categories: Categories,
    private readonly projection: ProjectionWait,
    private readonly config: AppConfig,
  ) {}

  async execute({ paths, actor, dryRun, options }: ImportCatalogCommand): Promise<ImportReport> {
    const { signal, projectionWaitMs = PROJECTION_WAIT_MS } = options;
    const started = Date.now();
    const phases = { readMs: 0, appendMs: 0, projectMs: 0 };
    const stopped = (results: ImportItemResult[], reason: string) =>
      new ImportStoppedError({ problems: [], results, projection: 'not-needed', phases }, reason);
    let content: LoadedContent;
    let baseline: Baseline;
    try {
      // What the store holds is read while the files are read.
      const reading = this.store.versionsAndDigests();
      reading.catch(() => undefined); // awaited below, after the files
      const { readings, problems } = await this.read(paths);
      baseline = await reading;
      content = await assembleContent(readings, problems, this.categories, this.holdings(baseline, options.allowNewDomains === true));
    } catch (error) {
      phases.readMs = Date.now() - started;
      throw stopped([], reasonOf(error));
    }
    const read = Date.now();
    phases.readMs = read - started;
    if (content.problems.length > 0) return { problems: content.problems, results: [], projection: 'not-needed', phases };
    let refused: ContentProblem[];
    // Files whose content the check found equal to the document's (by its history): reported unchanged
    // without a command, which would read the same history again.
    const equal = new Set<object>();
    try {
      refused = await this.againstTheStore(content, baseline, options, equal);
    } catch (error) {
      throw stopped([], reasonOf(error));
    }
    if (refused.length > 0) return { problems: [], refused, results: [], projection: 'not-needed', phases };

    const items = this.commandsFor(content, baseline, equal, actor, dryRun);
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
      await this.store
        .recordDigests(unrecordedDigests(items, results, baseline.digests))
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
        Object.assign(report, await this.projection.untilProjected(projectionWaitMs, signal));
      }
    } catch (error) {
      report.projection = 'pending';
      report.pendingBecause = `projecting the new events failed: ${reasonOf(error)}`;
    }
    phases.projectMs = Date.now() - appended;
    return report;
  }

  /**
   * One publish command per document, each based on the version the store held when the import started.
   * A document `equal` to the stored one is answered unchanged without a command (which would read the
   * same history again).
   */
  private commandsFor(content: LoadedContent, baseline: Baseline, equal: Set<object>, actor: string, dryRun: boolean): ImportItem[] {
    const { versions, digests } = baseline;
    const items: ImportItem[] = [];
    // A file based on an older version is sent only with --force (againstTheStore refused it otherwise):
    // it overwrites the versions since on purpose, and its event says so.
    const unchanged = (type: string, id: string) => () => Promise.resolve({ aggregateId: id, outcome: 'unchanged' as const, version: versions.get(type)?.get(id) ?? 0 });
    const base = (type: string, id: string, basedOn?: number) => {
      const current = versions.get(type)?.get(id) ?? 0;
      return {
        actor,
        dryRun,
        baseVersion: current,
        recordedDigest: digests.get(type)?.get(id),
        ...(basedOn !== undefined && basedOn < current ? { forcedFrom: basedOn } : {}),
      };
    };
    for (const loaded of content.listings) {
      const { file, listing, digest, basedOn } = loaded;
      const type = listingAggregate.aggregateType;
      const sent = { ...base(type, listing.slug, basedOn), contentDigest: digest };
      items.push({ kind: 'listing', file, id: listing.slug, type, digest, send: equal.has(loaded) ? unchanged(type, listing.slug) : () => this.commands.execute(new PublishListingCommand(listing, sent)) });
    }
    for (const loaded of content.modelEntries) {
      const { file, entry, digest, basedOn } = loaded;
      const type = modelEntryAggregate.aggregateType;
      const sent = { ...base(type, entry.id, basedOn), contentDigest: digest };
      items.push({ kind: 'model', file, id: entry.id, type, digest, send: equal.has(loaded) ? unchanged(type, entry.id) : () => this.commands.execute(new PublishModelEntryCommand(entry, sent)) });
    }
    for (const loaded of content.errorEntries) {
      const { file, id, entry, digest, basedOn } = loaded;
      const type = errorEntryAggregate.aggregateType;
      const sent = { ...base(type, id, basedOn), contentDigest: digest };
      items.push({ kind: 'error-entry', file, id, type, digest, send: equal.has(loaded) ? unchanged(type, id) : () => this.commands.execute(new PublishErrorEntryCommand(entry, sent)) });
    }
    return items;
  }

  /**
   * What the store says against the files, before anything is written: a file based on an older version of
   * its document than the current one would undo what was accepted since (refused unless --force); one
   * based on a version the document never reached is wrong; and a file for a withdrawn document would bring
   * it back unseen (refused unless --republish).
   */
  private async againstTheStore(content: LoadedContent, baseline: Baseline, options: ImportCatalogCommand['options'], equal: Set<object>): Promise<ContentProblem[]> {
    const { versions } = baseline;
    const refused: ContentProblem[] = [];
    const documents = [
      ...content.listings.map((loaded) => ({ loaded, file: loaded.file, document: loaded.listing as object, aggregate: listingAggregate as DocumentAggregate<object>, id: loaded.listing.slug, kind: 'listing' as const })),
      ...content.errorEntries.map((loaded) => ({ loaded, file: loaded.file, document: loaded.entry as object, aggregate: errorEntryAggregate as DocumentAggregate<object>, id: loaded.id, kind: 'error-entry' as const })),
      ...content.modelEntries.map((loaded) => ({ loaded, file: loaded.file, document: loaded.entry as object, aggregate: modelEntryAggregate as DocumentAggregate<object>, id: loaded.entry.id, kind: 'model' as const })),
    ].map((doc) => ({ ...doc, digest: doc.loaded.digest, basedOn: doc.loaded.basedOn }));
    const holdings = this.holdings(baseline, false);
    const currentOf = (doc: (typeof documents)[number]) => versions.get(doc.aggregate.aggregateType)?.get(doc.id) ?? 0;
    // Documents held and differing from what is held: their history decides whether the file is stale.
    const histories = new Map<(typeof documents)[number], StoredEvent[]>();
    const toRead = documents.filter((doc) => currentOf(doc) > 0 && holdings.differs(doc.kind, doc.id, doc.digest) && (doc.basedOn !== undefined ? doc.basedOn < currentOf(doc) : true));
    const read = await runPool(toRead.map((doc) => () => this.store.readAggregate(doc.aggregate.aggregateType, doc.id)), IMPORT_CONCURRENCY);
    read.forEach((done, i) => {
      if (done === undefined || 'error' in done) throw done === undefined ? new Error('stopped') : done.error;
      histories.set(toRead[i], done.value);
    });
    for (const doc of documents) {
      const current = currentOf(doc);
      if (doc.basedOn !== undefined && doc.basedOn > current) {
        refused.push({ file: doc.file, field: BASED_ON_FIELD, reason: `says version ${doc.basedOn}, but the directory holds version ${current} of ${doc.kind} ${doc.id}` });
        continue;
      }
      // Content equal to what is published changes nothing, whatever version the file says it was based on
      // (a retry of an import that timed out, a folder exported and imported again): the digest recorded
      // for the current version says so, or the history read.
      if (current > 0 && !holdings.differs(doc.kind, doc.id, doc.digest)) continue;
      const events = histories.get(doc);
      const held = events ? doc.aggregate.fold(events).document : null;
      if (held && diffFields(held, doc.document).length === 0) {
        equal.add(doc.loaded);
        continue;
      }
      if (doc.basedOn !== undefined && doc.basedOn < current && !options.force) {
        refused.push({
          file: doc.file,
          field: BASED_ON_FIELD,
          reason: `based on version ${doc.basedOn}, but ${doc.kind} ${doc.id} is at version ${current}: changed since in ${changesSince(events ?? [], doc.basedOn, doc.aggregate.types)}. Bring those changes into your file (ingest export writes the current version) and ingest again, or run ingest --force to overwrite them`,
        });
      } else if (doc.basedOn === undefined && held && events) {
        // A file that says no version and sets a field back to the value it had before its latest change
        // is most likely an old copy: sent as is, it would silently undo another editor's change.
        const reverted = revertedFields(events, held, doc.document, doc.aggregate.types);
        if (reverted.length === 0) continue;
        if (options.force) {
          // Overwritten on purpose: the event records the version the file's content predates.
          doc.loaded.basedOn = Math.min(...reverted.map((r) => r.version)) - 1;
          continue;
        }
        for (const r of reverted) {
          refused.push({
            file: doc.file,
            field: r.field,
            reason:
              `sets ${r.field} of ${doc.kind} ${doc.id} back to its value before version ${r.version} (changed by ${r.actor} at ${r.occurredAt}): the file looks like a copy older than that change. ` +
              `Bring the change into your file (ingest export writes the current version, with the version it is based on) and ingest again, or run ingest --force to set it back on purpose`,
          });
        }
      }
    }
    // A withdrawn document has versions but no document; only those whose content differs can be one (a
    // withdrawal drops the recorded digest, so a withdrawn document never matches one).
    for (const kind of ['listing', 'error-entry', 'model'] as const) {
      const candidates = documents.filter((d) => d.kind === kind && (versions.get(d.aggregate.aggregateType)?.get(d.id) ?? 0) > 0 && holdings.differs(kind, d.id, d.digest));
      if (candidates.length === 0 || options.republish) continue;
      const live = await this.store.documentsAt(candidates[0].aggregate, candidates.map((d) => d.id), '+');
      for (const doc of candidates.filter((d) => live.get(d.id) === null)) {
        refused.push({ file: doc.file, field: '(file)', reason: `${doc.kind} ${doc.id} was withdrawn: run ingest --republish to publish it again, or remove the file` });
      }
    }
    return refused;
  }

  /** Every file read and validated on its own (on worker threads when there are many). */
  private async read(paths: string[]): Promise<{ readings: FileReading[]; problems: ContentProblem[] }> {
    const { files, problems } = collectFiles(paths);
    const readings = files.length >= BULK_FILES ? await readFilesInParallel(files, this.config.importReadThreads) : files.map(readContentFile);
    return { readings, problems };
  }

  /**
   * What the rules across documents need of the directory, as the event store says (not the read models,
   * which may lag): the listings it holds, and which documents of the files differ from what it holds.
   */
  private holdings({ versions, digests }: Baseline, allowNewDomains: boolean): DirectoryHoldings {
    const typeOf = (kind: DocumentKind) => AGGREGATE_OF[kind].aggregateType;
    const live = async (slugs: string[]) => {
      const documents = await this.store.documentsAt(listingAggregate, slugs, '+');
      return new Map([...documents].filter((entry): entry is [string, ListingDocument] => entry[1] !== null));
    };
    return {
      allowNewDomains,
      holds: async (slugs) => new Set((await live(slugs)).keys()),
      holdsModels: async (ids) => {
        const documents = await this.store.documentsAt(modelEntryAggregate, ids, '+');
        return new Set([...documents].filter(([, entry]) => entry !== null).map(([id]) => id));
      },
      listings: () => live([...(versions.get(listingAggregate.aggregateType)?.keys() ?? [])]),
      differs: (kind, id, digest) => {
        const recorded = digests.get(typeOf(kind))?.get(id);
        return !(recorded && recorded.digest === digest && recorded.version === (versions.get(typeOf(kind))?.get(id) ?? 0));
      },
    };
  }
}

/** The aggregate of each kind of document. */
const AGGREGATE_OF: Record<DocumentKind, DocumentAggregate<object>> = {
  listing: listingAggregate as DocumentAggregate<object>,
  'error-entry': errorEntryAggregate as DocumentAggregate<object>,
  model: modelEntryAggregate as DocumentAggregate<object>,
};

type Baseline = Awaited<ReturnType<EventStore['versionsAndDigests']>>;

/** The digests of documents an import found unchanged that the store has not recorded for their version. */
function unrecordedDigests(items: ImportItem[], results: ImportItemResult[], digests: Baseline['digests']) {
  return items
    .map((item, i) => ({ item, result: results[i] }))
    .filter(({ item, result }) => {
      const recorded = digests.get(item.type)?.get(item.id);
      return result.outcome === 'unchanged' && !(recorded?.version === result.version && recorded.digest === item.digest);
    })
    .map(({ item, result }) => ({ aggregateType: item.type, aggregateId: item.id, version: result.version, digest: item.digest }));
}

/** One document of an import, with the command that publishes it (or the answer that it is unchanged). */
interface ImportItem {
  kind: ImportItemResult['kind'];
  file: string;
  id: string;
  type: string;
  digest: string;
  send: () => Promise<CommandResult>;
}

/** Fields whose value going back to an earlier one says nothing of the file's age (derived from others). */
const NOT_REVERT_SIGNS = new Set(['lastUpdated']);

/** A field a file sets back to its value before the field's latest change: that change's version and author. */
export interface RevertedField {
  field: string;
  version: number;
  actor: string;
  occurredAt: string;
}

/**
 * The fields `document` would set back to the value they had before their latest change in `events` (the
 * document's history, `held` where it leads). A field last set by a publication has no earlier value to go
 * back to; a revision recorded without its `before` values cannot tell, and is not counted.
 */
export function revertedFields(events: StoredEvent[], held: object, document: object, types: DocumentEventTypes): RevertedField[] {
  const reverted: RevertedField[] = [];
  for (const field of diffFields(held, document)) {
    // The day of the oldest check moves with the checks: its going back to an earlier day is no sign.
    if (NOT_REVERT_SIGNS.has(field)) continue;
    for (let i = events.length - 1; i >= 0; i--) {
      const event = events[i];
      if (event.type !== types.revised) break;
      const data = event.data as RevisedData<object>;
      if (!data.changedFields.includes(field)) continue;
      const after = (document as Record<string, unknown>)[field] ?? null;
      if (data.before && field in data.before && canonicalJson(data.before[field] ?? null) === canonicalJson(after)) {
        reverted.push({ field, version: event.version, actor: event.actor, occurredAt: event.occurredAt });
      }
      break;
    }
  }
  return reverted;
}

/** What changed a document between two of its versions, for the editor whose file was based on the older. */
function changesSince(events: StoredEvent[], basedOn: number, types: DocumentEventTypes): string {
  const since = events.filter((event) => event.version > basedOn);
  const fields = new Set<string>();
  for (const event of since) for (const field of (event.data as RevisedData<object>).changedFields ?? []) fields.add(field);
  const withdrawn = since.some((event) => event.type === types.withdrawn);
  const last = since[since.length - 1];
  const parts = [fields.size > 0 ? `fields ${[...fields].join(', ')}` : null, withdrawn ? 'a withdrawal' : null, since.some((e) => e.type === types.published) ? 'a new publication' : null].filter(Boolean);
  return `${parts.join(' and ') || 'changes'} (${since.length} change(s), the last by ${last?.actor ?? 'someone'} at ${last?.occurredAt ?? '?'})`;
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
  return redisFailureOf(error) === 'not-sent';
}

/** An error's message (a Redis client's in words, see describeRedisError), or a stop reason, as one line. */
function reasonOf(error: unknown): string {
  return (error instanceof Error ? describeRedisError(error) : String(error)).split('\n')[0];
}
