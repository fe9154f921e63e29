import type { CategoryCatalog } from '../catalog/category-catalog';
import { PublishedData } from '../event-store/document-aggregate';
import type { EventEnvelope, StoredEvent } from '../event-store/event-envelope';
import { streamName } from '../event-store/event-store.service';
import { readLatestEvents } from '../event-store/latest-events';
import { ErrorEntryDocument, errorEntryId } from '../error-reference/error-entry.document';
import { ERROR_ENTRY_PUBLISHED, ERROR_ENTRY_REVISED, ERROR_ENTRY_WITHDRAWN } from '../error-reference/events/error-entry-events';
import type { ListingDocument } from '../listings/listing.document';
import { LISTING_PUBLISHED, LISTING_REVISED, LISTING_WITHDRAWN } from '../listings/events/listing-events';
import type { RedisClient } from '../redis/redis-connection';
import type { GenerationKeys, RedisKeys } from '../redis/redis-keys';
import { LISTING_AGGREGATE } from '../listings/listing.aggregate';
import { ERROR_ENTRY_AGGREGATE } from '../error-reference/error-entry.aggregate';
import { listingPostings, SearchIndexWriter } from '../search/search-index.writer';
import { TOKENIZER_VERSION } from '../search/tokenizer';
import { CatalogState, cardOf } from './catalog-state';
import { renderCategories } from './projectors/categories.projector';
import { WriteBatch } from './write-batch';
import { sendEncoded } from '../redis/resp-writer';
import type { BuildPool } from './build/build-pool';
import { PostingLists } from './build/posting-lists';
import { WholeSortedSet, writeWholeSortedSets } from './build/whole-sorted-sets';
import { renderErrorEntry } from './projectors/error-reference.projector';
import { relatedListings, renderListing } from './projectors/tool-detail.projector';

/** Bump when what the projectors write changes (shape, or which fields are indexed): generations built by another version are rebuilt. */
export const READ_MODEL_VERSION = `3.${TOKENIZER_VERSION}`;
export const START_POSITION = '0-0';
/** Documents read from the event store at a time when loading the working memory (bounds memory and pipelines). */
const LOAD_SHARE = 1000;
/** Events that carry the document an aggregate publishes, and those that withdraw it. */
const PUBLISHING_EVENTS = new Set([LISTING_PUBLISHED, LISTING_REVISED, ERROR_ENTRY_PUBLISHED, ERROR_ENTRY_REVISED]);
const WITHDRAWING_EVENTS = new Set([LISTING_WITHDRAWN, ERROR_ENTRY_WITHDRAWN]);

/** What a batch of events leaves behind, per aggregate: the final document, or null when withdrawn. */
interface BatchChanges {
  listings: Map<string, ListingDocument | null>;
  errors: Map<string, ErrorEntryDocument | null>;
}

/**
 * Applies events to one generation of read models. Each batch is one MULTI/EXEC that writes the read
 * models and the new checkpoint, guarded by WATCH on the checkpoint (compare-and-set): a crash at any
 * point leaves either the whole batch or none of it, and a second writer loses instead of doubling.
 * It must run on a connection of its own (WATCH is per connection).
 */
export class GenerationProjector {
  readonly state = new CatalogState();
  private readonly index: SearchIndexWriter;

  readonly keys: GenerationKeys;

  constructor(
    private readonly client: RedisClient,
    readonly generation: number,
    /** The store's keys: the generation's are derived from them, and listings are read from its events. */
    private readonly storeKeys: RedisKeys,
    private readonly categories: CategoryCatalog,
  ) {
    this.keys = storeKeys.generation(generation);
    this.index = new SearchIndexWriter(this.keys, this.state.dictionary);
  }

