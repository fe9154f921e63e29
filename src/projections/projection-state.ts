import type { ProjectionStatus, ReadModelWatcher } from './read-model-watcher';
import { storeProblem } from './store-watch';

/** What this process knows of the read models (see ProjectionState.status). */
export interface ReadModelsStatus extends ProjectionStatus {
  /** Whether the search index has caught up with the read models at least once. */
  searchReady: boolean;
}

/**
 * The state of the projection as this process knows it, without asking Redis (the watcher looks every
 * second): for /readyz, /metrics and the gate that refuses requests while the store is not the one served.
 * Built by ReadModels.
 */
export class ProjectionState {
  constructor(
    private readonly watcher: ReadModelWatcher,
    private readonly searchReady: () => boolean,
  ) {}

  status(): ReadModelsStatus {
    return { ...this.watcher.status(), searchReady: this.searchReady() };
  }

  /** Why this process cannot serve the store Redis holds now (emptied, replaced), or null: read on every request. */
  storeProblem(): string | null {
    return storeProblem(this.watcher.storeStatus());
  }

  /** Calls `listener` whenever the store this process serves is found emptied (RESEED_EMPTY_STORE). */
  onStoreEmptied(listener: () => void): void {
    this.watcher.onStoreEmptied(listener);
  }
}
