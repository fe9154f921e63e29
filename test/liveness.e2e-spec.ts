import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig } from '../src/config/app-config';
import { livenessResponseSchema, Liveness, LivenessTarget } from '../src/liveness/liveness.schema';
import { EventStore } from '../src/event-store/event-store.service';
import type { ListingDocument } from '../src/listings/write/listing.document';
import { AddressPolicy } from '../src/liveness/prober/address-policy';
import { LivenessProber } from '../src/liveness/prober/liveness-prober';
import { probeTarget, tableResolve } from '../src/liveness/prober/probe-target';
import { ProbeSchedule } from '../src/liveness/prober/probe-schedule';
import { ProjectionWait } from '../src/projections/projection-wait';
import { RedisConnection } from '../src/redis/redis-connection';
import { runCli } from './support/cli';
import { dropNamespace, getJson, RunningService, startService, testConfig, uniqueNamespace } from './support/harness';
import { DOMAIN, StandIns } from './support/stand-ins';
import { loadFixtureListings } from './support/synthetic-catalog';

/**
 * The prober against local stand-ins of providers (test/support/stand-ins.ts), one per state, reached
 * through a table of names and an allow-list of 127.0.0.1: no name is looked up in DNS and no request
 * leaves the machine. The clock of the passes is the test's: "seen twice at least LIVENESS_CONFIRM_MS
 * apart" is a matter of the times given, never of waiting.
 */
jest.setTimeout(120_000);

const CONFIRM_MS = 600_000;
const SPACING_MS = 30;
const CONTACT = 'https://directory.example.org/about';
const standIns = new StandIns();
let service: RunningService;
let prober: LivenessProber;
let listingsDir: string;
let clock = Date.parse('2026-11-20T10:00:00Z');

/** The prober's settings: the stand-ins' names and authority, 127.0.0.1 allowed, short timeouts. */
function proberEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    LIVENESS_HOSTS: standIns.hostTable(),
    LIVENESS_ALLOW_ADDRESSES: '127.0.0.1',
    LIVENESS_CA: standIns.caFile,
    LIVENESS_CONNECT_TIMEOUT_MS: '2000',
    // The silent server meets the connect timeout; the whole probe's is generous, so that a loaded machine
    // still follows all 5 redirects of the loop within it.
    LIVENESS_TIMEOUT_MS: '10000',
    LIVENESS_HOST_SPACING_MS: String(SPACING_MS),
    LIVENESS_CONFIRM_MS: String(CONFIRM_MS),
    LIVENESS_CONTACT_URL: CONTACT,
    ...extra,
  };
}

