import { accessSync, constants } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { basename, resolve } from 'node:path';
import { z } from 'zod';

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

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** MAX_CONNECTIONS_PER_CLIENT's default, worked out once MAX_CONNECTIONS is known. */
const A_TENTH_OF_MAX_CONNECTIONS = -1;
const TRUE_WORDS = ['on', 'true', 'yes', '1', 'enabled'];
const FALSE_WORDS = ['off', 'false', 'no', '0', 'disabled'];

/*
 * One zod schema per setting, reading the variable's text (trimmed; empty is unset). A schema's error
 * message is what the value must be: the problem line adds the variable's name and the value given.
 */
const integer = (fallback: number, min: number, max: number) => {
  const expected = `a whole number from ${min} to ${max === Number.MAX_SAFE_INTEGER ? 'any size' : max}`;
  return z
    .string()
    .regex(/^\d+$/, expected)
    .transform(Number)
    .pipe(z.number().int(expected).min(min, expected).max(max, expected))
    .optional()
    .transform((value) => value ?? fallback);
};
const flag = (fallback: boolean) =>
  z
    .string()
    .transform((raw) => raw.toLowerCase())
    .refine((raw) => TRUE_WORDS.includes(raw) || FALSE_WORDS.includes(raw), 'on or off (also true/false, yes/no, 1/0, enabled/disabled)')
    .transform((raw) => TRUE_WORDS.includes(raw))
    .optional()
    .transform((value) => value ?? fallback);
const text = (fallback: string) => z.string().default(fallback);
const url = (protocols: string[]) =>
  z
    .string()
    .refine((raw) => URL.canParse(raw) && protocols.includes(new URL(raw).protocol), `a ${protocols.map((p) => `${p}//`).join(' or ')} URL`)
    .transform((raw) => raw.replace(/\/+$/, ''));
const list = (raw: string) => raw.split(',').map((s) => s.trim()).filter(Boolean);
const readable = (path: string) => {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
};
const proxyEntry = (entry: string) => {
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address);
  return family !== 0 && rest.length === 0 && (bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)));
};
/**
 * Fastify's trustProxy: off (default: the peer's address is the client's), on (believe every
 * X-Forwarded-For hop: only when the service is reachable through the proxy alone), a number of hops (1:
 * the proxy in front; digits are never the flag word '1', which would trust every hop), or the proxies'
 * addresses and CIDR ranges, comma-separated.
 */
const trustProxy = z
  .string()
  .transform((raw, context): boolean | number | string[] => {
    if (/^\d+$/.test(raw)) {
      if (Number(raw) <= 100) return Number(raw) === 0 ? false : Number(raw);
      context.addIssue({ code: 'custom', message: 'a number of hops from 0 to 100' });
      return z.NEVER;
    }
    if (TRUE_WORDS.includes(raw.toLowerCase())) return true;
    if (FALSE_WORDS.includes(raw.toLowerCase())) return false;
    const addresses = list(raw);
    if (addresses.every(proxyEntry)) return addresses;
    context.addIssue({ code: 'custom', message: 'on, off, a number of hops, or comma-separated proxy addresses or CIDR ranges' });
    return z.NEVER;
  })
  .optional()
  .transform((value) => value ?? false);

