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
      // The page's changes (kind and index), worked out in Redis from the history's summaries up to what the
      // read models show; the documents are read for the page's changes only, whatever the length.
      const history = await this.timeline.historyPage(query.slug, query.before, query.limit);
      if (history.versions === 0) throw notFound(`no tool with slug '${query.slug}' was ever published; search with ${API_PREFIX}/tools/search?q=${encodeURIComponent(query.slug)}`, { slug: query.slug });
      const pageSteps = history.changes.map(({ index, kind }) => ({ i: index, kind }));
      // Each change of the page; a revision recorded without its values before (events from before they were
      // kept) also needs the event before it, to compare the documents.
      const pageEvents = new Map((await this.timeline.eventsAt(query.slug, pageSteps.map(({ i }) => i))).map((event) => [event.version - 1, event]));
      const lacking = pageSteps.filter(({ i, kind }) => kind === 'revised' && !(pageEvents.get(i)!.data as RevisedData<object>).before && !pageEvents.has(i - 1)).map(({ i }) => i - 1);
      for (const event of await this.timeline.eventsAt(query.slug, lacking)) pageEvents.set(event.version - 1, event);
      const page = pageSteps.map(({ i, kind }) => {
        const event = pageEvents.get(i)!;
        const document = listingAggregate.documentAfter(event);
        const data = event.data as RevisedData<object>;
        let changes: Array<{ field: string; before: unknown; after: unknown }> | null = null;
        if (kind === 'revised' && data.before) {
          changes = data.changedFields.filter((field) => !UNPUBLISHED.has(field)).map((field) => ({ field, before: data.before![field] ?? null, after: valuesOf(document!, [field])[field] }));
        } else if (kind === 'revised') {
          const before = listingAggregate.documentAfter(pageEvents.get(i - 1)!)!;
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
          forced: (event.data as RevisedData<object>).forced ? true : false,
        };
      });
      const nextBefore = history.nextBefore;
      return storedBody(
        JSON.stringify({
          success: true,
          slug: query.slug,
          version: history.versions,
          live: history.lastKind !== 'withdrawn',
          total: history.total,
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
