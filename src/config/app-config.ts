import { accessSync, constants } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { basename, resolve } from 'node:path';

/** The folder the project was installed in (this file is in src/config/, or dist/src/config/ once built). */
export const PACKAGE_ROOT = basename(resolve(__dirname, '../..')) === 'dist' ? resolve(__dirname, '../../..') : resolve(__dirname, '../..');

/**
 * A URL fit to print: its password replaced by `***` (the user stays: with ACL users it says which one).
 * Also for text that is no valid URL, as a wrong setting may be. Every message that names REDIS_URL
 * prints it so.
 */
export function redactUrl(text: string): string {
  return text.replace(/(\/\/[^/@:\s]*:)[^/@\s]+@/g, '$1***@');
}

/** Raised at start when settings are wrong: every problem at once, one line each, naming the variable. */
export class InvalidSettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid settings:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'InvalidSettingsError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const TRUE_WORDS = ['on', 'true', 'yes', '1', 'enabled'];
const FALSE_WORDS = ['off', 'false', 'no', '0', 'disabled'];

/**
 * Settings read once from the environment and checked before anything starts: a wrong value stops the
 * process with every problem named (`PORT: must be a whole number from 1 to 65535, got 'abc'`) instead of
 * surfacing later as an odd failure. Every part of the service gets them through DI.
 */
