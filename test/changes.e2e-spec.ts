import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { parse } from 'yaml';
import { CommandBus } from '@nestjs/cqrs';
import { createApp } from '../src/bootstrap';
import { encodeChangeCursor } from '../src/changes/change-cursor';
import { PublishErrorEntryCommand } from '../src/error-reference/write/commands/publish-error-entry/publish-error-entry.command';
import { WithdrawErrorEntryCommand } from '../src/error-reference/write/commands/withdraw-error-entry/withdraw-error-entry.command';
import { ErrorEntryDocument, errorEntryId, parseErrorEntry } from '../src/error-reference/write/error-entry.document';
import { PublishListingCommand } from '../src/listings/write/commands/publish-listing/publish-listing.command';
import { WithdrawListingCommand } from '../src/listings/write/commands/withdraw-listing/withdraw-listing.command';
import type { ListingDocument } from '../src/listings/write/listing.document';
import { EventStore } from '../src/event-store/event-store.service';
import { ProjectionRunner } from '../src/projections/projection-runner.service';
import { ProjectionWait } from '../src/projections/projection-wait';
import { parseFeed } from './support/atom';
import { getJson, RunningService, startService } from './support/harness';
import { fixtureListing, FIXTURES } from './support/fixtures';

interface Change {
  cursor: string;
  type: 'published' | 'revised' | 'withdrawn';
  kind: 'listing' | 'error-entry' | 'model';
  id: string;
  version: number;
  occurredAt: string;
  changedFields: string[] | null;
  changes: Array<{ field: string; before: unknown; after: unknown }> | null;
  reason: string | null;
  _links: { self: string; listing?: string };
}

let service: RunningService;
/** Where the feed stood after the fixtures: the tests below poll from it. */
let afterFixtures: string;

beforeAll(async () => {
  service = await startService('changes');
  expect((await service.ingest(['fixtures'])).problems).toEqual([]);
});
afterAll(() => service?.close());

const listing = (slug: string): ListingDocument => fixtureListing(slug);
const errorEntry = (file: string): ErrorEntryDocument => parseErrorEntry(parse(readFileSync(`fixtures/errors/${file}.yaml`, 'utf8'))).entry!;

async function changesPage(params: Record<string, string>) {
  const response = await getJson(`${service.baseUrl}/api/v1/changes?${new URLSearchParams(params)}`);
  expect(response.status).toBe(200);
  return response;
}

/** Every change after `since` (null: from the beginning), a page of `limit` at a time, and the cursor to poll with next. */
async function readFeed(since: string | null, limit: number): Promise<{ changes: Change[]; cursor: string; pages: number }> {
  const changes: Change[] = [];
  let cursor = since;
  let moreExpected: boolean | null = null;
  for (let pages = 1; ; pages++) {
    const { body } = await changesPage({ ...(cursor ? { since: cursor } : {}), limit: String(limit) });
    // `hasMore` told the truth about this page.
    if (moreExpected !== null) expect(body.returned > 0).toBe(moreExpected);
    moreExpected = body.hasMore;
    expect(body.nextCursor).toEqual(expect.any(String));
    expect(body._links.next).toBe(`/api/v1/changes?since=${body.nextCursor}&limit=${limit}`);
    if (body.returned === 0) {
      if (cursor) expect(body.nextCursor).toBe(cursor); // nothing new: keep polling from the same place
      expect(body.hasMore).toBe(false);
      return { changes, cursor: body.nextCursor, pages };
    }
    expect(body.returned).toBe(body.changes.length);
    expect(body.nextCursor).toBe(body.changes.at(-1).cursor);
    if (body.returned < limit) expect(body.hasMore).toBe(false);
    changes.push(...body.changes);
    cursor = body.nextCursor;
  }
}

