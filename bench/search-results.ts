import { readFileSync, writeFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { RELEVANCE_CASES } from '../test/search-relevance.cases';
import { dropNamespace, syntheticFolder } from './lib/catalogs';
import { LONG_TAIL_QUERIES } from './lib/long-tail';
import { runCli, startRedis, startService, stop } from './lib/processes';

/**
 * `node dist/bench/search-results.js record <file> [size]`: the full ranked answer (slugs, scores, matched
 * fields, totals, terms, interpretation, cursors) of every long-tail query and every relevance case, at
 * several page shapes (a first page of 20, three pages of 7 through their cursors, a page of 100; the long
 * tail also with freeTier=true), and of the list and browse (each category and each filter, a page of 100
 * and three pages of 7) and llms.txt, over the fixtures and a synthetic catalog of `size` (default 10,000)
 * plus the fixtures. Summaries are left out (each is the stored JSON of its slug).
 * `node dist/bench/search-results.js compare <before> <after>`: every answer that differs.
 * A change to the search engine that must not change results is checked by recording before and after.
 */
type Answers = Record<string, unknown>;

const log = (line: string) => console.error(`[search-results] ${line}`);

/** The requests recorded: each is followed through its cursor for `pages` pages. */
function requests(): Array<{ path: string; pages: number }> {
  const shapes = (base: Record<string, string>) => [
    { path: pathOf('/api/v1/tools/search', { ...base, limit: '20' }), pages: 1 },
    { path: pathOf('/api/v1/tools/search', { ...base, limit: '7' }), pages: 3 },
    { path: pathOf('/api/v1/tools/search', { ...base, limit: '100' }), pages: 1 },
  ];
  const out = [
    ...LONG_TAIL_QUERIES.flatMap((q) => [...shapes({ q }), { path: pathOf('/api/v1/tools/search', { q, freeTier: 'true', limit: '20' }), pages: 1 }]),
    ...RELEVANCE_CASES.flatMap((c) => shapes({ q: c.q, ...(c.category ? { category: c.category } : {}), ...c.params })),
  ];
  const filters: Array<Record<string, string>> = [
    {},
    ...['llm', 'audio', 'image', 'payment', 'search', 'nosuchcategory'].map((category) => ({ category })),
    { freeTier: 'true' }, { freeTier: 'false' }, { openaiCompatible: 'true' }, { auth: 'bearer' }, { minContext: '128k' }, { sdk: 'python' },
    { category: 'llm', freeTier: 'true', sdk: 'python' },
  ];
  for (const filter of filters) {
    for (const route of ['/api/v1/tools', '/api/v1/tools/search']) {
      out.push({ path: pathOf(route, { ...filter, limit: '100' }), pages: 1 }, { path: pathOf(route, { ...filter, limit: '7' }), pages: 3 });
    }
  }
  return [...out, { path: '/llms.txt', pages: 1 }, { path: '/llms-full.txt', pages: 1 }];
}

function pathOf(route: string, params: Record<string, string>): string {
  return `${route}?${new URLSearchParams(params)}`;
}

/** What is compared of an answer: everything but the summaries' text (a result keeps slug, score and matched). */
function reduced(body: string, contentType: string): unknown {
  if (!contentType.includes('json')) return body;
  const answer = JSON.parse(body) as Record<string, unknown>;
  const keep = (r: Record<string, unknown>) => ('score' in r ? [r.slug, r.score, r.matched] : r.slug);
  if (Array.isArray(answer.results)) answer.results = answer.results.map(keep);
  if (Array.isArray(answer.tools)) answer.tools = answer.tools.map(keep);
  return answer;
}

async function answersOf(url: string): Promise<Answers> {
  const answers: Answers = {};
  for (const { path, pages } of requests()) {
    let next: string | null = path;
    for (let page = 1; page <= pages && next; page++) {
      const response: Response = await fetch(`${url}${next}`);
      // (llms.txt links absolutely, to a port that changes from run to run)
      const body = (await response.text()).replaceAll(url, '{base}');
      answers[next] = { status: response.status, body: reduced(body, response.headers.get('content-type') ?? '') };
      next = response.ok && body.startsWith('{') ? ((JSON.parse(body) as { _links?: { next?: string } })._links?.next ?? null) : null;
    }
  }
  return answers;
}

async function record(file: string, size: number): Promise<void> {
  const redis = await startRedis();
  const admin = new Redis(redis.url);
  const all: Record<string, Answers> = {};
  for (const [name, paths] of [['fixtures', ['fixtures']], [`fixtures + ${size}`, ['fixtures', syntheticFolder(size, log)]]] as const) {
    const env = { REDIS_URL: redis.url, REDIS_NAMESPACE: `results${paths.length}` };
    log(`ingesting ${name}`);
    await runCli([...paths], env);
    const service = await startService({ ...env, PROJECTOR: 'off', READ_CACHE: 'off' });
    all[name] = await answersOf(service.url);
    log(`${name}: ${Object.keys(all[name]).length} answers`);
    await stop(service.child);
    await dropNamespace(admin, env.REDIS_NAMESPACE);
  }
  await admin.quit();
  await stop(redis.child);
  writeFileSync(file, JSON.stringify(all));
}

function compare(beforeFile: string, afterFile: string): void {
  const before = JSON.parse(readFileSync(beforeFile, 'utf8')) as Record<string, Answers>;
  const after = JSON.parse(readFileSync(afterFile, 'utf8')) as Record<string, Answers>;
  let compared = 0;
  const differences: string[] = [];
  for (const [catalog, answers] of Object.entries(before)) {
    const keys = new Set([...Object.keys(answers), ...Object.keys(after[catalog] ?? {})]);
    for (const key of keys) {
      compared++;
      const [a, b] = [JSON.stringify(answers[key]), JSON.stringify(after[catalog]?.[key])];
      if (a !== b) differences.push(`${catalog} ${key}\n  before: ${a?.slice(0, 600)}\n  after:  ${b?.slice(0, 600)}`);
    }
  }
  console.log(`${compared} answers compared, ${differences.length} differ`);
  for (const difference of differences) console.log(difference);
  if (differences.length > 0) process.exitCode = 1;
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === 'record') {
  void record(rest[0], Number(rest[1] ?? 10_000)).catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else if (mode === 'compare') {
  compare(rest[0], rest[1]);
} else {
  console.error('usage: search-results.js record <file> [size] | compare <before> <after>');
  process.exit(2);
}
