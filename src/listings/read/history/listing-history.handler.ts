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
      // What kind each change is, and whether a reader sees it, from the events' own data (their type, and
      // a revision's changedFields); the values before and after are worked out for the page's changes only.
      const steps = events.map((event, i) => {
        const document = listingAggregate.documentAfter(event);
        const previousDocument = i > 0 ? listingAggregate.documentAfter(events[i - 1]) : null;
        const kind = document === null ? 'withdrawn' : previousDocument === null ? 'published' : 'revised';
        const changed = (event.data as Partial<RevisedData<object>>).changedFields;
        // A revision of unpublished fields only (the editor's note) changed nothing a reader sees.
        const shown = kind !== 'revised' || changed === undefined || changed.some((field) => !UNPUBLISHED.has(field));
        return { event, i, kind, shown };
      });
      const shown = steps.filter((step) => step.shown).reverse();
      const from = query.before === null ? 0 : shown.findIndex((step) => step.event.version < query.before!);
      const pageSteps = from === -1 ? [] : shown.slice(from, from + query.limit);
      const page = pageSteps.map(({ event, i, kind }) => {
        const document = listingAggregate.documentAfter(event);
        const before = i > 0 ? listingAggregate.documentAfter(events[i - 1]) : null;
        const fields = document && before ? diffFields(before, document).filter((field) => !UNPUBLISHED.has(field)) : [];
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
      const last = pageSteps.at(-1);
      const nextBefore = last && shown.indexOf(last) < shown.length - 1 ? last.event.version : null;
      const current = steps.at(-1)!;
      return storedBody(
        JSON.stringify({
          success: true,
          slug: query.slug,
          version: current.event.version,
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