/** Every summary of GET /api/v1/tools, by slug. */
async function allListed(): Promise<Map<string, Record<string, unknown>>> {
  const tools = new Map<string, Record<string, unknown>>();
  let cursor: string | null = null;
  do {
    const page: { body: { tools: Array<{ slug: string }>; nextCursor: string | null } } = await getJson(
      `${service.baseUrl}/api/v1/tools?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
    );
    for (const tool of page.body.tools) tools.set(tool.slug, tool);
    cursor = page.body.nextCursor;
  } while (cursor);
  return tools;
}

async function allListedSlugs(): Promise<string[]> {
  return [...(await allListed()).keys()].sort();
}

describe('the change feed', () => {
  it('lists every publication of the fixtures from the beginning, oldest first, a page at a time', async () => {
    const { changes, cursor, pages } = await readFeed(null, 50);
    // Full pages of 50, the rest, then the empty page that says nothing is new.
    expect(pages).toBe(Math.ceil(FIXTURES.documents / 50) + 1);
    expect(changes).toHaveLength(FIXTURES.documents);
    expect(changes.filter((c) => c.kind === 'listing')).toHaveLength(FIXTURES.listings);
    expect(changes.filter((c) => c.kind === 'model')).toHaveLength(FIXTURES.models);
    expect(changes.filter((c) => c.kind === 'error-entry')).toHaveLength(FIXTURES.errors);
    for (const change of changes) {
      expect(change).toEqual({
        cursor: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
        type: 'published',
        kind: expect.stringMatching(/^(listing|error-entry|model)$/),
        id: expect.any(String),
        version: 1,
        occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        changedFields: null,
        changes: null,
        reason: null,
        replacedBy: null,
        _links:
          change.kind === 'listing'
            ? { self: `/api/v1/tools/${change.id}` }
            : change.kind === 'model'
              ? { self: `/api/v1/models/${change.id}` }
              : { self: expect.stringMatching(/^\/api\/v1\/errors\?provider=[a-z0-9-]+$/), listing: expect.any(String) },
      });
    }
    expect(new Set(changes.map((c) => c.cursor)).size).toBe(FIXTURES.documents);
    const times = changes.map((c) => c.occurredAt);
    expect([...times].sort()).toEqual(times);
    // Every listing of the directory, and nothing else.
    expect(changes.filter((c) => c.kind === 'listing').map((c) => c.id).sort()).toEqual(await allListedSlugs());
    const errors = (await getJson(`${service.baseUrl}/api/v1/errors`)).body.errors as Array<{ id: string; provider: string }>;
    expect(changes.filter((c) => c.kind === 'error-entry').map((c) => c.id).sort()).toEqual(errors.map((e) => e.id).sort());
    for (const change of changes.filter((c) => c.kind === 'error-entry')) {
      const provider = errors.find((e) => e.id === change.id)!.provider;
      expect(change._links).toEqual({ self: `/api/v1/errors?provider=${provider}`, listing: `/api/v1/tools/${provider}` });
    }
    afterFixtures = cursor;
    expect(cursor).toBe(changes.at(-1)!.cursor);
  });

  it('pages of 100 by default and of at most 1000', async () => {
    const first = (await changesPage({})).body;
    expect(first).toMatchObject({ success: true, since: null, limit: 100, returned: 100, hasMore: true });
    expect(first._links.self).toBe('/api/v1/changes?limit=100');
    expect(first._links.atom).toBe('/api/v1/changes.atom');
    const big = (await changesPage({ limit: '5000' })).body;
    expect(big).toMatchObject({ limit: 1000, returned: FIXTURES.documents, hasMore: false, nextCursor: afterFixtures });
    expect(big.changes.slice(0, 100)).toEqual(first.changes);
    // The cursor of any change starts the feed right after it, whatever the page size.
    const after = (await changesPage({ since: first.changes[41].cursor, limit: '3' })).body;
    expect(after.changes).toEqual(first.changes.slice(42, 45));
    // The start cursor (what an empty directory gives out) is the same as no cursor.
    expect((await changesPage({ since: encodeChangeCursor('0-0'), limit: '100' })).body.changes).toEqual(first.changes);
  });

  it('shows a revision and a withdrawal after the last cursor, in order, once the detail shows them; full pages never change', async () => {
    const fullPage = await changesPage({ limit: '50' });
    const before = listing('cartesia');
    await service.command(new PublishListingCommand({ ...before, pricing: `${before.pricing} (re-checked)`, popularity: before.popularity === 50 ? 51 : 50 }, { actor: 'jane.editor' }));
    await service.command(new WithdrawListingCommand('chroma', 'jane.editor', 'Folded into <another> listing & "retired"'));

    const polled = (await changesPage({ since: afterFixtures })).body;
    expect(polled).toMatchObject({ since: afterFixtures, returned: 2, hasMore: false });
    const [revised, withdrawn] = polled.changes as Change[];
    expect(revised).toMatchObject({ type: 'revised', kind: 'listing', id: 'cartesia', version: 2, reason: null, _links: { self: '/api/v1/tools/cartesia' } });
    expect([...revised.changedFields!].sort()).toEqual(['popularity', 'pricing']);
    // Each changed field with its value before and after.
    expect(revised.changes).toEqual([
      { field: 'popularity', before: before.popularity, after: before.popularity === 50 ? 51 : 50 },
      { field: 'pricing', before: before.pricing, after: `${before.pricing} (re-checked)` },
    ].sort((a, b) => revised.changedFields!.indexOf(a.field) - revised.changedFields!.indexOf(b.field)));
    expect(withdrawn).toEqual({
      cursor: polled.nextCursor,
      type: 'withdrawn',
      kind: 'listing',
      id: 'chroma',
      version: 2,
      occurredAt: expect.any(String),
      changedFields: null,
      changes: null,
      reason: 'Folded into <another> listing & "retired"',
      replacedBy: null,
      _links: { self: '/api/v1/tools/chroma' },
    });
    // Who made a change is not published.
    expect(JSON.stringify(polled)).not.toContain('jane');
    // What the feed shows, the details show.
    expect((await getJson(`${service.baseUrl}/api/v1/tools/cartesia`)).body.tool.pricing).toBe(`${before.pricing} (re-checked)`);
    expect((await getJson(`${service.baseUrl}/api/v1/tools/chroma`)).status).toBe(410);

    // Polling again from the new cursor: nothing new, same cursor; an unchanged answer is a 304.
    const idle = await changesPage({ since: polled.nextCursor });
    expect(idle.body).toMatchObject({ returned: 0, changes: [], nextCursor: polled.nextCursor, hasMore: false });
    const again = await fetch(`${service.baseUrl}/api/v1/changes?since=${polled.nextCursor}`, { headers: { 'if-none-match': idle.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(idle.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=60');

    // A full page below the checkpoint is the same, byte for byte.
    const sameFullPage = await changesPage({ limit: '50' });
    expect(sameFullPage.text).toBe(fullPage.text);
    expect(sameFullPage.headers.get('etag')).toBe(fullPage.headers.get('etag'));
    afterFixtures = polled.nextCursor;
  });

  it('leaves out a revision of the editor\'s note only, and never names the note as a changed field', async () => {
    const before = listing('deepgram');
    await service.command(new PublishListingCommand({ ...before, note: 'Re-checked against the provider docs.' }, { actor: 'jane.editor' }));
    const quiet = (await changesPage({ since: afterFixtures })).body;
    expect(quiet.changes).toEqual([]);
    await service.command(new PublishListingCommand({ ...before, note: 'Checked again.', pricing: `${before.pricing} (checked)` }, { actor: 'jane.editor' }));
    const polled = (await changesPage({ since: afterFixtures })).body;
    expect(polled.changes.map((c: Change) => [c.type, c.id, c.version, c.changedFields])).toEqual([['revised', 'deepgram', 3, ['pricing']]]);
    afterFixtures = polled.nextCursor;
  });

  it('links a withdrawn error entry to its provider\'s error list', async () => {
    const entry = errorEntry('openai-429-rate-limit-exceeded');
    const id = errorEntryId(entry);
    await service.command(new PublishErrorEntryCommand({ ...entry, fix: `${entry.fix} Check the limits page first.` }, { actor: 'test' }));
    await service.command(new WithdrawErrorEntryCommand(id, 'test', null));
    const { changes, cursor } = await readFeed(afterFixtures, 100);
    const links = { self: '/api/v1/errors?provider=openai', listing: '/api/v1/tools/openai' };
    expect(changes.map((c) => [c.type, c.kind, c.id, c.version, c.changedFields, c.reason, c._links])).toEqual([
      ['revised', 'error-entry', id, 2, ['fix'], null, links],
      ['withdrawn', 'error-entry', id, 3, null, null, links],
    ]);
    // The provider's detail lists its errors: it no longer has this one.
    const openai = (await getJson(`${service.baseUrl}${links.listing}`)).body.tool as { errors: Array<{ status: number; title: string }> };
    expect(openai.errors.map((e) => `${e.status} ${e.title}`)).not.toContain(`${entry.status} ${entry.title}`);
    const openaiErrors = (await getJson(`${service.baseUrl}/api/v1/errors?provider=openai`)).body.errors as Array<{ id: string }>;
    expect(openaiErrors.map((e) => e.id)).not.toContain(id);
    afterFixtures = cursor;
  });

  it('keeps an agent that mirrors the directory from it current', async () => {
    // The agent starts from nothing and applies each change by fetching what changed. A fetch reads the
    // directory as it is now: a listing published long ago and withdrawn since is a 404 (the withdrawal
    // comes further down the feed).
    const mirror = new Map<string, unknown>();
    const errorsByProvider = new Map<string, string[]>();
    const apply = async (changes: Change[]) => {
      for (const change of changes) {
        if (change.kind === 'listing') {
          if (change.type === 'withdrawn') {
            mirror.delete(change.id);
            continue;
          }
          const detail = await getJson(`${service.baseUrl}${change._links.self}`);
          // A withdrawn listing answers 410 (gone, naming its successors), never 200.
          expect([200, 410]).toContain(detail.status);
          if (detail.status === 410) mirror.delete(change.id);
          else mirror.set(change.id, detail.body.tool);
        } else if (change.kind === 'error-entry') {
          const list = await getJson(`${service.baseUrl}${change._links.self}`);
          const provider = new URL(change._links.self, service.baseUrl).searchParams.get('provider')!;
          errorsByProvider.set(provider, (list.body.errors as Array<{ id: string }>).map((e) => e.id));
        }
      }
    };
    let { changes, cursor } = await readFeed(null, 40);
    await apply(changes);

    // Meanwhile the editors change things: a listing comes back, one is revised, one withdrawn.
    await service.command(new PublishListingCommand(listing('chroma'), { actor: 'test' }));
    await service.command(new PublishListingCommand({ ...listing('stripe'), pricing: 'Per transaction (re-checked)' }, { actor: 'test' }));
    await service.command(new WithdrawListingCommand('paddle', 'test'));
    ({ changes, cursor } = await readFeed(cursor, 40));
    expect(changes.map((c) => `${c.type} ${c.id} v${c.version}`)).toEqual(['published chroma v3', 'revised stripe v2', 'withdrawn paddle v2']);
    await apply(changes);

    // The mirror holds exactly the listings of GET /api/v1/tools, each as it is now.
    const listed = await allListed();
    expect([...mirror.keys()].sort()).toEqual([...listed.keys()].sort());
    expect(listed.size).toBe(FIXTURES.listings - 1);
    for (const [slug, summary] of listed) {
      const held = mirror.get(slug) as Record<string, unknown>;
      expect(Object.fromEntries(Object.keys(summary).map((key) => [key, held[key]]))).toEqual(summary);
    }
    expect((mirror.get('stripe') as { pricing: string }).pricing).toBe('Per transaction (re-checked)');
    const errors = (await getJson(`${service.baseUrl}/api/v1/errors`)).body.errors as Array<{ id: string }>;
    expect([...errorsByProvider.values()].flat().sort()).toEqual(errors.map((e) => e.id).sort());
    afterFixtures = cursor;
  });

  it('refuses a bad since or limit with a problem document naming it', async () => {
    const cases: Array<[string, string]> = [
      ['since=nope', 'since'],
      ['since=1764000000000-0', 'since'],
      [`since=${encodeChangeCursor('1-0')}`, 'since'], // well formed, but no change of this directory
      [`since=${afterFixtures}&since=${afterFixtures}`, 'since'],
      ['limit=0', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=-5', 'limit'],
      ['limit=1&limit=2', 'limit'],
    ];
    for (const path of ['changes', 'changes.atom']) {
      for (const [query, parameter] of cases) {
        const response = await getJson(`${service.baseUrl}/api/v1/${path}?${query}`);
        expect({ query, path, status: response.status, type: response.headers.get('content-type') }).toEqual({ query, path, status: 400, type: 'application/problem+json; charset=utf-8' });
        expect(response.body).toMatchObject({ success: false, status: 400, parameter });
      }
    }
  });
});

describe('the RSS feed at /rss.xml', () => {
  it('gives the same entries as the Atom feed, as RSS 2.0, read by a feed parser', async () => {
    const atom = await parseFeed(await (await fetch(`${service.baseUrl}/api/v1/changes.atom?limit=10`)).text());
    const response = await fetch(`${service.baseUrl}/rss.xml?limit=10`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    expect((await fetch(`${service.baseUrl}/rss.xml?limit=10`, { headers: { 'if-none-match': response.headers.get('etag')! } })).status).toBe(304);
    const xml = await response.text();
    await parseFeed(xml); // well-formed XML
    const rss = await parseFeed(xml, false);
    expect(rss.meta['#type']).toBe('rss');
    expect(rss.meta['#version']).toBe('2.0');
    expect(rss.meta.title).toBe('API Directory: changes');
    // RSS dates (RFC 822) stop at the second.
    const second = (date: Date | null | undefined) => date && Math.floor(date.getTime() / 1000);
    expect(rss.items.map((item) => [item.guid, item.title, item.link, second(item.pubdate), item.categories, item.description])).toEqual(
      atom.items.map((item) => [item.guid, item.title, item.link, second(item.date), item.categories, item.summary]),
    );
    expect((await fetch(`${service.baseUrl}/rss.xml?since=nope`)).status).toBe(400);
  });
});

describe('the Atom feed', () => {
  it('gives the newest changes first, read by a feed parser', async () => {
    const all = (await changesPage({ limit: '1000' })).body.changes as Change[];
    const response = await fetch(`${service.baseUrl}/api/v1/changes.atom?limit=10`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    expect(response.headers.get('etag')).toBeTruthy();
    const xml = await response.text();
    const again = await fetch(`${service.baseUrl}/api/v1/changes.atom?limit=10`, { headers: { 'if-none-match': response.headers.get('etag')! } });
    expect(again.status).toBe(304);

    const { meta, items } = await parseFeed(xml);
    expect(meta['#type']).toBe('atom');
    expect(meta.title).toBe('API Directory: changes');
    expect(meta.xmlurl).toBe(`${service.baseUrl}/api/v1/changes.atom?limit=10`);
    expect(meta['atom:id']['#']).toBe(`${service.baseUrl}/api/v1/changes.atom`);
    const newest = all.slice(-10).reverse();
    expect(meta.date?.toISOString()).toBe(newest[0].occurredAt);
    expect(items).toHaveLength(10);
    items.forEach((item, i) => {
      const change = newest[i];
      expect(item.guid).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(item.title).toBe(`${change.kind === 'listing' ? 'Listing' : 'Error entry'} ${change.id} ${change.type}`);
      expect(item.link).toBe(`${service.baseUrl}${change._links.self}`);
      expect(item.date?.toISOString()).toBe(change.occurredAt);
      expect(item.categories).toEqual([change.type, change.kind]);
    });
    expect(new Set(items.map((item) => item.guid)).size).toBe(10);
    expect(items.find((item) => item.title === 'Listing stripe revised')!.summary).toBe(
      'Listing Stripe API (stripe) revised, version 2. Changed: pricing.',
    );

    // Entry ids are permanent: the same change has the same id in every page that shows it.
    const wider = await parseFeed(await (await fetch(`${service.baseUrl}/api/v1/changes.atom?limit=20`)).text());
    expect(wider.items.slice(0, 10).map((item) => item.guid)).toEqual(items.map((item) => item.guid));
    expect(wider.meta['atom:id']['#']).toBe(meta['atom:id']['#']);
  });

  it('with since, gives the page the JSON feed gives, newest first, with a next link while more follow', async () => {
    const all = (await changesPage({ limit: '1000' })).body.changes as Change[];
    const since = all[99].cursor;
    const xml = await (await fetch(`${service.baseUrl}/api/v1/changes.atom?since=${since}&limit=5`)).text();
    const { items } = await parseFeed(xml);
    expect(items.map((item) => item.link)).toEqual(all.slice(100, 105).reverse().map((c) => `${service.baseUrl}${c._links.self}`));
    expect(xml).toContain(`<link rel="next" href="${service.baseUrl}/api/v1/changes.atom?since=${all[104].cursor}&amp;limit=5" type="application/atom+xml"/>`);
    const last = await (await fetch(`${service.baseUrl}/api/v1/changes.atom?since=${all.at(-2)!.cursor}&limit=5`)).text();
    expect((await parseFeed(last)).items).toHaveLength(1);
    expect(last).not.toContain('rel="next"');
    // An entry escapes what the editors wrote: the withdrawal reason holds markup characters.
    const withdrawal = all.findIndex((c) => c.type === 'withdrawn' && c.id === 'chroma');
    const reasonFeed = await parseFeed(await (await fetch(`${service.baseUrl}/api/v1/changes.atom?since=${all[withdrawal - 1].cursor}&limit=1`)).text());
    expect(reasonFeed.items[0].summary).toBe('Listing chroma withdrawn, version 2. Reason: Folded into <another> listing & "retired"');
  });

  it('makes its links absolute with PUBLIC_BASE_URL when it is set', async () => {
    // A second process on the same store, reading only.
    const other = await createApp(service.config.with({ publicBaseUrl: 'https://directory.example.org/base', projectorEnabled: false }));
    await other.init();
    await other.listen(0, '127.0.0.1');
    try {
      const port = (other.getHttpServer().address() as { port: number }).port;
      const { meta, items } = await parseFeed(await (await fetch(`http://127.0.0.1:${port}/api/v1/changes.atom?limit=3`)).text());
      expect(meta['atom:id']['#']).toBe('https://directory.example.org/base/api/v1/changes.atom');
      expect(meta.xmlurl).toBe('https://directory.example.org/base/api/v1/changes.atom?limit=3');
      for (const item of items) expect(item.link).toMatch(/^https:\/\/directory\.example\.org\/base\/api\/v1\/(tools\/|errors\?provider=)/);
    } finally {
      await other.close();
    }
  });

  it('refuses a Host header that is not a host, rather than putting it in links', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(service.baseUrl);
      httpRequest({ host: url.hostname, port: url.port, path: '/api/v1/changes.atom', headers: { host: 'x"><script>' } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(400);
  });
});