/** Every setting: its property, its variable, and its schema, in the order problems are reported. */
const SETTINGS = {
  port: ['PORT', integer(3000, 1, 65535)],
  host: ['HOST', text('0.0.0.0')],
  redisUrl: ['REDIS_URL', url(['redis:', 'rediss:']).default('redis://127.0.0.1:6379')],
  /** A PEM file of the certificate authorities to trust for rediss:// (null: the system's). */
  redisTlsCa: ['REDIS_TLS_CA', z.string().transform((raw) => resolve(raw)).refine(readable, 'a file this process can read').nullable().default(null)],
  /** host:port list; when set, the service talks to a Redis Cluster. */
  redisClusterNodes: [
    'REDIS_CLUSTER_NODES',
    z
      .string()
      .transform(list)
      .refine((nodes) => nodes.every((node) => /^[^\s:]+:\d{1,5}$/.test(node) && Number(node.split(':').pop()) <= 65535), 'a comma-separated list of host:port')
      .default([]),
  ],
  /** Prefix of every key, so several directories (or test runs) can share one Redis. */
  namespace: ['REDIS_NAMESPACE', z.string().regex(/^[a-zA-Z0-9_.-]+$/, "only letters, digits, '_', '.' and '-'").default('dir')],
  /** Run the projection runner inside this process (default) or leave it to a separate one. */
  projectorEnabled: ['PROJECTOR', flag(true)],
  projectorBatchSize: ['PROJECTOR_BATCH_SIZE', integer(500, 1, 100_000)],
  projectorLeaseMs: ['PROJECTOR_LEASE_MS', integer(10_000, 100, 3_600_000)],
  /** When the projector is this many events behind, it builds a new generation instead of replaying. */
  projectorRebuildLag: ['PROJECTOR_REBUILD_LAG', integer(5_000, 1, Number.MAX_SAFE_INTEGER)],
  /** A starting process is ready once its read models are at most this many events behind the log. */
  readyMaxLag: ['READY_MAX_LAG', integer(100, 0, Number.MAX_SAFE_INTEGER)],
  /** Seed fixtures/ again into a store found emptied under a running process (off: say so and wait for the operator). */
  reseedEmptyStore: ['RESEED_EMPTY_STORE', flag(false)],
  /** Worker threads that read and check the files of a large import (0: all in this thread); default one per core, at most 4. */
  importReadThreads: ['IMPORT_READ_THREADS', integer(Math.min(4, availableParallelism()), 0, 64)],
  fixturesDir: ['FIXTURES_DIR', z.string().default(resolve(PACKAGE_ROOT, 'fixtures')).transform((raw) => resolve(raw))],
  /** Where a Redis started by `npm start` keeps its append-only file. */
  dataDir: ['DATA_DIR', z.string().default('data').transform((raw) => resolve(raw))],
  publicBaseUrl: ['PUBLIC_BASE_URL', url(['http:', 'https:']).nullable().default(null)],
  /** Without PUBLIC_BASE_URL: Hosts (name, or name:port) whose requests get links to themselves, besides loopback. */
  publicHosts: [
    'PUBLIC_HOSTS',
    z
      .string()
      .transform((raw) => list(raw.toLowerCase()))
      // A host is what a URL's authority holds without user or path: the URL parser agrees it reads the same.
      .refine((hosts) => hosts.every((host) => URL.canParse(`http://${host}`) && new URL(`http://${host}`).host === host.replace(/:80$/, '')), 'comma-separated host names, each optionally with :port')
      .optional()
      .transform((value) => value ?? []),
  ],
  logLevel: ['LOG_LEVEL', z.string().transform((raw) => raw.toLowerCase()).pipe(z.enum(LOG_LEVELS, `one of ${LOG_LEVELS.join(', ')}`)).default('info')],
  logRequests: ['LOG_REQUESTS', flag(false)],
  /** Cache read models in process, cleared on every change notification (READ_CACHE=off to disable). */
  readCache: ['READ_CACHE', flag(true)],
  /** Whole responses (searches, lists, comparisons, error lists, pages) kept in the read cache. */
  readCacheResponses: ['READ_CACHE_RESPONSES', integer(10_000, 0, 10_000_000)],
  /** Megabytes the read cache may hold (response bodies and their compressed forms), half for details. */
  readCacheMb: ['READ_CACHE_MB', integer(256, 0, 1_000_000)],
  /** How often a serving process checks the read models by itself, in case a change notification was missed. */
  readPollMs: ['READ_POLL_MS', integer(1000, 50, 3_600_000)],
  /** Requests one client may make a minute (0: no limit); counted in Redis, so shared by every API process. */
  rateLimitPerMinute: ['RATE_LIMIT_PER_MINUTE', integer(600, 0, 1_000_000_000)],
  /** Whole-catalog exports (GET /api/v1/export, /api/data) a process streams at once; past it, 503 with Retry-After. */
  exportsInFlight: ['EXPORTS_IN_FLIGHT', integer(4, 1, 1_000)],
  /** Of those, how many one client (its address, or its IPv6 /64) may have at once; past it, 429 with Retry-After. */
  exportsPerClient: ['EXPORTS_PER_CLIENT', integer(1, 1, 1_000)],
  /** Searches one client may make a minute that the read cache cannot answer (0: no limit). */
  searchRateLimitPerMinute: ['SEARCH_RATE_LIMIT_PER_MINUTE', integer(60, 0, 1_000_000_000)],
  /** Which proxies' X-Forwarded-For to believe for the client's address (Fastify's trustProxy): off, on, a hop count or addresses. */
  trustProxy: ['TRUST_PROXY', trustProxy],
  /** The request line and headers must arrive within this long. */
  headersTimeoutMs: ['HEADERS_TIMEOUT_MS', integer(10_000, 100, 600_000)],
  /** The whole request (headers and body) must arrive within this long. */
  requestTimeoutMs: ['REQUEST_TIMEOUT_MS', integer(30_000, 100, 3_600_000)],
  /** Connections one process holds at most; more are refused. */
  maxConnections: ['MAX_CONNECTIONS', integer(2_000, 1, 1_000_000)],
  /** Connections one client (an address; IPv6 by /64) may hold in one process, so that it cannot take them all (0: no limit; default a tenth of MAX_CONNECTIONS). */
  maxConnectionsPerClient: ['MAX_CONNECTIONS_PER_CLIENT', integer(A_TENTH_OF_MAX_CONNECTIONS, 0, 1_000_000)],
  /** On SIGTERM, how long requests in flight may take before their connections are cut. */
  shutdownTimeoutMs: ['SHUTDOWN_TIMEOUT_MS', integer(10_000, 0, 600_000)],
  /** Send Strict-Transport-Security (on when clients reach the service over HTTPS only). */
  hsts: ['HSTS', flag(false)],
} as const;

