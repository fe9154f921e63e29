import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Change } from '../contract/responses';
import { ResponseCache } from '../projections/response-cache';
import { storedBody, StoredBody } from '../http/stored-body';
import { ChangeLog } from './change-log';
import { LatestChangesQuery } from './latest-changes.query';

/** The body of a LatestChangesQuery: the changes as the feed serves them, newest first, with names. */
export interface LatestChanges {
  changes: Array<{ change: Change; name: string | null }>;
}

/** The newest changes up to what the read models show, kept in the read cache until they change. */
@QueryHandler(LatestChangesQuery)
export class LatestChangesHandler implements IQueryHandler<LatestChangesQuery, StoredBody> {
  constructor(
    private readonly responses: ResponseCache,
    private readonly log: ChangeLog,
  ) {}

  execute(query: LatestChangesQuery): Promise<StoredBody> {
    return this.responses.response(query.key, async () => {
      const upTo = this.responses.checkpointNow(); // first, before anything awaits: see checkpointNow
      const newest = await this.log.latest(query.limit, upTo);
      const body: LatestChanges = { changes: newest.map(({ change, name }) => ({ change, name })) };
      return storedBody(JSON.stringify(body));
    });
  }
}