  /**
   * Loads the working memory: the documents from the event store as of the generation's checkpoint (it is
   * their only copy: the read models hold what is served), the dictionary from the read models. Returns
   * the checkpoint.
   */
  async load(): Promise<string> {
    const keys = this.keys;
    const checkpoint = (await this.client.get(keys.checkpoint)) ?? START_POSITION;
    const streams = await this.client.hkeys(this.storeKeys.versions);
    const idsOf = (type: string) => {
      const prefix = streamName(type, '');
      return streams.filter((stream) => stream.startsWith(prefix)).map((stream) => stream.slice(prefix.length));
    };
    for (const share of shares(idsOf(LISTING_AGGREGATE))) {
      for (const listing of (await this.listingsAt(share, checkpoint)).values()) if (listing) this.state.setCard(cardOf(listing));
    }
    for (const share of shares(idsOf(ERROR_ENTRY_AGGREGATE))) {
      const entries = await this.documentsAt<ErrorEntryDocument>(ERROR_ENTRY_AGGREGATE, share, checkpoint);
      for (const [id, entry] of entries) if (entry) this.state.errors.set(id, entry);
    }
    for (const card of this.state.cards.values()) {
      const { uses, filledFrom } = relatedListings(card, this.state);
      this.state.setDependencies(card.slug, uses, filledFrom);
    }
    await this.loadDictionary();
    return checkpoint;
  }

  /** Loads the terms of the generation's search dictionary. */
  private async loadDictionary(): Promise<void> {
    for (const term of await this.client.zrange(this.keys.termDictionary, '0', '-1')) this.state.dictionary.add(term);
  }

  private listingsAt(slugs: string[], position: string): Promise<Map<string, ListingDocument | null>> {
    return this.documentsAt<ListingDocument>(LISTING_AGGREGATE, slugs, position);
  }

  /**
   * These documents as of `position` (null for one withdrawn or not published by then), from their
   * aggregates' newest event at or before it: every event carries the whole document.
   */
  private async documentsAt<T>(aggregateType: string, ids: string[], position: string): Promise<Map<string, T | null>> {
    const found = new Map<string, T | null>(ids.map((id) => [id, null]));
    // No event is at or before the start. A new generation's load would otherwise ask Redis about every
    // aggregate (a script call each: 100,000 after a bulk import into an empty store) to learn nothing.
    if (position === START_POSITION) return found;
    const streams = ids.map((id) => streamName(aggregateType, id));
    for (const raw of await readLatestEvents(this.client, this.storeKeys, streams, position)) {
      const event = JSON.parse(raw.json) as EventEnvelope;
      if (PUBLISHING_EVENTS.has(event.type)) found.set(event.aggregateId, (event.data as PublishedData<T>).document);
      else if (!WITHDRAWING_EVENTS.has(event.type)) throw new Error(`event ${raw.position} has an unknown type '${event.type}'`);
    }
    return found;
  }

  /** Marks a new generation with the versions that built it. */
  async initialise(): Promise<void> {
    await this.client.hset(this.keys.meta, { readModelVersion: READ_MODEL_VERSION, createdAt: new Date().toISOString() });
  }

  /** Events of the stream not applied to this generation yet. */
  async lag(streamLength: number): Promise<number> {
    return streamLength - Number((await this.client.get(this.keys.appliedEvents)) ?? 0);
  }

  async readModelVersion(): Promise<string | null> {
    return this.client.hget(this.keys.meta, 'readModelVersion');
  }

  /**
   * Applies a batch that follows `checkpoint`. Returns false, writing nothing, when the checkpoint moved
   * under us (another runner); the working memory is then stale and the caller must reload.
   */
  /**
   * Listings and error entries a rebuild left to render: it renders each document once, at the end,
   * instead of again whenever something it shows appears later in the log.
   */
  private readonly deferred = new Set<string>();

