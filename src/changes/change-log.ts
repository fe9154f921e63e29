import { Injectable } from '@nestjs/common';
import { errorEntryAggregate } from '../error-reference/write/error-entry.aggregate';
import type { StoredEvent } from '../event-store/event-envelope';
import { comparePositions, EventStore } from '../event-store/event-store.service';
import { START_POSITION } from '../event-store/event-store.service';
import { describeEvent, DescribedChange, meaningOf, needsPrevious } from './change';
import { modelEntryAggregate } from '../models/write/model-entry.aggregate';
import { listingAggregate } from '../listings/write/listing.aggregate';
import type { DocumentAggregate } from '../event-store/document-aggregate';

/** A stretch of the feed, oldest first. */
export interface ChangePage {
  changes: DescribedChange[];
  /** The position of the last event read: where the next page starts (the start position when none was). */
  end: string;
  /** Whether the log holds more events after `end`, up to the read models' checkpoint. */
  more: boolean;
}

/**
 * The change feed's reading of the event log. Every read stops at `upTo`, the checkpoint of the read
 * models being served, so a change is never in the feed before the detail and lists show it. The log
 * is never trimmed: any position it gave out can be read after for good.
 */
@Injectable()
export class ChangeLog {
  constructor(private readonly store: EventStore) {}

  /** Whether a position may start a page: the start, or an event of this log (not one of a store since emptied). */
  async knows(position: string): Promise<boolean> {
    return position === START_POSITION || this.store.has(position);
  }

  /** Up to `limit` changes after `after`, oldest first. */
  async page(after: string, limit: number, upTo: string | null): Promise<ChangePage> {
    // A cursor ahead of the checkpoint comes from a process whose read models are further on: nothing yet.
    if (upTo === null || comparePositions(after, upTo) >= 0) return { changes: [], end: after, more: false };
    const events = await this.store.readAll(after, limit + 1, upTo);
    const read = events.slice(0, limit);
    return { changes: await this.describe(read), end: read.at(-1)?.position ?? after, more: events.length > limit };
  }

  /** The newest `limit` changes, newest first. */
  async latest(limit: number, upTo: string | null): Promise<DescribedChange[]> {
    const found: DescribedChange[] = [];
    // Some events show nothing (a revision of an editor's note only): read on until the page is full.
    let from = upTo;
    while (from !== null && found.length < limit) {
      const wanted = limit - found.length;
      const events = await this.store.readAllBackwards(from, wanted);
      found.push(...(await this.describe(events)));
      from = events.length < wanted ? null : `(${events[events.length - 1].position}`;
    }
    return found;
  }

  /** When the newest change the read models show happened (null: none yet). */
  async lastChangeTime(upTo: string | null): Promise<string | null> {
    if (upTo === null) return null;
    const [newest] = await this.store.readAllBackwards(upTo, 1);
    return newest?.occurredAt ?? null;
  }

  /**
   * The changes these events make, in their order. Events of types the feed does not know are left out:
   * the projector stops at such an event, so none is ever below the checkpoint, but the feed must not
   * fail on one. The cursor still moves past them (see `end`).
   */
  private async describe(events: StoredEvent[]): Promise<DescribedChange[]> {
    const previous = await this.documentsBefore(events.filter(needsPrevious));
    return events
      .map((event) => describeEvent(event, previous.get(event.position) ?? null))
      .filter((c): c is DescribedChange => c !== null);
  }

  /**
   * The documents before the events that need them (see needsPrevious), by the event's position: the
   * values an older revision (recorded without its `before` values) changed, and the provider of a
   * withdrawn error entry (a withdrawal carries no document). Both are rare: one read each.
   */
  private async documentsBefore(events: StoredEvent[]): Promise<Map<string, object>> {
    const found = new Map<string, object>();
    await Promise.all(
      events.map(async (event) => {
        const history = await this.store.readAggregate(event.aggregateType, event.aggregateId);
        const before = history.find((earlier) => earlier.version === event.version - 1);
        const aggregate = event.aggregateType === errorEntryAggregate.aggregateType ? errorEntryAggregate : event.aggregateType === modelEntryAggregate.aggregateType ? modelEntryAggregate : listingAggregate;
        const document = before && meaningOf(before) ? (aggregate as DocumentAggregate<object>).documentAfter(before) : null;
        if (document) found.set(event.position, document);
      }),
    );
    return found;
  }
}
