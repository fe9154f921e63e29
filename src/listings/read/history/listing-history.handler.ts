import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { LRUCache } from 'lru-cache';
import type { StoredEvent } from '../../../event-store/event-envelope';
import type { HistoryKind } from '../../../event-store/event-store.service';
import { UNPUBLISHED_LISTING_FIELDS } from '../../../contract/listing-views';
import { diffFields, RevisedData, valuesOf, WithdrawnData } from '../../../event-store/document-aggregate';
import { notFound } from '../../../http/problem';
import { listingAggregate } from '../../write/listing.aggregate';
import { ResponseCache } from '../../../projections/response-cache';
import { API_PREFIX } from '../../views/listing-views';
import { storedBody, StoredBody } from '../../../http/stored-body';
import { ListingTimeline } from '../timeline/listing-timeline';
import { ListingHistoryQuery } from './listing-history.query';

const UNPUBLISHED = new Set<string>(UNPUBLISHED_LISTING_FIELDS);
/** Characters of worked-out changes a process keeps (about 16 MB of strings). */
const CHANGES_KEPT_CHARS = 8_000_000;

/** One event of a history as the page shows it: when, what kind, and the public fields it changed, before and after. */
function changeOf(event: StoredEvent, kind: HistoryKind, previous: StoredEvent | undefined) {
  const document = listingAggregate.documentAfter(event);
  const data = event.data as RevisedData<object>;
  let changes: Array<{ field: string; before: unknown; after: unknown }> | null = null;
  if (kind === 'revised' && data.before) {
    changes = data.changedFields.filter((field) => !UNPUBLISHED.has(field)).map((field) => ({ field, before: data.before![field] ?? null, after: valuesOf(document!, [field])[field] }));
  } else if (kind === 'revised') {
    const before = listingAggregate.documentAfter(previous!)!;
    changes = diffFields(before, document!).filter((field) => !UNPUBLISHED.has(field)).map((field) => ({ field, before: valuesOf(before, [field])[field], after: valuesOf(document!, [field])[field] }));
  }
  const withdrawn = kind === 'withdrawn' ? (event.data as WithdrawnData) : null;
  return {
    version: event.version,
    occurredAt: event.occurredAt,
    kind,
    changes,
    reason: withdrawn?.reason ?? null,
    replacedBy: withdrawn?.replacedBy ?? null,
    forced: data.forced ? true : false,
  };
}

/**
 * A listing's history from the event log: each change with its time, version and kind, and the public
 * fields it changed with their values before and after (worked out from the documents the events carry,
 * so older events tell it too). Newest first, paged by version; withdrawn listings keep their history.
 */
@QueryHandler(ListingHistoryQuery)
export class ListingHistoryHandler implements IQueryHandler<ListingHistoryQuery, StoredBody> {
  /** Changes as JSON by their event's position in the log, bounded in characters. */
  private readonly changes = new LRUCache<string, string>({ maxSize: CHANGES_KEPT_CHARS, sizeCalculation: (json, position) => json.length + position.length });

  constructor(
    private readonly responses: ResponseCache,
    private readonly timeline: ListingTimeline,
  ) {}

  execute(query: ListingHistoryQuery): Promise<StoredBody> {
    return this.responses.response(query.url, async () => {
      // The page's changes (kind and index), worked out in Redis from the history's summaries up to what the
      // read models show; the documents are read for the page's changes only, whatever the length.
      const history = await this.timeline.historyPage(query.slug, query.before, query.limit);
      if (history.versions === 0) throw notFound(`no tool with slug '${query.slug}' was ever published; search with ${API_PREFIX}/tools/search?q=${encodeURIComponent(query.slug)}`, { slug: query.slug });
      // Each change as JSON, worked out once per process: an event never changes, nor does what it changed,
      // so a page asked for again (or a neighbour's, with another `before`) reads no event twice.
      // Taken from the cache once, into this page's own map: a change set below (or by another request) may
      // push out one this page needs before it is read again.
      const worked = new Map<string, string>();
      for (const { position } of history.changes) {
        const json = this.changes.get(position);
        if (json !== undefined) worked.set(position, json);
      }
      const missing = history.changes.filter(({ position }) => !worked.has(position));
      if (missing.length > 0) {
        // A revision recorded without its values before (events from before they were kept) also needs the
        // event before it, to compare the documents.
        const events = new Map((await this.timeline.eventsAt(query.slug, missing.map(({ index }) => index))).map((event) => [event.version - 1, event]));
        const lacking = missing.filter(({ index, kind }) => kind === 'revised' && !(events.get(index)!.data as RevisedData<object>).before && !events.has(index - 1)).map(({ index }) => index - 1);
        for (const event of await this.timeline.eventsAt(query.slug, lacking)) events.set(event.version - 1, event);
        for (const { index, kind, position } of missing) {
          const json = JSON.stringify(changeOf(events.get(index)!, kind, events.get(index - 1)));
          worked.set(position, json);
          this.changes.set(position, json);
        }
      }
      const page = history.changes.map(({ position }) => worked.get(position)!);
      const nextBefore = history.nextBefore;
      const head = JSON.stringify({
        success: true,
        slug: query.slug,
        version: history.versions,
        live: history.lastKind !== 'withdrawn',
        total: history.total,
        returned: page.length,
        limit: query.limit,
        nextBefore,
      });
      const links = JSON.stringify({
        self: query.url,
        ...(nextBefore !== null ? { next: `${API_PREFIX}/tools/${query.slug}/history?before=${nextBefore}&limit=${query.limit}` } : {}),
        listing: `${API_PREFIX}/tools/${query.slug}`,
        asOf: `${API_PREFIX}/tools/${query.slug}?asOf={date}`,
      });
      return storedBody(`${head.slice(0, -1)},"changes":[${page.join(',')}],"_links":${links}}`);
    });
  }
}
