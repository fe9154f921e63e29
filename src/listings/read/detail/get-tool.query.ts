import { Query } from '@nestjs/cqrs';
import type { StoredBody } from '../../../http/stored-body';

/** GET /api/v1/tools/{slug}: the whole listing (any case of the slug), now or as it was at `asOf`. */
export class GetToolQuery extends Query<StoredBody> {
  readonly slug: string;
  /** Who asks (its address): an unknown slug's suggestions spend from its search budget (null: nobody's). */
  client: string | null = null;

  constructor(
    slug: string,
    /** A moment (ISO 8601, UTC): the listing as published then; null for now. */
    readonly asOf: string | null = null,
  ) {
    super();
    this.slug = slug.toLowerCase();
  }
}
