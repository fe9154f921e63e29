import { Redis } from 'ioredis';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { spawn } from 'node:child_process';
import { generateCatalog, writeCatalog } from './support/synthetic-catalog';
import { runCli } from './support/cli';
import { ProjectionState } from '../src/projections/projection-state';
import { dropNamespace, REDIS_URL, startService, uniqueNamespace } from './support/harness';
import { FIXTURES } from './support/fixtures';

const namespace = uniqueNamespace('cli');
const redis = new Redis(REDIS_URL);
const stream = `{${namespace}:es}:events`;
let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'ingest-'));
});
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await dropNamespace(namespace);
  await redis.quit();
});

function listingFile(dir: string, slug: string, change: (doc: Record<string, unknown>) => void = () => undefined): string {
  const doc = parse(readFileSync(`fixtures/listings/${slug}.yaml`, 'utf8'));
  change(doc);
  const file = join(dir, `${slug}.yaml`);
  writeFileSync(file, stringify(doc));
  return file;
}

describe('validation', () => {
  it('reports every bad file as file: field: reason and writes nothing', async () => {
    const dir = mkdtempSync(join(work, 'bad-'));
    listingFile(dir, 'openai');
    const popular = listingFile(dir, 'anthropic', (d) => (d.popularity = 150));
    const insecure = listingFile(dir, 'mistral', (d) => (d.website = 'http://mistral.ai'));
    const reserved = listingFile(dir, 'cohere', (d) => (d.slug = 'search'));
    const category = listingFile(dir, 'groq', (d) => (d.category = 'toasters'));
    const unknownField = listingFile(dir, 'deepseek', (d) => (d.colour = 'blue'));
    const date = listingFile(dir, 'qwen', (d) => (d.lastUpdated = '2026-13-01'));
    const tags = listingFile(dir, 'zhipu', (d) => (d.tags = ['LLM']));
    const chinese = listingFile(dir, 'moonshot', (d) => (d.nameCn = 'Moonshot'));
    const broken = join(dir, 'broken.yaml');
    writeFileSync(broken, 'slug: [unclosed\n');

    const run = await runCli(namespace, ['ingest', dir]);
    expect(run.code).toBe(1);
    const lines = run.stderr.split('\n');
    const expectLine = (file: string, field: string, reason: RegExp) =>
      expect(lines.some((l) => l.startsWith(`${file}: ${field}: `) && reason.test(l))).toBe(true);
    expectLine(popular, 'popularity', /0-100/);
    expectLine(insecure, 'website', /https/);
    expectLine(reserved, 'slug', /reserved/);
    expectLine(category, 'category', /unknown category 'toasters'/);
    expectLine(unknownField, 'colour', /unknown field/);
    expectLine(date, 'lastUpdated', /YYYY-MM-DD/);
    expectLine(tags, 'tags', /lowercase/);
    expectLine(chinese, 'nameCn', /Han/);
    expectLine(broken, '(file)', /not valid YAML/);
    expect(run.stderr).toMatch(/nothing was written/);
    expect(await redis.xlen(stream)).toBe(0);
  });

  it('refuses two files with the same slug', async () => {
    const dir = mkdtempSync(join(work, 'dup-'));
    listingFile(dir, 'openai');
    const copy = join(dir, 'openai-copy.json');
    writeFileSync(copy, JSON.stringify(parse(readFileSync('fixtures/listings/openai.yaml', 'utf8'))));
    const run = await runCli(namespace, [dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/openai(-copy\.json|\.yaml): slug: 'openai' is also the slug of .*openai/);
    expect(await redis.xlen(stream)).toBe(0);
  });
});

describe('ingest, re-ingest, revise, withdraw, history, export', () => {
  it('--dry-run shows what would change and writes nothing', async () => {
    const run = await runCli(namespace, ['ingest', '--dry-run', 'fixtures']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('would be published listing openai');
    expect(run.stdout).toContain(`(dry run) ${FIXTURES.listings} listings: ${FIXTURES.listings} published; ${FIXTURES.models} model entries: ${FIXTURES.models} published; ${FIXTURES.errors} error entries: ${FIXTURES.errors} published`);
    expect(await redis.xlen(stream)).toBe(0);
  });

  it('publishes the fixtures: every listing, model entry and error entry', async () => {
    const run = await runCli(namespace, ['fixtures', '--actor', 'seed-test']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`${FIXTURES.listings} listings: ${FIXTURES.listings} published; ${FIXTURES.models} model entries: ${FIXTURES.models} published; ${FIXTURES.errors} error entries: ${FIXTURES.errors} published`);
    // Where the time went, for an operator timing a large import.
    expect(run.stdout).toMatch(/^time: reading and validating \d+ ms, appending \d+ ms, projecting \d+ ms$/m);
    expect(await redis.xlen(stream)).toBe(FIXTURES.documents);
    const generation = await redis.get(`{${namespace}:rm}:current`);
    const categories = JSON.parse((await redis.get(`{${namespace}:g${generation}}:categories`))!.split('\n')[1]);
    expect(categories.categories.reduce((n: number, c: { count: number }) => n + c.count, 0)).toBe(FIXTURES.listings);
  });

  it('re-ingesting the same files is a no-op', async () => {
    const run = await runCli(namespace, ['fixtures']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`${FIXTURES.listings} listings: ${FIXTURES.listings} unchanged; ${FIXTURES.models} model entries: ${FIXTURES.models} unchanged; ${FIXTURES.errors} error entries: ${FIXTURES.errors} unchanged`);
    expect(await redis.xlen(stream)).toBe(FIXTURES.documents);
  });

  it('revises a changed listing, naming the changed fields, and records the actor', async () => {
    const dir = mkdtempSync(join(work, 'rev-'));
    listingFile(dir, 'stripe', (d) => {
      d.popularity = 94;
      d.pricing = `${d.pricing} Volume discounts on request.`;
    });
    const run = await runCli(namespace, [dir, '--actor', 'alice']);
    expect(run.stdout).toContain('revised listing stripe (pricing, popularity)');
    const history = await runCli(namespace, ['history', 'stripe']);
    const lines = history.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^v1 .* ListingPublished .*by seed-test/);
    expect(lines[1]).toMatch(/^v2 .* ListingRevised \(pricing, popularity\) .*by alice/);
  });

  it('withdraws a listing, then reports a second withdrawal as not found', async () => {
    const first = await runCli(namespace, ['withdraw', 'remove-bg', '--reason', 'merged into another listing']);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('withdrawn listing remove-bg');
    const second = await runCli(namespace, ['withdraw', 'remove-bg']);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('no listing remove-bg');
    const history = await runCli(namespace, ['history', 'remove-bg']);
    expect(history.stdout).toMatch(/v2 .* ListingWithdrawn \(merged into another listing\)/);
    const generation = await redis.get(`{${namespace}:rm}:current`);
    expect(await redis.hexists(`{${namespace}:g${generation}}:detail`, 'remove-bg')).toBe(0);
  });

  it('exports the catalog as files that re-ingest as unchanged', async () => {
    const out = join(work, 'export');
    const run = await runCli(namespace, ['export', out]);
    expect(run.stdout).toContain(`exported ${FIXTURES.listings - 1} listings, ${FIXTURES.models} model entries and ${FIXTURES.errors} error entries`);
    const again = await runCli(namespace, [out]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`${FIXTURES.listings - 1} listings: ${FIXTURES.listings - 1} unchanged; ${FIXTURES.models} model entries: ${FIXTURES.models} unchanged; ${FIXTURES.errors} error entries: ${FIXTURES.errors} unchanged`);
  });

  it('rebuilds the read models into a new generation and switches to it', async () => {
    const before = await redis.get(`{${namespace}:rm}:current`);
    const run = await runCli(namespace, ['rebuild']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`rebuilding: ${FIXTURES.listings - 1}/${FIXTURES.listings - 1} listings rendered (100%)`);
    const after = await redis.get(`{${namespace}:rm}:current`);
    expect(Number(after)).toBeGreaterThan(Number(before));
    expect(await redis.hlen(`{${namespace}:g${after}}:detail`)).toBe(FIXTURES.listings - 1);
  });

  it('checks the listings a file refers to against the event store, not the read models (which may lag)', async () => {
    // No read models at all (as with a service that projects elsewhere, far behind): the references of
    // one file still resolve to the listings published in the store.
    const live = await redis.get(`{${namespace}:rm}:current`);
    await redis.del(`{${namespace}:rm}:current`);
    try {
      const dir = mkdtempSync(join(work, 'refs-'));
      const file = listingFile(dir, 'cerebras', (d) => (d.similarApis = ['groq', 'anthropic']));
      const run = await runCli(namespace, ['ingest', '--dry-run', file]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      // A withdrawn listing is not there to refer to (remove-bg was withdrawn above).
      const stale = listingFile(dir, 'cerebras', (d) => (d.similarApis = ['remove-bg']));
      const refused = await runCli(namespace, ['ingest', '--dry-run', stale]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`${stale}: similarApis.0: no listing 'remove-bg'`);
    } finally {
      await redis.set(`{${namespace}:rm}:current`, live!);
    }
  });

  it('asks a running service to rebuild rather than racing it, and says so', async () => {
    const service = await startService('cli-rebuild');
    try {
      expect((await service.ingest(['fixtures'])).problems).toEqual([]);
      const before = Number(await redis.get(`{${service.namespace}:rm}:current`));
      const run = await runCli(service.namespace, ['rebuild']);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`the running service rebuilt generation \\d+ from ${FIXTURES.documents} events`));
      const after = Number(await redis.get(`{${service.namespace}:rm}:current`));
      expect(after).toBeGreaterThan(before);
      // Built once, by the lease holder: the generations allocated are the first ones and this one.
      expect(Number(await redis.get(`{${service.namespace}:rm}:seq`))).toBe(after);
      expect(service.app.get(ProjectionState).status().generation).toBe(after);
    } finally {
      await service.close();
    }
  }, 60_000);
});

