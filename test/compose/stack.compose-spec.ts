/**
 * docker-compose.yml and the Dockerfile on a real Docker engine: the stack is built and started as a user
 * starts it, every endpoint is read over HTTP, the ingest profile changes content, Redis is restarted,
 * the API is scaled to two replicas with one projector, and everything is torn down.
 *
 * Run with `npm run test:compose` (it first builds the base images' test stand-ins where no registry is
 * reachable: test/compose/stand-ins/). Needs a running Docker engine and docker-compose.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { ComposeProject, docker, Fatal, freePortRange, getJson, inspect, PhaseClock, ROOT, waitFor } from './compose-project';

const MINUTE = 60_000;
const LISTINGS = readdirSync(join(ROOT, 'fixtures/listings')).filter((f) => /\.(ya?ml|json)$/.test(f)).length;
const ERROR_ENTRIES = readdirSync(join(ROOT, 'fixtures/errors')).filter((f) => /\.(ya?ml|json)$/.test(f)).length;
const MODELS = readdirSync(join(ROOT, 'fixtures/models')).filter((f) => /\.(ya?ml|json)$/.test(f)).length;
// Every fixture file is one stream, seeded once as its version 1.
const STREAMS = LISTINGS + ERROR_ENTRIES + MODELS;
const EVENTS = '{dir:es}:events';
const LEASE = '{dir:rm}:lease';
const PROBER_LEASE = '{dir:lv}:lease';

/** A word no listing contains (letters only, no suffix the stemmer removes), to find a revision by search. */
function marker(): string {
  const letters = 'bcdfghjkmnpqrtvwxz';
  return `zq${Array.from({ length: 10 }, () => letters[Math.floor(Math.random() * letters.length)]).join('')}`;
}

const clock = new PhaseClock();
let ports: { first: number; last: number; spec: string };
let project: ComposeProject;
let failed = false;
const scratch: string[] = [];

/** Runs a test's body as a timed phase; once one phase has failed, the later ones (which build on it) stop at once. */
function phase(name: string, body: () => Promise<void>): () => Promise<void> {
  return async () => {
    if (failed) throw new Error(`not run: an earlier phase failed`);
    try {
      await clock.time(name, body);
    } catch (error) {
      failed = true;
      throw error;
    }
  };
}

/** The api replicas, each with its container, address inside the compose network, and base URL on the host. */
async function apiReplicas(count: number) {
  const ids = await project.containers('api');
  expect(ids).toHaveLength(count);
  return Promise.all(
    ids.map(async (id, i) => ({
      id,
      ip: (await inspect(id, '{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}')).trim(),
      url: `http://127.0.0.1:${await project.hostPort('api', i + 1, 3000)}`,
    })),
  );
}

/** Waits until `count` containers of `service` run and Docker reports them healthy (the compose file's healthcheck). */
function waitHealthy(service: string, count: number, timeoutMs: number): Promise<string[]> {
  return waitFor(`${count} healthy ${service} container(s)`, timeoutMs, async () => {
    const ids = await project.containers(service);
    if (ids.length !== count) return undefined;
    const states = await Promise.all(ids.map((id) => inspect(id, '{{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{end}}')));
    const stopped = states.find((s) => !s.startsWith('running'));
    if (stopped) throw new Fatal(`a ${service} container is ${stopped}:\n${(await project.compose(['logs', '--no-color', '--tail', '40', service], 60_000, true)).stdout}`);
    return states.every((s) => s === 'running healthy') ? ids : undefined;
  }, 1000);
}

/** Runs the ingest CLI as the compose file's `tools` profile does, optionally with host folders mounted. */
function ingest(args: string[], volumes: string[] = []) {
  return project.compose(['--profile', 'tools', 'run', '--rm', '-T', ...volumes.flatMap((v) => ['-v', v]), 'ingest', ...args], 10 * MINUTE);
}

/** A folder the container's `node` user (uid 1000) can read, holding `stripe.yaml` revised with `word` in its description. */
function revisedStripe(word: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'compose-ingest-'));
  scratch.push(dir);
  const listing = parse(readFileSync(join(ROOT, 'fixtures/listings/stripe.yaml'), 'utf8'));
  listing.description = `Online payments API for cards, wallets and local payment methods, subscriptions and payouts (revision ${word}).`;
  writeFileSync(join(dir, 'stripe.yaml'), stringify(listing));
  chmodSync(dir, 0o755);
  chmodSync(join(dir, 'stripe.yaml'), 0o644);
  return dir;
}

