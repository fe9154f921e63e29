import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { baseUrlOf } from '../http/base-url';
import { parseLimit, QueryParams, single } from '../http/query-params';
import { START_POSITION } from '../event-store/event-store.service';
import { decodeChangeCursor } from './change-cursor';
import { ChangesFeedQuery } from './changes-feed.query';
import { ListChangesQuery } from './list-changes.query';

/** Changes per page unless `limit` says otherwise, and at most (larger values are clamped). */
export const CHANGES_DEFAULT_LIMIT = 100;
export const CHANGES_MAX_LIMIT = 1000;

/** The feed's parameters: `since` (a cursor; absent or empty: from the beginning) and `limit`. Others are ignored. */
export function listChangesQueryOf(params: QueryParams): ListChangesQuery {
  const { since, after, limit } = feedParams(params);
  return new ListChangesQuery(since, after ?? START_POSITION, limit);
}

/** The Atom feed's parameters (the same), and the base of its absolute links. */
export function changesFeedQueryOf(params: QueryParams, request: FastifyRequest, config: AppConfig, format: 'atom' | 'rss' = 'atom'): ChangesFeedQuery {
  const { since, after, limit } = feedParams(params);
  return new ChangesFeedQuery(since, after, limit, baseUrlOf(request, config), format);
}

function feedParams(params: QueryParams): { since: string | null; after: string | null; limit: number } {
  const since = single(params, 'since')?.trim() || null;
  return {
    since,
    after: since === null ? null : decodeChangeCursor(since),
    limit: parseLimit(single(params, 'limit'), CHANGES_DEFAULT_LIMIT, CHANGES_MAX_LIMIT),
  };
}
