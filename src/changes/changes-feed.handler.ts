import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ResponseCache } from '../projections/response-cache';
import { API_PREFIX } from '../listings/views/listing-views';
import { storedBody, StoredBody } from '../http/stored-body';
import { AtomEntry, AtomLink, renderAtom, renderRss } from './atom-feed';
import { encodeChangeCursor } from './change-cursor';
import { ChangeLog } from './change-log';
import type { DescribedChange } from './change';
import { ChangesFeedQuery } from './changes-feed.query';
import { unknownCursor } from './list-changes.handler';
import { changesUrl } from './list-changes.query';

/** The `updated` of a feed with no change at all (an empty directory). */
const NEVER = '1970-01-01T00:00:00.000Z';

/**
 * The change feed as Atom, for feed readers: newest entry first, as they expect. Without `since` it is the
 * newest `limit` changes; with it, the page the JSON feed gives for that cursor, with a `next` link while
 * more follow (RFC 5005). Ids are permanent: the feed's is its URL without parameters, an entry's the
 * event's UUID. Links are absolute (PUBLIC_BASE_URL, or the host the request came to).
 */
@QueryHandler(ChangesFeedQuery)
export class ChangesFeedHandler implements IQueryHandler<ChangesFeedQuery, StoredBody> {
  constructor(
    private readonly responses: ResponseCache,
    private readonly log: ChangeLog,
  ) {}

  execute(query: ChangesFeedQuery): Promise<StoredBody> {
    return this.responses.response(query.cacheKey, async () => {
      const upTo = this.responses.checkpointNow(); // first, before anything awaits: see checkpointNow
      const base = query.baseUrl;
      const links: AtomLink[] = [{ rel: 'self', href: `${base}${query.url}`, type: query.format === 'rss' ? 'application/rss+xml' : 'application/atom+xml' }];
      let newestFirst: DescribedChange[];
      if (query.after === null) {
        newestFirst = await this.log.latest(query.limit, upTo);
        links.push({ rel: 'alternate', href: `${base}${changesUrl('changes', null, query.limit)}`, type: 'application/json' });
      } else {
        if (!(await this.log.knows(query.after))) throw unknownCursor();
        const page = await this.log.page(query.after, query.limit, upTo);
        newestFirst = page.changes.reverse();
        links.push({ rel: 'alternate', href: `${base}${changesUrl('changes', query.since, query.limit)}`, type: 'application/json' });
        if (page.more) links.push({ rel: 'next', href: `${base}${changesUrl('changes.atom', encodeChangeCursor(page.end), query.limit)}`, type: 'application/atom+xml' });
      }
      const updated = newestFirst[0]?.change.occurredAt ?? (await this.log.lastChangeTime(upTo)) ?? NEVER;
      const render = query.format === 'rss' ? renderRss : renderAtom;
      return storedBody(
        render({
          id: `${base}${API_PREFIX}/changes.atom`,
          title: 'API Directory: changes',
          subtitle: 'Listings and error-reference entries published, revised and withdrawn, and the liveness of listings as it changes.',
          updated,
          author: 'API Directory',
          links,
          entries: newestFirst.map((described) => entryOf(described, base)),
        }),
      );
    });
  }
}

const KIND_NAMES = { listing: 'Listing', 'error-entry': 'Error entry', liveness: 'Liveness of', model: 'Model' } as const;

function entryOf({ change, eventId, name }: DescribedChange, base: string): AtomEntry {
  const what = name === null ? change.id : `${name} (${change.id})`;
  const details = [
    `${KIND_NAMES[change.kind]} ${what} ${change.type}, version ${change.version}.`,
    ...(change.changes ? [`Changed: ${change.changes.map(({ field, before, after }) => `${field}${shortValue(before, after)}`).join('; ')}.`] : []),
    ...(change.reason ? [`Reason: ${change.reason}`] : []),
    ...(change.replacedBy ? [`Replaced by: ${change.replacedBy.join(', ')}.`] : []),
  ];
  return {
    id: `urn:uuid:${eventId}`,
    title: `${KIND_NAMES[change.kind]} ${change.id} ${change.type}`,
    updated: change.occurredAt,
    links: [{ rel: 'alternate', href: `${base}${change._links.self}`, type: 'application/json' }],
    categories: [change.type, change.kind],
    summary: details.join(' '),
  };
}

/** ` from X to Y` when both values are short enough to read in a summary, else nothing (the JSON feed has them). */
function shortValue(before: unknown, after: unknown): string {
  const show = (value: unknown) => (typeof value === 'string' ? `"${value}"` : JSON.stringify(value));
  const [from, to] = [show(before), show(after)];
  return from.length + to.length <= 160 ? ` from ${from} to ${to}` : '';
}
