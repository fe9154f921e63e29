import { getJson, RunningService, startService } from './support/harness';
import { KINDS, RELEVANCE_CASES, RelevanceCase } from './search-relevance.cases';

/**
 * Relevance of search over the shipped content, measured: top-1 accuracy (the first result is an expected
 * listing), recall@k (share of the expected listings within each query's depth, 3 unless it says
 * otherwise) and MRR (mean reciprocal rank of the first expected listing). Fails below recall 0.95 or
 * MRR 0.85. The queries are data (search-relevance.cases.ts); the engine has no special case for any.
 */
let service: RunningService;

beforeAll(async () => {
  service = await startService('relevance');
  expect((await service.ingest(['fixtures'])).problems).toEqual([]);
});
afterAll(() => service?.close());

interface Outcome {
  c: RelevanceCase;
  ranked: string[];
  recall: number;
  reciprocalRank: number;
  top1: boolean;
}

async function run(c: RelevanceCase): Promise<Outcome> {
  const params = new URLSearchParams({ q: c.q, limit: '20', ...(c.category ? { category: c.category } : {}), ...c.params });
  const { body } = await getJson(`${service.baseUrl}/api/v1/tools/search?${params}`);
  const ranked: string[] = body.results.map((r: { slug: string }) => r.slug);
  const within = c.within ?? 3;
  const found = c.expect.filter((slug) => ranked.slice(0, within).includes(slug)).length;
  const need = c.need ?? Math.min(c.expect.length, within);
  const firstHit = ranked.findIndex((slug) => c.expect.includes(slug));
  return {
    c,
    ranked,
    recall: Math.min(found, need) / need,
    reciprocalRank: firstHit < 0 ? 0 : 1 / (firstHit + 1),
    top1: firstHit === 0,
  };
}

it('has enough queries of each kind', () => {
  const count = (kind: RelevanceCase['kind']) => RELEVANCE_CASES.filter((c) => c.kind === kind).length;
  expect(RELEVANCE_CASES.length).toBeGreaterThanOrEqual(60);
  expect(count('zh')).toBeGreaterThanOrEqual(20);
  expect(count('typo')).toBeGreaterThanOrEqual(10);
  expect(count('mixed')).toBeGreaterThanOrEqual(10);
  // Names, compounds, punctuation, filters and tasks: the queries agents ask that a topic search missed.
  for (const kind of ['name', 'compound', 'punctuation', 'filter', 'task'] as const) expect(count(kind)).toBeGreaterThanOrEqual(8);
  expect(RELEVANCE_CASES.filter((c) => ['name', 'compound', 'punctuation', 'filter', 'task'].includes(c.kind)).length).toBeGreaterThanOrEqual(40);
});

it('puts the right API first: recall@k >= 0.95 and MRR >= 0.85', async () => {
  const outcomes: Outcome[] = [];
  for (const c of RELEVANCE_CASES) outcomes.push(await run(c));
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const top1 = mean(outcomes.map((o) => (o.top1 ? 1 : 0)));
  const recall = mean(outcomes.map((o) => o.recall));
  const mrr = mean(outcomes.map((o) => o.reciprocalRank));
  const byKind = KINDS.map((kind) => {
    const mine = outcomes.filter((o) => o.c.kind === kind);
    return `${kind}: ${mine.length} queries, top-1 ${mean(mine.map((o) => (o.top1 ? 1 : 0))).toFixed(3)}, recall ${mean(mine.map((o) => o.recall)).toFixed(3)}, MRR ${mean(mine.map((o) => o.reciprocalRank)).toFixed(3)}`;
  });
  const misses = outcomes
    .filter((o) => o.recall < 1 || !o.top1)
    .map((o) => `  ${JSON.stringify(o.c.q)}${o.c.params ? ` ${new URLSearchParams(o.c.params)}` : ''}: expected ${o.c.need ? `${o.c.need} of ` : ''}${o.c.expect.join(', ')} within ${o.c.within ?? 3}; got ${o.ranked.slice(0, 5).join(', ')}`);
  console.log(
    [
      `search relevance over ${outcomes.length} queries: top-1 accuracy ${top1.toFixed(3)}, recall@k ${recall.toFixed(3)}, MRR ${mrr.toFixed(3)}`,
      ...byKind.map((line) => `  ${line}`),
      misses.length ? `not perfect:\n${misses.join('\n')}` : 'every query perfect',
    ].join('\n'),
  );
  expect(recall).toBeGreaterThanOrEqual(0.95);
  expect(mrr).toBeGreaterThanOrEqual(0.85);
});