  async applyBatch(events: StoredEvent[], checkpoint: string): Promise<boolean> {
    if (events.length === 0) return true;
    const keys = this.keys;
    const changes = foldBatch(events);
    const touched = [...changes.listings.keys()];

    await this.client.watch(keys.checkpoint);
    const [stored, applied] = await this.client.mget(keys.checkpoint, keys.appliedEvents);
    const current = stored ?? START_POSITION;
    if (current !== checkpoint) {
      await this.client.unwatch();
      return false;
    }
    // As this generation last saw them: their postings are replaced, their browse entries moved.
    const previous = touched.length > 0 ? await this.listingsAt(touched, checkpoint) : new Map<string, ListingDocument | null>();

    const writes = new WriteBatch((term) => this.keys.term(term));
    const dirty = this.applyListingChanges(writes, changes.listings, previous);
    this.applyErrorChanges(writes, changes.errors, dirty);
    await this.renderDirty(writes, dirty, changes.listings, checkpoint);
    if (touched.length > 0 || changes.errors.size > 0) writes.set(keys.categoriesBody, renderCategories(this.state, this.categories));
    writes.set(keys.checkpoint, events[events.length - 1].position);
    writes.set(keys.appliedEvents, String(Number(applied ?? 0) + events.length));
    const tx = this.client.multi();
    writes.applyTo(tx);
    const result = await tx.exec();
    if (result === null) return false;
    const failed = result.find(([error]) => error);
    if (failed) throw failed[0];
    return true;
  }

  /** Writes browse sets and the search index; returns the listings to re-render. */
  private applyListingChanges(
    tx: WriteBatch,
    listings: Map<string, ListingDocument | null>,
    previous: Map<string, ListingDocument | null>,
  ): Set<string> {
    const keys = this.keys;
    const state = this.state;
    const dirty = new Set<string>();
    const categoriesTouched = new Set<string>();
    for (const [slug, next] of listings) {
      const before = previous.get(slug) ?? null;
      if (before) categoriesTouched.add(before.category);
      if (next) categoriesTouched.add(next.category);
    }
    const topsBefore = new Map([...categoriesTouched].map((c) => [c, state.categoryTop(c).join(',')]));

    for (const [slug, next] of listings) {
      const before = previous.get(slug) ?? null;
      for (const dependent of state.usedBy.get(slug) ?? []) dirty.add(dependent);
      this.index.replace(
        tx,
        slug,
        before ? listingPostings(before, this.categories.get(before.category)) : null,
        next ? listingPostings(next, this.categories.get(next.category)) : null,
      );
      if (before && (!next || before.category !== next.category)) tx.zrem(keys.browseCategory(before.category), slug);
      if (next) {
        tx.zadd(keys.browseAll, -next.popularity, slug);
        tx.zadd(keys.browseCategory(next.category), -next.popularity, slug);
        state.setCard(cardOf(next));
        dirty.add(slug);
      } else {
        tx.hdel(keys.details, slug);
        tx.hdel(keys.summaries, slug);
        tx.hdel(keys.comparisons, slug);
        tx.zrem(keys.browseAll, slug);
        state.forget(slug);
        dirty.delete(slug);
      }
    }
    for (const category of categoriesTouched) {
      if (state.categoryTop(category).join(',') !== topsBefore.get(category)) {
        for (const user of state.fillUsers.get(category) ?? []) dirty.add(user);
      }
    }
    for (const slug of listings.keys()) {
      for (const entry of state.errors.values()) if (entry.provider === slug) dirty.add(`error:${errorEntryId(entry)}`);
    }
    return dirty;
  }

  private applyErrorChanges(tx: WriteBatch, errors: Map<string, ErrorEntryDocument | null>, dirty: Set<string>): void {
    const keys = this.keys;
    for (const [id, next] of errors) {
      const before = this.state.errors.get(id);
      if (before) dirty.add(before.provider);
      if (next) {
        this.state.errors.set(id, next);
        dirty.add(next.provider);
        dirty.add(`error:${id}`);
      } else {
        this.state.errors.delete(id);
        tx.hdel(keys.errorEntries, id);
      }
    }
  }

