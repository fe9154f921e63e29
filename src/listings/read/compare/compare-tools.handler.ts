import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { notFound } from '../../../http/problem';
import { ReadModels } from '../../../projections/read-models.service';
import { ResponseCache } from '../../../projections/response-cache';
import { API_PREFIX } from '../../views/listing-views';
import { storedBody, StoredBody } from '../../../http/stored-body';
import type { ComparisonRow } from '../../../contract/listing-views';
import { lowestRates } from '../../write/listing-facts';
import { COMPARED_RATE_UNITS, type ComparedRateUnit } from '../../../contract/vocabulary';
import type { GoneListing } from '../../../contract/responses';
import { ListingTimeline, retired } from '../timeline/listing-timeline';
import { CompareToolsQuery } from './compare-tools.query';

/**
 * Puts the stored comparison rows side by side; unknown slugs are listed in `notFound` and withdrawn or
 * retired ones in `gone` (with when, why and successors), never dropped.
 */
@QueryHandler(CompareToolsQuery)
export class CompareToolsHandler implements IQueryHandler<CompareToolsQuery, StoredBody> {
  constructor(
    private readonly readModels: ReadModels,
    private readonly responses: ResponseCache,
    private readonly timeline: ListingTimeline,
  ) {}

  execute(query: CompareToolsQuery): Promise<StoredBody> {
    const { ids, url } = query;
    return this.responses.response(url, async () => {
      const rows = await this.readModels.comparisons(ids);
      const compared: string[] = [];
      const comparedIds: string[] = [];
      const gone: GoneListing[] = [];
      const notFoundIds: string[] = [];
      await Promise.all(
        ids.map(async (id, i) => {
          const row = rows[i];
          const retiredListing = row !== null ? retired(row) : null;
          const withdrawn = row === null ? await this.timeline.withdrawn(id) : null;
          if (retiredListing || withdrawn) gone[i] = (retiredListing ?? withdrawn)!;
          else if (row === null) notFoundIds[i] = id;
          else [compared[i], comparedIds[i]] = [row, id];
        }),
      );
      const dense = <T>(list: T[]) => list.filter((item) => item !== undefined);
      if (dense(compared).length === 0) {
        const goneNote = dense(gone).map((g) => `${g.slug} (${g.status}${g.replacedBy.length ? `, replaced by ${g.replacedBy.join(', ')}` : ''})`);
        const detail = `none of the requested tools is in the directory: ${[...dense(notFoundIds), ...goneNote].join(', ')}`;
        throw notFound(detail, { notFound: dense(notFoundIds), gone: dense(gone) });
      }
      const links = { self: url, tools: dense(comparedIds).map((id) => `${API_PREFIX}/tools/${id}`) };
      const rates = ratesSideBySide(dense(compared).map((row) => JSON.parse(row) as ComparisonRow));
      return storedBody(
        `{"success":true,"total":${dense(compared).length},"compared":[${dense(compared).join(',')}],"notFound":${JSON.stringify(dense(notFoundIds))},"gone":${JSON.stringify(dense(gone))},"rates":${JSON.stringify(rates)},"_links":${JSON.stringify(links)}}`,
      );
    });
  }
}

/**
 * The compared listings' rates of one unit side by side: for each unit at least one of them has a lowest rate
 * for (see lowestRates: US dollars, no percentages), that rate of each listing, null where it has none. Units
 * in the order of the list of units, so the table reads the same for every comparison.
 */
export function ratesSideBySide(rows: ComparisonRow[]): Array<{ unit: ComparedRateUnit; currency: 'USD'; lowest: Record<string, number | null> }> {
  const lowest = new Map(rows.map((row) => [row.slug, lowestRates(row)]));
  return COMPARED_RATE_UNITS.filter((unit) => rows.some((row) => lowest.get(row.slug)!.has(unit))).map((unit) => ({
    unit,
    currency: 'USD' as const,
    lowest: Object.fromEntries(rows.map((row) => [row.slug, lowest.get(row.slug)!.get(unit) ?? null])),
  }));
}