export class AppConfig {
  readonly port: number;
  readonly host: string;
  readonly redisUrl: string;
  /** A PEM file of the certificate authorities to trust for rediss:// (null: the system's). */
  readonly redisTlsCa: string | null;
  /** host:port list; when set, the service talks to a Redis Cluster. */
  readonly redisClusterNodes: string[];
  /** Prefix of every key, so several directories (or test runs) can share one Redis. */
  readonly namespace: string;
  /** Run the projection runner inside this process (default) or leave it to a separate one. */
  readonly projectorEnabled: boolean;
  readonly projectorBatchSize: number;
  readonly projectorLeaseMs: number;
  /** When the projector is this many events behind, it builds a new generation instead of replaying. */
  readonly projectorRebuildLag: number;
  /** A starting process is ready once its read models are at most this many events behind the log. */
  readonly readyMaxLag: number;
  /** Seed fixtures/ again into a store found emptied under a running process (off: say so and wait for the operator). */
  readonly reseedEmptyStore: boolean;
  /** Worker threads that read and check the files of a large import (0: all in this thread); default one per core, at most 4. */
  readonly projectorWorkers: number;
  readonly fixturesDir: string;
  /** Where a Redis started by `npm start` keeps its append-only file. */
  readonly dataDir: string;
  readonly publicBaseUrl: string | null;
  readonly logLevel: string;
  readonly logRequests: boolean;
  /** Cache read models in process, cleared on every change notification (READ_CACHE=off to disable). */
  readonly readCache: boolean;
  /** Distinct responses (searches, comparisons, error lists) kept in the read cache. */
  readonly searchCacheSize: number;
  /** Megabytes the read cache may hold (response bodies and their compressed forms), half for details. */
  readonly readCacheMb: number;
  /** How often a serving process checks the read models by itself, in case a change notification was missed. */
  readonly readPollMs: number;
  /** Requests one client may make a minute (0: no limit); counted in Redis, so shared by every API process. */
  readonly rateLimitPerMinute: number;
  /** Searches one client may make a minute that the read cache cannot answer (0: no limit). */
  readonly searchRateLimitPerMinute: number;
  /** Which proxies' X-Forwarded-For to believe for the client's address (Fastify's trustProxy): off, on, a hop count or addresses. */
  readonly trustProxy: boolean | number | string[];
  /** The request line and headers must arrive within this long. */
  readonly headersTimeoutMs: number;
  /** The whole request (headers and body) must arrive within this long. */
  readonly requestTimeoutMs: number;
  /** Connections one process holds at most; more are refused. */
  readonly maxConnections: number;
  /** Connections one client (an address; IPv6 by /64) may hold in one process, so that it cannot take them all (0: no limit). */
  readonly maxConnectionsPerClient: number;
  /** On SIGTERM, how long requests in flight may take before their connections are cut. */
  readonly shutdownTimeoutMs: number;
  /** Send Strict-Transport-Security (on when clients reach the service over HTTPS only). */
  readonly hsts: boolean;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    const settings = new SettingsReader(env);
    this.port = settings.integer('PORT', 3000, 1, 65535);
    this.host = settings.text('HOST', '0.0.0.0');
    this.redisUrl = settings.url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:']);
    this.redisTlsCa = settings.readableFile('REDIS_TLS_CA');
    if (this.redisTlsCa !== null && !this.redisUrl.startsWith('rediss:')) settings.problem(`REDIS_TLS_CA: is for TLS, but REDIS_URL is not a rediss:// URL`);
    this.redisClusterNodes = settings.hostPorts('REDIS_CLUSTER_NODES');
    this.namespace = settings.matching('REDIS_NAMESPACE', 'dir', /^[a-zA-Z0-9_.-]+$/, "only letters, digits, '_', '.' and '-'");
    this.projectorEnabled = settings.flag('PROJECTOR', true);
    this.projectorBatchSize = settings.integer('PROJECTOR_BATCH_SIZE', 500, 1, 100_000);
    this.projectorLeaseMs = settings.integer('PROJECTOR_LEASE_MS', 10_000, 100, 3_600_000);
    this.projectorRebuildLag = settings.integer('PROJECTOR_REBUILD_LAG', 5_000, 1, Number.MAX_SAFE_INTEGER);
    this.readyMaxLag = settings.integer('READY_MAX_LAG', 100, 0, Number.MAX_SAFE_INTEGER);
    this.reseedEmptyStore = settings.flag('RESEED_EMPTY_STORE', false);
    this.projectorWorkers = settings.integer('PROJECTOR_WORKERS', Math.min(4, availableParallelism()), 0, 64);
    this.fixturesDir = resolve(settings.text('FIXTURES_DIR', resolve(PACKAGE_ROOT, 'fixtures')));
    this.dataDir = resolve(settings.text('DATA_DIR', 'data'));
    this.publicBaseUrl = settings.optionalUrl('PUBLIC_BASE_URL', ['http:', 'https:']);
    this.logLevel = settings.oneOf('LOG_LEVEL', 'info', LOG_LEVELS);
    this.logRequests = settings.flag('LOG_REQUESTS', false);
    this.readCache = settings.flag('READ_CACHE', true);
    this.searchCacheSize = settings.integer('SEARCH_CACHE_SIZE', 10_000, 0, 10_000_000);
    this.readCacheMb = settings.integer('READ_CACHE_MB', 256, 0, 1_000_000);
    this.readPollMs = settings.integer('READ_POLL_MS', 1000, 50, 3_600_000);
    this.rateLimitPerMinute = settings.integer('RATE_LIMIT_PER_MINUTE', 600, 0, 1_000_000_000);
    this.searchRateLimitPerMinute = settings.integer('SEARCH_RATE_LIMIT_PER_MINUTE', 60, 0, 1_000_000_000);
    this.trustProxy = settings.trustProxy('TRUST_PROXY');
    this.headersTimeoutMs = settings.integer('HEADERS_TIMEOUT_MS', 10_000, 100, 600_000);
    this.requestTimeoutMs = settings.integer('REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000);
    if (this.headersTimeoutMs > this.requestTimeoutMs) settings.problem(`HEADERS_TIMEOUT_MS: must not be more than REQUEST_TIMEOUT_MS (${this.requestTimeoutMs}), got '${env.HEADERS_TIMEOUT_MS}'`);
    this.maxConnections = settings.integer('MAX_CONNECTIONS', 2_000, 1, 1_000_000);
    this.maxConnectionsPerClient = settings.integer('MAX_CONNECTIONS_PER_CLIENT', Math.ceil(this.maxConnections / 10), 0, this.maxConnections);
    this.shutdownTimeoutMs = settings.integer('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000);
    this.hsts = settings.flag('HSTS', false);
    settings.done();
  }

  /** A copy with some settings replaced (tests and the CLI use it). */
  with(overrides: Partial<AppConfig>): AppConfig {
    return Object.assign(Object.create(AppConfig.prototype), this, overrides);
  }
}

/** Reads settings, collecting what is wrong with them; `done` throws InvalidSettingsError if anything was. */
class SettingsReader {
  private readonly problems: string[] = [];

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  private raw(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  }

