import { Injectable } from '@nestjs/common';
import { Categories } from '../categories/categories';
import { encodeChangeCursor } from '../changes/change-cursor';
import { START_POSITION } from '../event-store/event-store.service';
import { ERROR_ENTRY_AGGREGATE, errorEntryAggregate } from '../error-entries/error-entry.aggregate';
import { comparePositions, EventStore } from '../event-store/event-store.service';
import { LISTING_AGGREGATE, listingAggregate } from '../listings/listing.aggregate';
import type { ListingDocument } from '../listings/listing.document';
import { RenderState, cardOf } from '../rendering/render-state';
import { renderErrorEntry } from '../rendering/error-entry-view';
import { API_PREFIX, detailTool } from '../rendering/listing-views';
import { livenessAggregate } from '../liveness/liveness.aggregate';

/** Listings read from the event store at a time: a share's documents are all the memory an export holds. */
const SHARE = 100;
export const EXPORT_SCHEMA_VERSION = 1;
export const EXPORT_PATH = `${API_PREFIX}/export`;
export const EXPORT_SCHEMA_PATH = `${API_PREFIX}/export.schema.json`;
const SITE_DESCRIPTION = 'A directory of third-party web APIs (chiefly AI, language-model and cloud APIs) for agents and developers, in English and Chinese.';

/** One export, fixed to a position of the log: what it says, and where a mirror follows on from it. */
export interface CatalogSnapshot {
  /** The position of the log the export is consistent with. */
  position: string;
  /** The change-feed cursor of that position: the changes after it are those the export does not show. */
  cursor: string;
  asOf: string | null;
}

/**
 * The whole catalog as of one position of the event log, streamed: every live listing's detail, the
 * categories and the error reference, consistent with a change-feed cursor (a mirror exports once, then
 * follows the feed from that cursor). Documents come from the event store as of that position, so writes
 * made while an export streams do not show in it; they are read twice, a share at a time (once for what
 * every detail shows of other listings, once to render), and never held all at once.
 */
@Injectable()
export class CatalogExport {
  constructor(
    private readonly store: EventStore,
    private readonly categories: Categories,
  ) {}

  /** The snapshot for `checkpoint` (the read models' position) or, with `asOf`, the last position at or before that moment. */
  async snapshot(checkpoint: string, asOf: string | null): Promise<CatalogSnapshot> {
    let position = checkpoint;
    if (asOf !== null) {
      // Stream ids start with the milliseconds of the append: the last event of the log by that moment.
      const [last] = await this.store.readAllBackwards(String(Date.parse(asOf)), 1);
      const then = last?.position ?? START_POSITION;
      if (comparePositions(then, checkpoint) < 0) position = then;
    }
    return { position, cursor: encodeChangeCursor(position), asOf };
  }

  /** The export's JSON, in pieces (exportSchema in src/contract/responses.ts gives its shape). */
  async *json(snapshot: CatalogSnapshot): AsyncGenerator<string> {
    const { state, slugs } = await this.stateAt(snapshot.position);
    const counts = new Map<string, number>();
    for (const card of state.cards.values()) counts.set(card.category, (counts.get(card.category) ?? 0) + 1);
    const categories = this.categories.all.map((c) => ({ slug: c.slug, name: c.name, nameCn: c.nameCn, count: counts.get(c.slug) ?? 0 }));
    const errors = [...state.errors.values()].sort((a, b) => a.provider.localeCompare(b.provider) || a.status - b.status || a.title.localeCompare(b.title));
    yield `{"success":true,"schemaVersion":${EXPORT_SCHEMA_VERSION},"asOf":${JSON.stringify(snapshot.asOf)},"cursor":${JSON.stringify(snapshot.cursor)},`;
    yield `"categories":${JSON.stringify(categories)},"errors":[${errors.map((entry) => renderErrorEntry(entry, state)).join(',')}],"tools":[`;
    yield* this.tools(snapshot, state, slugs, (tool) => tool);
    const links = { self: snapshot.asOf ? `${EXPORT_PATH}?asOf=${snapshot.asOf}` : EXPORT_PATH, schema: EXPORT_SCHEMA_PATH, changes: `${API_PREFIX}/changes?since=${snapshot.cursor}` };
    yield `],"total":${slugs.length},"_links":${JSON.stringify(links)}}`;
  }

  /**
   * The same listings in the shape the public directory serves at /api/data: a JSON array of listings,
   * each with `_meta` (the directory's size and description, and the listing's lastUpdated).
   */
  async *publicDirectoryArray(snapshot: CatalogSnapshot): AsyncGenerator<string> {
    const { state, slugs } = await this.stateAt(snapshot.position);
    const meta = { totalApis: slugs.length, siteDescription: SITE_DESCRIPTION, siteUrl: '/', bilingual: ['en', 'zh'] };
    yield '[';
    yield* this.tools(snapshot, state, slugs, (tool) => ({ ...tool, _meta: { ...meta, lastUpdated: tool.lastUpdated } }));
    yield ']';
  }

  /**
   * Each listing's detail `tool`, as `shape` makes it, comma-separated, read a share at a time and given
   * out one listing at a time: small pieces are young garbage the collector takes at once, where a share's
   * worth in one string went to the large-object space and stayed until a full collection.
   */
  private async *tools(snapshot: CatalogSnapshot, state: RenderState, slugs: string[], shape: (tool: Record<string, unknown>) => object): AsyncGenerator<string> {
    let written = 0;
    for (let i = 0; i < slugs.length; i += SHARE) {
      const documents = await this.store.documentsAt(listingAggregate, slugs.slice(i, i + SHARE), snapshot.position);
      for (const listing of documents.values()) {
        if (!listing) continue;
        yield `${written++ > 0 ? ',' : ''}${JSON.stringify(shape(detailTool(listing, state, this.categories)))}`;
      }
    }
  }

  /** Every listing live at `position` as the cards other listings' details show, and the error entries then. */
  private async stateAt(position: string): Promise<{ state: RenderState; slugs: string[] }> {
    const state = new RenderState();
    const slugs: string[] = [];
    const all = (await this.store.aggregateIds(LISTING_AGGREGATE)).sort();
    for (let i = 0; i < all.length; i += SHARE) {
      for (const [slug, listing] of await this.store.documentsAt(listingAggregate, all.slice(i, i + SHARE), position)) {
        if (!listing) continue;
        state.setCard(cardOf(listing as ListingDocument));
        slugs.push(slug);
      }
    }
    const entries = await this.store.documentsAt(errorEntryAggregate, await this.store.aggregateIds(ERROR_ENTRY_AGGREGATE), position);
    for (const [id, entry] of entries) if (entry) state.errors.set(id, entry);
    for (const [slug, liveness] of await this.store.documentsAt(livenessAggregate, slugs, position)) if (liveness) state.liveness.set(slug, liveness);
    return { state, slugs };
  }
}
