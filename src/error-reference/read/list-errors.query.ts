import { Query } from '@nestjs/cqrs';
import { API_PREFIX } from '../../listings/views/listing-views';
import type { StoredBody } from '../../http/stored-body';

/** GET /api/v1/errors: the published error reference, by provider and status. */
export class ListErrorsQuery extends Query<StoredBody> {
  constructor(
    readonly provider: string | null,
    readonly status: number | null,
  ) {
    super();
  }

  /** The canonical URL (provider, then status; nothing else): `_links.self`, and the read cache's key. */
  get url(): string {
    const params = new URLSearchParams({ ...(this.provider ? { provider: this.provider } : {}), ...(this.status !== null ? { status: String(this.status) } : {}) });
    return `${API_PREFIX}/errors${params.size > 0 ? `?${params}` : ''}`;
  }
}
