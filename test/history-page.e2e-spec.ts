import { EventStore, type HistoryKind } from '../src/event-store/event-store.service';
import { RedisConnection } from '../src/redis/redis-connection';
import { dropNamespace, testConfig, uniqueNamespace } from './support/harness';

/**
 * The history page worked out in Redis (HISTORY_PAGE_LUA, with the count of shown events it keeps beside an
 * aggregate's summaries) against a plain reading of the whole history: every page, of every size, below
 * every version, after events are appended to a history already counted, and as of a position behind the
 * newest event. A real Redis; the events are written by the store's own append.
 */
const HIDDEN = ['note', 'domains'];
const WITHDRAWN = 'ThingWithdrawn';

/** What each event is: a kind of event and, for a revision, the fields it changed. */
type Step = { type: 'ThingPublished' } | { type: 'ThingRevised'; changedFields: string[] } | { type: typeof WITHDRAWN };

/** The whole history read plainly: each event's kind, whether a reader sees it, the page asked for. */
function reference(steps: Step[], before: number | null, limit: number) {
  const kinds = steps.map((step, i) => {
    const kind: HistoryKind = step.type === WITHDRAWN ? 'withdrawn' : i === 0 || steps[i - 1].type === WITHDRAWN ? 'published' : 'revised';
    const shown = kind !== 'revised' || (step as { changedFields: string[] }).changedFields.some((field) => !HIDDEN.includes(field));
    return { index: i, kind, shown };
  });
  const shown = kinds.filter((k) => k.shown).reverse();
  const from = before === null ? 0 : shown.findIndex((k) => k.index + 1 < before);
  const page = from === -1 ? [] : shown.slice(from, from + limit);
  const last = page.at(-1);
  return {
    versions: steps.length,
    lastKind: kinds.at(-1)!.kind,
    total: shown.length,
    nextBefore: last && shown.indexOf(last) < shown.length - 1 ? last.index + 1 : null,
    changes: page.map(({ index, kind }) => ({ index, kind })),
  };
}

const namespace = uniqueNamespace('history-page');
let connection: RedisConnection;
let store: EventStore;

beforeAll(async () => {
  connection = new RedisConnection(testConfig(namespace));
  await connection.onModuleInit();
  store = new EventStore(connection);
});

afterAll(async () => {
  await connection.onApplicationShutdown();
  await dropNamespace(namespace);
});

/** A history of every kind of step: revisions seen and unseen (note only, nothing, note and more), a withdrawal, a republication. */
function mixed(length: number): Step[] {
  const steps: Step[] = [{ type: 'ThingPublished' }];
  const revisions = [['popularity'], ['note'], [], ['note', 'pricing'], ['domains', 'note'], ['features']];
  for (let i = 1; i < length; i++) {
    if (i % 17 === 0) steps.push({ type: WITHDRAWN });
    else if (i % 17 === 1 && i > 1) steps.push({ type: 'ThingPublished' });
    else steps.push({ type: 'ThingRevised', changedFields: revisions[i % revisions.length] });
  }
  return steps;
}

async function append(id: string, steps: Step[], from: number): Promise<string[]> {
  const stored = await store.append(
    'thing',
    id,
    from,
    steps.slice(from).map((step) => ({ type: step.type, data: { document: { id }, ...('changedFields' in step ? { changedFields: step.changedFields } : {}) } })),
    'test',
  );
  return stored.map((event) => event.position);
}

/** The page, each change's position in the log checked against the aggregate's own list, then left out for the comparison. */
async function page(id: string, upTo: string, before: number | null, limit: number) {
  const found = await store.historyPage('thing', id, { upTo, before, limit, withdrawnType: WITHDRAWN, hidden: HIDDEN });
  const positions = await connection.client.lrange(connection.keys.aggregateEvents(`thing:${id}`), 0, -1);
  for (const change of found.changes) expect(change.position).toBe(positions[change.index]);
  return { ...found, changes: found.changes.map(({ index, kind }) => ({ index, kind })) };
}

it('gives every page of every size below every version as a plain reading of the whole history does', async () => {
  const steps = mixed(60);
  const positions = await append('a', steps, 0);
  const newest = positions.at(-1)!;
  for (const limit of [1, 2, 3, 7, 100]) {
    for (const before of [null, ...Array.from({ length: steps.length + 2 }, (_, i) => i)]) {
      expect({ limit, before, page: await page('a', newest, before, limit) }).toEqual({ limit, before, page: reference(steps, before, limit) });
    }
  }
});

it('counts events appended after a history was counted, and reads as of a position behind the newest', async () => {
  const steps = mixed(45);
  const first = await append('b', steps.slice(0, 30), 0);
  expect(await page('b', first.at(-1)!, null, 5)).toEqual(reference(steps.slice(0, 30), null, 5));
  const more = await append('b', steps, 30);
  expect(await page('b', more.at(-1)!, null, 5)).toEqual(reference(steps, null, 5));
  expect(await page('b', more.at(-1)!, 20, 4)).toEqual(reference(steps, 20, 4));
  // As the read models saw it at the 30th event: the count kept for 45 is not used, nor overwritten.
  expect(await page('b', first.at(-1)!, null, 5)).toEqual(reference(steps.slice(0, 30), null, 5));
  expect(await page('b', more.at(-1)!, null, 50)).toEqual(reference(steps, null, 50));
});

it('writes the summaries of an aggregate written before they were kept, from its events, the lines the append would have written', async () => {
  const steps = mixed(40);
  const positions = await append('c', steps, 0);
  const summaries = connection.keys.aggregateSummaries('thing:c');
  const written = await connection.client.lrange(summaries, 0, -1);
  expect(written).toHaveLength(steps.length);
  // As a store from before summaries: none kept, nor a count.
  await connection.client.del(summaries, connection.keys.aggregateShown('thing:c'));
  expect(await page('c', positions.at(-1)!, null, 6)).toEqual(reference(steps, null, 6));
  expect(await connection.client.lrange(summaries, 0, -1)).toEqual(written);
  // Half of them lost (a list cut short): written again whole.
  await connection.client.ltrim(summaries, 0, 19);
  expect(await page('c', positions.at(-1)!, 30, 4)).toEqual(reference(steps, 30, 4));
  expect(await connection.client.lrange(summaries, 0, -1)).toEqual(written);
});

it('answers an aggregate with no events as empty', async () => {
  expect(await page('none', `${Date.now()}-0`, null, 10)).toEqual({ versions: 0, lastKind: null, total: 0, nextBefore: null, changes: [] });
});
