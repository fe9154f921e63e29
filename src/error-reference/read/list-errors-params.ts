import { badRequest } from '../../http/problem';
import { QueryParams, single } from '../../http/query-params';
import { ListErrorsQuery } from './list-errors.query';

/** The error list's parameters: `provider` (a listing slug) and `status` (100-599). Others are ignored. */
export function listErrorsQueryOf(params: QueryParams): ListErrorsQuery {
  const provider = single(params, 'provider')?.trim().toLowerCase() || null;
  const status = single(params, 'status')?.trim() || null;
  if (status !== null && !/^[1-5]\d\d$/.test(status)) {
    throw badRequest(`'status' must be an HTTP status code (100-599), got '${status}'`, { parameter: 'status' });
  }
  return new ListErrorsQuery(provider, status === null ? null : Number(status));
}
