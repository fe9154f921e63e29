import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ReadCacheSection } from '../projections/read-cache';
import { ScrapeState, ScrapeStateReader } from './scrape-state';

/** Seconds: from a cached answer (well under a millisecond) to a request stuck behind a slow store. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SEARCH_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
const SECTIONS: ReadCacheSection[] = ['detail', 'response', 'row'];

/**
 * The process's metrics in the Prometheus format (a registry per application, so that several can live
 * in one process): requests by route pattern (never the raw URL: the label values stay few), method and
 * status, with their latency; the read cache's hits and misses; the time searches the cache could not
 * answer took; the projection's lag in events and in seconds; requests refused by a rate limit; and
 * Node's own (event loop delay, memory, CPU, handles).
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route' | 'status'>;
  private readonly searches: Histogram<string>;
  private readonly limited: Counter<'budget'>;
  private readonly refusedConnections: Counter<'reason'>;
  private readonly abandonedMcpMessages: Counter<string>;
  /**
   * Each answered series' counter and histogram, looked up once: prom-client's `labels()` checks and
   * hashes the labels and builds closures on every call, a measurable part of a cached read. Bounded as the
   * series are: route patterns, methods Node parses, statuses.
   */
  private readonly answered = new Map<string, { count: Counter.Internal; time: Histogram.Internal<'method' | 'route' | 'status'> }>();

  /** What the last scrape read (see scrape). */
  private state: ScrapeState | null = null;

  constructor(private readonly stateReader: ScrapeStateReader) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by method, route pattern and status.', labelNames: ['method', 'route', 'status'], registers });
    this.latency = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request to the end of its answer, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.searches = new Histogram({ name: 'directory_search_duration_seconds', help: 'Time to run a search the read cache could not answer and build its response.', buckets: SEARCH_BUCKETS, registers });
    this.limited = new Counter({ name: 'directory_rate_limited_requests_total', help: 'Requests refused with 429, by budget (requests: every read; searches: searches the read cache could not answer).', labelNames: ['budget'], registers });
    this.refusedConnections = new Counter({
      name: 'directory_connections_refused_total',
      help: 'Connections closed, by reason (per-client: as it arrived, the client held its share, MAX_CONNECTIONS_PER_CLIENT; process: as it arrived, the process held MAX_CONNECTIONS and none was idle; evicted: an idle connection of the client holding the most, closed to let a new one in at MAX_CONNECTIONS).',
      labelNames: ['reason'],
      registers,
    });
    this.abandonedMcpMessages = new Counter({
      name: 'directory_mcp_batch_messages_abandoned_total',
      help: 'Messages of MCP batches left unanswered because their client closed the connection before the batch was answered.',
      registers,
    });
    stateMetrics(registers, () => this.state);
  }

  /** The metrics as Prometheus text: the state they report is read once, then every series is rendered. */
  async scrape(): Promise<string> {
    this.state = await this.stateReader.read();
    return this.registry.metrics();
  }

  /** One answered request (from the onResponse hook). `route` is the route pattern, or a fixed word. */
  request(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let series = this.answered.get(key);
    if (!series) {
      const code = STATUS_TEXT[status] ?? String(status);
      series = { count: this.requests.labels(method, route, code), time: this.latency.labels(method, route, code) };
      this.answered.set(key, series);
    }
    series.count.inc();
    series.time.observe(seconds);
  }

  /** A request refused before routing (not valid HTTP, a bad URL): counted, not timed. */
  rejected(method: string, status: number): void {
    this.requests.labels(method, '(none)', String(status)).inc();
  }

  search(seconds: number): void {
    this.searches.observe(seconds);
  }

  rateLimited(budget: 'requests' | 'searches'): void {
    this.limited.labels(budget).inc();
  }

  connectionRefused(reason: 'per-client' | 'process' | 'evicted'): void {
    this.refusedConnections.labels(reason).inc();
  }

  mcpMessagesAbandoned(count: number): void {
    this.abandonedMcpMessages.inc(count);
  }
}

/** Status labels as strings made once. */
const STATUS_TEXT: Record<number, string> = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [i + 100, String(i + 100)]));

/**
 * The series that report state rather than count requests: each reads the state of the scrape under way
 * (null outside a scrape through Metrics.scrape, when they report nothing).
 */
function stateMetrics(registers: Registry[], current: () => ScrapeState | null): void {
  const gauge = (name: string, help: string, value: (state: ScrapeState) => number) =>
    new Gauge({ name, help, registers, collect() { const state = current(); if (state) this.set(value(state)); } });
  const byLabel = (name: string, help: string, label: string, values: (state: ScrapeState) => Array<[string, number]>) =>
    new Gauge({ name, help, labelNames: [label], registers, collect() { const state = current(); if (state) for (const [value, count] of values(state)) this.labels(value).set(count); } });
  // The read cache counts for itself (plain numbers on its hot path); they are read at each scrape.
  for (const kind of ['hits', 'misses'] as const) {
    new Counter({
      name: `directory_read_cache_${kind}_total`,
      help: `Reads ${kind === 'hits' ? 'answered from' : 'not answered from'} the read cache, by section (detail; response: whole search, compare, list and error-list answers; row: comparison rows).`,
      labelNames: ['section'],
      registers,
      collect() {
        const state = current();
        this.reset();
        if (state) for (const section of SECTIONS) this.labels(section).inc(state.cache[kind][section]);
      },
    });
  }
  gauge('directory_projection_lag_events', 'Events of the log the live read models have not applied yet.', (s) => s.projection.lag);
  gauge('directory_projection_lag_seconds', 'How long the oldest event the live read models have not applied has waited (0 when none waits).', (s) => s.lagSeconds);
  gauge('directory_projector_active', '1 while a projection runner (in any process) holds the lease.', (s) => (s.projection.projectorActive ? 1 : 0));
  byLabel(
    'directory_store_changed',
    '1 while Redis no longer holds the store this process was serving: emptied (restarted without its data, flushed) or replaced (another directory); /readyz says what to do.',
    'how',
    (s) => (['emptied', 'replaced'] as const).map((how) => [how, s.projection.store.state === how ? 1 : 0]),
  );
  gauge('directory_search_index_ready', "1 once this process's search index has caught up with the read models.", (s) => (s.projection.searchReady ? 1 : 0));
  byLabel(
    'directory_liveness_listings',
    "Listings by liveness state as published (ok, degraded, down; unchecked: not checked yet), from this process's search index.",
    'state',
    (s) => Object.entries(s.liveness),
  );
  new Counter({
    name: 'directory_liveness_probes_total',
    help: 'Targets probed by the prober (any process, counted in Redis), by the state each probe found.',
    labelNames: ['state'],
    registers,
    collect() {
      const state = current();
      this.reset();
      for (const [field, value] of Object.entries(state?.prober ?? {})) if (field.startsWith('probes:')) this.labels(field.slice('probes:'.length)).inc(Number(value));
    },
  });
  gauge("directory_liveness_last_pass_timestamp_seconds", "When the prober's last pass started (Unix time; 0: none yet).", (s) => (s.prober.lastPassAt ? Date.parse(s.prober.lastPassAt) / 1000 : 0));
  gauge('directory_redis_silence_seconds', "Seconds since Redis last answered this process's background check.", (s) => (s.projection.lastContact === 0 ? -1 : (Date.now() - s.projection.lastContact) / 1000));
}
