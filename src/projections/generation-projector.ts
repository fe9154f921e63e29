import { foldCatalogEvents } from '../catalog/catalog-events';
import { modelEntryAggregate } from '../models/write/model-entry.aggregate';
import { publishedModelEntry } from '../models/views/model-views';
import type { Categories } from '../categories/categories';
import type { StoredEvent } from '../event-store/event-envelope';
import { EventStore, shares, START_POSITION } from '../event-store/event-store.service';
import { errorEntryAggregate } from '../error-reference/write/error-entry.aggregate';
import { ErrorEntryDocument, errorEntryId } from '../error-reference/write/error-entry.document';
import { listingAggregate } from '../listings/write/listing.aggregate';
import type { ListingDocument } from '../listings/write/listing.document';
import type { Liveness } from '../liveness/liveness.schema';
import { livenessAggregate } from '../liveness/rules/liveness.aggregate';
import type { RedisClient } from '../redis/redis-connection';
import type { GenerationKeys } from '../redis/redis-keys';
import { RenderState, cardOf } from '../listings/views/render-state';
import { renderCategories } from '../categories/views/categories-view';
import { renderErrorEntry } from '../error-reference/views/error-entry-view';
import { relatedListings, renderListing } from '../listings/views/listing-views';

/** Bump when what the projector writes changes: generations built by another version are rebuilt. */
export const READ_MODEL_VERSION = '8';

/** The writes of one batch, grouped by hash: one HSET or HDEL per hash, whatever the batch's size. */
class Writes {
  readonly set = new Map<string, Map<string, string>>();
  readonly deleted = new Map<string, Set<string>>();
  readonly strings = new Map<string, string>();

  hset(key: string, field: string, value: string): void {
    this.deleted.get(key)?.delete(field);
    let fields = this.set.get(key);
    if (!fields) this.set.set(key, (fields = new Map()));
    fields.set(field, value);
  }

  hdel(key: string, field: string): void {
    this.set.get(key)?.delete(field);
    let fields = this.deleted.get(key);
    if (!fields) this.deleted.set(key, (fields = new Set()));
    fields.add(field);
  }

  /** Queues them on a transaction or a pipeline. */
  queue(tx: ReturnType<RedisClient['multi']>): void {
    for (const [key, fields] of this.deleted) if (fields.size > 0) tx.hdel(key, ...fields);
    for (const [key, fields] of this.set) if (fields.size > 0) tx.hset(key, fields);
    if (this.strings.size > 0) tx.mset(this.strings);
  }
}

/**
 * Applies events to one generation of read models: the detail of each listing (with the listings it shows
 * and its provider's error entries resolved), comparison rows, the categories, the error reference. Each
 * batch is one MULTI/EXEC that writes the read models and the new checkpoint, guarded by WATCH on the
 * checkpoint (compare-and-set): a crash at any point leaves either the whole batch or none of it, and a
 * second writer loses instead of doubling. It must run on a connection of its own (WATCH is per connection).
 *
 * Its working memory (RenderState: every listing's card, the error entries, who shows whom) says which
 * documents a change re-renders. Documents themselves are read from the event store, their only copy.
 */
export class GenerationProjector {
  readonly state = new RenderState();
  readonly keys: GenerationKeys;

  constructor(
    private readonly client: RedisClient,
    readonly generation: number,
    keys: GenerationKeys,
    private readonly store: EventStore,
    private readonly categories: Categories,
  ) {
    this.keys = keys;
  }

  /** Loads the working memory as of the generation's checkpoint, and returns that checkpoint. */
  async load(): Promise<string> {
    const checkpoint = (await this.client.get(this.keys.checkpoint)) ?? START_POSITION;
    await this.loadState(checkpoint);
    for (const card of this.state.cards.values()) {
      const { uses, filledFrom } = relatedListings(card, this.state);
      this.state.setDependencies(card.slug, uses, filledFrom);
    }
    return checkpoint;
  }

