import { Redis } from 'ioredis';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { runCli } from './support/cli';
import { dropNamespace, REDIS_URL, uniqueNamespace } from './support/harness';
import { FIXTURES } from './support/fixtures';

/**
 * No editor silently undoes another: two editors work from their own exports of the directory, as they
 * would, with the CLI. A file based on an older version than the current one is refused, naming what
 * changed since, with nothing written and exit code 5, unless the editor overwrites on purpose (--force,
 * recorded on the event). A plain file (no version) that sets a field back to its value before its latest
 * change is refused the same way. Content equal to what is published is unchanged, whatever version it says.
 * A file for a withdrawn listing does not bring it back unless --republish.
 */
const namespace = uniqueNamespace('editors');
const redis = new Redis(REDIS_URL);
const stream = `{${namespace}:es}:events`;
let work: string;

const cli = (...args: string[]) => runCli(namespace, args);
const edit = (file: string, change: (doc: Record<string, any>) => void) => {
  const doc = parse(readFileSync(file, 'utf8'));
  change(doc);
  writeFileSync(file, stringify(doc));
};
/** The data of the last event of the log. */
const lastEvent = async () => {
  const [[, fields]] = (await redis.xrevrange(stream, '+', '-', 'COUNT', 1)) as Array<[string, string[]]>;
  const entry = JSON.parse(fields[fields.indexOf('event') + 1] ?? fields[1]);
  return entry;
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'editors-'));
  expect((await cli('ingest', 'fixtures')).code).toBe(0);
});
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await dropNamespace(namespace);
  await redis.quit();
});

describe('two editors, each with an export of the directory', () => {
  const a = () => join(work, 'a');
  const b = () => join(work, 'b');

  beforeAll(async () => {
    expect((await cli('export', a())).code).toBe(0);
    expect((await cli('export', b())).code).toBe(0);
  });

  it('an export names the version each file is based on, and re-imports as unchanged', async () => {
    expect(parse(readFileSync(join(a(), 'listings', 'openai.yaml'), 'utf8')).basedOnVersion).toBe(1);
    const run = await cli('ingest', a());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`${FIXTURES.listings} listings: ${FIXTURES.listings} unchanged`);
  });

  it("the second editor's stale file is refused, naming what changed since; nothing is written", async () => {
    edit(join(b(), 'listings', 'openai.yaml'), (d) => (d.pricing = `${d.pricing} Batch requests cost half.`));
    const first = await cli('ingest', join(b(), 'listings', 'openai.yaml'));
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('revised listing openai (pricing)');

    edit(join(a(), 'listings', 'openai.yaml'), (d) => (d.description = `${d.description} Now with more models.`));
    const before = await redis.xlen(stream);
    const stale = await cli('ingest', join(a(), 'listings', 'openai.yaml'));
    expect(stale.code).toBe(5);
    expect(stale.stderr).toMatch(/openai\.yaml: basedOnVersion: based on version 1, but listing openai is at version 2: changed since in fields pricing \(1 change\(s\), the last by \S+ at \S+\)\. Bring those changes into your file/);
    expect(stale.stderr).toContain('nothing was written');
    expect(await redis.xlen(stream)).toBe(before);
  });

  it('--force overwrites on purpose, and the event records it', async () => {
    const forced = await cli('ingest', '--force', join(a(), 'listings', 'openai.yaml'));
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('revised listing openai (description, pricing)');
    const event = await lastEvent();
    expect(event.data.forced).toEqual({ basedOn: 1, overwrote: 2 });
  });

  it('a file saying a version the listing never reached is refused', async () => {
    edit(join(b(), 'listings', 'stripe.yaml'), (d) => (d.basedOnVersion = 9));
    const run = await cli('ingest', join(b(), 'listings', 'stripe.yaml'));
    expect(run.code).toBe(5);
    expect(run.stderr).toContain('basedOnVersion: says version 9, but the directory holds version 1 of listing stripe');
  });

  it('files without a version (the single-editor flow of fixtures/) still ingest as before', async () => {
    const run = await cli('ingest', 'fixtures/listings/github.yaml');
    expect(run.code).toBe(0);
  });

  it('the same folder imported again (a retry after a timeout) is nothing changed, whatever version its files say', async () => {
    const c = join(work, 'c');
    expect((await cli('export', c)).code).toBe(0);
    edit(join(c, 'listings', 'cohere.yaml'), (d) => (d.description = `${d.description} Rerank is served too.`));
    const first = await cli('ingest', join(c, 'listings', 'cohere.yaml'));
    expect(first.stdout).toContain('revised listing cohere (description)');
    const before = await redis.xlen(stream);
    // The file still says the version it was based on, now older than the listing's: its content is the listing's.
    const again = await cli('ingest', join(c, 'listings', 'cohere.yaml'));
    expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: '' });
    expect(again.stdout).toContain('1 unchanged');
    expect(await redis.xlen(stream)).toBe(before);
  });
});