describe('settings', () => {
  it('refuses wrong settings before doing anything, naming each', async () => {
    const run = await runCli(namespace, ['history', 'stripe'], { PROJECTOR: 'maybe', PROJECTOR_BATCH_SIZE: 'lots' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("PROJECTOR: must be on or off (also true/false, yes/no, 1/0, enabled/disabled), got 'maybe'");
    expect(run.stderr).toContain("PROJECTOR_BATCH_SIZE: must be a whole number from 1 to 100000, got 'lots'");
  });
});

describe('output', () => {
  it('prints a long report to the end when its reader is slow (a pipe to a pager, a log collector)', async () => {
    const dir = mkdtempSync(join(work, 'long-'));
    writeCatalog(generateCatalog(2000), dir);
    // Over 64 KB of lines: more than a pipe holds, so the CLI's last writes wait for the reader.
    const child = spawn(process.execPath, ['dist/ingest/main.js', 'ingest', '--dry-run', dir, 'fixtures'], {
      env: { ...process.env, REDIS_URL, REDIS_NAMESPACE: uniqueNamespace('cli-long') },
    });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stdout.pause();
    setTimeout(() => child.stdout.resume(), 1500);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stdout.length).toBeGreaterThan(65536);
    expect(stdout).toContain(`(dry run) ${FIXTURES.listings + 2000} listings: ${FIXTURES.listings + 2000} published; ${FIXTURES.models} model entries: ${FIXTURES.models} published; ${FIXTURES.errors} error entries: ${FIXTURES.errors} published`);
    expect(stdout).toMatch(/^time: reading and validating \d+ ms/m);
  });
});