  private wrong<T>(name: string, expected: string, fallback: T): T {
    this.problems.push(`${name}: must be ${expected}, got '${redactUrl(this.env[name] ?? '')}'`);
    return fallback;
  }

  text(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      return this.wrong(name, `a whole number from ${min} to ${max === Number.MAX_SAFE_INTEGER ? 'any size' : max}`, fallback);
    }
    return value;
  }

  /** A yes/no setting, in any of the usual spellings (on/off, true/false, yes/no, 1/0, enabled/disabled). */
  flag(name: string, fallback: boolean): boolean {
    const raw = this.raw(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (TRUE_WORDS.includes(raw)) return true;
    if (FALSE_WORDS.includes(raw)) return false;
    return this.wrong(name, `on or off (also true/false, yes/no, 1/0, enabled/disabled)`, fallback);
  }

  oneOf(name: string, fallback: string, allowed: string[]): string {
    const raw = this.raw(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    return allowed.includes(raw) ? raw : this.wrong(name, `one of ${allowed.join(', ')}`, fallback);
  }

  matching(name: string, fallback: string, pattern: RegExp, expected: string): string {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    return pattern.test(raw) ? raw : this.wrong(name, expected, fallback);
  }

  url(name: string, fallback: string, protocols: string[]): string {
    return this.optionalUrl(name, protocols) ?? fallback;
  }

  optionalUrl(name: string, protocols: string[]): string | null {
    const raw = this.raw(name);
    if (raw === undefined) return null;
    try {
      if (protocols.includes(new URL(raw).protocol)) return raw.replace(/\/+$/, '');
    } catch {
      /* reported below */
    }
    return this.wrong(name, `a ${protocols.map((p) => `${p}//`).join(' or ')} URL`, null);
  }

  /** The path of a file the process can read (a relative one from where it runs), or null when not set. */
  readableFile(name: string): string | null {
    const raw = this.raw(name);
    if (raw === undefined) return null;
    const path = resolve(raw);
    try {
      accessSync(path, constants.R_OK);
      return path;
    } catch {
      return this.wrong(name, 'a file this process can read', null);
    }
  }

  hostPorts(name: string): string[] {
    const raw = this.raw(name);
    if (raw === undefined) return [];
    const nodes = raw.split(',').map((s) => s.trim()).filter(Boolean);
    const bad = nodes.filter((node) => !/^[^\s:]+:\d{1,5}$/.test(node) || Number(node.split(':').pop()) > 65535);
    return bad.length > 0 ? this.wrong(name, 'a comma-separated list of host:port', []) : nodes;
  }

  /**
   * Fastify's trustProxy: off (default: the peer's address is the client's), on (believe every
   * X-Forwarded-For hop: only when the service is reachable through the proxy alone), a number of hops,
   * or the proxies' addresses and CIDR ranges, comma-separated.
   */
  trustProxy(name: string): boolean | number | string[] {
    const raw = this.raw(name);
    if (raw === undefined) return false;
    // Digits are a hop count (1: the proxy in front), never the flag word '1' (which would trust every hop).
    if (/^\d+$/.test(raw)) return Number(raw) === 0 ? false : Number(raw) <= 100 ? Number(raw) : this.wrong(name, 'a number of hops from 0 to 100', false);
    if (TRUE_WORDS.includes(raw.toLowerCase())) return true;
    if (FALSE_WORDS.includes(raw.toLowerCase())) return false;
    const addresses = raw.split(',').map((s) => s.trim()).filter(Boolean);
    const bad = addresses.filter((entry) => {
      const [address, bits, ...rest] = entry.split('/');
      const family = isIP(address);
      const maxBits = family === 4 ? 32 : 128;
      return family === 0 || rest.length > 0 || (bits !== undefined && (!/^\d+$/.test(bits) || Number(bits) > maxBits));
    });
    return bad.length > 0 ? this.wrong(name, 'on, off, a number of hops, or comma-separated proxy addresses or CIDR ranges', false) : addresses;
  }

  problem(line: string): void {
    this.problems.push(line);
  }

  done(): void {
    if (this.problems.length > 0) throw new InvalidSettingsError(this.problems);
  }
}

/** The settings of a process that starts: a wrong value ends it (exit 1) with every problem named. */
export function settingsOrExit(): AppConfig {
  try {
    return new AppConfig();
  } catch (error) {
    if (!(error instanceof InvalidSettingsError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
