import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { ClientRequest, IncomingMessage, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { PublishListingCommand } from '../src/listings/write/commands/publish-listing/publish-listing.command';
import { WithdrawListingCommand } from '../src/listings/write/commands/withdraw-listing/withdraw-listing.command';
import { parseListing, type ListingDocument } from '../src/listings/write/listing.document';
import { EventStore } from '../src/event-store/event-store.service';
import { CatalogExport } from '../src/export/catalog-export';
import { ExportGate } from '../src/export/export-gate';
import { ReadModels } from '../src/projections/read-models.service';
import { ResponseCache } from '../src/projections/response-cache';
import { getJson, RunningService, startService } from './support/harness';
import { FIXTURES } from './support/fixtures';
import { generateCatalog, writeCatalog } from './support/synthetic-catalog';

/**
 * The whole catalog in one request, as a mirror uses it: an export is valid against its own JSON Schema,
 * names the change-feed cursor it is consistent with, and an export replayed with the feed after its
 * cursor equals a later export. The public directory's /api/data serves the same listings in its shape.
 */
let service: RunningService;
const get = (path: string, headers: Record<string, string> = {}) => getJson(`${service.baseUrl}${path}`, headers);
const fixture = (slug: string): ListingDocument => parseListing(parse(readFileSync(`fixtures/listings/${slug}.yaml`, 'utf8'))).listing!;
type Tool = Record<string, unknown> & { slug: string };
/** What a listing says of itself (what it shows of other listings changes with them, without a change of its own). */
const own = ({ similarApis, pricingComparison, errors, ...fields }: Tool) => fields;

beforeAll(async () => {
  service = await startService('export');
  expect((await service.ingest(['fixtures'])).problems).toEqual([]);
});
afterAll(() => service?.close());

it('is valid against its own JSON Schema, with every listing, category and error entry', async () => {
  const schema = (await get('/api/v1/export.schema.json')).body;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  const { status, body } = await get('/api/v1/export');
  expect(status).toBe(200);
  expect(validate(body) || ajv.errorsText(validate.errors)).toBe(true);
  expect(body).toMatchObject({ success: true, schemaVersion: 1, asOf: null, total: FIXTURES.listings });
  expect(body.tools).toHaveLength(FIXTURES.listings);
  expect(body.models).toHaveLength(FIXTURES.models);
  expect(body.errors).toHaveLength(15);
  expect(body.categories.reduce((sum: number, c: { count: number }) => sum + c.count, 0)).toBe(FIXTURES.listings);
  // Each listing as its detail shows it.
  const detail = (await get('/api/v1/tools/openai')).body.tool;
  expect(body.tools.find((tool: Tool) => tool.slug === 'openai')).toEqual(detail);
  expect(body._links.changes).toBe(`/api/v1/changes?since=${body.cursor}`);
});

it('answers 304 while nothing changed, and is compressed when asked', async () => {
  const first = await fetch(`${service.baseUrl}/api/v1/export`);
  const etag = first.headers.get('etag')!;
  await first.arrayBuffer();
  expect(etag).toMatch(/^W\/"export-/);
  expect((await fetch(`${service.baseUrl}/api/v1/export`, { headers: { 'if-none-match': etag } })).status).toBe(304);
  const gzipped = await fetch(`${service.baseUrl}/api/v1/export`, { headers: { 'accept-encoding': 'gzip' } });
  expect(gzipped.headers.get('content-encoding')).toBe('gzip');
  expect((await gzipped.json()).total).toBe(FIXTURES.listings);
});

it('replayed with the change feed after its cursor, equals a later export', async () => {
  const before = (await get('/api/v1/export')).body;
  const listing = fixture('assemblyai');
  await service.command(new PublishListingCommand({ ...listing, popularity: listing.popularity === 70 ? 71 : 70, pricing: `${listing.pricing} (re-checked)` }, { actor: 'editor' }));
  await service.command(new WithdrawListingCommand('gladia', 'editor', 'closed', ['deepgram']));
  const added = { ...fixture('cartesia'), slug: 'cartesia-labs', name: 'Cartesia Labs Voice', aliases: [] };
  await service.command(new PublishListingCommand(added, { actor: 'editor' }));
  const after = (await get('/api/v1/export')).body;

  // The mirror: the first export, then each change of the feed after its cursor, fetched as a mirror would.
  const mirror = new Map<string, Tool>(before.tools.map((tool: Tool) => [tool.slug, tool]));
  const feed = (await get(`/api/v1/changes?since=${before.cursor}&limit=1000`)).body;
  expect(feed.changes.map((c: { type: string; id: string }) => `${c.type} ${c.id}`)).toEqual(['revised assemblyai', 'withdrawn gladia', 'published cartesia-labs']);
  for (const change of feed.changes) {
    const { status, body } = await get(change._links.self);
    if (status === 200) mirror.set(body.tool.slug, body.tool);
    else mirror.delete(change.id);
  }
  expect(feed.nextCursor).toBe(after.cursor);
  const mirrored = [...mirror.values()].map(own).sort((a, b) => String(a.slug).localeCompare(String(b.slug)));
  const exported = (after.tools as Tool[]).map(own).sort((a, b) => String(a.slug).localeCompare(String(b.slug)));
  expect(mirrored).toEqual(exported);
  expect(after.total).toBe(FIXTURES.listings);

  // asOf: the catalog as it was before those changes.
  const moment = feed.changes[0].occurredAt;
  const earlier = (await get(`/api/v1/export?asOf=${encodeURIComponent(new Date(Date.parse(moment) - 1).toISOString())}`)).body;
  expect(earlier.cursor).toBe(before.cursor);
  expect((earlier.tools as Tool[]).map(own)).toEqual((before.tools as Tool[]).map(own));
});

it("at the read models' position, streams their details: the same bytes as the export rendered from the event store", async () => {
  const read = jest.spyOn(service.app.get(EventStore), 'documentsAt');
  const present = await (await fetch(`${service.baseUrl}/api/v1/export`)).text();
  expect(read).not.toHaveBeenCalled();
  // asOf now: the same position, from the event store (the read models answering as if they had moved on).
  const readModels = jest.spyOn(service.app.get(ReadModels), 'readAt').mockResolvedValue(null);
  const fromStore = await (await fetch(`${service.baseUrl}/api/v1/export?asOf=${new Date().toISOString()}`)).text();
  expect(read).toHaveBeenCalled();
  read.mockRestore();
  readModels.mockRestore();
  const { asOf } = JSON.parse(fromStore);
  expect(fromStore.replace(`"asOf":"${asOf}"`, '"asOf":null').replace(`?asOf=${asOf}"`, '"')).toBe(present);
});

it('keeps to its cursor when the read models move on while it streams', async () => {
  const present = await (await fetch(`${service.baseUrl}/api/v1/export`)).text();
  const exporter = service.app.get(CatalogExport);
  const snapshot = await exporter.snapshot(service.app.get(ResponseCache).checkpointNow()!, null);
  expect(snapshot.cursor).toBe(JSON.parse(present).cursor);
  const stream = exporter.json(snapshot);
  // The head and the first listing: the first share of details is read.
  const pieces = [(await stream.next()).value, (await stream.next()).value, (await stream.next()).value];
  // The last listing (of the second share) is revised, and the read models apply it.
  const listing = fixture('zilliz');
  await service.command(new PublishListingCommand({ ...listing, pricing: `${listing.pricing} (revised mid-export)` }, { actor: 'editor' }));
  for await (const piece of stream) pieces.push(piece);
  expect(pieces.join('')).toBe(present);
  expect((await get('/api/v1/tools/zilliz')).body.tool.pricing).toMatch(/revised mid-export/);
});

it("serves the public directory's /api/data shape from the same listings", async () => {
  const exported = (await get('/api/v1/export')).body;
  for (const path of ['/api/data', '/api/data.json']) {
    const { status, body } = await get(path);
    expect(status).toBe(200);
    expect(Array.isArray(body)).toBe(true);
    expect(body).toHaveLength(exported.total);
    const { _meta, ...tool } = body.find((t: Tool) => t.slug === 'openai');
    expect(tool).toEqual(exported.tools.find((t: Tool) => t.slug === 'openai'));
    expect(_meta).toEqual({ totalApis: exported.total, siteDescription: expect.any(String), siteUrl: '/', bilingual: ['en', 'zh'], lastUpdated: tool.lastUpdated });
  }
});

it('leads /api/ai.txt to llms-full.txt, and describes the directory at /structured-data.json', async () => {
  const moved = await fetch(`${service.baseUrl}/api/ai.txt`, { redirect: 'manual' });
  expect(moved.status).toBe(301);
  expect(moved.headers.get('location')).toBe('/llms-full.txt');
  const { body, headers } = await get('/structured-data.json');
  expect(headers.get('content-type')).toMatch(/^application\/ld\+json/);
  const categories = (await get('/api/v1/tools/categories')).body.categories;
  const list = body['@graph'].find((node: { '@type': string }) => node['@type'] === 'ItemList');
  expect(list.itemListElement.map((item: { name: string; description: string }) => [item.name, item.description])).toEqual(
    categories.map((c: { name: string; count: number }) => [c.name, `${c.count} APIs`]),
  );
});

describe('exports at once', () => {
  // Two at once in the process, one per client: held open by clients that do not read (a catalog large
  // enough that its answer cannot all sit in the socket's buffers), from three loopback addresses.
  let bounded: RunningService;
  let folder: string;
  const open = (localAddress: string) =>
    new Promise<{ status: number; retryAfter: string | undefined; response: IncomingMessage; request: ClientRequest }>((resolve, reject) => {
      const request = httpRequest(`${bounded.baseUrl}/api/v1/export`, { localAddress, agent: false }, (response) => {
        response.pause();
        resolve({ status: response.statusCode!, retryAfter: response.headers['retry-after'] as string | undefined, response, request });
      });
      request.on('error', reject).end();
    });
  const drained = (response: IncomingMessage) => new Promise<void>((resolve) => response.on('end', resolve).resume());

  beforeAll(async () => {
    bounded = await startService('export-gate', { EXPORTS_IN_FLIGHT: '2', EXPORTS_PER_CLIENT: '1' });
    folder = mkdtempSync(join(tmpdir(), 'export-gate-'));
    writeCatalog(generateCatalog(800), folder);
    expect((await bounded.ingest([folder])).problems).toEqual([]);
  });
  afterAll(async () => {
    await bounded?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('are bounded per client (429) and per process (503), each with Retry-After, and a slot is free again once its answer ends', async () => {
    const gate = bounded.app.get(ExportGate);
    const first = await open('127.0.0.2');
    expect(first.status).toBe(200);
    const again = await open('127.0.0.2');
    expect({ status: again.status, retryAfter: again.retryAfter }).toEqual({ status: 429, retryAfter: '5' });
    await drained(again.response);
    const second = await open('127.0.0.3');
    expect(second.status).toBe(200);
    const third = await open('127.0.0.4');
    expect({ status: third.status, retryAfter: third.retryAfter }).toEqual({ status: 503, retryAfter: '5' });
    await drained(third.response);
    expect(gate.inFlight).toBe(2);
    // The first client goes away mid-answer; the second reads its answer to the end: both slots come back.
    const closed = new Promise<void>((resolve) => first.response.on('close', resolve));
    first.request.destroy();
    await closed;
    await drained(second.response);
    const retried = await open('127.0.0.4');
    expect(retried.status).toBe(200);
    await drained(retried.response);
    // The server gives a slot back when its answer closes, which may be a moment after the client saw the end.
    while (gate.inFlight > 0) await new Promise((resolve) => setImmediate(resolve));
    expect(gate.inFlight).toBe(0);
  });
});