  /** Rebuild only: the index postings of every share built, written whole by renderDeferred. */
  private postings = new PostingLists();

  private writingIndex: Promise<void> = Promise.resolve();

  /** Shares handed to the build pool whose results are not taken in yet. */
  private building: Array<Promise<void>> = [];

  /**
   * Rebuild only: builds the listings of these aggregate streams into a generation that nobody reads or
   * writes yet. The pool's builders read, parse, tokenise and write them on their threads; this thread
   * keeps the working memory (cards, error entries) and the index postings, and applies the error entries.
   * Rendering is deferred to renderDeferred. Returns once the share is handed over; `onBuilt` is told how
   * many events it held.
   */
  async buildChunk(streams: string[], upTo: string, pool: BuildPool, onBuilt?: (events: number) => void): Promise<void> {
    // Enough shares in hand to keep every builder busy, and no more (memory).
    while (this.building.length >= pool.size * 2) await this.building.shift();
    const task = pool.buildShare(streams, upTo).then(async (share) => {
      for (const card of share.cards) {
        this.state.setCard(card);
        this.deferred.add(card.slug);
      }
      this.postings.add(share.cards.map((card) => card.slug), share.postings);
      for (const slug of share.withdrawn) this.state.forget(slug);
      if (share.others.length > 0) {
        const changes = foldBatch(share.others);
        const writes = new WriteBatch((term) => this.keys.term(term));
        const dirty = new Set<string>();
        this.applyErrorChanges(writes, changes.errors, dirty);
        for (const marker of dirty) this.deferred.add(marker);
        await this.send(writes);
      }
      onBuilt?.(share.events);
    });
    task.catch(() => undefined);
    this.building.push(task);
  }

  /** Writes of this thread during a build (error entries), as a plain pipeline, as the builders do. */
  private async send(writes: WriteBatch): Promise<void> {
    await sendEncoded(this.client, writes.encode());
  }

  /** After a failed build: waits until no share of it is being taken in (failures ignored). */
  async settle(): Promise<void> {
    while (this.building.length > 0) await Promise.allSettled(this.building.splice(0));
    await this.writingIndex.catch(() => undefined);
  }

  /**
   * Writes the search index from the postings gathered (RESTORE when `restore`, else ZADD), then the term
   * dictionary and the browse sets (writeWholeSortedSets), while the builders render what the build
   * deferred, each on the builder that indexed the listing; then the error entries and the categories;
   * once Redis confirmed every write, sets the checkpoint.
   */
  async renderDeferred(checkpoint: string, appliedEvents: number, pool: BuildPool, restore: boolean, chunkSize = 500): Promise<void> {
    while (this.building.length > 0) await this.building.shift();
    const pending = [...this.deferred];
    this.deferred.clear();
    const slugs = pending.filter((marker) => !marker.startsWith('error:') && this.state.cards.has(marker));
    // The index is written from this thread while the builders render, then the sets known only now
    // that every listing is indexed: the term dictionary and the browse sets.
    const terms = this.postings.allTerms;
    for (const term of terms) this.state.dictionary.add(term);
    const wholeSets = this.wholeSortedSets(terms);
    const index = this.postings
      .write(this.client, (term) => this.keys.term(term), restore)
      .then(() => writeWholeSortedSets(this.client, wholeSets, restore));
    this.writingIndex = index;
    index.catch(() => undefined);
    await pool.setCatalog([...this.state.cards.values()], this.state.errors);
    await pool.render(slugs, chunkSize, ({ dependencies }) => {
      for (const [slug, uses, filledFrom] of dependencies) this.state.setDependencies(slug, uses, filledFrom);
    });
    await index;
    this.postings = new PostingLists();
    const errors = new WriteBatch((term) => this.keys.term(term));
    await this.renderDirty(errors, new Set(pending.filter((marker) => marker.startsWith('error:'))), new Map(), checkpoint);
    await this.send(errors);
    await pool.flush();
    await this.client.mset(
      this.keys.categoriesBody,
      renderCategories(this.state, this.categories),
      this.keys.checkpoint,
      checkpoint,
      this.keys.appliedEvents,
      String(appliedEvents),
    );
  }

