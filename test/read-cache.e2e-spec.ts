import { CommandBus } from '@nestjs/cqrs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { createApp } from '../src/bootstrap';
import { EventStore } from '../src/event-store/event-store.service';
import { PublishListingCommand } from '../src/listings/write/commands/publish-listing/publish-listing.command';
import { parseListing } from '../src/listings/write/listing.document';
import { PublishErrorEntryCommand } from '../src/error-reference/write/commands/publish-error-entry/publish-error-entry.command';
import { parseErrorEntry } from '../src/error-reference/write/error-entry.document';
import { ProjectionWait } from '../src/projections/projection-wait';
import { Redis } from 'ioredis';
import { ReadCache } from '../src/projections/read-cache';
import { LiveSearchIndex } from '../src/search/live-search-index';
import { RedisConnection } from '../src/redis/redis-connection';
import { storedBody, StoredBody } from '../src/http/stored-body';
import { commandsDuring, getJson, RunningService, startService, testConfig } from './support/harness';

/**
 * Two processes' worth of service on one namespace: A runs the projector, B only serves (and caches). B
 * checks the read models only once a minute by itself, so what it shows within seconds of a change came
 * through the change notification.
 */
let a: RunningService;
let b: NestFastifyApplication;
let bUrl: string;

beforeAll(async () => {
  a = await startService('cache');
  expect((await a.ingest(['fixtures'])).problems).toEqual([]);
  b = await createApp(testConfig(a.namespace, { PROJECTOR: 'off', READ_POLL_MS: '60000' }));
  await b.listen(0, '127.0.0.1');
  bUrl = `http://127.0.0.1:${(b.getHttpServer().address() as { port: number }).port}`;
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

async function revise(slug: string, change: Record<string, unknown>): Promise<void> {
  const listing = parseListing(parse(readFileSync(`fixtures/listings/${slug}.yaml`, 'utf8'))).listing!;
  expect((await a.app.get(CommandBus).execute(new PublishListingCommand({ ...listing, ...change }, { actor: 'test' }))).outcome).toBe('revised');
  expect(await a.app.get(ProjectionWait).waitUntilProjected(await a.app.get(EventStore).lastPosition(), 10_000)).toBe(true);
}

it('a change is served at once by the process that projected it', async () => {
  expect((await getJson(`${a.baseUrl}/api/v1/tools/stripe`)).body.tool.latency).not.toBe('12 ms');
  await revise('stripe', { latency: '12 ms' });
  expect((await getJson(`${a.baseUrl}/api/v1/tools/stripe`)).body.tool.latency).toBe('12 ms');
});

it('another process drops its cached copy and moves its search index when told by the change notification', async () => {
  const path = '/api/v1/tools/search?q=resend';
  const before = (await getJson(`${bUrl}${path}`)).body;
  expect((await getJson(`${bUrl}/api/v1/tools/resend`)).body.tool.popularity).not.toBe(3);
  await revise('resend', { popularity: 3 });
  const started = Date.now();
  let seen = -1;
  while (Date.now() - started < 10_000) {
    seen = (await getJson(`${bUrl}/api/v1/tools/resend`)).body.tool.popularity;
    if (seen === 3) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(seen).toBe(3);
  const after = (await getJson(`${bUrl}${path}`)).body;
  expect(after.results.find((r: { slug: string }) => r.slug === 'resend').popularity).toBe(3);
  expect(before.results.find((r: { slug: string }) => r.slug === 'resend').popularity).not.toBe(3);
});

it('serves repeated reads from memory: same bytes, same ETag', async () => {
  const first = await fetch(`${bUrl}/api/v1/tools/openai`);
  const second = await fetch(`${bUrl}/api/v1/tools/openai`);
  expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
  expect(await second.text()).toBe(await first.text());
});

it('serves the error reference from memory until an entry changes, then the new text', async () => {
  const path = '/api/v1/errors?provider=anthropic';
  const before = await getJson(`${bUrl}${path}`);
  expect((await getJson(`${bUrl}${path}`)).headers.get('etag')).toBe(before.headers.get('etag'));
  const entry = parseErrorEntry(parse(readFileSync('fixtures/errors/anthropic-529-overloaded.yaml', 'utf8'))).entry!;
  const fix = `${entry.fix} Retry after a few seconds.`;
  expect((await a.app.get(CommandBus).execute(new PublishErrorEntryCommand({ ...entry, fix }, { actor: 'test' }))).outcome).toBe('revised');
  expect(await a.app.get(ProjectionWait).waitUntilProjected(await a.app.get(EventStore).lastPosition(), 10_000)).toBe(true);
  let served: string | undefined;
  for (const started = Date.now(); Date.now() - started < 3000; await new Promise((r) => setTimeout(r, 20))) {
    served = (await getJson(`${bUrl}${path}`)).body.errors.find((e: { status: number }) => e.status === 529)?.fix;
    if (served === fix) break;
  }
  expect(served).toBe(fix);
  expect(before.body.errors.find((e: { status: number }) => e.status === 529).fix).not.toBe(fix);
});

it('runs a read once for all the requests that miss the cache together, and shares the result', async () => {
  const client = a.app.get(RedisConnection).client as Redis;
  const search = a.app.get(LiveSearchIndex);
  const current = search.current.bind(search);
  let searches = 0;
  search.current = () => (searches++, current());
  // Neither was asked for before: every one of these requests misses the cache.
  const { result: [searchResponses, details], commands: seen } = await commandsDuring(client, () =>
    Promise.all([
      Promise.all(Array.from({ length: 30 }, () => fetch(`${a.baseUrl}/api/v1/tools/search?q=speech+to+text+diarization`))),
      Promise.all(Array.from({ length: 30 }, () => fetch(`${a.baseUrl}/api/v1/tools/deepgram`))),
    ]),
  );

  search.current = current;
  const searchTexts = new Set(await Promise.all(searchResponses.map((r) => r.text())));
  const detailTexts = new Set(await Promise.all(details.map((r) => r.text())));
  expect(searchTexts.size).toBe(1);
  expect(detailTexts.size).toBe(1);
  expect(JSON.parse([...detailTexts][0]).tool.slug).toBe('deepgram');
  const detailReads = seen.filter((args) => args[0].toLowerCase() === 'hget' && args.includes('deepgram'));
  expect(searches).toBe(1);
  expect(detailReads).toHaveLength(1);
});

it('lets no request join a read that started before a change, and keeps nothing of that read', async () => {
  const cache = new ReadCache({ enabled: true, responses: 100, bytes: 1 << 20 });
  let release!: (body: StoredBody) => void;
  const first = cache.response('test:join', () => new Promise<StoredBody>((resolve) => (release = resolve)));
  const joined = cache.response('test:join', () => Promise.reject(new Error('a second read while one is under way')));
  await new Promise((resolve) => setImmediate(resolve));
  cache.clear();
  const fresh = storedBody('{"after":true}');
  const after = cache.response('test:join', async () => fresh);
  release(storedBody('{"before":true}'));
  expect((await first).body.toString()).toBe('{"before":true}');
  expect((await joined).body.toString()).toBe('{"before":true}');
  expect(await after).toBe(fresh);
  expect(await cache.response('test:join', async () => storedBody('{"again":true}'))).toBe(fresh);
});