describe('a plain file (no version) that is an old copy', () => {
  // The usual single-editor flow: edit fixtures/ and ingest it. A copy of a file made before someone
  // else's change would set their field back: refused, naming it, unless the editor means it.
  const old = () => join(work, 'old', 'mistral.yaml');
  beforeAll(async () => {
    mkdirSync(join(work, 'old'));
    mkdirSync(join(work, 'theirs'));
    writeFileSync(old(), readFileSync('fixtures/listings/mistral.yaml', 'utf8'));
    const theirs = join(work, 'theirs', 'mistral.yaml');
    writeFileSync(theirs, readFileSync('fixtures/listings/mistral.yaml', 'utf8'));
    edit(theirs, (d) => (d.usageTips = [...d.usageTips, 'Pin a dated model id in production.']));
    const run = await cli('ingest', '--actor', 'editor-b', theirs);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('revised listing mistral (usageTips)');
  });

  it('is refused with the field it would set back, the version that changed it and who did; --dry-run says the same; nothing is written', async () => {
    edit(old(), (d) => (d.description = `${d.description} Also in Europe.`));
    const before = await redis.xlen(stream);
    for (const args of [['ingest', old()], ['ingest', '--dry-run', old()]]) {
      const run = await cli(...args);
      expect(run.code).toBe(5);
      expect(run.stderr).toMatch(/old\/mistral\.yaml: usageTips: sets usageTips of listing mistral back to its value before version 2 \(changed by editor-b at \S+\): the file looks like a copy older than that change/);
      expect(run.stderr).toContain('ingest --force');
    }
    expect(await redis.xlen(stream)).toBe(before);
  });

  it('--force sets it back on purpose, and the event records the version the file predates', async () => {
    const run = await cli('ingest', '--force', old());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('revised listing mistral (description, usageTips)');
    expect((await lastEvent()).data.forced).toEqual({ basedOn: 1, overwrote: 2 });
  });
});

describe('a withdrawn listing', () => {
  it('is withdrawn with its successors, which must be listings of the directory', async () => {
    const unknown = await cli('withdraw', 'mapbox', '--replaced-by', 'no-such-listing');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("'no-such-listing' cannot replace it: not a listing of the directory");
    const run = await cli('withdraw', 'mapbox', '--reason', 'merged into Google Maps', '--replaced-by', 'google-maps');
    expect(run.code).toBe(0);
    expect((await lastEvent()).data).toEqual({ reason: 'merged into Google Maps', replacedBy: ['google-maps'] });
  });

  it('does not come back from a folder that still holds its file, unless the editor says --republish', async () => {
    const before = await redis.xlen(stream);
    const refused = await cli('ingest', 'fixtures');
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain('fixtures/listings/mapbox.yaml: (file): listing mapbox was withdrawn: run ingest --republish to publish it again, or remove the file');
    expect(await redis.xlen(stream)).toBe(before);
    const republished = await cli('ingest', '--republish', 'fixtures/listings/mapbox.yaml');
    expect(republished.code).toBe(0);
    expect(republished.stdout).toContain('published listing mapbox');
  });
});
