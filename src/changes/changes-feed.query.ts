import { Query } from '@nestjs/cqrs';
import type { StoredBody } from '../http/stored-body';
import { changesUrl } from './list-changes.query';

/** Where the public directory serves its RSS feed, and so do we. */
export const RSS_PATH = '/rss.xml';

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
    /** Atom (/api/v1/changes.atom) or RSS 2.0 (/rss.xml, the public directory's feed). */
    readonly format: 'atom' | 'rss' = 'atom',
  ) {
    super();
  }

  /** The canonical path and query of this page. */
  get url(): string {
    const url = changesUrl('changes.atom', this.since, this.limit);
    return this.format === 'rss' ? url.replace(/^[^?]*/, RSS_PATH) : url;
  }

  /** The read cache's key: the body's links depend on the base URL too. */
  get cacheKey(): string {
    return `${this.baseUrl}${this.url}`;
  }
}