/** What each test listing points at, and the liveness its targets must end with once failures are confirmed. */
function testListings(): Array<{ slug: string; targets: Partial<ListingDocument>; state: Liveness['state']; expect: Array<[LivenessTarget['kind'], LivenessTarget['state']]> }> {
  const u = (name: string, path: string) => standIns.url(name, path);
  const site = (slug: string) => ({ website: u('ok', `/${slug}`), docsUrl: u('ok', `/docs/${slug}`) });
  const base: Array<[LivenessTarget['kind'], LivenessTarget['state']]> = [['website', 'ok'], ['docs', 'ok']];
  return [
    {
      slug: 'alive-api',
      targets: { ...site('alive'), endpoints: [u('auth', '/v1/chat'), `${u('ok', '/api/v1/items/')}{id}`], openapiUrl: u('ok', '/openapi.json'), statusPageUrl: u('ok', '/status') },
      state: 'ok',
      expect: [...base, ['endpoint', 'auth-required'], ['openapi', 'ok'], ['status-page', 'ok']],
    },
    { slug: 'html-api', targets: { ...site('html'), endpoints: [u('html', '/v1/answer')] }, state: 'down', expect: [...base, ['endpoint', 'wrong-shape']] },
    {
      slug: 'broken-api',
      targets: { ...site('broken'), endpoints: [u('error', '/v1/answer'), u('auth', '/v1/other')], openapiUrl: u('html', '/openapi.json') },
      state: 'degraded',
      expect: [...base, ['endpoint', 'server-error'], ['endpoint', 'auth-required'], ['openapi', 'wrong-shape']],
    },
    { slug: 'moved-api', targets: { website: u('moved', '/'), docsUrl: u('ok', '/docs/moved'), endpoints: [u('ok', '/api/moved')] }, state: 'degraded', expect: [['website', 'moved'], ['docs', 'ok'], ['endpoint', 'ok']] },
    { slug: 'gone-api', targets: { website: u('ok', '/gone'), docsUrl: u('gone', '/docs'), endpoints: [u('auth', '/v1/gone')] }, state: 'degraded', expect: [['website', 'ok'], ['docs', 'not-found'], ['endpoint', 'auth-required']] },
    { slug: 'tls-api', targets: { ...site('tls'), endpoints: [u('tls', '/v1')] }, state: 'down', expect: [...base, ['endpoint', 'tls-error']] },
    { slug: 'refusing-api', targets: { ...site('refusing'), endpoints: [u('refused', '/v1')] }, state: 'down', expect: [...base, ['endpoint', 'unreachable']] },
    { slug: 'silent-api', targets: { ...site('silent'), endpoints: [u('silent', '/v1')] }, state: 'down', expect: [...base, ['endpoint', 'unreachable']] },
    { slug: 'nowhere-api', targets: { ...site('nowhere'), endpoints: [`https://nowhere.${DOMAIN}/v1`] }, state: 'down', expect: [...base, ['endpoint', 'dns-failure']] },
    { slug: 'sneaky-api', targets: { ...site('sneaky'), endpoints: [u('sneaky', '/v1')] }, state: 'down', expect: [...base, ['endpoint', 'refused']] },
    { slug: 'loop-api', targets: { ...site('loop'), endpoints: [u('loop', '/v1')] }, state: 'down', expect: [...base, ['endpoint', 'unreachable']] },
    { slug: 'big-api', targets: { ...site('big'), endpoints: [u('big', '/v1')] }, state: 'ok', expect: [...base, ['endpoint', 'ok']] },
    { slug: 'flaky-api', targets: { ...site('flaky'), endpoints: [u('flaky', '/v1')] }, state: 'down', expect: [...base, ['endpoint', 'server-error']] },
  ];
}

/** The test listings as content files: a fixture listing under each slug, pointed at the stand-ins. */
function writeListings(folder: string): void {
  const template = loadFixtureListings().find((listing) => listing.slug === 'anthropic')!;
  mkdirSync(folder, { recursive: true });
  for (const { slug, targets } of testListings()) {
    const listing: ListingDocument = {
      ...template,
      slug,
      name: `${slug.replace(/-api$/, '')} stand-in API`.replace(/^./, (c) => c.toUpperCase()),
      nameCn: `${slug.replace(/-api$/, '')} 替身接口`,
      aliases: [],
      similarApis: [],
      domains: [DOMAIN],
      openapiUrl: null,
      statusPageUrl: null,
      lifecycle: null,
      models: null,
      prices: null,
      rateLimits: null,
      sources: null,
      ...targets,
    } as ListingDocument;
    writeFileSync(join(folder, `${slug}.json`), JSON.stringify(listing));
  }
}

/** A pass of the prober at the test's clock, then the read models caught up with it. */
async function passAt(at: number) {
  clock = at;
  const census = await prober.pass();
  const projected = await service.app.get(ProjectionWait).waitUntilProjected(await service.app.get(EventStore).lastPosition(), 30_000);
  if (!projected) throw new Error('not projected within 30 s');
  return census;
}

async function eventCount(): Promise<number> {
  return service.app.get(EventStore).count();
}

async function livenessOf(slug: string): Promise<Liveness | null> {
  const { body } = await getJson(`${service.baseUrl}/api/v1/tools/${slug}`);
  return body.tool.liveness as Liveness | null;
}

const t0 = Date.parse('2026-11-20T10:00:00Z');

beforeAll(async () => {
  await standIns.start();
  listingsDir = mkdtempSync(join(tmpdir(), 'liveness-listings-'));
  writeListings(listingsDir);
  service = await startService('liveness');
  const report = await service.ingest([listingsDir]);
  expect(report.problems ?? []).toEqual([]);
  await service.app.get(ProjectionWait).waitUntilProjected(await service.app.get(EventStore).lastPosition(), 30_000);
  const config = testConfig(service.namespace, proberEnv());
  prober = new LivenessProber(service.app.get(EventStore), service.app.get(RedisConnection), config);
  prober.now = () => new Date(clock);
});

