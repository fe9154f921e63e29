import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EventStore } from '../../src/event-store/event-store.service';
import { ReadModels } from '../../src/projections/read-models.service';
import { RunningService, startService } from '../support/harness';

/**
 * docs/architecture.md follows one search and one ingest through every file they cross. Those traces are
 * held to what runs: V8's precise coverage counts the calls of every function while the request or the
 * import runs in this process, and the files of src/ with a function called are the files crossed. A file
 * the doc names that is not crossed, or one crossed that the doc does not name, fails; so does a trace that
 * crosses more folders than the layout allows (a search at most 6, an ingest at most 9). The command line's
 * own files (ingest/) run in another process and are not counted here.
 */
const root = resolve(__dirname, '..', '..');
const src = join(root, 'src');

let session: Session;
let service: RunningService;

beforeAll(async () => {
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  // Budgets on, as in production: the documented search spends from them.
  service = await startService('traces', { RATE_LIMIT_PER_MINUTE: '600', SEARCH_RATE_LIMIT_PER_MINUTE: '600' });
  expect((await service.ingest(['fixtures'])).problems).toEqual([]);
});
afterAll(async () => {
  await service?.close();
  await session?.post('Profiler.stopPreciseCoverage');
  session?.disconnect();
});

/** The files of src/ with a function called while `action` ran (the counters are reset before it). */
async function filesCrossed(action: () => Promise<void>): Promise<string[]> {
  await session.post('Profiler.takePreciseCoverage');
  await action();
  const { result } = await session.post('Profiler.takePreciseCoverage');
  const files = new Set<string>();
  for (const script of result) {
    if (!script.url) continue;
    const path = script.url.startsWith('file:') ? fileURLToPath(script.url) : script.url;
    if (!path.startsWith(src + '/') || /\.spec\.ts$/.test(path)) continue;
    if (script.functions.some((fn) => fn.ranges[0].count > 0 && fn.functionName !== '')) files.add(relative(root, path));
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
  expect({ heading, crossedButNotNamed: crossed.filter((file) => !named.includes(file)), namedButNotCrossed: named.filter((file) => !crossed.includes(file)) }).toEqual({
    heading,
    crossedButNotNamed: [],
    namedButNotCrossed: [],
  });
  expect(foldersOf(crossed).length).toBeLessThanOrEqual(maxFolders);
}

it('one search (a first search since the catalog changed) crosses the files "One search, followed" names, in at most 6 folders', async () => {
  const crossed = await filesCrossed(async () => {
    const response = await fetch(`${service.baseUrl}/api/v1/tools/search?q=tts`, { headers: { 'accept-encoding': 'br' } });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  });
  expectTraced('One search, followed', crossed, 6);
});

it('one ingest of a revised listing crosses the files "One ingest, followed" names (the service running), in at most 9 folders', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'trace-'));
  try {
    cpSync(join(root, 'fixtures', 'categories.yaml'), join(folder, 'categories.yaml'));
    cpSync(join(root, 'fixtures', 'tasks.yaml'), join(folder, 'tasks.yaml'));
    const file = join(folder, 'openai.yaml');
    const text = readFileSync(join(root, 'fixtures', 'listings', 'openai.yaml'), 'utf8');
    writeFileSync(file, text.replace(/^popularity: (\d+)$/m, (_, n) => `popularity: ${Number(n) - 1}`));
    const crossed = await filesCrossed(async () => {
      const report = await service.ingest([file]);
      expect(report.problems).toEqual([]);
      expect(report.results.map((r) => r.outcome)).toEqual(['revised']);
      // Every serving process's search index follows the change (step 12).
      const readModels = service.app.get(ReadModels);
      const last = await service.app.get(EventStore).lastPosition();
      while (readModels.checkpointNow() !== last) await new Promise<void>((resolve) => readModels.onceMoved(resolve));
      await readModels.searchCaughtUp();
    });
    expectTraced('One ingest, followed', crossed, 9);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
