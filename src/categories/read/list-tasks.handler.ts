import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { storedBody, StoredBody } from '../../http/stored-body';
import { ResponseCache } from '../../projections/response-cache';
import { LiveSearchIndex } from '../../search/live-search-index';
import { Categories } from '../categories';
import { ListTasksQuery } from './list-tasks.query';

/** The tasks of fixtures/tasks.yaml, each with the listings that do it now (from the search index). */
@QueryHandler(ListTasksQuery)
export class ListTasksHandler implements IQueryHandler<ListTasksQuery, StoredBody> {
  constructor(
    private readonly responses: ResponseCache,
    private readonly search: LiveSearchIndex,
    private readonly categories: Categories,
  ) {}

  execute(): Promise<StoredBody> {
    return this.responses.response('/api/v1/tasks', async () => {
      const counts = (await this.search.current()).taskCounts();
      const tasks = this.categories.tasks.map((task) => ({ ...task, count: counts.get(task.slug) ?? 0 }));
      const links = { self: '/api/v1/tasks', listings: '/api/v1/tools?task={slug}', search: '/api/v1/tools/search?task={slug}&q={query}' };
      return storedBody(JSON.stringify({ success: true, total: tasks.length, tasks, _links: links }));
    });
  }
}
