import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

/**
 * The layout a newcomer relies on: each folder of src/ is one capability (listings, models, the error
 * reference...) or a piece of infrastructure below them (redis, event-store, projections, http...); a
 * capability that has a write side, a read side and views keeps each in a sub-folder (listings/write,
 * listings/read, listings/views). These parts depend on each other in one direction only (no cycles), so
 * where a request or an event goes can be read from the folder names; tests do not reach into the
 * benchmarks; large-import code is entered through one door.
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

/** The capabilities divided into parts (write side, read side, views...), each part a folder of its own. */
const DIVIDED = new Set(['listings', 'models', 'error-reference', 'categories', 'liveness', 'catalog']);

/**
 * The part of src/ a path is in: its capability's part (`listings/read`) where the capability is divided,
 * else its top-level folder (`search`, or `listings` for a file beside the parts).
 */
function partOf(path: string): string {
  const parts = relative(src, path).split('/');
  if (parts.length < 2) return '';
  return parts.length > 2 && DIVIDED.has(parts[0]) ? `${parts[0]}/${parts[1]}` : parts[0];
}

it('has at most 20 top-level folders in src/', () => {
  const folders = readdirSync(src).filter((name) => statSync(join(src, name)).isDirectory());
  expect(folders.length).toBeLessThanOrEqual(20);
});

it('has no cycles between the parts of src/ (folders, and the parts of a divided capability)', () => {
  const edges = new Map<string, Set<string>>();
  for (const file of filesUnder(src).filter((f) => !f.endsWith('.spec.ts'))) {
    const from = partOf(file);
    for (const target of importsOf(file)) {
      if (!target.startsWith(src)) continue;
      const to = partOf(target);
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
  // The test sees the graph: a capability's read side depends on its write side's types, never the other way.
  expect(edges.get('listings/read')).toContain('listings/write');
  expect(edges.get('listings/write')?.has('listings/read') ?? false).toBe(false);
});

it('keeps tests out of the benchmarks', () => {
  const test = join(root, 'test');
  const offending = filesUnder(test).filter((file) => importsOf(file).some((target) => target.startsWith(join(root, 'bench'))));
  expect(offending).toEqual([]);
});

it('enters the large-import code (src/catalog/bulk/) from the import use case only', () => {
  const users = filesUnder(src)
    .filter((file) => partOf(file) !== 'catalog/bulk' && !file.endsWith('.spec.ts'))
    .filter((file) => importsOf(file).some((target) => partOf(target) === 'catalog/bulk' && target.startsWith(src)))
    .map((file) => relative(src, file));
  expect(users).toEqual(['catalog/import/import-catalog.handler.ts']);
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

it('gives each page type a folder of its own, with its controller, its views and its strings', () => {
  const pages = join(src, 'pages');
  const folders = readdirSync(pages).filter((name) => statSync(join(pages, name)).isDirectory() && !['shared', 'assets', 'site'].includes(name));
  expect(folders.length).toBeGreaterThanOrEqual(8);
  for (const folder of folders) {
    const files = readdirSync(join(pages, folder));
    expect({ folder, controller: files.some((f) => f.endsWith('.controller.ts')), strings: files.some((f) => f.endsWith('-messages.ts')) }).toEqual({ folder, controller: true, strings: true });
  }
});

it('keeps the pages’ view components short (at most 90 lines each), so each can be read at once', () => {
  const long: string[] = [];
  for (const file of filesUnder(join(src, 'pages')).filter((f) => f.endsWith('.tsx'))) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, start) => {
      const named = /^(?:export )?function (\w+)/.exec(line);
      if (!named) return;
      const end = lines.findIndex((l, i) => i > start && l === '}');
      if (end - start + 1 > 90) long.push(`${relative(src, file)}: ${named[1]} (${end - start + 1} lines)`);
    });
  }
  expect(long).toEqual([]);
});

it('keeps every class of src/ within 250 lines and every function within 80, so each can be read at once', () => {
  const long: string[] = [];
  for (const file of filesUnder(src).filter((f) => !f.endsWith('.spec.ts'))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      const name = (node as { name?: ts.Node }).name?.getText(source) ?? '(anonymous)';
      if (ts.isClassDeclaration(node) && lines > 250) long.push(`${relative(src, file)}: class ${name} (${lines} lines)`);
      if (ts.isFunctionLike(node) && 'body' in node && node.body && lines > 80) long.push(`${relative(src, file)}: ${name} (${lines} lines)`);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  expect(long).toEqual([]);
});

it('names in the docs and the benchmarks’ README only paths of the project that exist', () => {
  const documents = ['README.md', 'bench/README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
  const missing: string[] = [];
  for (const document of documents) {
    const text = readFileSync(join(root, document), 'utf8');
    for (const [, path] of text.matchAll(/`((?:src|test|bench|ingest|docs|fixtures)\/[A-Za-z0-9_./-]+)`/g)) {
      if (!existsSync(join(root, path))) missing.push(`${document}: ${path}`);
    }
  }
  expect([...new Set(missing)]).toEqual([]);
});
