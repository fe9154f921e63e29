import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The layout a newcomer relies on: each folder of src/ is one capability, and the folders depend on each
 * other in one direction only (no cycles), so where a request or an event goes can be read from the
 * folder names; tests do not reach into the benchmarks; large-import code is entered through one door.
 */
const root = resolve(__dirname, '..', '..');
const src = join(root, 'src');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : /\.tsx?$/.test(path) ? [path] : [];
  });
}

/** Relative imports of a file, resolved to paths (without extension). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"](\.[^'"]+)['"]/g)].map((m) => resolve(dirname(file), m[1]));
}

/** The top-level folder of src/ a path is in ('' for a file directly in src/). */
function folderOf(path: string): string {
  const parts = relative(src, path).split('/');
  return parts.length > 1 ? parts[0] : '';
}

it('has no cycles between the folders of src/', () => {
  const edges = new Map<string, Set<string>>();
  for (const file of filesUnder(src).filter((f) => !f.endsWith('.spec.ts'))) {
    const from = folderOf(file);
    for (const target of importsOf(file)) {
      if (!target.startsWith(src)) continue;
      const to = folderOf(target);
      if (!from || !to || from === to) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
    }
  }
  const cycles: string[] = [];
  const visit = (folder: string, path: string[]) => {
    for (const next of edges.get(folder) ?? []) {
      if (path.includes(next)) cycles.push([...path.slice(path.indexOf(next)), next].join(' -> '));
      else visit(next, [...path, next]);
    }
  };
  for (const folder of edges.keys()) visit(folder, [folder]);
  expect([...new Set(cycles)]).toEqual([]);
  // The test sees the graph: the read side depends on the write side's notifier, never the other way.
  expect(edges.get('read-models')).toContain('projections');
  expect(edges.get('projections')?.has('read-models') ?? false).toBe(false);
});

it('keeps tests out of the benchmarks', () => {
  const test = join(root, 'test');
  const offending = filesUnder(test).filter((file) => importsOf(file).some((target) => target.startsWith(join(root, 'bench'))));
  expect(offending).toEqual([]);
});

it('enters the large-import code (src/bulk/) from the import use case only', () => {
  const users = filesUnder(src)
    .filter((file) => folderOf(file) !== 'bulk' && !file.endsWith('.spec.ts'))
    .filter((file) => importsOf(file).some((target) => folderOf(target) === 'bulk' && target.startsWith(src)))
    .map((file) => relative(src, file));
  expect(users).toEqual(['import/import-catalog.handler.ts']);
});

it('enters the MCP server (src/mcp/) from the composition of the app only: it adapts the reads, nothing depends on it', () => {
  const users = filesUnder(src)
    .filter((file) => folderOf(file) !== 'mcp' && !file.endsWith('.spec.ts'))
    .filter((file) => importsOf(file).some((target) => folderOf(target) === 'mcp' && target.startsWith(src)))
    .map((file) => relative(src, file));
  expect(users).toEqual(['app.module.ts']);
});

it('enters the pages (src/pages/) from the composition of the app only: they adapt the reads, nothing depends on them', () => {
  const users = filesUnder(src)
    .filter((file) => folderOf(file) !== 'pages' && !file.endsWith('.spec.ts'))
    .filter((file) => importsOf(file).some((target) => folderOf(target) === 'pages' && target.startsWith(src)))
    .map((file) => relative(src, file));
  expect(users).toEqual(['app.module.ts']);
});
