import { availableParallelism } from 'node:os';

/** Settings read once from the environment; every part of the service gets them through DI. */
export class AppConfig {
  readonly port: number;
  readonly host: string;
  readonly redisUrl: string;
  /** Comma-separated host:port list; when set, the service talks to a Redis Cluster. */
  readonly redisClusterNodes: string[];
  /** Prefix of every key, so several directories (or test runs) can share one Redis. */
  readonly namespace: string;
  /** Run the projection runner inside this process (default) or leave it to a separate one. */
  readonly projectorEnabled: boolean;
  readonly projectorBatchSize: number;
  readonly projectorLeaseMs: number;
  /** When the projector is this many events behind, it builds a new generation instead of replaying. */
  readonly projectorRebuildLag: number;
  /** Worker threads that parse, index and render listings during a rebuild (0: all in this thread); default one per core, at most 4 (measured: two on two cores beat one, though they share the cores with Redis). */
  readonly projectorWorkers: number;
  readonly fixturesDir: string;
  readonly publicBaseUrl: string | null;
  readonly logLevel: string;
  readonly logRequests: boolean;
  /** Cache read models in process, cleared on every change notification (READ_CACHE=off to disable). */
  readonly readCache: boolean;
  /** Distinct searches kept in the read cache. */
  readonly searchCacheSize: number;
  /** Megabytes the read cache may hold (response bodies and their compressed forms), half for details. */
  readonly readCacheMb: number;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.port = intFrom(env.PORT, 3000);
    this.host = env.HOST ?? '0.0.0.0';
    this.redisUrl = env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    this.redisClusterNodes = (env.REDIS_CLUSTER_NODES ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    this.namespace = env.REDIS_NAMESPACE ?? 'dir';
    if (!/^[a-zA-Z0-9_.-]+$/.test(this.namespace)) {
      throw new Error(`REDIS_NAMESPACE may only hold letters, digits, '_', '.', '-': got '${this.namespace}'`);
    }
    this.projectorEnabled = (env.PROJECTOR ?? 'on') !== 'off';
    this.projectorBatchSize = intFrom(env.PROJECTOR_BATCH_SIZE, 500);
    this.projectorLeaseMs = intFrom(env.PROJECTOR_LEASE_MS, 10_000);
    this.projectorRebuildLag = intFrom(env.PROJECTOR_REBUILD_LAG, 5_000);
    this.projectorWorkers = intFrom(env.PROJECTOR_WORKERS, Math.min(4, availableParallelism()));
    this.fixturesDir = env.FIXTURES_DIR ?? 'fixtures';
    this.publicBaseUrl = env.PUBLIC_BASE_URL ?? null;
    this.logLevel = env.LOG_LEVEL ?? 'info';
    this.logRequests = env.LOG_REQUESTS === 'on';
    this.readCache = (env.READ_CACHE ?? 'on') !== 'off';
    this.searchCacheSize = intFrom(env.SEARCH_CACHE_SIZE, 10_000);
    this.readCacheMb = intFrom(env.READ_CACHE_MB, 256);
  }

  /** A copy with some settings replaced (tests and the CLI use it). */
  with(overrides: Partial<AppConfig>): AppConfig {
    return Object.assign(Object.create(AppConfig.prototype), this, overrides);
  }
}

function intFrom(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`expected a non-negative integer, got '${value}'`);
  return n;
}
