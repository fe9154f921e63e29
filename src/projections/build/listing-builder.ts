import type { Category } from '../../catalog/category-catalog';
import { CategoryCatalog } from '../../catalog/category-catalog';
import type { ErrorEntryDocument } from '../../error-reference/error-entry.document';
import type { EventEnvelope } from '../../event-store/event-envelope';
import type { PublishedData } from '../../event-store/document-aggregate';
import type { ListingDocument } from '../../listings/listing.document';
import { LISTING_PUBLISHED, LISTING_REVISED, LISTING_WITHDRAWN } from '../../listings/events/listing-events';
import { AppConfig } from '../../config/app-config';
import { readLatestEvents } from '../../event-store/latest-events';
import { createClient, RedisClient } from '../../redis/create-client';
import { RedisKeys } from '../../redis/redis-keys';
import type { GenerationKeys } from '../../redis/redis-keys';
import { SearchIndexWriter } from '../../search/search-index.writer';
import { CatalogState, cardOf, ListingCard } from '../catalog-state';
import { renderDetailTail, renderStatic } from '../projectors/tool-detail.projector';
import { withEtagParts } from '../read-model-body';
import { RespWriter, sendEncoded } from '../../redis/resp-writer';
import { WriteBatch } from '../write-batch';
import { PackedPostings, PostingPacker } from './posting-lists';

/** What building a share of the aggregates leaves for the projector's own thread. */
export interface BuiltShare {
  /** Events read (one per aggregate that has one). */
  events: number;
  /** Cards of the listings published, for the projector's working memory. */
  cards: ListingCard[];
  /** Listings whose newest event withdrew them. */
  withdrawn: string[];
  /** Events that are not listing events (error entries), parsed, for the projector to apply itself. */
  others: Array<EventEnvelope & { position: string }>;
  /** The index postings of `cards` (the projector writes each term's list whole, see PostingLists). */
  postings: PackedPostings;
}

export interface RenderedShare {
  /** slug, the listings its detail shows, the category that filled its comparison. */
  dependencies: Array<[string, string[], string | null]>;
}

/** What every builder of a generation needs to know: how to reach Redis, where to write, the categories. */
export interface BuilderSettings {
  /** The service's settings (their data: they cross to worker threads). */
  config: Partial<AppConfig>;
  generation: number;
  categories: Category[];
}

/**
 * The heavy part of building a generation of read models, for one share of the aggregates: reading their
 * newest events, parsing them, tokenising listings into index postings (handed to the projector, which
 * writes each term's list whole: see PostingLists), rendering their documents, and writing those to Redis
 * on a connection of its own. Builders run on worker threads (see BuildPool),
 * so that several shares are built at once while the projector's thread keeps the catalog's working
 * memory.
 *
 * It writes into a generation that nobody reads or writes yet (a rebuild), so nothing is read first and
 * nothing is deleted. What a listing renders to on its own (summary, comparison row, most of its detail)
 * is rendered while Redis stores the share before; the builder keeps each detail's head and completes
 * it once every card of the catalog is known. Rendering whole details at the end left Redis idle for a
 * fifth of a rebuild while the threads rendered.
 */
export class ListingBuilder {
  private readonly keys: GenerationKeys;
  private readonly storeKeys: RedisKeys;
  private readonly categories: CategoryCatalog;
  private readonly client: RedisClient;
  /** Terms whose typo variants this builder has written (another builder may write them again: that is harmless). */
  private readonly dictionary = new Set<string>();
  private readonly index: SearchIndexWriter;
  /**
   * slug -> the head of its detail (see renderStatic) as UTF-8, for the listings this builder indexed. Kept
   * as bytes: held from indexing to rendering, hundreds of megabytes of text were copied by every young
   * collection on the way and encoded twice at the end (for the ETag, then for Redis).
   */
  private readonly detailHeads = new Map<string, Buffer>();
  private state: CatalogState | null = null;
  /** The pipeline sent last and not confirmed yet: the next one waits for it (one in flight). */
  private inFlight: Promise<void> = Promise.resolve();
  /**
   * Memory the commands are encoded into, reused from one pipeline to the next (tens of megabytes): a new
   * buffer for each, grown by doubling, cost allocations, copies and collections that showed in profiles.
   * Reusing it is safe because a pipeline is encoded only once the one before it was answered in full.
   */
  private readonly writer = new RespWriter(1 << 24);

