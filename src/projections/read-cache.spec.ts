import { storedBody, StoredBody } from '../http/stored-body';
import { ReadCache, storedBodyBytes } from './read-cache';

const body = (text: string): StoredBody => storedBody(JSON.stringify({ text }));

describe('ReadCache', () => {
  it('keeps the entries in use while a stream of made-up slugs and one-off searches goes by', async () => {
    const cache = new ReadCache({ enabled: true, responses: 50, bytes: 1 << 30 });
    const reads = new Map<string, number>();
    const detail = (slug: string, exists: boolean) =>
      cache.detail(slug, async () => {
        reads.set(slug, (reads.get(slug) ?? 0) + 1);
        return exists ? body(slug) : null;
      });
    const hot = Array.from({ length: 20 }, (_, i) => `hot-${i}`);
    for (const slug of hot) await detail(slug, true);
    for (let i = 0; i < 20_000; i++) {
      await detail(`random-${i}`, false); // an unknown slug: a negative answer
      await cache.response(`/search?q=one-off-${i}`, async () => body(`${i}`)); // found something, asked once
      if (i % 100 === 0) for (const slug of hot.slice(0, 10)) await detail(slug, true); // traffic on the hot ones
    }
    // Each hot entry in use was read once: neither the unknown slugs nor the one-off searches pushed it out.
    for (const slug of hot.slice(0, 10)) expect(reads.get(slug)).toBe(1);
    const usage = cache.usage();
    expect(usage.negative.entries).toBeLessThanOrEqual(4096);
    expect(usage.responses.entries).toBeLessThanOrEqual(50);
  });

  it('drops the least recently used first, not the oldest', async () => {
    const cache = new ReadCache({ enabled: true, responses: 3, bytes: 1 << 30 });
    const builds: string[] = [];
    const get = (key: string) => cache.response(key, async () => (builds.push(key), body(key)));
    await get('a');
    await get('b');
    await get('c');
    await get('a'); // used: now the most recent
    await get('d'); // full: out goes b, the least recently used
    await get('a');
    await get('b');
    expect(builds).toEqual(['a', 'b', 'c', 'd', 'b']);
  });

  it('stays within its bytes, counting room for compressed forms', async () => {
    const one = body('x'.repeat(10_000));
    const cache = new ReadCache({ enabled: true, responses: 1000, bytes: 2 * 10 * storedBodyBytes(one) });
    for (let i = 0; i < 100; i++) await cache.response(`k${i}`, async () => storedBody(JSON.stringify({ i, text: 'x'.repeat(10_000) })));
    const { responses } = cache.usage();
    expect(responses.entries).toBeLessThanOrEqual(10);
    expect(responses.bytes).toBeLessThanOrEqual(10 * storedBodyBytes(one) + 100);
  });

  it('keeps answers that found nothing apart, and gives them back', async () => {
    const cache = new ReadCache({ enabled: true, responses: 10, bytes: 1 << 20 });
    let builds = 0;
    const empty = body('nothing');
    const ask = () => cache.response('/search?q=zzz', async () => (builds++, empty), () => true);
    expect(await ask()).toBe(empty);
    expect(await ask()).toBe(empty);
    expect(builds).toBe(1);
    expect(cache.usage().negative.entries).toBe(1);
    expect(cache.usage().responses.entries).toBe(0);
  });

  it('keeps nothing when off: every request reads', async () => {
    const cache = new ReadCache({ enabled: false, responses: 10, bytes: 1 << 20 });
    let reads = 0;
    for (let i = 0; i < 3; i++) await cache.detail('openai', async () => (reads++, body('openai')));
    expect(reads).toBe(3);
  });
});
