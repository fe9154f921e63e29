import { Query } from '@nestjs/cqrs';
import type { StoredBody } from '../../http/stored-body';

/** GET /api/v1/tools/categories: every category with its count of listings. */
export class ListCategoriesQuery extends Query<StoredBody> {}
