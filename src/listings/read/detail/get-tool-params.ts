import { parseMoment, QueryParams, single } from '../../../http/query-params';
import { GetToolQuery } from './get-tool.query';

/** `asOf` (see parseMoment): the detail then answers the listing as published at that time. */
export function getToolQueryOf(slug: string, params: QueryParams): GetToolQuery {
  return new GetToolQuery(slug, parseMoment(single(params, 'asOf'), 'asOf'));
}
