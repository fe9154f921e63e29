import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { badRequest } from '../http/problem';
import { ResponseCache } from '../projections/response-cache';
import { API_PREFIX } from '../listings/views/listing-views';
import { storedBody, StoredBody } from '../http/stored-body';
import { encodeChangeCursor } from './change-cursor';
import { ChangeLog } from './change-log';
import { ListChangesQuery } from './list-changes.query';

/** The refusal of a cursor that names no event of this log (made up, or from a store since emptied). */
export function unknownCursor() {
  return badRequest(`'since' names no change of this directory: leave 'since' out to read the feed from the beginning`, { parameter: 'since' });
}

/**
 * A page of the change feed, oldest first, up to what the read models show. `nextCursor` is where the
 * page ends (the same `since` when nothing is new), so an agent keeps polling with it. The answer is kept
 * in the read cache until the read models change: a full page below the checkpoint never changes at all.
 */
@QueryHandler(ListChangesQuery)
export class ListChangesHandler implements IQueryHandler<ListChangesQuery, StoredBody> {
  constructor(
    private readonly responses: ResponseCache,
    private readonly log: ChangeLog,
  ) {}

  execute(query: ListChangesQuery): Promise<StoredBody> {
    return this.responses.response(query.url, async () => {
      const upTo = this.responses.checkpointNow(); // first, before anything awaits: see checkpointNow
      if (!(await this.log.knows(query.after))) throw unknownCursor();
      const page = await this.log.page(query.after, query.limit, upTo);
      const nextCursor = encodeChangeCursor(page.end);
      return storedBody(
        JSON.stringify({
          success: true,
          since: query.since,
          limit: query.limit,
          returned: page.changes.length,
          hasMore: page.more,
          nextCursor,
          changes: page.changes.map((described) => described.change),
          _links: { self: query.url, next: query.urlAfter(nextCursor), atom: `${API_PREFIX}/changes.atom` },
        }),
      );
    });
  }
}