/** Clients blocked in XREAD: the active projector waits for new events that way, and nothing else does. */
async function projectorAddresses(): Promise<string[]> {
  const clients = (await project.redisCli('CLIENT', 'LIST')).split('\n');
  return clients.filter((c) => /\bflags=\S*b/.test(c) && /\bcmd=xread\b/.test(c)).map((c) => /\baddr=([^ ]+):\d+ /.exec(c)![1]);
}

/** What the event store holds, read in Redis itself: number of events and the last one's id. */
async function eventStore() {
  return { events: Number(await project.redisCli('XLEN', EVENTS)), last: (await project.redisCli('XREVRANGE', EVENTS, '+', '-', 'COUNT', '1')).split('\n')[0] };
}

const word1 = marker();
const word2 = marker();

beforeAll(async () => {
  for (const image of ['node:20-bookworm-slim', 'redis:7']) {
    await docker(['image', 'inspect', '--format', '{{.Id}}', image]).catch(() => {
      failed = true;
      throw new Error(`image ${image} is missing: run test/compose/stand-ins/build.sh first (npm run test:compose does)`);
    });
  }
  ports = await freePortRange(2);
  project = new ComposeProject({ API_PORT: ports.spec });
  process.stderr.write(`[compose] project ${project.name}, API_PORT=${ports.spec}\n`);
  await clock.time('build and start (up -d --build)', () => project.compose(['up', '-d', '--build'], 20 * MINUTE)).catch((e) => {
    failed = true;
    throw e;
  });
  await clock.time('until redis and api are healthy', async () => {
    await waitHealthy('redis', 1, 2 * MINUTE);
    await waitHealthy('api', 1, 3 * MINUTE);
  }).catch((e) => {
    failed = true;
    throw e;
  });
}, 25 * MINUTE);

afterAll(async () => {
  try {
    if (!project) return;
    if (failed) {
      const logs = await project.compose(['logs', '--no-color', '--tail', '200'], MINUTE, true).catch((e: Error) => ({ stdout: e.message }));
      const file = join(tmpdir(), `${project.name}.log`);
      writeFileSync(file, logs.stdout);
      process.stderr.write(`[compose] the containers' last log lines are in ${file}\n`);
    }
    await clock.time('tear down (down -v --rmi local)', () => project.compose(['down', '-v', '--rmi', 'local', '--remove-orphans'], 5 * MINUTE));
    const left = await docker(['ps', '-a', '--filter', `label=com.docker.compose.project=${project.name}`, '--format', '{{.Names}}']);
    const volumes = await docker(['volume', 'ls', '--filter', `label=com.docker.compose.project=${project.name}`, '--format', '{{.Name}}']);
    expect({ containers: left, volumes }).toEqual({ containers: '', volumes: '' });
  } finally {
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
    if (clock.phases.length > 0) process.stderr.write(`${clock.summary()}\n`);
  }
}, 10 * MINUTE);

