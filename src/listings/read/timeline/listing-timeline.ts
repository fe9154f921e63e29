import { Injectable } from '@nestjs/common';
import type { WithdrawnData } from '../../../event-store/document-aggregate';
import type { StoredEvent } from '../../../event-store/event-envelope';
import { comparePositions, EventStore, type HistoryPage } from '../../../event-store/event-store.service';
import { ApiProblem } from '../../../http/problem';
import type { Liveness } from '../../../liveness/liveness.schema';
import { UNPUBLISHED_LISTING_FIELDS, type ComparisonRow } from '../../../contract/listing-views';
import type { GoneListing, ToolDetailResponse } from '../../../contract/responses';
import { LIVENESS_AGGREGATE, livenessAggregate } from '../../../liveness/rules/liveness.aggregate';
import { LISTING_AGGREGATE, listingAggregate } from '../../write/listing.aggregate';
import type { ListingDocument } from '../../write/listing.document';
import { ResponseCache } from '../../../projections/response-cache';
import { API_PREFIX } from '../../views/listing-views';
import { storedBody } from '../../../http/stored-body';

/**
 * A listing's life as the event log tells it, up to what the read models being served show (so an
 * answer never runs ahead of the details and lists): its events, whether it was withdrawn, and its
 * document at a moment. Whether it was withdrawn and its document at a moment read one event, found by a
 * binary search of its event list; the answers are kept in the read cache until the read models change.
 */
@Injectable()
export class ListingTimeline {
  constructor(
    private readonly store: EventStore,
    private readonly responses: ResponseCache,
  ) {}

  /** The listing's events the read models show, oldest first (none: never published, or not shown yet). */
  async events(slug: string): Promise<StoredEvent[]> {
    const upTo = this.responses.checkpointNow();
    if (upTo === null) return [];
    const events = await this.store.readAggregate(LISTING_AGGREGATE, slug);
    return events.filter((event) => comparePositions(event.position, upTo) <= 0);
  }

  /**
   * One page of the listing's history up to what the read models show (see EventStore.historyPage), newest
   * first: a revision of unpublished fields only (the editor's note) is no change a reader sees.
   */
  async historyPage(slug: string, before: number | null, limit: number): Promise<HistoryPage> {
    const upTo = this.responses.checkpointNow();
    if (upTo === null) return { versions: 0, lastKind: null, total: 0, nextBefore: null, changes: [] };
    return this.store.historyPage(LISTING_AGGREGATE, slug, { upTo, before, limit, withdrawnType: listingAggregate.types.withdrawn, hidden: UNPUBLISHED_LISTING_FIELDS });
  }

  /** Some of the listing's events, by their index in its history (0 = the first). */
  eventsAt(slug: string, indexes: number[]): Promise<StoredEvent[]> {
    return this.store.eventsAt(LISTING_AGGREGATE, slug, indexes);
  }

  /** Why a listing the read models do not hold is gone, if it ever was published (else null: unknown). */
  async withdrawn(slug: string): Promise<GoneListing | null> {
    const stored = await this.responses.response(`withdrawn:${slug}`, async () => {
      const upTo = this.responses.checkpointNow();
      const last = upTo === null ? null : await this.store.latestEvent(LISTING_AGGREGATE, slug, upTo);
      if (!last || listingAggregate.documentAfter(last) !== null) return storedBody('null');
      const data = last.data as WithdrawnData;
      const gone: GoneListing = { slug, status: 'withdrawn', since: last.occurredAt, reason: data.reason ?? null, replacedBy: data.replacedBy ?? [] };
      return storedBody(JSON.stringify(gone));
    });
    return JSON.parse(stored.body.toString()) as GoneListing | null;
  }

  /** The listing's liveness as published at `moment` (null: not checked by then), up to what the read models show. */
  async livenessAt(slug: string, moment: string): Promise<Liveness | null> {
    const upTo = this.responses.checkpointNow();
    if (upTo === null) return null;
    const last = await this.store.latestEvent(LIVENESS_AGGREGATE, slug, upTo, moment);
    return last ? livenessAggregate.documentAfter(last) : null;
  }

  /** The listing as published at `moment` (null: not published then), and whether it had been published before. */
  async documentAt(slug: string, moment: string): Promise<{ document: ListingDocument | null; existed: boolean; withdrawal: StoredEvent | null }> {
    // Its newest event by then, found in the event store without reading the listing's whole history.
    const upTo = this.responses.checkpointNow();
    const last = upTo === null ? null : await this.store.latestEvent(LISTING_AGGREGATE, slug, upTo, moment);
    const document = last ? listingAggregate.documentAfter(last) : null;
    return { document, existed: last !== null, withdrawal: last && document === null ? last : null };
  }
}

/**
 * A listing whose lifecycle says its provider retired it, from its stored JSON: a comparison row, or a
 * detail body (the listing under `tool`). Only JSON that says "retired" somewhere is parsed.
 */
export function retired(json: string | Buffer): GoneListing | null {
  if (!json.includes('"retired"')) return null;
  const parsed = JSON.parse(json.toString()) as ComparisonRow | ToolDetailResponse;
  const listing: Pick<ListingDocument, 'slug' | 'lifecycle'> = 'tool' in parsed ? parsed.tool : parsed;
  const lifecycle = listing.lifecycle;
  if (lifecycle?.status !== 'retired') return null;
  return { slug: listing.slug, status: 'retired', since: lifecycle.retiresAt ?? lifecycle.since ?? null, reason: lifecycle.reason ?? null, replacedBy: lifecycle.replacedBy ?? [] };
}

/** 410 Gone for a withdrawn or retired listing: when, why, and where to go instead. */
export function goneProblem(gone: GoneListing): ApiProblem {
  const when = gone.since ? ` on ${gone.since.slice(0, 10)}` : '';
  const why = gone.reason ? ` (${gone.reason})` : '';
  const instead = gone.replacedBy.length > 0 ? `; use ${gone.replacedBy.map((slug) => `${API_PREFIX}/tools/${slug}`).join(' or ')}` : '';
  const verb = gone.status === 'withdrawn' ? 'was withdrawn from the directory' : 'was retired by its provider';
  return new ApiProblem(410, 'gone', 'Gone', `'${gone.slug}' ${verb}${when}${why}${instead}`, {
    slug: gone.slug,
    gone: gone.status,
    since: gone.since,
    reason: gone.reason,
    replacedBy: gone.replacedBy,
    _links: { replacedBy: gone.replacedBy.map((slug) => `${API_PREFIX}/tools/${slug}`), history: `${API_PREFIX}/tools/${gone.slug}/history` },
  });
}
