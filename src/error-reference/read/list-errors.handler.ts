import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ReadModels } from '../../projections/read-models.service';
import { ResponseCache } from '../../projections/response-cache';
import { storedBody, StoredBody } from '../../http/stored-body';
import { ListErrorsQuery } from './list-errors.query';

interface ServedErrorEntry {
  status: number;
  provider: string;
  title: string;
}

/** The stored entries of the error reference that match, by provider, status and title. */
@QueryHandler(ListErrorsQuery)
export class ListErrorsHandler implements IQueryHandler<ListErrorsQuery, StoredBody> {
  constructor(
    private readonly readModels: ReadModels,
    private readonly responses: ResponseCache,
  ) {}

  execute(query: ListErrorsQuery): Promise<StoredBody> {
    const { provider, status } = query;
    return this.responses.response(query.url, async () => {
      const entries = (await this.readModels.errorEntries())
        .map((json) => ({ json, entry: JSON.parse(json) as ServedErrorEntry }))
        .filter(({ entry }) => (provider === null || entry.provider === provider) && (status === null || entry.status === status))
        .sort((a, b) => a.entry.provider.localeCompare(b.entry.provider) || a.entry.status - b.entry.status || a.entry.title.localeCompare(b.entry.title));
      const head = JSON.stringify({ success: true, total: entries.length, provider, status });
      return storedBody(`${head.slice(0, -1)},"errors":[${entries.map((e) => e.json).join(',')}],"_links":${JSON.stringify({ self: query.url })}}`);
    });
  }
}