describe('the compose stack', () => {
  it(
    'seeds the fixtures on first start and answers every endpoint',
    phase('read every endpoint', async () => {
      const [api] = await apiReplicas(1);
      expect(api.url).toBe(`http://127.0.0.1:${ports.first}`);

      const health = await getJson(`${api.url}/healthz`);
      expect(health.status).toBe(200);
      expect(health.body.status).toBe('ok');

      const ready = await getJson(`${api.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(ready.body.details).toMatchObject({ redis: { status: 'up' }, readModels: { status: 'up' } });

      const categories = await getJson(`${api.url}/api/v1/tools/categories`);
      expect(categories.status).toBe(200);
      expect(categories.body.totalListings).toBe(LISTINGS);
      expect(categories.body.categories.reduce((sum: number, c: { count: number }) => sum + c.count, 0)).toBe(LISTINGS);
      expect(categories.body.categories[0]).toMatchObject({ slug: 'llm', name: 'LLM Providers', nameCn: '大语言模型' });

      const search = await getJson(`${api.url}/api/v1/tools/search?q=stripe&limit=5`);
      expect(search.status).toBe(200);
      expect(search.body).toMatchObject({ success: true, query: 'stripe', limit: 5 });
      expect(search.body.results[0].slug).toBe('stripe');

      const chinese = await getJson(`${api.url}/api/v1/tools/search?q=${encodeURIComponent('语音合成')}`);
      expect(chinese.status).toBe(200);
      expect(chinese.body.total).toBeGreaterThan(0);

      const compare = await getJson(`${api.url}/api/v1/tools/compare?ids=openai,anthropic`);
      expect(compare.status).toBe(200);
      expect(compare.body.compared.map((t: { slug: string }) => t.slug)).toEqual(['openai', 'anthropic']);
      expect(compare.body.notFound).toEqual([]);

      const detail = await getJson(`${api.url}/api/v1/tools/openai`);
      expect(detail.status).toBe(200);
      expect(detail.etag).toMatch(/^(W\/)?"[\w-]+"$/);
      expect(detail.body.tool).toMatchObject({ slug: 'openai', name: 'OpenAI API', category: 'llm' });
      expect(detail.body.tool.similarApis.length).toBeGreaterThan(0);
      expect(detail.body.tool.errors.length).toBeGreaterThan(0);

      const unknown = await getJson(`${api.url}/api/v1/tools/no-such-api`);
      expect(unknown.status).toBe(404);
      expect(unknown.contentType).toMatch(/^application\/problem\+json/);

      const errors = await getJson(`${api.url}/api/v1/errors`);
      expect(errors.status).toBe(200);
      expect(errors.body.total).toBe(ERROR_ENTRIES);
      expect(errors.body.errors.some((e: { provider: string; status: number }) => e.provider === 'openai' && e.status === 429)).toBe(true);

      const openapi = await getJson(`${api.url}/api/v1/openapi.json`);
      expect(openapi.status).toBe(200);
      expect(openapi.body.openapi).toBe('3.0.0');
      expect(openapi.body.info.version).toBe('1.0.0');
      expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining(['/api/v1/tools/search', '/api/v1/tools/{slug}']));
    }),
  );

  it(
    'applies what the ingest profile sends: a revised file from a mounted folder, a withdrawal',
    phase('ingest profile: revise, withdraw, dry run', async () => {
      const [api] = await apiReplicas(1);
      const before = await eventStore();

      const revised = await ingest(['ingest', '/changes', '--actor', 'compose-test'], [`${revisedStripe(word1)}:/changes:ro`]);
      expect(revised.stdout).toContain('revised listing stripe (description)');
      clock.mark('revised file ingested');
      const withdrawn = await ingest(['withdraw', 'zapier', '--actor', 'compose-test', '--reason', 'compose test']);
      expect(withdrawn.stdout).toContain('withdrawn listing zapier');
      clock.mark('withdrawal');
      expect(await eventStore()).toMatchObject({ events: before.events + 2 });

      const found = await getJson(`${api.url}/api/v1/tools/search?q=${word1}`);
      expect(found.body.total).toBe(1);
      expect(found.body.results[0].slug).toBe('stripe');
      expect((await getJson(`${api.url}/api/v1/tools/stripe`)).body.tool.description).toContain(word1);
      // Withdrawn: gone, not unknown.
      expect((await getJson(`${api.url}/api/v1/tools/zapier`)).status).toBe(410);
      expect((await getJson(`${api.url}/api/v1/tools/categories`)).body.totalListings).toBe(LISTINGS - 1);

      // The profile's own mount of fixtures/: a dry run that may bring the withdrawn listing back and set
      // stripe's description back on purpose (--force: fixtures/ holds the copy before the revision) sees
      // exactly the two changes, and writes nothing.
      const dryRun = await ingest(['ingest', 'fixtures', '--dry-run', '--republish', '--force']);
      const changes = dryRun.stdout.split('\n').filter((line) => line.startsWith('would be ') && !line.startsWith('would be unchanged'));
      expect(changes.sort()).toEqual(['would be published listing zapier', 'would be revised listing stripe (description)']);
      clock.mark('dry run of fixtures/');
      expect(await eventStore()).toMatchObject({ events: before.events + 2 });
    }),
  );

  it(
    'keeps everything accepted when Redis stops and its container is created again',
    phase('redis stopped, recreated, everything still there', async () => {
      const [api] = await apiReplicas(1);
      const paths = [
        '/api/v1/tools/categories',
        '/api/v1/tools/stripe',
        '/api/v1/tools/openai',
        '/api/v1/tools/zapier',
        `/api/v1/tools/search?q=${word1}`,
        '/api/v1/tools/search?q=payment',
        '/api/v1/tools/compare?ids=openai,anthropic,zapier',
        '/api/v1/errors',
      ];
      const read = () =>
        Promise.all(
          paths.map(async (path) => {
            const { status, etag, text } = await getJson(`${api.url}${path}`);
            return { path, status, etag, text };
          }),
        );
      const store = await eventStore();
      const served = await read();
      const [redisBefore] = await project.containers('redis');

      // Stopped: the API stays alive and says it is not ready.
      await project.compose(['stop', 'redis']);
      await waitFor('/readyz answering 503 while Redis is down', 30_000, async () => ((await getJson(`${api.url}/readyz`)).status === 503 ? true : undefined));
      expect((await getJson(`${api.url}/healthz`)).status).toBe(200);
      clock.mark('redis stopped, api not ready');

      // A new container: only the named volume, with the append-only file, carries the data over.
      await project.compose(['rm', '-f', 'redis']);
      await project.compose(['up', '-d', '--no-deps', 'redis']);
      const [redisAfter] = await waitHealthy('redis', 1, 2 * MINUTE);
      expect(redisAfter).not.toBe(redisBefore);
      await waitFor('/readyz answering 200 again', 60_000, async () => ((await getJson(`${api.url}/readyz`)).status === 200 ? true : undefined));
      clock.mark('redis recreated, api ready again');

      expect(await eventStore()).toEqual(store);
      expect(await read()).toEqual(served);
      expect(served.find((r) => r.path === '/api/v1/tools/zapier')!.status).toBe(410);
      expect(served.find((r) => r.path === `/api/v1/tools/search?q=${word1}`)!.text).toContain('"slug":"stripe"');
    }),
  );

  it(
    'scales the API to two replicas with one projector, both serving every change',
    phase('scaled to two api replicas, one projector', async () => {
      await project.compose(['up', '-d', '--scale', 'api=2'], 10 * MINUTE);
      await waitHealthy('api', 2, 3 * MINUTE);
      clock.mark('two replicas healthy');
      const replicas = await apiReplicas(2);
      expect(replicas.map((r) => r.url).sort()).toEqual([`http://127.0.0.1:${ports.first}`, `http://127.0.0.1:${ports.last}`]);

      // Both serve the same content, the new replica (a process that never saw a change) included.
      const categories = await Promise.all(replicas.map((r) => getJson(`${r.url}/api/v1/tools/categories`)));
      expect(categories.map((c) => [c.status, c.body.totalListings])).toEqual([[200, LISTINGS - 1], [200, LISTINGS - 1]]);
      expect(categories[1].etag).toBe(categories[0].etag);
      for (const r of replicas) {
        expect((await getJson(`${r.url}/api/v1/tools/stripe`)).body.tool.description).toContain(word1);
        expect((await getJson(`${r.url}/api/v1/tools/zapier`)).status).toBe(410);
      }
      clock.mark('both serve the same content');

      // One projector: one lease holder, and exactly one client (in one of the replicas) waiting on the stream.
      const ips = replicas.map((r) => r.ip);
      const lease = await project.redisCli('GET', LEASE);
      expect(lease).not.toBe('');
      const seen: string[] = [];
      for (let sample = 0; sample < 8; sample++) {
        const holders = await projectorAddresses();
        expect(holders.length).toBeLessThanOrEqual(1);
        seen.push(...holders);
        expect(await project.redisCli('GET', LEASE)).toBe(lease);
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(seen.length).toBeGreaterThanOrEqual(4);
      expect(new Set(seen).size).toBe(1);
      expect(ips).toContain(seen[0]);
      clock.mark('one projector (8 samples)');

      // A change sent through ingest shows on both.
      await ingest(['ingest', '/changes', '--actor', 'compose-test'], [`${revisedStripe(word2)}:/changes:ro`]);
      for (const r of replicas) {
        await waitFor(`replica ${r.url} serving the revision`, 10_000, async () => {
          const search = await getJson(`${r.url}/api/v1/tools/search?q=${word2}`);
          return search.body.total === 1 && search.body.results[0].slug === 'stripe' ? true : undefined;
        }, 100);
        expect((await getJson(`${r.url}/api/v1/tools/search?q=${word1}`)).body.total).toBe(0);
      }
      clock.mark('a revision through ingest, served by both');

      // The projector's replica stops: the other takes the lease over and goes on projecting.
      const holder = replicas.find((r) => r.ip === seen[0])!;
      const other = replicas.find((r) => r !== holder)!;
      await docker(['stop', '--time', '20', holder.id]);
      await waitFor('the other replica holding the lease', 30_000, async () => {
        const holders = await projectorAddresses();
        const now = await project.redisCli('GET', LEASE);
        return holders.length === 1 && holders[0] === other.ip && now !== '' && now !== lease ? true : undefined;
      });
      clock.mark('holder stopped, lease taken over');
      await ingest(['withdraw', 'amplitude', '--actor', 'compose-test']);
      expect((await getJson(`${other.url}/api/v1/tools/amplitude`)).status).toBe(410);
      expect((await getJson(`${other.url}/api/v1/tools/categories`)).body.totalListings).toBe(LISTINGS - 2);
      clock.mark('a withdrawal through ingest, served');
    }),
  );

  it(
    'seeds an empty store once when two replicas start together',
    phase('fresh volume, two replicas seeding at once', async () => {
      // As a user's first `API_PORT=a-b docker-compose up -d --scale api=2`: both replicas find the store empty.
      await project.compose(['down', '-v'], 5 * MINUTE);
      await project.compose(['up', '-d', '--scale', 'api=2'], 10 * MINUTE);
      await waitHealthy('api', 2, 3 * MINUTE);
      clock.mark('down -v, up with two replicas, both healthy');
      expect(Number(await project.redisCli('XLEN', EVENTS))).toBe(STREAMS);
      const versions = (await project.redisCli('HVALS', '{dir:es}:versions')).split('\n');
      expect(versions).toHaveLength(STREAMS);
      expect(new Set(versions)).toEqual(new Set(['1']));
      for (const r of await apiReplicas(2)) {
        expect((await getJson(`${r.url}/api/v1/tools/categories`)).body.totalListings).toBe(LISTINGS);
        expect((await getJson(`${r.url}/api/v1/tools/zapier`)).status).toBe(200);
        expect((await getJson(`${r.url}/api/v1/tools/search?q=${word2}`)).body.total).toBe(0);
      }
    }),
  );
  it(
    'runs the prober under its own profile, one at a time by its lease, reaching no other host',
    phase('prober profile: two probers, one lease', async () => {
      // A table of names without the fixtures' hosts: every name is a dns-failure, nothing is asked of DNS
      // and no request leaves the machine. A short lease, so the second prober takes over within seconds.
      const settings = {
        LIVENESS_CONTACT_URL: 'https://directory.example.org/about',
        LIVENESS_HOSTS: 'nothing.invalid=192.0.2.1',
        LIVENESS_LEASE_MS: '3000',
        LIVENESS_HOST_SPACING_MS: '0',
        LIVENESS_CONCURRENCY: '32',
      };
      const env = Object.entries(settings).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
      const start = async () => (await project.compose(['--profile', 'prober', 'run', '-d', ...env, 'prober'], 10 * MINUTE)).stdout.trim().split('\n').pop()!;
      const probers = [await start(), await start()];
      const logs = (name: string) => docker(['logs', name]).catch(() => '');
      const censusBy = async () => (await Promise.all(probers.map(async (name) => ((await logs(name)).includes('liveness census') ? name : null)))).filter(Boolean);
      try {
        const [first] = (await waitFor('a census from one prober', 5 * MINUTE, async () => ((await censusBy()).length > 0 ? censusBy() : undefined), 1000)) as string[];
        expect(await censusBy()).toEqual([first]);
        expect(await project.redisCli('GET', PROBER_LEASE)).not.toBe('');
        const stats = await project.redisCli('HGETALL', '{dir:lv}:stats');
        expect(stats).toMatch(/probes:dns-failure\n\d+/);
        expect(stats).not.toMatch(/probes:(ok|auth-required|unreachable|tls-error)/);
        const [api] = await apiReplicas(2);
        const metrics = await (await fetch(`${api.url}/metrics`)).text();
        expect(metrics).toMatch(/directory_liveness_probes_total\{state="dns-failure"\} [1-9]/);
        clock.mark('one census, every name a dns-failure');

        // The holder stops (and releases the lease): the other takes it and probes at once.
        await docker(['stop', '--time', '20', first]);
        const other = probers.find((name) => name !== first)!;
        await waitFor('the other prober taking over', 2 * MINUTE, async () => ((await logs(other)).includes('liveness census') ? true : undefined), 1000);
        clock.mark('the other prober took over');
      } finally {
        await docker(['rm', '-f', ...probers]).catch(() => undefined);
      }
    }),
  );
});
