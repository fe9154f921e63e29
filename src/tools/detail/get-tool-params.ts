import { badRequest } from '../../http/problem';
import { QueryParams, single } from '../../http/query-params';
import { GetToolQuery } from './get-tool.query';

/**
 * `asOf`: a day (YYYY-MM-DD: the listing as it stood at the end of that day, UTC) or a moment
 * (YYYY-MM-DDThh:mm:ssZ, optionally with milliseconds); the detail then answers as published at that time.
 */
export function getToolQueryOf(slug: string, params: QueryParams): GetToolQuery {
  const raw = single(params, 'asOf')?.trim();
  if (raw === undefined || raw === '') return new GetToolQuery(slug);
  const day = /^\d{4}-\d{2}-\d{2}$/.test(raw);
  const moment = day ? `${raw}T23:59:59.999Z` : raw;
  const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/.test(moment) ? Date.parse(moment) : NaN;
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== moment.slice(0, 10)) {
    throw badRequest(`'asOf' must be a day (YYYY-MM-DD) or a moment in UTC (YYYY-MM-DDThh:mm:ssZ), got '${raw}'`, { parameter: 'asOf' });
  }
  return new GetToolQuery(slug, new Date(time).toISOString());
}
