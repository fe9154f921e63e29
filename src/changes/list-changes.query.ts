import { Query } from '@nestjs/cqrs';
import { API_PREFIX } from '../listings/views/listing-views';
import type { StoredBody } from '../http/stored-body';

/** The canonical URL of a page of the feed at `path`: `since` (when given), then `limit`. */
export function changesUrl(path: string, since: string | null, limit: number): string {
  const params: Array<[string, string]> = since === null ? [] : [['since', since]];
  return `${API_PREFIX}/${path}?${new URLSearchParams([...params, ['limit', String(limit)]])}`;
}

/** GET /api/v1/changes: what was published, revised and withdrawn after a cursor, oldest first. */
export class ListChangesQuery extends Query<StoredBody> {
  constructor(
    /** The cursor as sent (null: from the beginning). */
    readonly since: string | null,
    /** The position it names. */
    readonly after: string,
    readonly limit: number,
  ) {
    super();
  }

  /** The canonical URL: `_links.self`, and the read cache's key. */
  get url(): string {
    return changesUrl('changes', this.since, this.limit);
  }

  /** The page after `cursor`, with the same limit. */
  urlAfter(cursor: string): string {
    return changesUrl('changes', cursor, this.limit);
  }
}