  /** Rebuild only: the term dictionary (every term of the index) and the browse sets, whole. */
  private wholeSortedSets(terms: readonly string[]): WholeSortedSet[] {
    const dictionary: WholeSortedSet = { key: this.keys.termDictionary, members: [...terms], scores: terms.map(() => 0) };
    const all: WholeSortedSet = { key: this.keys.browseAll, members: [], scores: [] };
    const byCategory = new Map<string, WholeSortedSet>();
    for (const { slug, category, popularity } of this.state.cards.values()) {
      let inCategory = byCategory.get(category);
      if (!inCategory) byCategory.set(category, (inCategory = { key: this.keys.browseCategory(category), members: [], scores: [] }));
      for (const set of [all, inCategory]) {
        set.members.push(slug);
        set.scores.push(-popularity || 0); // 0, not -0: a payload keeps the sign, which Redis would show
      }
    }
    return [dictionary, all, ...byCategory.values()];
  }

  /**
   * Renders every dirty listing (and error entry, marked `error:<id>`) into the transaction: those of the
   * batch from it, the others as they were at `checkpoint`.
   */
  private async renderDirty(
    tx: WriteBatch,
    dirty: Set<string>,
    batch: Map<string, ListingDocument | null>,
    checkpoint: string,
  ): Promise<void> {
    const keys = this.keys;
    const slugs = [...dirty].filter((s) => !s.startsWith('error:') && this.state.cards.has(s));
    const missing = slugs.filter((s) => !batch.get(s));
    // Listings re-rendered for what they show are unchanged since the checkpoint the batch follows.
    const documents = missing.length > 0 ? await this.listingsAt(missing, checkpoint) : new Map<string, ListingDocument | null>();
    for (const slug of slugs) {
      const listing = batch.get(slug) ?? documents.get(slug)!;
      const rendered = renderListing(listing, this.state, this.categories);
      this.state.setDependencies(slug, rendered.uses, rendered.filledFrom);
      tx.hset(keys.details, slug, rendered.detail);
      tx.hset(keys.summaries, slug, rendered.summary);
      tx.hset(keys.comparisons, slug, rendered.comparison);
    }
    for (const marker of dirty) {
      if (!marker.startsWith('error:')) continue;
      const entry = this.state.errors.get(marker.slice('error:'.length));
      if (entry) tx.hset(keys.errorEntries, errorEntryId(entry), renderErrorEntry(entry, this.state));
    }
  }
}

function* shares<T>(items: T[], size = LOAD_SHARE): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** Folds a batch into the final state of each aggregate it touches. */
export function foldBatch(events: StoredEvent[]): BatchChanges {
  const listings = new Map<string, ListingDocument | null>();
  const errors = new Map<string, ErrorEntryDocument | null>();
  for (const event of events) {
    switch (event.type) {
      case LISTING_PUBLISHED:
      case LISTING_REVISED:
        listings.set(event.aggregateId, (event.data as PublishedData<ListingDocument>).document);
        break;
      case LISTING_WITHDRAWN:
        listings.set(event.aggregateId, null);
        break;
      case ERROR_ENTRY_PUBLISHED:
      case ERROR_ENTRY_REVISED:
        errors.set(event.aggregateId, (event.data as PublishedData<ErrorEntryDocument>).document);
        break;
      case ERROR_ENTRY_WITHDRAWN:
        errors.set(event.aggregateId, null);
        break;
      default:
        throw new Error(
          `event ${event.position} has unknown type '${event.type}' (aggregate ${event.aggregateType}); ` +
            `is a newer version of the service writing to this store?`,
        );
    }
  }
  return { listings, errors };
}
