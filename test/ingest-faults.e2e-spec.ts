import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { parse, stringify } from 'yaml';
import { MAX_FILE_BYTES } from '../src/catalog/content/file-checks';
import { CLI_SCRIPT, runCli } from './support/cli';
import { dropNamespace, freePort, REDIS_URL, uniqueNamespace } from './support/harness';
import { generateCatalog, writeCatalog } from './support/synthetic-catalog';
import { FIXTURES } from './support/fixtures';

/**
 * Ingest under faults tells the truth: bad files are refused with file and reason and nothing written;
 * an import stopped part-way (Redis killed) says what it wrote, which is what the store holds, and
 * re-running it completes; with the projector gone, ingest takes over its lease or exits 4 saying the
 * read models are stale. Exit codes: ingest/exit-codes.ts.
 */
const namespace = uniqueNamespace('faults');
const redis = new Redis(REDIS_URL);
const keys = {
  events: `{${namespace}:es}:events`,
  lease: `{${namespace}:rm}:lease`,
  current: `{${namespace}:rm}:current`,
};
let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ingest-faults-'));
  // The directory as editors have it: the files below refer to its listings, and its own files pass every
  // check (their `<key>`, `<token>` placeholders and the HTML of email examples are not markup in text).
  const seeded = await runCli(namespace, ['ingest', 'fixtures']);
  expect(seeded.stderr).toBe('');
  expect(seeded.code).toBe(0);
}, 120_000);

afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await dropNamespace(namespace);
  await redis.quit();
});

const fixture = (slug: string) => parse(readFileSync(`fixtures/listings/${slug}.yaml`, 'utf8')) as Record<string, any>;

/** The detail the API serves for a listing, from the live read models. */
async function servedDetail(slug: string): Promise<Record<string, any> | null> {
  const generation = await redis.get(keys.current);
  const stored = await redis.hget(`{${namespace}:g${generation}}:detail`, slug);
  return stored === null ? null : JSON.parse(stored.slice(stored.indexOf('\n') + 1)).tool;
}

function writeListing(dir: string, name: string, document: Record<string, unknown>): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, stringify(document));
  return file;
}

describe('files refused with file, field and reason, and nothing written', () => {
  it('refuses bytes that are not UTF-8, a slug that is not the file name, HTML in text, a file over the limit and deep nesting', async () => {
    const dir = mkdtempSync(join(work, 'bad-'));
    // A valid change among the bad files: not written either.
    writeListing(dir, 'stripe.yaml', { ...fixture('stripe'), popularity: 3 });
    const text = readFileSync('fixtures/listings/mistral.yaml');
    const at = text.indexOf('pricing: ') + 'pricing: '.length;
    const notUtf8 = join(dir, 'mistral.yaml');
    writeFileSync(notUtf8, Buffer.concat([text.subarray(0, at), Buffer.from([0xff]), text.subarray(at)]));
    const otherName = writeListing(dir, 'other-name.yaml', { ...fixture('openai'), popularity: 1 });
    const html = writeListing(dir, 'groq.yaml', { ...fixture('groq'), description: `${fixture('groq').description} <script>alert(1)</script>` });
    const entry = parse(readFileSync('fixtures/errors/openai-429-rate-limit-exceeded.yaml', 'utf8'));
    const htmlEntry = join(dir, 'openai-429-rate-limit-exceeded.yaml');
    writeFileSync(htmlEntry, stringify({ ...entry, fix: `${entry.fix} <a href="https://example.com">more</a>` }));
    // 50 MB of YAML: refused by its size, before anything of it is read or parsed.
    const huge = join(dir, 'huge.yaml');
    writeFileSync(huge, `slug: huge\nnote: |\n${`  ${'x'.repeat(97)}\n`.repeat((50 * 1024 * 1024) / 100)}`);
    const deep = join(dir, 'deep.json');
    writeFileSync(deep, `{"slug": "deep", "note": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`);

    const run = await runCli(namespace, ['ingest', dir]);
    expect(run.code).toBe(1);
    const lines = run.stderr.split('\n');
    const expectLine = (line: string) => expect(lines).toContain(line);
    const line = text.subarray(0, at).toString().split('\n').length;
    expectLine(`${notUtf8}: (file): not valid UTF-8: invalid byte sequence at byte offset ${at} (line ${line})`);
    expectLine(`${otherName}: slug: 'openai' must match the file name ('other-name')`);
    expectLine(`${html}: description: contains HTML ('<script>'): text fields are plain text (put code in backticks or in codeExamples)`);
    expectLine(`${htmlEntry}: fix: contains HTML ('<a href="https://example.com">'): text fields are plain text (put code in backticks or in codeExamples)`);
    expect(lines.some((l) => l.startsWith(`${huge}: (file): is 5242`) && l.endsWith(`more than the limit of ${MAX_FILE_BYTES} bytes (1 MiB) for one file`))).toBe(true);
    expectLine(`${deep}: note${'.0'.repeat(31)}: nested more than 32 levels deep (lists and mappings inside each other)`);
    expect(lines).toContain('6 problem(s) found; nothing was written.');
    expect(await redis.xlen(keys.events)).toBe(FIXTURES.documents);
    expect((await servedDetail('stripe'))?.popularity).toBe(fixture('stripe').popularity);
  }, 60_000);
});