/** Comma-separated IP addresses or CIDR ranges. */
const ranges = z
  .string()
  .transform(list)
  .refine((entries) => entries.every(proxyEntry), 'comma-separated IP addresses or CIDR ranges')
  .default([]);
/** `name=address,name=address`: host names and the IP address each stands for. */
const hostTable = z
  .string()
  .transform(list)
  .refine((entries) => entries.every((entry) => /^[^=\s]+=[^=\s]+$/.test(entry) && isIP(entry.split('=')[1]) !== 0), 'a comma-separated list of name=address (an IP address)')
  .transform((entries) => new Map(entries.map((entry) => entry.split('=') as [string, string]).map(([host, address]) => [host.toLowerCase(), address])))
  .default(new Map<string, string>());

/**
 * The prober's settings (src/liveness/prober/; run by `ingest probe`, never by the service), as `config.liveness`.
 * The last three are for tests: a table of names that replaces DNS, address ranges let through although
 * private, and extra certificate authorities. Empty by default, so the prober's defaults refuse loopback
 * and private addresses and ask DNS.
 */
const LIVENESS_SETTINGS = {
  /** Time between passes of a scheduled prober, plus up to jitterMs chosen at random each time. */
  intervalMs: ['LIVENESS_INTERVAL_MS', integer(3_600_000, 1000, 7 * 86_400_000)],
  jitterMs: ['LIVENESS_JITTER_MS', integer(300_000, 0, 86_400_000)],
  /** A failure is published once two probes at least this far apart have seen it. */
  confirmMs: ['LIVENESS_CONFIRM_MS', integer(600_000, 0, 7 * 86_400_000)],
  connectTimeoutMs: ['LIVENESS_CONNECT_TIMEOUT_MS', integer(5_000, 100, 60_000)],
  /** One target's whole probe (redirects and body included). */
  timeoutMs: ['LIVENESS_TIMEOUT_MS', integer(15_000, 100, 300_000)],
  /** Pause between two requests to one host. */
  hostSpacingMs: ['LIVENESS_HOST_SPACING_MS', integer(2_000, 0, 600_000)],
  /** Hosts probed at once (each one request at a time). */
  concurrency: ['LIVENESS_CONCURRENCY', integer(8, 1, 256)],
  leaseMs: ['LIVENESS_LEASE_MS', integer(60_000, 1000, 3_600_000)],
  /** Named in the User-Agent, so providers can reach whoever runs the prober; defaults to PUBLIC_BASE_URL. */
  contactUrl: ['LIVENESS_CONTACT_URL', url(['http:', 'https:']).nullable().default(null)],
  hosts: ['LIVENESS_HOSTS', hostTable],
  allowAddresses: ['LIVENESS_ALLOW_ADDRESSES', ranges],
  ca: ['LIVENESS_CA', z.string().transform((raw) => resolve(raw)).refine(readable, 'a file this process can read').nullable().default(null)],
} as const;

export type LivenessSettings = { -readonly [K in keyof typeof LIVENESS_SETTINGS]: z.output<(typeof LIVENESS_SETTINGS)[K][1]> };

type Settings = { -readonly [K in keyof typeof SETTINGS]: z.output<(typeof SETTINGS)[K][1]> } & { liveness: LivenessSettings };


/** Variables renamed: the old name still works, with a deprecation message at start (docs/operations.md). */
const RENAMED: Record<string, string> = { PROJECTOR_WORKERS: 'IMPORT_READ_THREADS', SEARCH_CACHE_SIZE: 'READ_CACHE_RESPONSES' };

