import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { UNPUBLISHED_LISTING_FIELDS } from '../../../contract/listing-views';
import { diffFields, RevisedData, valuesOf, WithdrawnData } from '../../../event-store/document-aggregate';
import { notFound } from '../../../http/problem';
import { listingAggregate } from '../../write/listing.aggregate';
import { ReadModels } from '../../../projections/read-models.service';
import { API_PREFIX } from '../../views/listing-views';
import { storedBody, StoredBody } from '../../../http/stored-body';
import { ListingTimeline } from '../timeline/listing-timeline';
import { ListingHistoryQuery } from './listing-history.query';

const UNPUBLISHED = new Set<string>(UNPUBLISHED_LISTING_FIELDS);

/**
 * A listing's history from the event log: each change with its time, version and kind, and the public
 * fields it changed with their values before and after (worked out from the documents the events carry,
 * so older events tell it too). Newest first, paged by version; withdrawn listings keep their history.
 */
@QueryHandler(ListingHistoryQuery)
export class ListingHistoryHandler implements IQueryHandler<ListingHistoryQuery, StoredBody> {
  constructor(
    private readonly readModels: ReadModels,
    private readonly timeline: ListingTimeline,
  ) {}

  execute(query: ListingHistoryQuery): Promise<StoredBody> {
    return this.readModels.response(query.url, async () => {
      const events = await this.timeline.events(query.slug);
      if (events.length === 0) throw notFound(`no tool with slug '${query.slug}' was ever published; search with ${API_PREFIX}/tools/search?q=${encodeURIComponent(query.slug)}`, { slug: query.slug });
      let previous: object | null = null;
      const changes = events.map((event) => {
        const document = listingAggregate.documentAfter(event);
        const kind = document === null ? 'withdrawn' : previous === null ? 'published' : 'revised';
        const fields = document && previous ? diffFields(previous, document).filter((field) => !UNPUBLISHED.has(field)) : [];
        const before = previous;
        previous = document;
        const withdrawn = kind === 'withdrawn' ? (event.data as WithdrawnData) : null;
        return {
          version: event.version,
          occurredAt: event.occurredAt,
          kind,
          changes: kind === 'revised' ? fields.map((field) => ({ field, before: valuesOf(before!, [field])[field], after: valuesOf(document!, [field])[field] })) : null,
          reason: withdrawn?.reason ?? null,
          replacedBy: withdrawn?.replacedBy ?? null,
          forced: (event.data as RevisedData<object>).forced ? true : false,
        };
      });
      // A revision of unpublished fields only (the editor's note) changed nothing a reader sees.
      const shown = changes.filter((change) => change.kind !== 'revised' || change.changes!.length > 0).reverse();
      const from = query.before === null ? 0 : shown.findIndex((change) => change.version < query.before!);
      const page = from === -1 ? [] : shown.slice(from, from + query.limit);
      const last = page.at(-1);
      const nextBefore = last && shown.indexOf(last) < shown.length - 1 ? last.version : null;
      const current = changes.at(-1)!;
      return storedBody(
        JSON.stringify({
          success: true,
          slug: query.slug,
          version: current.version,
          live: current.kind !== 'withdrawn',
          total: shown.length,
          returned: page.length,
          limit: query.limit,
          nextBefore,
          changes: page,
          _links: {
            self: query.url,
            ...(nextBefore !== null ? { next: `${API_PREFIX}/tools/${query.slug}/history?before=${nextBefore}&limit=${query.limit}` } : {}),
            listing: `${API_PREFIX}/tools/${query.slug}`,
            asOf: `${API_PREFIX}/tools/${query.slug}?asOf={date}`,
          },
        }),
      );
    });
  }
}