afterAll(async () => {
  await service?.close();
  await standIns.stop();
  rmSync(listingsDir, { recursive: true, force: true });
});

describe('the prober against local stand-ins', () => {
  it('publishes what answers at once and no failure seen once; nothing for a failure seen twice too close together', async () => {
    const before = await eventCount();
    const first = await passAt(t0);
    // Every listing has a website that answers: each gets its first liveness, without the failures.
    expect(first.events).toBe(testListings().length);
    expect(await eventCount()).toBe(before + testListings().length);
    for (const { slug, expect: targets } of testListings()) {
      const liveness = (await livenessOf(slug))!;
      const failing = targets.filter(([, state]) => state !== 'ok' && state !== 'auth-required');
      expect(liveness.targets.map((t) => [t.kind, t.state])).toEqual(targets.filter((t) => !failing.includes(t)));
      expect(liveness.checkedAt).toBe(new Date(t0).toISOString());
    }
    expect((await livenessOf('alive-api'))!.state).toBe('ok');

    const second = await passAt(t0 + CONFIRM_MS - 1);
    expect(second.events).toBe(0);
    expect(await eventCount()).toBe(before + testListings().length);
  });

  it('publishes each failure once two probes at least LIVENESS_CONFIRM_MS apart saw it, with the state of each target', async () => {
    const census = await passAt(t0 + CONFIRM_MS);
    const loop = census.failing.find((f) => f.slug === 'loop-api')!;
    expect(loop.failures.map((f) => [f.state, f.detail])).toEqual([['unreachable', 'more than 5 redirects']]);
    const silent = census.failing.find((f) => f.slug === 'silent-api')!;
    expect(silent.failures.map((f) => [f.state, f.detail])).toEqual([['unreachable', 'no connection within 2000 ms']]);
    const failingListings = testListings().filter((l) => l.expect.some(([, state]) => state !== 'ok' && state !== 'auth-required'));
    expect(census.events).toBe(failingListings.length);
    for (const { slug, state, expect: targets } of testListings()) {
      const liveness = (await livenessOf(slug))!;
      expect([slug, liveness.targets.map((t) => [t.kind, t.state])]).toEqual([slug, targets]);
      expect([slug, liveness.state]).toEqual([slug, state]);
      if (state !== 'ok') expect([slug, liveness.failingSince]).toEqual([slug, new Date(t0).toISOString()]);
    }
    const alive = (await livenessOf('alive-api'))!;
    // The last probe that found every target answering, as of the change published (none for moved-api).
    expect(alive.lastOk).toBe(alive.checkedAt);
    expect((await livenessOf('moved-api'))!.lastOk).toBeNull();
    // The endpoint with a {placeholder} is not probed.
    expect(alive.targets.some((t) => t.url.includes('{id}'))).toBe(false);
    const auth = alive.targets.find((t) => t.kind === 'endpoint')!;
    expect(auth.httpStatus).toBe(401);
    expect(auth.timeMs).toEqual(expect.any(Number));
  });

  it('writes no event and no feed entry when nothing changed', async () => {
    const feedBefore = (await getJson(`${service.baseUrl}/api/v1/changes?limit=100`)).body.changes.length;
    const before = await eventCount();
    const census = await passAt(t0 + 2 * CONFIRM_MS);
    expect(census.events).toBe(0);
    expect(await eventCount()).toBe(before);
    expect((await getJson(`${service.baseUrl}/api/v1/changes?limit=100`)).body.changes.length).toBe(feedBefore);
  });

  it('publishes a recovery at once, as one change in the feed with the state before and after', async () => {
    const before = await eventCount();
    standIns.flakyAnswers = true;
    try {
      const census = await passAt(t0 + 2 * CONFIRM_MS + 1000);
      expect(census.events).toBe(1);
    } finally {
      standIns.flakyAnswers = false;
    }
    expect(await eventCount()).toBe(before + 1);
    const flaky = (await livenessOf('flaky-api'))!;
    expect(flaky.state).toBe('ok');
    expect(flaky.failingSince).toBeNull();
    const { body } = await getJson(`${service.baseUrl}/api/v1/changes?limit=100`);
    const last = body.changes.at(-1);
    expect(last).toMatchObject({ kind: 'liveness', type: 'revised', id: 'flaky-api', changedFields: ['state', 'targets'] });
    expect(last.changes[0]).toEqual({ field: 'state', before: 'down', after: 'ok' });
    expect(last._links.self).toBe('/api/v1/tools/flaky-api');
    const atom = await (await fetch(`${service.baseUrl}/api/v1/changes.atom`)).text();
    expect(atom).toContain('Liveness of flaky-api revised');
  });

  it('asks one request at a time of each host, spaced, with its User-Agent and no credential; reads at most 64 KB', () => {
    expect(standIns.maxInFlightPerHost).toBe(1);
    // Every host's requests (a redirect loop's included) came one after another, at least the spacing apart.
    const byHost = new Map<string, number[]>();
    for (const { host, at } of standIns.requests) byHost.set(host, [...(byHost.get(host) ?? []), at]);
    expect(byHost.get(`loop.${DOMAIN}`)!.length).toBeGreaterThan(6);
    for (const [host, times] of byHost) {
      for (let i = 1; i < times.length; i++) expect([host, times[i] - times[i - 1] >= SPACING_MS - 1]).toEqual([host, true]);
    }
    for (const { headers } of standIns.requests) {
      expect(headers['user-agent']).toBe(`api-directory-liveness/1.0 (+${CONTACT})`);
      expect(headers.authorization).toBeUndefined();
      expect(headers.cookie).toBeUndefined();
    }
    // The redirect loop: the first request and 5 redirects followed, no more (in each of the 5 passes).
    expect(standIns.requestsTo('loop').length).toBe(6 * 5);
    // The private address behind a redirect is never reached (10.0.0.1 is refused after resolution).
    expect(standIns.requestsTo('private').length).toBe(0);
    expect(standIns.bigClosedEarly).toBe(true);
    expect(standIns.bigBytesSent).toBeLessThan(10 * 1024 * 1024);
  });
});

