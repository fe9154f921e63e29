/**
 * Every Redis key of the service. Keys that a Lua script or a transaction touches together share one
 * hash tag (the part in braces), so the same code runs unchanged on Redis Cluster:
 * - `{ns:es}`   the event store (global stream, aggregate versions and content digests, per-aggregate
 *               event ids, the store's identity);
 * - `{ns:rm}`   read-model control (current generation, lease, generation counter);
 * - `{ns:gN}`   every read model of generation N;
 * - `{ns:rl:C}` the rate-limit counters of client C;
 * - `{ns:lv}`   the prober's working memory, lease and counts (its findings are events in the store).
 */
export class RedisKeys {
  constructor(readonly namespace: string) {}

  // event store
  get events(): string {
    return `{${this.namespace}:es}:events`;
  }
  get versions(): string {
    return `{${this.namespace}:es}:versions`;
  }
  /** Aggregate stream name -> `version:digest` of its document at that version (see documentDigest); none once withdrawn. */
  get contentDigests(): string {
    return `{${this.namespace}:es}:digests`;
  }
  aggregateEvents(streamName: string): string {
    return `{${this.namespace}:es}:agg:${streamName}`;
  }
  /** One line per event of an aggregate, `type|changedFields`: its history without its documents. */
  aggregateSummaries(streamName: string): string {
    return `{${this.namespace}:es}:aggsum:${streamName}`;
  }
  /** How many of an aggregate's events a reader sees, as far as its summaries have been read (HISTORY_PAGE_LUA). */
  aggregateShown(streamName: string): string {
    return `{${this.namespace}:es}:aggshown:${streamName}`;
  }
  /**
   * Which store this is: `<uuid> <when>`, written with its first event. A serving process remembers the
   * one it serves and notices when Redis holds another (or none: emptied).
   */
  get storeIdentity(): string {
    return `{${this.namespace}:es}:identity`;
  }

  // read-model control
  get currentGeneration(): string {
    return `{${this.namespace}:rm}:current`;
  }
  get generationCounter(): string {
    return `{${this.namespace}:rm}:seq`;
  }
  get projectorLease(): string {
    return `{${this.namespace}:rm}:lease`;
  }
  /** Pub/sub channel: a message after every projection batch and generation switch (readers clear caches). */
  get changesChannel(): string {
    return `{${this.namespace}:rm}:changes`;
  }
  get retiredGenerations(): string {
    return `{${this.namespace}:rm}:retired`;
  }
  /** Set while the projector cannot go on (JSON: the event, the error, since when); deleted once it does. */
  get projectionFailure(): string {
    return `{${this.namespace}:rm}:failure`;
  }
  /** Set by `ingest rebuild` for the running projector to rebuild (the value is who asked). */
  get rebuildRequest(): string {
    return `{${this.namespace}:rm}:rebuild-request`;
  }

  // rate limits (each client's counters share a hash tag of their own: clients spread over Cluster slots)
  /** Requests of one client in its current one-minute window. */
  requestBudget(client: string): string {
    return `{${this.namespace}:rl:${client}}:requests`;
  }
  /** Searches of one client in its current window that the read cache could not answer. */
  searchBudget(client: string): string {
    return `{${this.namespace}:rl:${client}}:searches`;
  }

  // the prober (src/liveness/prober/)
  /** slug -> JSON of what the prober remembers of a listing between passes (failures not yet confirmed, the last ok). */
  get livenessMemory(): string {
    return `{${this.namespace}:lv}:memory`;
  }
  /** Held by the one prober running passes (across replicas). */
  get livenessLease(): string {
    return `{${this.namespace}:lv}:lease`;
  }
  /** Probes by state (`probes:<state>`), and the last pass's time and length: read by /metrics. */
  get livenessStats(): string {
    return `{${this.namespace}:lv}:stats`;
  }

  generation(generation: number): GenerationKeys {
    return new GenerationKeys(`{${this.namespace}:g${generation}}`);
  }
}

/** The keys of one generation of read models. */
export class GenerationKeys {
  constructor(readonly tag: string) {}

  /** Last event (stream id) applied to this generation. */
  get checkpoint(): string {
    return `${this.tag}:checkpoint`;
  }
  /** Number of events of the stream this generation reflects (so lag = stream length - this). */
  get appliedEvents(): string {
    return `${this.tag}:applied`;
  }
  /** Generation facts: index schema version, build state. */
  get meta(): string {
    return `${this.tag}:meta`;
  }
  /** slug -> ETag + newline + the ready-to-send body of GET /tools/{slug}. */
  get details(): string {
    return `${this.tag}:detail`;
  }
  /** slug -> JSON of the comparison row. */
  get comparisons(): string {
    return `${this.tag}:compare`;
  }
  /** ETag + newline + body of GET /tools/categories. */
  get categoriesBody(): string {
    return `${this.tag}:categories`;
  }
  /** error-entry id -> JSON of the entry as served. */
  get errorEntries(): string {
    return `${this.tag}:errors`;
  }
  /** model-entry id -> JSON of the entry as published (the export's `models`). */
  get modelEntries(): string {
    return `${this.tag}:models`;
  }
}