  /** Every listing's card and every error entry as of `position`; returns the slugs of the listings. */
  private async loadState(position: string): Promise<string[]> {
    const slugs: string[] = [];
    for await (const [slug, listing] of this.store.documentsOfType(listingAggregate, position)) {
      this.state.setCard(cardOf(listing));
      slugs.push(slug);
    }
    for await (const [id, entry] of this.store.documentsOfType(errorEntryAggregate, position)) {
      this.state.errors.set(id, entry);
    }
    // Each listing's liveness (kept for withdrawn listings too: one published again shows it).
    for await (const [slug, liveness] of this.store.documentsOfType(livenessAggregate, position)) {
      this.state.liveness.set(slug, liveness);
    }
    return slugs;
  }

  /** Marks a new generation with the version that builds it. */
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
   * under us (another runner); the working memory is then stale and the caller must reload. An event of
   * an unknown type throws before anything is changed, in memory or in Redis.
   */
  async applyBatch(events: StoredEvent[], checkpoint: string): Promise<boolean> {
    if (events.length === 0) return true;
    const changes = foldCatalogEvents(events);
    const keys = this.keys;
    await this.client.watch(keys.checkpoint);
    const [stored, applied] = await this.client.mget(keys.checkpoint, keys.appliedEvents);
    if ((stored ?? START_POSITION) !== checkpoint) {
      await this.client.unwatch();
      return false;
    }
    const writes = new Writes();
    const dirty = this.applyListingChanges(writes, changes.listings);
    this.applyErrorChanges(writes, changes.errors, dirty);
    this.applyLivenessChanges(changes.liveness, dirty);
    for (const [id, entry] of changes.models) {
      if (entry) writes.hset(keys.modelEntries, id, JSON.stringify(publishedModelEntry(entry)));
      else writes.hdel(keys.modelEntries, id);
    }
    await this.renderDirty(writes, dirty, changes.listings, checkpoint);
    if (changes.listings.size > 0 || changes.errors.size > 0) writes.strings.set(keys.categoriesBody, renderCategories(this.state, this.categories));
    writes.strings.set(keys.checkpoint, events[events.length - 1].position);
    writes.strings.set(keys.appliedEvents, String(Number(applied ?? 0) + events.length));
    const tx = this.client.multi();
    writes.queue(tx);
    const result = await tx.exec();
    if (result === null) return false;
    const failed = result.find(([error]) => error);
    if (failed) throw failed[0];
    return true;
  }