describe('the read side', () => {
  it('GET /api/v1/liveness pages the listings by state, with the counts of each', async () => {
    const all = await getJson(`${service.baseUrl}/api/v1/liveness`);
    expect(all.status).toBe(200);
    livenessResponseSchema.parse(all.body);
    const expected = testListings().map(({ slug, state }) => [slug, slug === 'flaky-api' ? 'ok' : state]);
    const count = (state: string) => expected.filter(([, s]) => s === state).length;
    expect(all.body.counts).toEqual({ ok: count('ok'), degraded: count('degraded'), down: count('down'), unchecked: 0 });
    expect(all.body.total).toBe(expected.length);

    const down = await getJson(`${service.baseUrl}/api/v1/liveness?state=down&limit=3`);
    expect(down.body.total).toBe(count('down'));
    expect(down.body.listings).toHaveLength(3);
    const slugs = [...down.body.listings.map((l: { slug: string }) => l.slug)];
    let next = down.body.nextCursor;
    while (next) {
      const page = await getJson(`${service.baseUrl}/api/v1/liveness?state=down&limit=3&cursor=${next}`);
      slugs.push(...page.body.listings.map((l: { slug: string }) => l.slug));
      next = page.body.nextCursor;
    }
    expect(slugs.sort()).toEqual(expected.filter(([, s]) => s === 'down').map(([slug]) => slug).sort());
  });

  it('refuses a bad state with a problem naming the parameter', async () => {
    const bad = await getJson(`${service.baseUrl}/api/v1/liveness?state=bogus`);
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    expect(bad.body).toMatchObject({ status: 400, parameter: 'state' });
    expect(bad.body.detail).toContain("'state' must be one of ok, degraded, down, unchecked, got 'bogus'");
    const badFilter = await getJson(`${service.baseUrl}/api/v1/tools?live=bogus`);
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.parameter).toBe('live');
  });

  it('filters list and search with live=, and shows liveness on summaries and comparison rows', async () => {
    const degraded = await getJson(`${service.baseUrl}/api/v1/tools?live=degraded`);
    expect(degraded.body.filters.live).toBe('degraded');
    expect(degraded.body.tools.map((t: { slug: string }) => t.slug).sort()).toEqual(['broken-api', 'gone-api', 'moved-api']);
    for (const tool of degraded.body.tools) expect(tool.liveness.state).toBe('degraded');
    const search = await getJson(`${service.baseUrl}/api/v1/tools/search?q=stand-in&live=down`);
    expect(search.body.results.length).toBeGreaterThan(0);
    for (const result of search.body.results) expect(result.liveness.state).toBe('down');
    const compare = await getJson(`${service.baseUrl}/api/v1/tools/compare?ids=alive-api,tls-api`);
    expect(compare.body.compared.map((row: { liveness: Liveness }) => row.liveness.state)).toEqual(['ok', 'down']);
  });

  it('answers over MCP what HTTP answers: live= on list_tools, liveness on get_tool', async () => {
    const client = new Client({ name: 'liveness-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', service.baseUrl)));
    try {
      const list = (await client.callTool({ name: 'list_tools', arguments: { live: 'down' } })) as CallToolResult;
      expect(list.structuredContent).toEqual((await getJson(`${service.baseUrl}/api/v1/tools?live=down&limit=20`)).body);
      const tool = (await client.callTool({ name: 'get_tool', arguments: { slug: 'tls-api' } })) as CallToolResult;
      expect((tool.structuredContent as { tool: { liveness: Liveness } }).tool.liveness.targets.at(-1)!.state).toBe('tls-error');
      const bad = (await client.callTool({ name: 'list_tools', arguments: { live: 'bogus' } })) as CallToolResult;
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toContain('live');
    } finally {
      await client.close();
    }
  });

  it('shows a listing\'s liveness as it was with asOf', async () => {
    const { body } = await getJson(`${service.baseUrl}/api/v1/changes?limit=1000`);
    const flaky = body.changes.filter((c: { kind: string; id: string }) => c.kind === 'liveness' && c.id === 'flaky-api');
    const recovered = flaky.at(-1).occurredAt as string;
    const before = new Date(Date.parse(recovered) - 1).toISOString();
    expect((await getJson(`${service.baseUrl}/api/v1/tools/flaky-api?asOf=${before}`)).body.tool.liveness.state).toBe('down');
    expect((await getJson(`${service.baseUrl}/api/v1/tools/flaky-api?asOf=${recovered}`)).body.tool.liveness.state).toBe('ok');
    const first = new Date(Date.parse(flaky[0].occurredAt) - 1).toISOString();
    expect((await getJson(`${service.baseUrl}/api/v1/tools/flaky-api?asOf=${first}`)).body.tool.liveness).toBeNull();
  });

  it('shows liveness on the listing page and counts probes and states in /metrics', async () => {
    const page = await (await fetch(`${service.baseUrl}/apis/tls-api`, { headers: { accept: 'text/html' } })).text();
    expect(page).toContain('TLS error');
    const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/directory_liveness_listings\{state="down"\} \d+/);
    // One tls-error target, probed in each of the 5 passes.
    expect(metrics).toMatch(/directory_liveness_probes_total\{state="tls-error"\} 5\n/);
    expect(metrics).toMatch(/directory_liveness_last_pass_timestamp_seconds \d+/);
  });
});

