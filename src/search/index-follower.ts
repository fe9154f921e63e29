import { foldCatalogEvents } from '../catalog/catalog-events';
import type { Categories } from '../categories/categories';
import type { Liveness } from '../liveness/liveness.schema';
import { comparePositions, EventStore, START_POSITION } from '../event-store/event-store.service';
import { listingAggregate } from '../listings/write/listing.aggregate';
import { renderSummary } from '../listings/views/listing-views';
import { IndexedListing, SearchIndex } from './search-index';
import { offeringListing, type OfferingListing } from '../models/views/model-views';
import { ModelIndex } from './model-index';

/** Events read from the log at a time. */
const PAGE = 1000;

/**
 * This process's search index, kept at the position of the live read models: it reads the event log
 * itself (every event carries its listing's whole document) and applies what each page of events leaves
 * of each listing. The read models' checkpoint says how far to go, so a search agrees with the details
 * served next to it.
 */
export class IndexFollower {
  private index = new SearchIndex();
  private models = new ModelIndex();
  private at = START_POSITION;
  /** Each listing's liveness as published (its summary shows it; the live= filter reads it). */
  private liveness = new Map<string, Liveness>();
  /** The `upTo` of the last catch-up that finished (undefined: none yet). */
  private reached: string | null | undefined = undefined;
  /** The catch-up under way: one at a time, in order. */
  private turn: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: EventStore,
    private readonly categories: Categories,
  ) {}

  /** The index as of the last catch-up (see catchUp). */
  get current(): SearchIndex {
    return this.index;
  }

  /** The model catalog as of the last catch-up (fed by the same events). */
  get currentModels(): ModelIndex {
    return this.models;
  }

  /** Whether the index has caught up once (until then a search would find less than there is). */
  get isLoaded(): boolean {
    return this.reached !== undefined;
  }

  /** Whether the last catch-up to finish went to `checkpoint` (one that failed leaves the index behind it). */
  hasReached(checkpoint: string | null): boolean {
    return this.reached === checkpoint;
  }

  /**
   * Applies the log up to `upTo` (the live read models' checkpoint; null: nothing is projected yet, the
   * index is empty). Starts again from the beginning when the log no longer has the last event applied
   * (the store was emptied and filled again) or `upTo` is behind it.
   */
  catchUp(upTo: string | null): Promise<void> {
    const next = this.turn.then(() => this.run(upTo));
    this.turn = next.catch(() => undefined);
    return next;
  }

  private async run(upTo: string | null): Promise<void> {
    if (upTo === null || upTo === START_POSITION) {
      if (this.at !== START_POSITION) this.reset();
      this.reached = upTo;
      return;
    }
    if (this.at !== START_POSITION && (comparePositions(upTo, this.at) < 0 || !(await this.store.has(this.at)))) this.reset();
    while (comparePositions(this.at, upTo) < 0) {
      const events = await this.store.readAll(this.at, PAGE, upTo);
      if (events.length === 0) break;
      const end = events[events.length - 1].position;
      const { listings, liveness, models } = foldCatalogEvents(events);
      for (const [slug, next] of liveness) {
        if (next) this.liveness.set(slug, next);
        else this.liveness.delete(slug);
      }
      // A listing whose liveness alone changed is indexed again with its document as of this page's end
      // (the index keeps no documents); liveness changes are few, and never on a read's path.
      const onlyLive = [...liveness.keys()].filter((slug) => !listings.has(slug) && this.index.has(slug));
      const documents = onlyLive.length > 0 ? await this.store.documentsAt(listingAggregate, onlyLive, end) : new Map();
      for (const [slug, listing] of documents) if (listing) listings.set(slug, listing);
      const changes = new Map<string, IndexedListing | null>();
      const offering = new Map<string, OfferingListing | null>();
      for (const [slug, listing] of listings) {
        const category = listing ? this.categories.get(listing.category) : undefined;
        const live = this.liveness.get(slug) ?? null;
        const tasks = (listing?.tasks ?? []).map((task) => this.categories.task(task)).filter((task) => task !== undefined);
        changes.set(slug, listing && { listing, category, tasks, summary: renderSummary(listing, category, live), live: live?.state ?? 'unchecked' });
        offering.set(slug, listing && offeringListing(listing, live?.state ?? 'unchecked'));
      }
      this.index.apply(changes);
      this.models.apply(offering, models);
      this.at = end;
    }
    this.reached = upTo;
  }

  private reset(): void {
    this.index = new SearchIndex();
    this.models = new ModelIndex();
    this.liveness = new Map();
    this.at = START_POSITION;
  }
}