describe('what the feed shows', () => {
  let quiet: RunningService;
  beforeAll(async () => {
    // No projector in the background: events wait in the log until the test projects them.
    quiet = await startService('changes-unprojected', { PROJECTOR: 'off' });
    expect((await quiet.ingest(['fixtures'])).problems).toEqual([]);
  });
  afterAll(() => quiet?.close());

  it('is never ahead of the read models: an event not projected yet is not in it', async () => {
    const head = (await getJson(`${quiet.baseUrl}/api/v1/changes?limit=1000`)).body;
    expect(head.returned).toBe(FIXTURES.documents);
    const slack = listing('slack');
    expect((await quiet.app.get(CommandBus).execute(new PublishListingCommand({ ...slack, latency: '41 ms' }, { actor: 'test' }))).outcome).toBe('revised');

    const before = (await getJson(`${quiet.baseUrl}/api/v1/changes?since=${head.nextCursor}`)).body;
    expect(before).toMatchObject({ returned: 0, nextCursor: head.nextCursor });
    expect((await getJson(`${quiet.baseUrl}/api/v1/tools/slack`)).body.tool.latency).not.toBe('41 ms');
    const atomBefore = await parseFeed(await (await fetch(`${quiet.baseUrl}/api/v1/changes.atom?limit=1`)).text());
    expect(atomBefore.items[0].title).not.toBe('Listing slack revised');

    const runner = quiet.app.get(ProjectionRunner);
    const wait = quiet.app.get(ProjectionWait);
    expect(await runner.catchUp()).toBe(true);
    expect(await wait.waitUntilProjected(await quiet.app.get(EventStore).lastPosition(), 10_000)).toBe(true);
    const after = (await getJson(`${quiet.baseUrl}/api/v1/changes?since=${head.nextCursor}`)).body;
    expect(after.changes.map((c: Change) => `${c.type} ${c.id}`)).toEqual(['revised slack']);
    expect((await getJson(`${quiet.baseUrl}/api/v1/tools/slack`)).body.tool.latency).toBe('41 ms');
    const atomAfter = await parseFeed(await (await fetch(`${quiet.baseUrl}/api/v1/changes.atom?limit=1`)).text());
    expect(atomAfter.items[0].title).toBe('Listing slack revised');
  });
});