  constructor(settings: BuilderSettings) {
    const config = Object.assign(Object.create(AppConfig.prototype), settings.config) as AppConfig;
    this.storeKeys = new RedisKeys(config.namespace);
    this.keys = this.storeKeys.generation(settings.generation);
    this.categories = new CategoryCatalog(settings.categories);
    this.index = new SearchIndexWriter(this.keys, this.dictionary);
    this.client = createClient(config, false);
  }

  /**
   * Builds the listings of these aggregate streams (their newest event at or before `upTo`): the typo
   * variants of the index's terms, summaries and comparison rows; returns the share's postings.
   * Returns once the writes are sent (see flush).
   */
  async buildShare(streams: string[], upTo: string): Promise<BuiltShare> {
    const events = await readLatestEvents(this.client, this.storeKeys, streams, upTo);
    const keys = this.keys;
    const writes = new WriteBatch();
    const cards: ListingCard[] = [];
    const withdrawn: string[] = [];
    const others: BuiltShare['others'] = [];
    const packer = new PostingPacker();
    for (const raw of events) {
      const event = JSON.parse(raw.json) as EventEnvelope;
      switch (event.type) {
        case LISTING_PUBLISHED:
        case LISTING_REVISED: {
          const listing = (event.data as PublishedData<ListingDocument>).document;
          packer.add(cards.length, listing, this.categories.get(listing.category));
          const own = renderStatic(listing, this.categories);
          writes.hset(keys.summaries, listing.slug, own.summary);
          writes.hset(keys.comparisons, listing.slug, own.comparison);
          this.detailHeads.set(listing.slug, Buffer.from(own.detailHead));
          cards.push(cardOf(listing));
          break;
        }
        case LISTING_WITHDRAWN:
          this.detailHeads.delete(event.aggregateId);
          withdrawn.push(event.aggregateId);
          break;
        default:
          others.push({ ...event, position: raw.position });
      }
    }
    const postings = packer.pack();
    // The share's distinct terms, once each (looking every posting up in the dictionary cost seconds).
    // The dictionary itself, like the browse sets, is written whole by the projector (writeWholeSortedSets).
    this.index.addDeletionVariants(writes, postings.terms);
    await this.send(writes);
    return { events: events.length, cards, withdrawn, others, postings };
  }

  /** Takes the catalog as the projector knows it once every listing is indexed. */
  setCatalog(cards: ListingCard[], errors: ErrorEntryDocument[], errorIds: string[]): void {
    const state = new CatalogState();
    for (const card of cards) state.setCard(card);
    errors.forEach((entry, i) => state.errors.set(errorIds[i], entry));
    this.state = state;
  }

  /** Completes the details of listings this builder indexed and sends them. */
  async render(slugs: string[]): Promise<RenderedShare> {
    const state = this.state;
    if (!state) throw new Error('render before setCatalog');
    const keys = this.keys;
    const writes = new WriteBatch();
    const dependencies: RenderedShare['dependencies'] = [];
    for (const slug of slugs) {
      const head = this.detailHeads.get(slug);
      const card = state.cards.get(slug);
      if (head === undefined || card === undefined) throw new Error(`listing ${slug} was not indexed by this builder`);
      const { tail, uses, filledFrom } = renderDetailTail(card, state);
      dependencies.push([slug, uses, filledFrom]);
      // What renderDetail stores, from the head's bytes.
      writes.hset(keys.details, slug, withEtagParts([head, tail]));
    }
    await this.send(writes);
    return { dependencies };
  }

  /** Waits until Redis has confirmed everything sent; throws the first failure. */
  async flush(): Promise<void> {
    await this.inFlight;
  }

  async close(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }

  /**
   * Nobody reads a generation being built and a failed build is discarded whole, so the writes go as a
   * plain pipeline, not a transaction: Redis neither queues the commands nor answers QUEUED for each.
   * This builder prepares its next share while Redis applies this one.
   */
  private async send(writes: WriteBatch): Promise<void> {
    await this.inFlight;
    this.inFlight = sendEncoded(this.client, writes.encode(this.writer.reset()));
    this.inFlight.catch(() => undefined);
  }
}
