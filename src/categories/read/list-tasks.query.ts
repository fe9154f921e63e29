import { Query } from '@nestjs/cqrs';
import type { StoredBody } from '../../http/stored-body';

/** GET /api/v1/tasks: the task list, in both languages with its synonyms, and how many listings do each. */
export class ListTasksQuery extends Query<StoredBody> {}
