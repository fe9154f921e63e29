import { EventStore } from '../src/event-store/event-store.service';
import { LISTING_REVISED } from '../src/listings/write/events/listing-events';
import { getJson, RunningService, startService } from './support/harness';
import { rawExchange } from './support/raw-http';
import { fixtureListing } from './support/fixtures';

/**
 * GET /metrics in the Prometheus text format: requests and latency by route pattern and status, the
 * read cache's hits and misses, search time, the projection's lag in events and seconds, rate-limited
 * requests, and requests refused before routing.
 */
let service: RunningService;

beforeAll(async () => {
  // No projector in this process: an event appended behind its back stays unapplied (a lag to measure).
  service = await startService('metrics', { PROJECTOR: 'off', RATE_LIMIT_PER_MINUTE: '30', SEARCH_RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: '127.0.0.1' });
  expect((await service.ingest(['fixtures'])).problems).toEqual([]);
});
afterAll(() => service?.close());

/** The samples of a scrape: `name{labels}` -> value. */
async function scrape(): Promise<Map<string, number>> {
  const response = await fetch(`${service.baseUrl}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  const samples = new Map<string, number>();
  for (const line of (await response.text()).split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

const until = async (check: () => Promise<boolean>, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!(await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
};

it('counts requests by method, route pattern and status, with their latency, never by raw URL', async () => {
  for (const slug of ['openai', 'stripe', 'openai', 'no-such-tool']) await getJson(`${service.baseUrl}/api/v1/tools/${slug}`);
  const samples = await scrape();
  expect(samples.get('http_requests_total{method="GET",route="/api/v1/tools/:slug",status="200"}')).toBe(3);
  expect(samples.get('http_requests_total{method="GET",route="/api/v1/tools/:slug",status="404"}')).toBe(1);
  expect(samples.get('http_request_duration_seconds_count{method="GET",route="/api/v1/tools/:slug",status="200"}')).toBe(3);
  expect(samples.get('http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/v1/tools/:slug",status="200"}')).toBe(3);
  expect(samples.get('http_request_duration_seconds_sum{method="GET",route="/api/v1/tools/:slug",status="200"}')).toBeGreaterThan(0);
  // Bounded label values: no slug, query or unknown path is ever a label.
  const routes = [...samples.keys()].flatMap((key) => /route="([^"]*)"/.exec(key)?.[1] ?? []);
  expect(routes.every((route) => route.startsWith('/') || route === '(unmatched)' || route === '(none)' || route === '*')).toBe(true);
  expect(routes.some((route) => /openai|stripe|no-such/.test(route))).toBe(false);
});

it('counts read-cache hits and misses, and times the searches the cache could not answer', async () => {
  const before = await scrape();
  await getJson(`${service.baseUrl}/api/v1/tools/anthropic`);
  await getJson(`${service.baseUrl}/api/v1/tools/anthropic`);
  await getJson(`${service.baseUrl}/api/v1/tools/search?q=vector%20database`);
  await getJson(`${service.baseUrl}/api/v1/tools/search?q=vector%20database`);
  const after = await scrape();
  const delta = (name: string) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
  expect(delta('directory_read_cache_misses_total{section="detail"}')).toBe(1);
  expect(delta('directory_read_cache_hits_total{section="detail"}')).toBe(1);
  expect(delta('directory_read_cache_misses_total{section="response"}')).toBe(1);
  expect(delta('directory_read_cache_hits_total{section="response"}')).toBe(1);
  expect(delta('directory_search_duration_seconds_count')).toBe(1);
  expect(delta('directory_search_duration_seconds_sum')).toBeGreaterThan(0);
});

it('counts rate-limited requests by budget, and requests refused before routing', async () => {
  const searcher = { 'x-forwarded-for': '198.51.100.12' };
  for (const q of ['gpu', 'speech', 'email']) await getJson(`${service.baseUrl}/api/v1/tools/search?q=${q}`, searcher);
  const flooder = { 'x-forwarded-for': '198.51.100.13' };
  for (let i = 0; i < 31; i++) await getJson(`${service.baseUrl}/api/v1/tools/categories`, flooder);
  const port = Number(new URL(service.baseUrl).port);
  await rawExchange(port, 'GET /api/v1/tools/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  await rawExchange(port, 'GET /api/v1/tools/\xff HTTP/1.1\r\nHost: x\r\n\r\n');
  const samples = await scrape();
  expect(samples.get('directory_rate_limited_requests_total{budget="searches"}')).toBe(1);
  expect(samples.get('directory_rate_limited_requests_total{budget="requests"}')).toBe(1);
  expect(samples.get('http_requests_total{method="GET",route="/api/v1/tools/search",status="429"}')).toBe(1);
  expect(samples.get('http_requests_total{method="GET",route="(none)",status="400"}')).toBe(1);
  expect(samples.get('http_requests_total{method="(unparsed)",route="(none)",status="400"}')).toBe(1);
}, 30_000);

it('reports the projection lag in events and in seconds, and the process metrics', async () => {
  expect((await scrape()).get('directory_projection_lag_events')).toBe(0);
  const store = service.app.get(EventStore);
  const openai = fixtureListing('openai');
  await store.append('listing', 'openai', 1, [{ type: LISTING_REVISED, data: { document: { ...openai, latency: 'revised' }, changedFields: ['latency'] } }], 'editor');
  // The process learns the lag from its background check (every second); the event then waits on.
  // Its age in seconds grows while it waits: a second or more is reported once a second has passed.
  await until(async () => (await scrape()).get('directory_projection_lag_events') === 1);
  await until(async () => ((await scrape()).get('directory_projection_lag_seconds') ?? 0) >= 1);
  const samples = await scrape();
  expect(samples.get('directory_projection_lag_events')).toBe(1);
  expect(samples.get('directory_projection_lag_seconds')).toBeGreaterThanOrEqual(1);
  expect(samples.get('directory_projection_lag_seconds')).toBeLessThan(30);
  expect(samples.get('directory_projector_active')).toBe(0);
  expect(samples.get('directory_search_index_ready')).toBe(1);
  expect(samples.get('nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  expect(samples.get('process_resident_memory_bytes')).toBeGreaterThan(0);
}, 30_000);