describe('from another directory', () => {
  it('takes paths from where it runs and the categories from the package', async () => {
    const elsewhere = mkdtempSync(join(work, 'elsewhere-'));
    writeListing(join(elsewhere, 'mine'), 'stripe.yaml', { ...fixture('stripe'), popularity: 4 });
    const env = { FIXTURES_DIR: '' };
    const run = await runCli(namespace, ['ingest', 'mine'], env, elsewhere);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('revised listing stripe (popularity)');
    expect((await servedDetail('stripe'))?.popularity).toBe(4);
  }, 60_000);
});

describe('the projector gone', () => {
  const revision = (popularity: number) => writeListing(mkdtempSync(join(work, 'rev-')), 'stripe.yaml', { ...fixture('stripe'), popularity });

  it('takes over the lease of a projector killed with SIGKILL once it lapses, and projects: exit 0', async () => {
    const projector = spawn(process.execPath, [CLI_SCRIPT, 'project'], {
      env: { ...process.env, REDIS_URL, REDIS_NAMESPACE: namespace, PROJECTOR_LEASE_MS: '6000' },
      stdio: 'ignore',
    });
    try {
      await until(async () => (await redis.get(keys.lease))?.startsWith(`${projector.pid}-`) === true, 30_000);
    } finally {
      projector.kill('SIGKILL');
    }
    await new Promise((r) => projector.once('exit', r));
    const run = await runCli(namespace, ['ingest', revision(5)]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('revised listing stripe (popularity)');
    expect((await servedDetail('stripe'))?.popularity).toBe(5);
  }, 60_000);

  it('exits 4 saying the read models are stale while the lease stays held; a later run projects once it is free', async () => {
    await redis.set(keys.lease, 'a-projector-that-does-nothing', 'PX', 120_000);
    try {
      const events = await redis.xlen(keys.events);
      const run = await runCli(namespace, ['ingest', '--wait', '1', revision(6)]);
      expect(run.code).toBe(4);
      expect(run.stdout).toContain('revised listing stripe (popularity)');
      expect(run.stderr).toMatch(/the read models are stale .*: no projector applied the new events within 1 s, and this process could not take over: another projector holds the lease \(a-projector-that-does-nothing; it lapses in \d+ s unless renewed\)/);
      expect(run.stderr).toContain('npm run ingest -- project');
      expect(await redis.xlen(keys.events)).toBe(events + 1);
      expect((await servedDetail('stripe'))?.popularity).toBe(5);
    } finally {
      await redis.del(keys.lease);
    }
    // Nothing left to write, but the read models were behind: this run projects them.
    const again = await runCli(namespace, ['ingest', revision(6)]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('unchanged listing stripe');
    expect((await servedDetail('stripe'))?.popularity).toBe(6);
  }, 60_000);
});

describe('Redis gone', () => {
  let dir: string;
  let server: ChildProcess | null = null;
  let port: number;
  const startRedis = async () => {
    server = spawn('redis-server', [
      '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always',
    ], { stdio: 'ignore' });
    await until(async () => {
      try {
        return execFileSync('redis-cli', ['-p', String(port), 'ping']).toString().trim() === 'PONG';
      } catch {
        return false;
      }
    }, 20_000);
  };
  afterAll(() => {
    server?.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('unreachable from the start: exit 3, nothing written', async () => {
    const run = await runCli(namespace, ['ingest', 'fixtures/listings/stripe.yaml'], { REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^the import stopped part-way: Redis at redis:\/\/127\.0\.0\.1:\d+ is unreachable/m);
    expect(run.stderr).toContain('nothing was written before it stopped.');
  }, 60_000);

  it('killed part-way: exit 3, the documents it says it wrote are stored, and re-running writes the rest once', async () => {
    dir = mkdtempSync(join(work, 'redis-'));
    port = await freePort();
    await startRedis();
    const env = { REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_NAMESPACE: 'faults' };
    const stream = '{faults:es}:events';
    const catalog = join(work, 'catalog');
    writeCatalog(generateCatalog(6000), catalog);

    const watcher = new Redis({ port, maxRetriesPerRequest: 0, retryStrategy: () => null });
    watcher.on('error', () => undefined);
    const importing = runCli('faults', ['ingest', catalog], env);
    let finished = false;
    void importing.then(() => (finished = true));
    await until(async () => finished || (await watcher.xlen(stream)) >= 300, 120_000);
    server!.kill('SIGKILL');
    await new Promise((r) => server!.once('exit', r));
    watcher.disconnect();
    const run = await importing;
    expect(run.code).toBe(3);
    const written = run.stdout.split('\n').filter((l) => /^published listing \S+, from \S+\.json$/.test(l));
    const claimed = Number(/written before it stopped: (\d+) document\(s\) \(\d+ published, 0 revised\)/.exec(run.stderr)?.[1]);
    const unanswered = Number(/no answer for (\d+)/.exec(run.stderr)?.[1] ?? 0);
    expect(claimed).toBe(written.length);
    expect(claimed).toBeGreaterThan(0);
    expect(run.stderr).toMatch(/Redis at redis:\/\/127\.0\.0\.1:\d+ is unreachable/);
    expect(run.stderr).toContain('Re-running the same ingest is safe');

    // The store, back from its append-only file, holds every document reported written; at most the
    // ones that got no answer besides.
    await startRedis();
    const store = new Redis({ port });
    try {
      const stored = await store.xlen(stream);
      expect(stored).toBeGreaterThanOrEqual(claimed);
      expect(stored).toBeLessThanOrEqual(claimed + unanswered);
      const versions = await store.hgetall('{faults:es}:versions');
      for (const line of written) expect(versions[`listing:${line.split(' ')[2].replace(/,$/, '')}`]).toBe('1');

      const rerun = await runCli('faults', ['ingest', catalog], env);
      expect(rerun.stderr).toBe('');
      expect(rerun.code).toBe(0);
      const summary = rerun.stdout.split('\n').find((l) => l.startsWith('6000 listings: '))!;
      expect(Number(/(\d+) unchanged/.exec(summary)?.[1])).toBe(stored);
      expect(Number(/(\d+) published/.exec(summary)?.[1])).toBe(6000 - stored);
      // Each document once: one event and version 1 each.
      expect(await store.xlen(stream)).toBe(6000);
      expect(new Set(Object.values(await store.hgetall('{faults:es}:versions')))).toEqual(new Set(['1']));
    } finally {
      store.disconnect();
    }
  }, 240_000);
});

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
