import { Query } from '@nestjs/cqrs';
import type { StoredBody } from '../http/stored-body';

/**
 * The newest `limit` changes, newest first, each with the name of what changed: what the Atom feed shows
 * without `since`, as JSON (`LatestChanges`). No HTTP route of its own: the pages (the home page and the
 * recent changes) ask it; agents poll the change feed with a cursor instead.
 */
export class LatestChangesQuery extends Query<StoredBody> {
  constructor(readonly limit: number) {
    super();
  }

  /** The read cache's key. */
  get key(): string {
    return `latest-changes?limit=${this.limit}`;
  }
}
