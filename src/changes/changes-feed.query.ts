import { Query } from '@nestjs/cqrs';
import type { StoredBody } from '../rendering/stored-body';
import { changesUrl } from './list-changes.query';

/**
 * GET /api/v1/changes.atom: the feed as Atom, newest entry first. Without `since`, the newest `limit`
 * changes (what a feed reader polls); with it, the same page as the JSON feed.
 */
export class ChangesFeedQuery extends Query<StoredBody> {
  constructor(
    readonly since: string | null,
    /** The position `since` names; null without it. */
    readonly after: string | null,
    readonly limit: number,
    /** Absolute links start with it: PUBLIC_BASE_URL, or the scheme and host the request came to. */
    readonly baseUrl: string,
  ) {
    super();
  }

  /** The canonical path and query of this page. */
  get url(): string {
    return changesUrl('changes.atom', this.since, this.limit);
  }

  /** The read cache's key: the body's links depend on the base URL too. */
  get cacheKey(): string {
    return `${this.baseUrl}${this.url}`;
  }
}
