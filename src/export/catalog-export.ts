import { Injectable } from '@nestjs/common';
import { Categories } from '../categories/categories';
import { encodeChangeCursor } from '../changes/change-cursor';
import { ERROR_ENTRY_AGGREGATE, errorEntryAggregate } from '../error-reference/write/error-entry.aggregate';
import type { ErrorEntryDocument } from '../error-reference/write/error-entry.document';
import { comparePositions, EventStore, START_POSITION } from '../event-store/event-store.service';
import { LISTING_AGGREGATE, listingAggregate } from '../listings/write/listing.aggregate';
import type { ListingDocument } from '../listings/write/listing.document';
import { ReadModels } from '../projections/read-models.service';
import { RenderState, cardOf } from '../listings/views/render-state';
import { categoryList } from '../categories/views/categories-view';
import { renderErrorEntry } from '../error-reference/views/error-entry-view';
import { API_PREFIX, detailTool } from '../listings/views/listing-views';
import { livenessAggregate } from '../liveness/rules/liveness.aggregate';
import { MODEL_ENTRY_AGGREGATE, modelEntryAggregate } from '../models/write/model-entry.aggregate';
import { publishedModelEntry } from '../models/views/model-views';

/** Listings read at a time (stored details, or documents from the event store): a share is all the memory an export holds. */
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

/** What an export shows, all as JSON: the categories, the error entries, each listing's detail `tool`, the model entries. */
interface Contents {
  slugs: string[];
  categories: string;
  errors: string[];
  /** Each model entry as published, by id. */
  models: string[];
  /** Each listing's `tool`, in the order of `slugs`. */
  tools: AsyncIterable<string | Buffer>;
}

/** The order of the export's error entries. */
const byProviderStatusTitle = (a: ErrorEntryDocument, b: ErrorEntryDocument) => a.provider.localeCompare(b.provider) || a.status - b.status || a.title.localeCompare(b.title);

/** A stored detail is `<etag>\n{"success":true,"tool":{…},"_links":{…}}` (renderListing). */
const DETAIL_HEAD = '{"success":true,"tool":';

/**
 * The `tool` of a stored detail, cut out of its bytes as it is, unparsed: `_links` is the body's last key
 * and the `"_links":` before it the last in the body (the links after it hold no quote).
 */
const toolOf = (stored: Buffer) => stored.subarray(stored.indexOf('\n') + 1 + DETAIL_HEAD.length, stored.lastIndexOf(',"_links":'));

async function* commaSeparated(pieces: AsyncIterable<string | Buffer>): AsyncGenerator<string | Buffer> {
  let first = true;
  for await (const piece of pieces) {
    if (!first) yield ',';
    yield piece;
    first = false;
  }
}

/**
 * The whole catalog as of one position of the event log, streamed: every live listing's detail, the
 * categories and the error reference, consistent with a change-feed cursor (a mirror exports once, then
 * follows the feed from that cursor). At the read models' own position (no asOf), it streams the details
 * they hold, each share read in one transaction with their checkpoint; otherwise (asOf, or the read models
 * moved on while it streams) documents come from the event store as of that position, read twice, a share at
 * a time (once for what every detail shows of other listings, once to render). Either way, writes made
 * while an export streams do not show in it.
 */