describe('safety by default', () => {
  it('refuses targets that resolve to loopback or private addresses with the default allow-list, before any connection', async () => {
    expect(new AppConfig({}).liveness.allowAddresses).toEqual([]);
    expect(new AppConfig({}).liveness.hosts.size).toBe(0);
    const seen = standIns.requests.length;
    for (const address of ['127.0.0.1', '10.0.0.1', '169.254.169.254', '::1']) {
      const observation = await probeTarget(
        { kind: 'endpoint', url: standIns.url('ok', '/api/v1') },
        [DOMAIN],
        { userAgent: 'test', connectTimeoutMs: 500, totalTimeoutMs: 1000, policy: new AddressPolicy(), resolve: tableResolve(new Map([[`ok.${DOMAIN}`, address]])) },
        () => new Date(),
      );
      expect([address, observation.state, observation.httpStatus]).toEqual([address, 'refused', null]);
    }
    // A prober with the default allow-list (the stand-ins' names still in its table) reaches none of them.
    const defaults = new LivenessProber(service.app.get(EventStore), service.app.get(RedisConnection), testConfig(service.namespace, proberEnv({ LIVENESS_ALLOW_ADDRESSES: '' })));
    defaults.now = () => new Date(clock);
    const census = await defaults.pass();
    expect(census.targetStates.refused + census.targetStates['dns-failure']).toBe(census.targets);
    expect(standIns.requests.length).toBe(seen);
  });

  it('refuses URLs that are not https or off the listing\'s domains without a request', async () => {
    const settings = { userAgent: 'test', connectTimeoutMs: 500, totalTimeoutMs: 1000, policy: new AddressPolicy(['127.0.0.1']), resolve: tableResolve(new Map([[`ok.${DOMAIN}`, '127.0.0.1']])) };
    const seen = standIns.requests.length;
    for (const url of [standIns.url('ok', '/').replace('https:', 'http:'), standIns.url('ok', '/')]) {
      const observation = await probeTarget({ kind: 'website', url }, url.startsWith('http:') ? [DOMAIN] : ['example.org'], settings, () => new Date());
      expect(observation.state).toBe('refused');
    }
    expect(standIns.requests.length).toBe(seen);
  });
});

