import { Injectable } from '@nestjs/common';
import { Decision, DocumentAggregate, DocumentState, Outcome } from './document-aggregate';
import { ConcurrencyConflictError } from './event-envelope';
import { EventStore, RecordedDigest } from './event-store.service';

/** What a command did, as the CLI reports it. */
export interface CommandResult {
  aggregateId: string;
  outcome: Outcome;
  /** Version of the aggregate after the command. */
  version: number;
  changedFields?: string[];
  detail?: string;
}

/** How a full document is published (the fields every publish command carries). */
export interface PublishOptions {
  actor: string;
  /** Version the editor's change is based on; a newer version in the store is a reported conflict. */
  baseVersion?: number;
  /** The document's documentDigest, when the caller worked it out already (a bulk import, on its threads). */
  contentDigest?: string;
  /** The digest the store had recorded when the caller read `baseVersion` (see EventStore.versionsAndDigests). */
  recordedDigest?: RecordedDigest;
  /** Decide and report, but append nothing. */
  dryRun?: boolean;
  /** The version the editor's file was based on, when they overwrite what changed since on purpose (`ingest --force`). */
  forcedFrom?: number;
}

/** How often a command that lost an append race is re-read and re-decided before it is reported. */
export const MAX_CONFLICT_RETRIES = 3;

/**
 * Load, decide, append: the loop every command handler runs (named apart from nest-commander's
 * CommandRunner, which the ingest commands extend). A version conflict on append (another writer appended
 * between our read and our write) is retried with fresh state at most MAX_CONFLICT_RETRIES times, then
 * reported as a conflict. Nothing is ever overwritten blindly.
 */
@Injectable()
export class DocumentCommands {
  constructor(private readonly store: EventStore) {}

  async run<D extends object>(
    aggregate: DocumentAggregate<D>,
    aggregateId: string,
    decide: (state: DocumentState<D>) => Decision,
    actor: string,
    /** The caller saw no such aggregate (bulk ingest): decide on the initial state without reading first. */
    assumeNew = false,
  ): Promise<CommandResult> {
    let lastConflict: ConcurrencyConflictError | null = null;
    for (let attempt = 0; attempt <= MAX_CONFLICT_RETRIES; attempt++) {
      const state =
        assumeNew && attempt === 0
          ? aggregate.initial()
          : aggregate.fold(await this.store.readAggregate(aggregate.aggregateType, aggregateId));
      const decision = decide(state);
      if (decision.events.length === 0) {
        return { aggregateId, outcome: decision.outcome, version: state.version, detail: decision.detail };
      }
      try {
        const stored = await this.store.append(
          aggregate.aggregateType,
          aggregateId,
          state.version,
          decision.events,
          actor,
          decision.contentDigest ?? null,
        );
        return {
          aggregateId,
          outcome: decision.outcome,
          version: stored[stored.length - 1].version,
          changedFields: decision.changedFields,
        };
      } catch (error) {
        if (!(error instanceof ConcurrencyConflictError)) throw error;
        lastConflict = error;
      }
    }
    return {
      aggregateId,
      outcome: 'conflict',
      version: lastConflict?.actualVersion ?? 0,
      detail: `still conflicting after ${MAX_CONFLICT_RETRIES} retries (${lastConflict?.message})`,
    };
  }

  /**
   * Publishes or revises a full document: the use case of every publish command. A document whose digest
   * is the one the store recorded at the base version changes nothing and is reported unchanged without
   * reading the aggregate (an import of 100,000 unchanged files sends no script to Redis); a dry run
   * decides and appends nothing; otherwise load, decide, append with the expected version.
   */
  publish<D extends object>(aggregate: DocumentAggregate<D>, aggregateId: string, document: D, options: PublishOptions): Promise<CommandResult> {
    const { baseVersion, contentDigest, recordedDigest, dryRun, actor, forcedFrom } = options;
    if (baseVersion !== undefined && recordedDigest?.version === baseVersion && recordedDigest.digest === contentDigest) {
      return Promise.resolve({ aggregateId, outcome: 'unchanged', version: baseVersion });
    }
    const decide = (state: DocumentState<D>) => aggregate.decidePublish(state, document, baseVersion, contentDigest, forcedFrom);
    if (dryRun) return this.preview(aggregate, aggregateId, decide);
    return this.run(aggregate, aggregateId, decide, actor, baseVersion === 0);
  }

  /** Decides without appending: what the command would do now (for --dry-run). */
  async preview<D extends object>(
    aggregate: DocumentAggregate<D>,
    aggregateId: string,
    decide: (state: DocumentState<D>) => Decision,
  ): Promise<CommandResult> {
    const state = aggregate.fold(await this.store.readAggregate(aggregate.aggregateType, aggregateId));
    const decision = decide(state);
    return {
      aggregateId,
      outcome: decision.outcome,
      version: state.version + decision.events.length,
      changedFields: decision.changedFields,
      detail: decision.detail,
    };
  }
}