@Injectable()
export class CatalogExport {
  constructor(
    private readonly store: EventStore,
    private readonly categories: Categories,
    private readonly readModels: ReadModels,
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
  async *json(snapshot: CatalogSnapshot): AsyncGenerator<string | Buffer> {
    const { slugs, categories, errors, tools, models } = await this.contents(snapshot.position);
    yield `{"success":true,"schemaVersion":${EXPORT_SCHEMA_VERSION},"asOf":${JSON.stringify(snapshot.asOf)},"cursor":${JSON.stringify(snapshot.cursor)},`;
    yield `"categories":${categories},"errors":[${errors.join(',')}],"tools":[`;
    yield* commaSeparated(tools);
    const links = { self: snapshot.asOf ? `${EXPORT_PATH}?asOf=${snapshot.asOf}` : EXPORT_PATH, schema: EXPORT_SCHEMA_PATH, changes: `${API_PREFIX}/changes?since=${snapshot.cursor}` };
    yield `],"total":${slugs.length},"models":[${models.join(',')}],"_links":${JSON.stringify(links)}}`;
  }

  /**
   * The same listings in the shape the public directory serves at /api/data: a JSON array of listings,
   * each with `_meta` (the directory's size and description, and the listing's lastUpdated).
   */
  async *publicDirectoryArray(snapshot: CatalogSnapshot): AsyncGenerator<string | Buffer> {
    const { slugs, tools } = await this.contents(snapshot.position);
    const meta = { totalApis: slugs.length, siteDescription: SITE_DESCRIPTION, siteUrl: '/', bilingual: ['en', 'zh'] };
    const withMeta = async function* () {
      for await (const json of tools) {
        const tool = JSON.parse(json.toString()) as Record<string, unknown>;
        yield JSON.stringify({ ...tool, _meta: { ...meta, lastUpdated: tool.lastUpdated } });
      }
    };
    yield '[';
    yield* commaSeparated(withMeta());
    yield ']';
  }

  /** Every model entry live at `position` from the event store, by id, as published. */
  private async modelEntriesAt(position: string): Promise<string[]> {
    const ids = (await this.store.aggregateIds(MODEL_ENTRY_AGGREGATE)).sort();
    const entries: string[] = [];
    for (let i = 0; i < ids.length; i += SHARE) {
      for (const entry of (await this.store.documentsAt(modelEntryAggregate, ids.slice(i, i + SHARE), position)).values()) {
        if (entry) entries.push(JSON.stringify(publishedModelEntry(entry)));
      }
    }
    return entries;
  }

  /** What the export at `position` shows: from the read models when they are at it, else from the event store. */
  private async contents(position: string): Promise<Contents> {
    return (await this.fromReadModels(position)) ?? this.fromStore(position);
  }

  /** The listings, categories and error entries the read models hold, or null unless they are at `position`. */
  private async fromReadModels(position: string): Promise<Contents | null> {
    const head = await this.readModels.readAt(position, (tx, keys) => tx.hkeys(keys.details).get(keys.categoriesBody).hvals(keys.errorEntries).hgetall(keys.modelEntries));
    if (!head?.[1]) return null;
    const [slugs, categoriesBody, errors, modelsById] = head as [string[], string, string[], Record<string, string>];
    slugs.sort();
    const sorted = errors.map((json) => ({ json, entry: JSON.parse(json) as ErrorEntryDocument })).sort((a, b) => byProviderStatusTitle(a.entry, b.entry));
    return {
      slugs,
      categories: JSON.stringify(JSON.parse(categoriesBody.slice(categoriesBody.indexOf('\n') + 1)).categories),
      errors: sorted.map(({ json }) => json),
      tools: this.storedTools(position, slugs),
      models: Object.keys(modelsById).sort().map((id) => modelsById[id]),
    };
  }

  /**
   * The stored details' tools, a share at a time; from the event store from the first share read after the
   * read models moved on. Read as bytes: sent as they are, off the heap (as strings from the client, each
   * share outlived the young generation's collections and filled old space; see bench/README.md).
   */
  private async *storedTools(position: string, slugs: string[]): AsyncGenerator<string | Buffer> {
    for (let i = 0; i < slugs.length; i += SHARE) {
      const share = slugs.slice(i, i + SHARE);
      const read = await this.readModels.readAt(position, (tx, keys) => tx.hmgetBuffer(keys.details, ...share));
      if (!read) {
        const { state } = await this.stateAt(position);
        yield* this.renderedTools(position, state, slugs.slice(i));
        return;
      }
      for (const stored of read[0] as Buffer[]) yield toolOf(stored);
    }
  }

  /** The export at `position` from the event store. */
  private async fromStore(position: string): Promise<Contents> {
    const { state, slugs } = await this.stateAt(position);
    const errors = [...state.errors.values()].sort(byProviderStatusTitle).map((entry) => renderErrorEntry(entry, state));
    return { slugs, categories: JSON.stringify(categoryList(state, this.categories)), errors, tools: this.renderedTools(position, state, slugs), models: await this.modelEntriesAt(position) };
  }

  /**
   * Each listing's `tool` rendered from its document, read a share at a time and given out one listing at a
   * time: small pieces are young garbage the collector takes at once, where a share's worth in one string
   * went to the large-object space and stayed until a full collection.
   */
  private async *renderedTools(position: string, state: RenderState, slugs: string[]): AsyncGenerator<string> {
    for (let i = 0; i < slugs.length; i += SHARE) {
      const documents = await this.store.documentsAt(listingAggregate, slugs.slice(i, i + SHARE), position);
      for (const listing of documents.values()) if (listing) yield JSON.stringify(detailTool(listing, state, this.categories));
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
