import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { ReadModels } from '../projections/read-models.service';
import type { ReadCacheSection } from '../projections/read-cache';
import { RedisConnection } from '../redis/redis-connection';

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

  constructor(
    private readonly readModels: ReadModels,
    private readonly redis: RedisConnection,
  ) {
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
    // The read cache counts for itself (plain numbers on its hot path); they are read at each scrape.
    const cache = () => this.readModels.cache;
    for (const kind of ['hits', 'misses'] as const) {
      new Counter({
        name: `directory_read_cache_${kind}_total`,
        help: `Reads ${kind === 'hits' ? 'answered from' : 'not answered from'} the read cache, by section (detail; response: whole search, compare, list and error-list answers; row: comparison rows).`,
        labelNames: ['section'],
        registers,
        collect() {
          this.reset();
          for (const section of SECTIONS) this.labels(section).inc(cache()[kind][section]);
        },
      });
    }
    const status = () => this.readModels.status();
    new Gauge({ name: 'directory_projection_lag_events', help: 'Events of the log the live read models have not applied yet.', registers, collect() { this.set(status().lag); } });
    const lagSeconds = () => this.projectionLagSeconds();
    new Gauge({
      name: 'directory_projection_lag_seconds',
      help: 'How long the oldest event the live read models have not applied has waited (0 when none waits).',
      registers,
      async collect() {
        this.set(await lagSeconds());
      },
    });
    new Gauge({ name: 'directory_projector_active', help: '1 while a projection runner (in any process) holds the lease.', registers, collect() { this.set(status().projectorActive ? 1 : 0); } });
    new Gauge({
      name: 'directory_store_changed',
      help: '1 while Redis no longer holds the store this process was serving: emptied (restarted without its data, flushed) or replaced (another directory); /readyz says what to do.',
      labelNames: ['how'],
      registers,
      collect() {
        const { state } = status().store;
        for (const how of ['emptied', 'replaced'] as const) this.labels(how).set(state === how ? 1 : 0);
      },
    });
    new Gauge({ name: 'directory_search_index_ready', help: '1 once this process\'s search index has caught up with the read models.', registers, collect() { this.set(status().searchReady ? 1 : 0); } });
    const liveCounts = async () => (await this.readModels.searchIndex()).liveCounts();
    new Gauge({
      name: 'directory_liveness_listings',
      help: "Listings by liveness state as published (ok, degraded, down; unchecked: not checked yet), from this process's search index.",
      labelNames: ['state'],
      registers,
      async collect() {
        for (const [state, count] of Object.entries(await liveCounts())) this.labels(state).set(count);
      },
    });
    const proberStats = () => this.proberStats();
    new Counter({
      name: 'directory_liveness_probes_total',
      help: 'Targets probed by the prober (any process, counted in Redis), by the state each probe found.',
      labelNames: ['state'],
      registers,
      async collect() {
        this.reset();
        for (const [field, value] of Object.entries(await proberStats())) if (field.startsWith('probes:')) this.labels(field.slice('probes:'.length)).inc(Number(value));
      },
    });
    new Gauge({
      name: 'directory_liveness_last_pass_timestamp_seconds',
      help: "When the prober's last pass started (Unix time; 0: none yet).",
      registers,
      async collect() {
        const at = (await proberStats()).lastPassAt;
        this.set(at ? Date.parse(at) / 1000 : 0);
      },
    });
    new Gauge({
      name: 'directory_redis_silence_seconds',
      help: 'Seconds since Redis last answered this process\'s background check.',
      registers,
      collect() {
        const last = status().lastContact;
        this.set(last === 0 ? -1 : (Date.now() - last) / 1000);
      },
    });
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

  /** The prober's counts in Redis (read at a scrape; nothing when Redis does not answer). */
  private async proberStats(): Promise<Record<string, string>> {
    try {
      return await this.redis.client.hgetall(this.redis.keys.livenessStats);
    } catch {
      return {};
    }
  }

  /** Age of the first event after the live checkpoint (a stream id starts with its append time in ms). */
  private async projectionLagSeconds(): Promise<number> {
    const { lag, checkpoint } = this.readModels.status();
    if (lag === 0) return 0;
    try {
      const [first] = await this.redis.client.xrange(this.redis.keys.events, checkpoint ? `(${checkpoint}` : '-', '+', 'COUNT', 1);
      return first ? Math.max(0, (Date.now() - Number(first[0].split('-')[0])) / 1000) : 0;
    } catch {
      return NaN;
    }
  }
}

/** Status labels as strings made once. */
const STATUS_TEXT: Record<number, string> = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [i + 100, String(i + 100)]));
