import type { Categories } from '../categories/categories';
import type { EventStore } from '../event-store/event-store.service';
import { IndexFollower } from './index-follower';
import type { ModelIndex } from './model-index';
import type { SearchIndex } from './search-index';

/**
 * This process's search index and model catalog, kept up with the read models it serves: ReadModels tells
 * it each new checkpoint (see catchUp), and a reader gets the index once it has caught up at least once.
 */
export class LiveSearchIndex {
  private readonly follower: IndexFollower;

  constructor(
    store: EventStore,
    categories: Categories,
    /** Resolves once the read models are followed; then `checkpoint()` is the position they have applied. */
    private readonly ready: () => Promise<void>,
    private readonly checkpoint: () => string | null,
  ) {
    this.follower = new IndexFollower(store, categories);
  }

  /** The search index, once it has caught up with the read models (the first start waits for it). */
  async current(): Promise<SearchIndex> {
    await this.ready();
    if (!this.follower.isLoaded) await this.follower.catchUp(this.checkpoint());
    return this.follower.current;
  }

  /** The model catalog, fed with the search index and as current (see current). */
  async currentModels(): Promise<ModelIndex> {
    await this.current();
    return this.follower.currentModels;
  }

  /** Resolves once the index has caught up with the read models this process serves now. */
  caughtUp(): Promise<void> {
    return this.follower.catchUp(this.checkpoint());
  }

  /** Whether the index has caught up with the read models at least once. */
  get isLoaded(): boolean {
    return this.follower.isLoaded;
  }

  /** Whether the index has applied the log up to `checkpoint`. */
  hasReached(checkpoint: string | null): boolean {
    return this.follower.hasReached(checkpoint);
  }

  /** Brings the index up to `checkpoint` (ReadModels calls it when the read models moved). */
  catchUp(checkpoint: string | null): Promise<void> {
    return this.follower.catchUp(checkpoint);
  }
}
