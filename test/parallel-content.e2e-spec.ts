import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFilesInParallel } from '../src/catalog/bulk/parallel-reading';
import { collectFiles, readContentFile } from '../src/catalog/content/content-files';
import { FIXTURES } from './support/fixtures';

/**
 * A large ingest reads and validates its files on worker threads: what it finds, problems included, must
 * be exactly what one thread finds, in the same order.
 */
const dir = mkdtempSync(join(tmpdir(), 'parallel-content-'));

beforeAll(() => {
  cpSync('fixtures/listings', join(dir, 'listings'), { recursive: true });
  cpSync('fixtures/errors', join(dir, 'errors'), { recursive: true });
  // One defect of each kind a single file can have, in files that land in different threads' shares.
  writeFileSync(join(dir, 'listings', 'aaa-broken.yaml'), 'slug: [unclosed\n');
  writeFileSync(join(dir, 'listings', 'mmm-neither.json'), '{"hello": "world"}');
  writeFileSync(join(dir, 'listings', 'zzz-invalid.json'), JSON.stringify({ slug: 'zzz-invalid', name: 'Z' }));
  writeFileSync(join(dir, 'errors', 'zz-unknown-provider.json'), JSON.stringify({ provider: 'nobody', status: 429 }));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('finds the same listings, error entries and problems on 3 threads as on one', async () => {
  const { files } = collectFiles([dir]);
  const one = files.map(readContentFile);
  expect(one.filter((r) => r.listing)).toHaveLength(FIXTURES.listings);
  const problems = one.flatMap((r) => r.problems);
  expect(problems.map((p) => p.file)).toEqual(
    expect.arrayContaining([join(dir, 'listings', 'aaa-broken.yaml'), join(dir, 'listings', 'mmm-neither.json')]),
  );
  expect(problems.length).toBeGreaterThan(3);
  // 148 files, at least 40 a thread: three threads, each sending its readings 7 at a time (the last
  // batch of each share short).
  expect(await readFilesInParallel(files, 3, 40, 7)).toEqual(one);
  // One reading a message, and a whole share in one.
  expect(await readFilesInParallel(files, 3, 40, 1)).toEqual(one);
  expect(await readFilesInParallel(files, 2, 40, 1000)).toEqual(one);
});
