import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, testConfig, uniqueNamespace, dropNamespace } from '../support/harness';

/**
 * docs/architecture.md follows one search and one ingest through every file they cross. Those traces are
 * held to what runs: V8's precise coverage counts the calls of every function while the request or the
 * import runs in this process, and the files of src/ with a function called are the files crossed. A file
 * the doc names that is not crossed, or one crossed that the doc does not name, fails; so does a trace that
 * crosses more folders than the layout allows (a search at most 6, an ingest at most 9). The command line's
 * own files (ingest/) run in another process and are not counted here.
 *
 * The service runs from the build (dist/, as `npm start` runs it; `npm test` builds first): the test
 * runner's own compilation turns every exported constant into a getter, which would count a file whose
 * constant is read as crossed.
 */
const root = resolve(__dirname, '..', '..');
const dist = join(root, 'dist', 'src');
/* eslint-disable @typescript-eslint/no-require-imports */
const { createApp } = require(join(dist, 'bootstrap'));
const { CommandBus } = require('@nestjs/cqrs');
const { ImportCatalogCommand } = require(join(dist, 'catalog', 'import', 'import-catalog.command'));
const { EventStore } = require(join(dist, 'event-store', 'event-store.service'));
const { ReadModels } = require(join(dist, 'projections', 'read-models.service'));
const { ResponseCache } = require(join(dist, 'projections', 'response-cache'));
const { LiveSearchIndex } = require(join(dist, 'search', 'live-search-index'));
const { drainAndClose } = require(join(dist, 'operations', 'shutdown'));

let session: Session;

beforeAll(async () => {
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
});
afterAll(async () => {
  await session?.post('Profiler.stopPreciseCoverage');
  session?.disconnect();
});

/** The source file of a compiled one (dist/src/x.js -> src/x.ts or src/x.tsx; dist/ingest likewise). */
function sourceOf(compiled: string): string {
  const base = join(root, relative(join(root, 'dist'), compiled)).replace(/\.js$/, '');
  return relative(root, existsSync(`${base}.tsx`) ? `${base}.tsx` : `${base}.ts`);
}

/** The files of src/ with a function called while `action` ran (the counters are reset before it). */
async function filesCrossed(action: () => Promise<void>): Promise<string[]> {
  await session.post('Profiler.takePreciseCoverage');
  await action();
  const { result } = await session.post('Profiler.takePreciseCoverage');
  const files = new Set<string>();
  for (const script of result) {
    if (!script.url) continue;
    const path = script.url.startsWith('file:') ? fileURLToPath(script.url) : script.url;
    if (!path.startsWith(join(root, 'dist') + '/') || !path.endsWith('.js') || !/\/dist\/(src|ingest)\//.test(path)) continue;
    if (script.functions.some((fn) => fn.ranges[0].count > 0)) files.add(sourceOf(path));
  }
  return [...files].sort();
}

/** The files of src/ a section of docs/architecture.md names in backticks. */
function traced(heading: string): string[] {
  const doc = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
  const start = doc.indexOf(`## ${heading}`);
  const end = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, end < 0 ? undefined : end);
  return [...new Set([...section.matchAll(/`(src\/[^`\s]+\.tsx?)`/g)].map((m) => m[1]))].sort();
}

/** The top-level places of src/ a trace crosses: its folders, and src/ itself for the files in it. */
function foldersOf(files: string[]): string[] {
  return [...new Set(files.map((file) => file.split('/').slice(1, -1)[0] ?? '(src)'))].sort();
}

function expectTraced(heading: string, crossed: string[], maxFolders: number): void {
  const named = traced(heading);
  if (process.env.PRINT_TRACES) writeFileSync(join(process.env.PRINT_TRACES, `${heading}.txt`), crossed.join('\n'));
  expect({ heading, crossedButNotNamed: crossed.filter((file) => !named.includes(file)), namedButNotCrossed: named.filter((file) => !crossed.includes(file)) }).toEqual({
    heading,
    crossedButNotNamed: [],
    namedButNotCrossed: [],
  });
  expect(foldersOf(crossed).length).toBeLessThanOrEqual(maxFolders);
}

it('one search (a first search since the catalog changed) crosses the files "One search, followed" names, in at most 6 folders', async () => {
  // Budgets on, as in production: the documented search spends from them. Nothing else runs in this
  // process meanwhile: no projector (the import projects itself), and no look at Redis for changes
  // during the request (every timer's work would count as crossed).
  const namespace = uniqueNamespace('traces');
  const app = await createApp(testConfig(namespace, { RATE_LIMIT_PER_MINUTE: '600', SEARCH_RATE_LIMIT_PER_MINUTE: '600', PROJECTOR: 'off', READ_POLL_MS: '3600000' }));
  try {
    await app.init();
    const port = await freePort();
    await app.listen(port, '127.0.0.1');
    expect((await app.get(CommandBus).execute(new ImportCatalogCommand(['fixtures'], 'test'))).problems).toEqual([]);
    const readModels = app.get(ReadModels);
    const last = await app.get(EventStore).lastPosition();
    const responses = app.get(ResponseCache);
    while (responses.checkpointNow() !== last) await new Promise<void>((resolve) => readModels.onceMoved(resolve));
    await app.get(LiveSearchIndex).caughtUp();
    // This client has asked before: its budgets' first grants from Redis are behind it (the common case).
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/tools/search?q=warm`)).status).toBe(200);
    const crossed = await filesCrossed(async () => {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/tools/search?q=tts`, { headers: { 'accept-encoding': 'br' } });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    });
    expectTraced('One search, followed', crossed, 6);
  } finally {
    await drainAndClose(app, 2000, 0);
    await dropNamespace(namespace);
  }
});

it('one ingest of a revised listing, by the command line with no service running, crosses the files "One ingest, followed" names, in at most 9 folders', async () => {
  const { NestFactory } = require('@nestjs/core');
  const { IngestCliModule } = require(join(root, 'dist', 'ingest', 'ingest-cli.module'));
  const { IngestCommand } = require(join(root, 'dist', 'ingest', 'commands', 'ingest.command'));
  const cliNamespace = uniqueNamespace('traces-cli');
  const cli = await NestFactory.createApplicationContext(IngestCliModule.register(testConfig(cliNamespace)), { logger: false });
  const folder = mkdtempSync(join(tmpdir(), 'trace-'));
  const printed: string[] = [];
  const log = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => printed.push(String(chunk)) > 0);
  try {
    expect((await cli.get(CommandBus).execute(new ImportCatalogCommand(['fixtures'], 'test'))).problems).toEqual([]);
    const file = join(folder, 'openai.yaml');
    const text = readFileSync(join(root, 'fixtures', 'listings', 'openai.yaml'), 'utf8');
    writeFileSync(file, text.replace(/^popularity: (\d+)$/m, (_, n) => `popularity: ${Number(n) - 1}`));
    const crossed = await filesCrossed(async () => {
      await cli.get(IngestCommand).run([file], { actor: 'test' });
    });
    expect(printed.join('')).toMatch(/^revised listing openai \(popularity\)/m);
    expect(process.exitCode ?? 0).toBe(0);
    expect(crossed).toContain('ingest/commands/ingest.command.ts');
    expectTraced('One ingest, followed', crossed.filter((path) => path.startsWith('src/')), 9);
  } finally {
    log.mockRestore();
    await cli.close();
    await dropNamespace(cliNamespace);
    rmSync(folder, { recursive: true, force: true });
  }
});
