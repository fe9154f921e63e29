import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CategoryCatalog } from '../src/catalog/category-catalog';
import { loadContent } from '../src/catalog/content-files';
import { loadContentInParallel } from '../src/catalog/parallel-content';

/**
 * A large ingest reads and validates its files on worker threads: what it finds, problems included, must
 * be exactly what one thread finds, in the same order.
 */
const dir = mkdtempSync(join(tmpdir(), 'parallel-content-'));
const categories = CategoryCatalog.fromDirectory('fixtures');

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
  const one = loadContent([dir], categories, new Set());
  expect(one.listings).toHaveLength(127);
  expect(one.problems.map((p) => p.file)).toEqual(
    expect.arrayContaining([join(dir, 'listings', 'aaa-broken.yaml'), join(dir, 'listings', 'mmm-neither.json')]),
  );
  expect(one.problems.length).toBeGreaterThan(4);
  // 148 files, at least 40 a thread: three threads, each sending its readings 7 at a time (the last
  // batch of each share short).
  const three = await loadContentInParallel([dir], categories, new Set(), 3, 40, 7);
  expect(three).toEqual(one);
  // One reading a message, and a whole share in one.
  expect(await loadContentInParallel([dir], categories, new Set(), 3, 40, 1)).toEqual(one);
  expect(await loadContentInParallel([dir], categories, new Set(), 2, 40, 1000)).toEqual(one);
});
