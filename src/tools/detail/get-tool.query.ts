import { Query } from '@nestjs/cqrs';
import type { StoredBody } from '../../rendering/stored-body';

/** GET /api/v1/tools/{slug}: the whole listing (any case of the slug). */
export class GetToolQuery extends Query<StoredBody> {
  readonly slug: string;

  constructor(slug: string) {
    super();
    this.slug = slug.toLowerCase();
  }
}