describe('running it', () => {
  it('`ingest probe` prints the census; without a contact URL it refuses to probe', async () => {
    const namespace = uniqueNamespace('liveness-cli');
    try {
      expect((await runCli(namespace, [listingsDir])).code).toBe(0);
      const refused = await runCli(namespace, ['probe'], { ...proberEnv(), LIVENESS_CONTACT_URL: '' });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('LIVENESS_CONTACT_URL');
      // Two passes: the second confirms the failures the first saw (LIVENESS_CONFIRM_MS=0: any two probes).
      await runCli(namespace, ['probe'], proberEnv({ LIVENESS_CONFIRM_MS: '0' }));
      const run = await runCli(namespace, ['probe'], proberEnv({ LIVENESS_CONFIRM_MS: '0' }));
      expect(run.code).toBe(0);
      const down = testListings().filter((l) => l.state === 'down').length;
      expect(run.stdout).toMatch(new RegExp(`\\| down +\\| ${down} +\\|`));
      expect(run.stdout).toMatch(/\| tls-api +\| down +\| endpoint \| https:\/\/tls\.stand-in\.test:\d+\/v1 +\| tls-error/);
      const outDir = join(__dirname, 'output');
      mkdirSync(outDir, { recursive: true });
      writeFileSync(join(outDir, 'liveness-census.txt'), run.stdout);
    } finally {
      await dropNamespace(namespace);
    }
  });

  it('on a schedule, one prober at a time holds the lease; another takes over when it stops', async () => {
    const other = await startService('liveness-lease');
    try {
      const config = testConfig(other.namespace, proberEnv({ LIVENESS_LEASE_MS: '1000', LIVENESS_INTERVAL_MS: '3600000' }));
      const make = () => new ProbeSchedule(new LivenessProber(other.app.get(EventStore), other.app.get(RedisConnection), config), other.app.get(RedisConnection), config);
      const [a, b] = [make(), make()];
      const passes: string[] = [];
      const stopA = new AbortController();
      const stopB = new AbortController();
      let firstPass!: () => void;
      const passed = new Promise<void>((resolve) => (firstPass = resolve));
      let secondPass!: () => void;
      const passedAgain = new Promise<void>((resolve) => (secondPass = resolve));
      const runA = a.run(stopA.signal, () => (passes.push('a'), passes.length === 1 ? firstPass() : secondPass()));
      const runB = b.run(stopB.signal, () => (passes.push('b'), passes.length === 1 ? firstPass() : secondPass()));
      await passed;
      const [holder, waiting, stopHolder] = a.holdsLease ? [runA, runB, stopA] : [runB, runA, stopB];
      expect([a.holdsLease, b.holdsLease].filter(Boolean)).toHaveLength(1);
      stopHolder.abort();
      await holder;
      await passedAgain;
      expect(passes).toHaveLength(2);
      expect(passes[0]).not.toBe(passes[1]);
      stopA.abort();
      stopB.abort();
      await waiting;
    } finally {
      await other.close();
    }
  });
});
