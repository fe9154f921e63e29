import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { PublishListingCommand } from '../src/listings/write/commands/publish-listing/publish-listing.command';
import { WithdrawListingCommand } from '../src/listings/write/commands/withdraw-listing/withdraw-listing.command';
import { parseListing, type ListingDocument } from '../src/listings/write/listing.document';
import type { Redis } from 'ioredis';
import { RedisConnection } from '../src/redis/redis-connection';
import { commandsDuring, getJson, RunningService, startService } from './support/harness';

/**
 * Facts over time, from the event log: a listing as it was at a moment, its history with values before and
 * after, and nothing disappearing silently (a withdrawn or retired listing answers 410 naming its successor,
 * and compare lists it apart from unknown slugs).
 */
let service: RunningService;
const get = (path: string) => getJson(`${service.baseUrl}${path}`);
const fixture = (slug: string): ListingDocument => parseListing(parse(readFileSync(`fixtures/listings/${slug}.yaml`, 'utf8'))).listing!;
/** The time of the newest change the feed shows. */
const lastChangeTime = async () => {
  const { body } = await get('/api/v1/changes?limit=1000');
  return body.changes.at(-1).occurredAt as string;
};
/** A moment strictly between two event times (they are a millisecond apart at least). */
const between = (a: string, b: string) => new Date((Date.parse(a) + Date.parse(b)) / 2).toISOString().replace(/\.\d{3}Z$/, (ms) => ms);

let published: string;
let revised: string;
let withdrawn: string;

beforeAll(async () => {
  service = await startService('history');
  expect((await service.ingest(['fixtures'])).problems).toEqual([]);
  published = await lastChangeTime();
  const original = fixture('cartesia');
  await service.command(new PublishListingCommand({ ...original, pricing: `${original.pricing} Re-checked.`, popularity: 61 }, { actor: 'editor' }));
  revised = await lastChangeTime();
  await service.command(new WithdrawListingCommand('cartesia', 'editor', 'folded into ElevenLabs', ['elevenlabs']));
  withdrawn = await lastChangeTime();
});
afterAll(() => service?.close());