/** The settings schema: every variable, then the rules between them. */
const schema = z
  .object(Object.fromEntries([...Object.values(SETTINGS), ...Object.values(LIVENESS_SETTINGS)].map(([name, setting]) => [name, setting])))
  .superRefine((read, context) => {
    const [tlsCa, redisUrl] = [read.REDIS_TLS_CA as string | null, read.REDIS_URL as string];
    if (tlsCa !== null && !redisUrl.startsWith('rediss:')) context.addIssue({ code: 'custom', path: ['REDIS_TLS_CA'], message: 'is for TLS, but REDIS_URL is not a rediss:// URL', params: { line: 'whole' } });
    if ((read.HEADERS_TIMEOUT_MS as number) > (read.REQUEST_TIMEOUT_MS as number)) {
      context.addIssue({ code: 'custom', path: ['HEADERS_TIMEOUT_MS'], message: `must not be more than REQUEST_TIMEOUT_MS (${read.REQUEST_TIMEOUT_MS as number})`, params: { line: 'got' } });
    }
    if ((read.LIVENESS_TIMEOUT_MS as number) < (read.LIVENESS_CONNECT_TIMEOUT_MS as number)) {
      context.addIssue({ code: 'custom', path: ['LIVENESS_TIMEOUT_MS'], message: `must not be less than LIVENESS_CONNECT_TIMEOUT_MS (${read.LIVENESS_CONNECT_TIMEOUT_MS as number})`, params: { line: 'got' } });
    }
    if ((read.MAX_CONNECTIONS_PER_CLIENT as number) > (read.MAX_CONNECTIONS as number)) {
      context.addIssue({ code: 'custom', path: ['MAX_CONNECTIONS_PER_CLIENT'], message: `a whole number from 0 to ${read.MAX_CONNECTIONS as number}` });
    }
  });

/**
 * Settings read once from the environment and checked before anything starts: a wrong value stops the
 * process with every problem named (`PORT: must be a whole number from 1 to 65535, got 'abc'`) instead of
 * surfacing later as an odd failure. Every part of the service gets them through DI.
 */
export interface AppConfig extends Settings {}
export class AppConfig {
  /** Deprecation messages for renamed variables that were set by their old name (printed at start). */
  readonly deprecations: string[] = [];

  constructor(env: NodeJS.ProcessEnv = process.env) {
    const given: Record<string, string> = {};
    for (const [name, value] of Object.entries(env)) if (value !== undefined && value.trim() !== '') given[name] = value.trim();
    for (const [old, now] of Object.entries(RENAMED)) {
      if (given[old] === undefined) continue;
      this.deprecations.push(`${old} is deprecated: it is now ${now}${given[now] === undefined ? ` (taken as ${now}=${given[old]})` : `, which is set and wins`}`);
      given[now] ??= given[old];
    }
    const parsed = schema.safeParse(given);
    if (!parsed.success) {
      throw new InvalidSettingsError(
        parsed.error.issues.map((issue) => {
          const name = String(issue.path[0]);
          // A schema's message says what the value must be; a rule between settings may say it all ('whole').
          const line = (issue as { params?: { line?: 'whole' | 'got' } }).params?.line;
          if (line === 'whole') return `${name}: ${issue.message}`;
          return `${name}: ${line === 'got' ? issue.message : `must be ${issue.message}`}, got '${redactUrl(given[name] ?? '')}'`;
        }),
      );
    }
    for (const [property, [name]] of Object.entries(SETTINGS)) (this as Record<string, unknown>)[property] = parsed.data[name];
    if (this.maxConnectionsPerClient === A_TENTH_OF_MAX_CONNECTIONS) this.maxConnectionsPerClient = Math.ceil(this.maxConnections / 10);
    const liveness = Object.fromEntries(Object.entries(LIVENESS_SETTINGS).map(([property, [name]]) => [property, parsed.data[name]])) as LivenessSettings;
    this.liveness = { ...liveness, contactUrl: liveness.contactUrl ?? this.publicBaseUrl };
  }

  /** A copy with some settings replaced (tests and the CLI use it). */
  with(overrides: Partial<AppConfig>): AppConfig {
    return Object.assign(Object.create(AppConfig.prototype), this, overrides);
  }
}

/** The settings of a process that starts: a wrong value ends it (exit 1) with every problem named; a renamed one is named. */
export function settingsOrExit(): AppConfig {
  try {
    const config = new AppConfig();
    for (const line of config.deprecations) console.warn(line);
    return config;
  } catch (error) {
    if (!(error instanceof InvalidSettingsError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