  /** Updates the cards and deletes what withdrawn listings served; returns what to render again. */
  private applyListingChanges(writes: Writes, listings: Map<string, ListingDocument | null>): Set<string> {
    const state = this.state;
    const dirty = new Set<string>();
    const categoriesTouched = new Set<string>();
    for (const [slug, next] of listings) {
      const before = state.cards.get(slug);
      if (before) categoriesTouched.add(before.category);
      if (next) categoriesTouched.add(next.category);
    }
    const topsBefore = new Map([...categoriesTouched].map((c) => [c, state.categoryTop(c).join(',')]));
    for (const [slug, next] of listings) {
      for (const dependent of state.usedBy.get(slug) ?? []) dirty.add(dependent);
      if (next) {
        state.setCard(cardOf(next));
        dirty.add(slug);
      } else {
        writes.hdel(this.keys.details, slug);
        writes.hdel(this.keys.comparisons, slug);
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
      for (const [id, entry] of state.errors) if (entry.provider === slug) dirty.add(`error:${id}`);
    }
    return dirty;
  }

  private applyErrorChanges(writes: Writes, errors: Map<string, ErrorEntryDocument | null>, dirty: Set<string>): void {
    for (const [id, next] of errors) {
      const before = this.state.errors.get(id);
      if (before) dirty.add(before.provider);
      if (next) {
        this.state.errors.set(id, next);
        dirty.add(next.provider);
        dirty.add(`error:${id}`);
      } else {
        this.state.errors.delete(id);
        writes.hdel(this.keys.errorEntries, id);
      }
    }
  }

  /** Keeps each listing's liveness; a listing whose liveness changed is rendered again (no other shows it). */
  private applyLivenessChanges(liveness: Map<string, Liveness | null>, dirty: Set<string>): void {
    for (const [slug, next] of liveness) {
      if (next) this.state.liveness.set(slug, next);
      else this.state.liveness.delete(slug);
      if (this.state.cards.has(slug)) dirty.add(slug);
    }
  }

  /**
   * Renders every dirty listing (and error entry, marked `error:<id>`): those of the batch from it, the
   * others as they were at `checkpoint` (unchanged since, or they would be in the batch).
   */
  private async renderDirty(writes: Writes, dirty: Set<string>, batch: Map<string, ListingDocument | null>, checkpoint: string): Promise<void> {
    const slugs = [...dirty].filter((s) => !s.startsWith('error:') && this.state.cards.has(s));
    const missing = slugs.filter((s) => !batch.get(s));
    const documents = await this.store.documentsAt(listingAggregate, missing, checkpoint);
    for (const slug of slugs) this.render(writes, batch.get(slug) ?? documents.get(slug)!);
    for (const marker of dirty) {
      if (!marker.startsWith('error:')) continue;
      const entry = this.state.errors.get(marker.slice('error:'.length));
      if (entry) writes.hset(this.keys.errorEntries, errorEntryId(entry), renderErrorEntry(entry, this.state));
    }
  }

  private render(writes: Writes, listing: ListingDocument): void {
    const rendered = renderListing(listing, this.state, this.categories);
    this.state.setDependencies(listing.slug, rendered.uses, rendered.filledFrom);
    writes.hset(this.keys.details, listing.slug, rendered.detail);
    writes.hset(this.keys.comparisons, listing.slug, rendered.comparison);
  }

  /**
   * Builds this generation, which nobody reads or writes yet, from the documents as of `upTo`: first every
   * card and error entry (a detail shows other listings), then every detail, a share at a time, each
   * rendered once. Writes go as plain pipelines (a failed build is discarded whole), one in flight while
   * the next share renders. `onProgress` is told the listings read, then the listings written.
   */
  async build(upTo: string, appliedEvents: number, onProgress?: (phase: 'read' | 'rendered', done: number, total: number) => void): Promise<void> {
    const slugs = await this.loadState(upTo);
    onProgress?.('read', slugs.length, slugs.length);
    let inFlight: Promise<unknown> = Promise.resolve();
    let written = 0;
    try {
      for (const share of shares(slugs)) {
        const documents = await this.store.documentsAt(listingAggregate, share, upTo);
        const writes = new Writes();
        for (const listing of documents.values()) if (listing) this.render(writes, listing);
        await inFlight;
        inFlight = this.send(writes);
        inFlight.catch(() => undefined);
        written += share.length;
        onProgress?.('rendered', written, slugs.length);
      }
    } finally {
      // A build that fails returns once its last write has landed: nothing of it arrives after it is discarded.
      await inFlight.catch(() => undefined);
    }
    await inFlight;
    const last = new Writes();
    for (const [id, entry] of this.state.errors) last.hset(this.keys.errorEntries, id, renderErrorEntry(entry, this.state));
    for await (const [id, entry] of this.store.documentsOfType(modelEntryAggregate, upTo)) last.hset(this.keys.modelEntries, id, JSON.stringify(publishedModelEntry(entry)));
    last.strings.set(this.keys.categoriesBody, renderCategories(this.state, this.categories));
    last.strings.set(this.keys.checkpoint, upTo);
    last.strings.set(this.keys.appliedEvents, String(appliedEvents));
    await this.send(last);
  }

  private async send(writes: Writes): Promise<void> {
    const pipeline = this.client.pipeline();
    writes.queue(pipeline);
    const failed = (await pipeline.exec())?.find(([error]) => error);
    if (failed) throw failed[0];
  }
}