describe('a withdrawn listing', () => {
  it('answers 410, naming when, why and what replaces it', async () => {
    const { status, body, headers } = await get('/api/v1/tools/cartesia');
    expect(status).toBe(410);
    expect(headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(body).toMatchObject({
      success: false,
      status: 410,
      title: 'Gone',
      slug: 'cartesia',
      gone: 'withdrawn',
      since: withdrawn,
      reason: 'folded into ElevenLabs',
      replacedBy: ['elevenlabs'],
      _links: { replacedBy: ['/api/v1/tools/elevenlabs'], history: '/api/v1/tools/cartesia/history' },
    });
    expect(body.detail).toBe(`'cartesia' was withdrawn from the directory on ${withdrawn.slice(0, 10)} (folded into ElevenLabs); use /api/v1/tools/elevenlabs`);
  });

  it('is told apart from a slug that never existed (404)', async () => {
    expect((await get('/api/v1/tools/cartesian')).status).toBe(404);
  });

  it('is listed apart in a comparison', async () => {
    const { status, body } = await get('/api/v1/tools/compare?ids=elevenlabs,cartesia,nope');
    expect(status).toBe(200);
    expect(body.compared.map((row: { slug: string }) => row.slug)).toEqual(['elevenlabs']);
    expect(body.notFound).toEqual(['nope']);
    expect(body.gone).toEqual([{ slug: 'cartesia', status: 'withdrawn', since: withdrawn, reason: 'folded into ElevenLabs', replacedBy: ['elevenlabs'] }]);
  });
});

describe('a listing as it was (asOf)', () => {
  it('before and after a revision, and after its withdrawal', async () => {
    const original = fixture('cartesia');
    const before = await get(`/api/v1/tools/cartesia?asOf=${encodeURIComponent(between(published, revised))}`);
    expect(before.status).toBe(200);
    expect(before.body.tool).toMatchObject({ slug: 'cartesia', pricing: original.pricing, popularity: original.popularity });
    expect(before.body.asOf).toBe(between(published, revised));
    const after = await get(`/api/v1/tools/cartesia?asOf=${encodeURIComponent(between(revised, withdrawn))}`);
    expect(after.body.tool).toMatchObject({ pricing: `${original.pricing} Re-checked.`, popularity: 61 });
    const gone = await get(`/api/v1/tools/cartesia?asOf=${encodeURIComponent(withdrawn)}`);
    expect(gone.status).toBe(410);
  });

  it('before it was published is a 404; a day is the end of that day', async () => {
    expect((await get('/api/v1/tools/openai?asOf=2020-01-01')).status).toBe(404);
    const today = await get(`/api/v1/tools/openai?asOf=${new Date().toISOString().slice(0, 10)}`);
    expect(today.status).toBe(200);
    expect(today.body.asOf).toBe(`${new Date().toISOString().slice(0, 10)}T23:59:59.999Z`);
  });

  it('refuses a moment it cannot read, naming asOf', async () => {
    for (const bad of ['yesterday', '2026-02-30', '2026-11-26T10:00:00', '2026-11-26 10:00:00Z', '1969-12-31', '0000-01-01T00:00:00Z']) {
      const { status, body } = await get(`/api/v1/tools/openai?asOf=${encodeURIComponent(bad)}`);
      expect({ bad, status, parameter: body.parameter }).toEqual({ bad, status: 400, parameter: 'asOf' });
    }
    // Before 1970 the store has no position to ask for: the export refuses it too (it was a 500 with a
    // Redis error logged on every call).
    const { status, body } = await get('/api/v1/export?asOf=1969-12-31');
    expect({ status, parameter: body.parameter, detail: body.detail }).toEqual({ status: 400, parameter: 'asOf', detail: expect.stringContaining('1970-01-01 or later') });
  });
});

describe("a listing's history", () => {
  it('names each change with its values before and after, newest first', async () => {
    const original = fixture('cartesia');
    const { status, body } = await get('/api/v1/tools/cartesia/history');
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, slug: 'cartesia', version: 3, live: false, total: 3, returned: 3, nextBefore: null });
    expect(body.changes.map((c: { kind: string; version: number }) => [c.kind, c.version])).toEqual([['withdrawn', 3], ['revised', 2], ['published', 1]]);
    expect(body.changes[0]).toMatchObject({ occurredAt: withdrawn, reason: 'folded into ElevenLabs', replacedBy: ['elevenlabs'], changes: null });
    expect(body.changes[1].changes).toEqual(
      expect.arrayContaining([
        { field: 'pricing', before: original.pricing, after: `${original.pricing} Re-checked.` },
        { field: 'popularity', before: original.popularity, after: 61 },
      ]),
    );
    expect(body.changes[1].changes).toHaveLength(2);
  });

  it('pages with before', async () => {
    const first = (await get('/api/v1/tools/cartesia/history?limit=2')).body;
    expect(first.changes.map((c: { version: number }) => c.version)).toEqual([3, 2]);
    expect(first.nextBefore).toBe(2);
    const next = (await get(`/api/v1/tools/cartesia/history?limit=2&before=${first.nextBefore}`)).body;
    expect(next.changes.map((c: { version: number }) => c.version)).toEqual([1]);
    expect(next.nextBefore).toBeNull();
  });

  it('reads each event once per process: a page overlapping one already served reads only what it had not', async () => {
    const redis = service.app.get(RedisConnection).client as Redis;
    // Events read by the page script (one argument per event index after the two keys).
    const eventsRead = (commands: string[][]) =>
      commands.filter(([name, , numkeys]) => /^eval(sha)?$/i.test(name) && numkeys === '2').flatMap((args) => args.slice(5)).filter((arg) => /^\d+$/.test(arg)).length;
    const first = await commandsDuring(redis, () => get('/api/v1/tools/stripe/history?limit=1'));
    expect(first.result.body.returned).toBe(1);
    // limit=5 is another address (not the cached answer): its only change was read already.
    const again = await commandsDuring(redis, () => get('/api/v1/tools/stripe/history?limit=5'));
    expect(again.result.body.changes[0]).toEqual(first.result.body.changes[0]);
    expect(eventsRead(again.commands)).toBe(0);
    expect(eventsRead(first.commands)).toBeGreaterThan(0);
  });

  it('is a 404 for a slug that was never published', async () => {
    expect((await get('/api/v1/tools/never-was/history')).status).toBe(404);
  });
});

describe('a retired listing', () => {
  it('answers 410 naming its successor and the retirement day', async () => {
    const listing = fixture('recraft');
    await service.command(
      new PublishListingCommand(
        {
          ...listing,
          status: 'deprecated',
          lifecycle: {
            status: 'retired',
            since: null,
            retiresAt: '2026-11-20',
            replacedBy: ['ideogram'],
            migrationUrl: null,
            reason: 'the provider shut the API down',
            source: { url: `${listing.website}/blog`, checked: '2026-11-26', quote: null, offDomainReason: null },
          },
        },
        { actor: 'editor' },
      ),
    );
    const { status, body } = await get('/api/v1/tools/recraft');
    expect(status).toBe(410);
    expect(body).toMatchObject({ gone: 'retired', since: '2026-11-20', replacedBy: ['ideogram'], reason: 'the provider shut the API down' });
    const compared = (await get('/api/v1/tools/compare?ids=recraft,ideogram')).body;
    expect(compared.gone).toEqual([{ slug: 'recraft', status: 'retired', since: '2026-11-20', reason: 'the provider shut the API down', replacedBy: ['ideogram'] }]);
    expect((await get('/api/v1/tools/recraft')).status).toBe(410);

    // The provider brings it back: the answer follows the listing as it is now, not as it was when last read.
    await service.command(new PublishListingCommand({ ...listing, status: 'online', lifecycle: { status: 'active', since: null, retiresAt: null, replacedBy: null, migrationUrl: null, reason: null, source: null } }, { actor: 'editor' }));
    const back = await get('/api/v1/tools/recraft');
    expect(back.status).toBe(200);
    expect(back.body.tool.lifecycle.status).toBe('active');
  });
});
