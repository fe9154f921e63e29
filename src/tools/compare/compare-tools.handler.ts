import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { notFound } from '../../http/problem';
import { ReadModels } from '../../read-models/read-models.service';
import { API_PREFIX } from '../../rendering/listing-views';
import { storedBody, StoredBody } from '../../rendering/stored-body';
import { CompareToolsQuery } from './compare-tools.query';

/** Puts the stored comparison rows side by side; unknown slugs are listed in `notFound`, never dropped. */
@QueryHandler(CompareToolsQuery)
export class CompareToolsHandler implements IQueryHandler<CompareToolsQuery, StoredBody> {
  constructor(private readonly readModels: ReadModels) {}

  execute(query: CompareToolsQuery): Promise<StoredBody> {
    const { ids, url } = query;
    return this.readModels.response(url, async () => {
      const rows = await this.readModels.comparisons(ids);
      const found = rows.filter((row): row is string => row !== null);
      const notFoundIds = ids.filter((_, i) => rows[i] === null);
      if (found.length === 0) {
        throw notFound(`none of the requested tools is in the directory: ${notFoundIds.join(', ')}`, { notFound: notFoundIds });
      }
      const links = { self: url, tools: ids.filter((_, i) => rows[i] !== null).map((id) => `${API_PREFIX}/tools/${id}`) };
      return storedBody(
        `{"success":true,"total":${found.length},"compared":[${found.join(',')}],"notFound":${JSON.stringify(notFoundIds)},"_links":${JSON.stringify(links)}}`,
      );
    });
  }
}
