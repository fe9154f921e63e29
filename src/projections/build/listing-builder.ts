import type { Category } from '../../catalog/category-catalog';
import { CategoryCatalog } from '../../catalog/category-catalog';
import type { ErrorEntryDocument } from '../../error-reference/error-entry.document';
import type { EventEnvelope, RawEvent } from '../../event-store/event-envelope';
import type { PublishedData } from '../../event-store/document-aggregate';
import type { ListingDocument } from '../../listings/listing.document';
import { LISTING_PUBLISHED, LISTING_REVISED, LISTING_WITHDRAWN } from '../../listings/events/listing-events';
import { EncodedCommands, encodedCommands, RespWriter } from '../../redis/resp-writer';
import { GenerationKeys } from '../../redis/redis-keys';
import { listingPostings, SearchIndexWriter } from '../../search/search-index.writer';
import { CatalogState, cardOf, ListingCard } from '../catalog-state';
import { renderListing } from '../projectors/tool-detail.projector';
import { WriteBatch } from '../write-batch';

/** What indexing a chunk of listing events leaves for the projector's own thread. */
export interface IndexedChunk {
  writes: EncodedCommands;
  /** Cards of the listings published, for the projector's working memory. */
  cards: ListingCard[];
  /** Listings whose newest event withdrew them. */
  withdrawn: string[];
  /** Events that are not listing events (error entries), parsed, for the projector to apply itself. */
  others: Array<EventEnvelope & { position: string }>;
}

export interface RenderedChunk {
  writes: EncodedCommands;
  /** slug, the listings its detail shows, the category that filled its comparison. */
  dependencies: Array<[string, string[], string | null]>;
}

/** What every builder of a generation needs to know: where to write, and the categories. */
export interface BuilderSettings {
  keysTag: string;
  categories: Category[];
}

/**
 * The heavy part of building a generation of read models, for one share of the listings: parsing their
 * events, tokenising them into index postings, rendering their documents, and encoding the Redis commands
 * that write them. It runs on a worker thread (see BuildPool), so that several shares run at once while
 * the projector's thread keeps the catalog's working memory and talks to Redis.
 *
 * It writes into a generation that nobody reads or writes yet (a rebuild), so nothing is read first and
 * nothing is deleted; it keeps the JSON of the listings it indexed, to render them once every card of the
 * catalog is known.
 */
export class ListingBuilder {
  private readonly keys: GenerationKeys;
  private readonly categories: CategoryCatalog;
  /** Terms this builder has put in the dictionary (another builder may write one again: that is harmless). */
  private readonly dictionary = new Set<string>();
  private readonly index: SearchIndexWriter;
  /** slug -> the listing's JSON, as written to the sources hash. */
  private readonly sources = new Map<string, string>();
  private state: CatalogState | null = null;

  constructor(settings: BuilderSettings) {
    this.keys = new GenerationKeys(settings.keysTag);
    this.categories = new CategoryCatalog(settings.categories);
    this.index = new SearchIndexWriter(this.keys, this.dictionary);
  }

  /** Parses a chunk of events (the newest of each aggregate) and encodes the writes of its listings. */
  indexEvents(events: RawEvent[]): IndexedChunk {
    const keys = this.keys;
    const writes = new WriteBatch((term) => keys.term(term));
    const cards: ListingCard[] = [];
    const withdrawn: string[] = [];
    const others: IndexedChunk['others'] = [];
    for (const raw of events) {
      const event = JSON.parse(raw.json) as EventEnvelope;
      switch (event.type) {
        case LISTING_PUBLISHED:
        case LISTING_REVISED: {
          const listing = (event.data as PublishedData<ListingDocument>).document;
          const json = JSON.stringify(listing);
          this.index.replace(writes, listing.slug, null, listingPostings(listing, this.categories.get(listing.category)));
          writes.hset(keys.sources, listing.slug, json);
          writes.zadd(keys.browseAll, -listing.popularity, listing.slug);
          writes.zadd(keys.browseCategory(listing.category), -listing.popularity, listing.slug);
          this.sources.set(listing.slug, json);
          cards.push(cardOf(listing));
          break;
        }
        case LISTING_WITHDRAWN:
          this.sources.delete(event.aggregateId);
          withdrawn.push(event.aggregateId);
          break;
        default:
          others.push({ ...event, position: raw.position });
      }
    }
    return { writes: encodedCommands(writes.encode()), cards, withdrawn, others };
  }

  /** Takes the catalog as the projector knows it once every listing is indexed. */
  setCatalog(cards: ListingCard[], errors: ErrorEntryDocument[], errorIds: string[]): void {
    const state = new CatalogState();
    for (const card of cards) state.setCard(card);
    errors.forEach((entry, i) => state.errors.set(errorIds[i], entry));
    this.state = state;
  }

  /** Renders listings this builder indexed (their detail, summary and comparison row). */
  render(slugs: string[]): RenderedChunk {
    const state = this.state;
    if (!state) throw new Error('render before setCatalog');
    const keys = this.keys;
    const writes = new WriteBatch();
    const dependencies: RenderedChunk['dependencies'] = [];
    for (const slug of slugs) {
      const json = this.sources.get(slug);
      if (json === undefined) throw new Error(`listing ${slug} was not indexed by this builder`);
      const rendered = renderListing(JSON.parse(json) as ListingDocument, state, this.categories);
      dependencies.push([slug, rendered.uses, rendered.filledFrom]);
      writes.hset(keys.details, slug, rendered.detail);
      writes.hset(keys.summaries, slug, rendered.summary);
      writes.hset(keys.comparisons, slug, rendered.comparison);
    }
    return { writes: encodedCommands(writes.encode()), dependencies };
  }
}
