import { Query } from '@nestjs/cqrs';
import type { StoredBody } from '../../rendering/stored-body';

/** GET /api/v1/tools/categories: every category with its count of listings. */
export class ListCategoriesQuery extends Query<StoredBody> {}
