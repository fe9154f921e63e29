import { CommandBus } from '@nestjs/cqrs';
import { Redis } from 'ioredis';
import { PublishListingCommand } from '../src/listings/write/commands/publish-listing/publish-listing.command';
import { ProjectionWait } from '../src/projections/projection-wait';
import { RedisConnection } from '../src/redis/redis-connection';
import { EventStore } from '../src/event-store/event-store.service';
import { commandsDuring, getJson, RunningService, startService } from './support/harness';
import { fixtureListing } from './support/fixtures';

let service: RunningService;
const search = async (params: Record<string, string>) =>
  (await getJson(`${service.baseUrl}/api/v1/tools/search?${new URLSearchParams(params)}`)).body;
const slugs = (body: { results: Array<{ slug: string }> }) => body.results.map((r) => r.slug);

beforeAll(async () => {
  service = await startService('search');
  expect((await service.ingest(['fixtures'])).problems).toEqual([]);
});
afterAll(() => service?.close());

describe('transparency', () => {
  it('says a typo was corrected, and to what', async () => {
    const body = await search({ q: 'antropic' });
    expect(body.interpretation).toEqual([{ input: 'antropic', matchedAs: ['anthropic'], via: ['typo'] }]);
    expect(body.terms).toEqual(['anthropic']);
  });

  it('says which synonyms a phrase searched for', async () => {
    const body = await search({ q: 'text to speech' });
    const [part] = body.interpretation;
    expect(part.input).toBe('text to speech');
    expect(part.matchedAs).toEqual(expect.arrayContaining(['text to speech', 'tts', '语音合成']));
    expect(part.via).toEqual(expect.arrayContaining(['exact', 'synonym']));
  });

  it('says a word being typed was completed', async () => {
    const body = await search({ q: 'stri' });
    expect(body.interpretation[0].via).toEqual(['prefix']);
    expect(body.interpretation[0].matchedAs).toContain('stripe');
    expect(slugs(body)[0]).toBe('stripe');
  });

  it('does not complete a word followed by a space: it is finished', async () => {
    for (const q of ['stri ', 'stri   ', '  stri \t']) {
      const body = await search({ q });
      expect([q, body.query, body.interpretation[0].via]).toEqual([q, 'stri ', expect.not.arrayContaining(['prefix'])]);
      expect(body.results.map((r: { slug: string }) => r.slug)).not.toContain('stripe');
    }
  });

  it('reports the fields that matched and a score, best first', async () => {
    const body = await search({ q: 'vector database', limit: '10' });
    expect(body.results[0].matched).toEqual(expect.arrayContaining(['category']));
    for (const result of body.results) expect(result.score).toBeGreaterThan(0);
  });

  it('orders results best first: a result may come before a better-scored one only as its equal (within 10%) and at least as popular', async () => {
    for (const q of ['vector database', 'speech', 'payments', 'gpu', 'image generation', '语音']) {
      const { results } = await search({ q, limit: '30' });
      expect(results.length).toBeGreaterThan(3);
      const best = Math.max(...results.map((r: { score: number }) => r.score));
      expect(results[0].score).toBeGreaterThanOrEqual(best - Math.max(best * 0.1, 0.5) - 0.001);
      results.forEach((earlier: { score: number; popularity: number }, i: number) => {
        for (const later of results.slice(i + 1) as Array<{ score: number; popularity: number }>) {
          if (later.score <= earlier.score) continue;
          expect(earlier.score).toBeGreaterThanOrEqual(later.score - Math.max(later.score * 0.1, 0.5) - 0.001);
          expect(earlier.popularity).toBeGreaterThanOrEqual(later.popularity);
        }
      });
    }
  });
});

describe('names, compounds, punctuation and facts asked for in words', () => {
  it('answers the queries that once found the wrong listing with the right one first', async () => {
    const asked: Array<[string, string]> = [
      ['chatgpt', 'openai'],
      ['dall-e', 'openai'],
      ['open ai', 'openai'],
      ['deep seek', 'deepseek'],
      ['eleven labs', 'elevenlabs'],
    ];
    for (const [q, slug] of asked) expect([q, slugs(await search({ q }))[0]]).toEqual([q, slug]);
  });

  it('puts the listing first whose name, slug or alias the whole query is', async () => {
    for (const [q, slug] of [['chatgpt', 'openai'], ['Kimi', 'moonshot'], ['通义千问', 'qwen'], ['w&b', 'weights-biases'], ['Stripe', 'stripe']]) {
      expect(slugs(await search({ q }))[0]).toBe(slug);
    }
  });

  it('meets words typed apart as the word they make, and says so', async () => {
    const body = await search({ q: 'eleven labs' });
    expect(slugs(body)[0]).toBe('elevenlabs');
    expect(body.interpretation).toEqual([
      { input: 'eleven', matchedAs: expect.arrayContaining(['elevenlabs']), via: expect.arrayContaining(['joined']) },
      { input: 'lab', matchedAs: expect.arrayContaining(['lab', 'elevenlabs']), via: expect.arrayContaining(['exact', 'joined']) },
    ]);
    // Punctuation inside a name, typed any way, meets the same term.
    for (const q of ['dall-e', 'dall·e', 'DALLE', 'dall e']) expect(slugs(await search({ q }))[0]).toBe('openai');
  });

  it('tries a word it does not hold as two it does', async () => {
    const body = await search({ q: 'blackforest labs' });
    expect(slugs(body)[0]).toBe('black-forest-labs');
    expect(body.interpretation[0]).toEqual({ input: 'blackforest', matchedAs: expect.arrayContaining(['black forest']), via: expect.arrayContaining(['split']) });
  });

  it('reads free and openai compatible as filters, shows them, and lets the parameter win', async () => {
    const free = await search({ q: 'free speech to text', limit: '50' });
    expect(free.filters.freeTier).toBe(true);
    expect(free.interpretation).toContainEqual({ input: 'free', matchedAs: ['freeTier=true'], via: ['filter'] });
    expect(free.results.length).toBeGreaterThan(0);
    expect(free.results.every((r: { freeTier: boolean }) => r.freeTier)).toBe(true);
    const overridden = await search({ q: 'free speech to text', freeTier: 'false', limit: '50' });
    expect(overridden.results.every((r: { freeTier: boolean }) => !r.freeTier)).toBe(true);
    const compatible = await search({ q: 'openai-compatible llm', limit: '50' });
    expect(compatible.filters.openaiCompatible).toBe(true);
    expect(compatible.results.every((r: { openaiCompatible: boolean }) => r.openaiCompatible)).toBe(true);
    // Free alone browses what is free: every free listing, and only those.
    const onlyFree = await search({ q: '免费', limit: '100' });
    const everyFree = (await getJson(`${service.baseUrl}/api/v1/tools?freeTier=true&limit=1`)).body;
    expect(everyFree.total).toBeGreaterThan(50);
    expect(onlyFree.total).toBe(everyFree.total);
    expect(onlyFree.results.every((r: { freeTier: boolean }) => r.freeTier)).toBe(true);
  });

  it('reads price words as an order by price, of the kind of model named, and context words as an order by context', async () => {
    const body = await search({ q: 'cheap reasoning model' });
    expect(body.sort).toMatchObject({ by: 'price', priceUnit: '1m-input-tokens', modelKind: 'reasoning' });
    expect(body.interpretation).toContainEqual({ input: 'cheap', matchedAs: ['sort=price', 'priceUnit=1m-input-tokens', 'modelKind=reasoning'], via: ['sort'] });
    // `cheap` is not searched as a word: a listing that calls itself cheap is not cheaper for it.
    expect(body.terms).not.toContain('cheap');
    expect((await search({ q: '长上下文大模型' })).sort.by).toBe('context');
    // Not inside a word of its own: free-form is not free.
    expect((await search({ q: 'cheap-o-matic' })).sort.by).toBe('relevance');
  });
});

describe('ranking rules', () => {
  it('ranks listings matching every part of the query above those matching some, and never returns nothing for one missing word', async () => {
    const body = await search({ q: 'stripe zzzunknownword', limit: '5' });
    expect(slugs(body)[0]).toBe('stripe');
    const both = await search({ q: 'anthropic claude', limit: '20' });
    expect(slugs(both)[0]).toBe('anthropic');
  });

  it('browses by popularity when q is empty, within the category when one is given', async () => {
    const all = await search({ limit: '5' });
    expect(slugs(all)[0]).toBe('openai');
    const popularity = all.results.map((r: { popularity: number }) => r.popularity);
    expect(popularity).toEqual([...popularity].sort((a, b) => b - a));
    const audio = await search({ category: 'audio' });
    expect(audio.total).toBe(9);
  });

  it('finds nothing for a q with nothing searchable in it, rather than browsing', async () => {
    for (const q of ['!!', 'the of', '???']) {
      const body = await search({ q });
      expect(body.total).toBe(0);
      expect(body.results).toEqual([]);
    }
  });

  it('splits English from Chinese written without a space', async () => {
    const body = await search({ q: 'GPU云', limit: '5' });
    // "gpu" then "云": together the synonym phrase "gpu 云" (GPU cloud).
    expect(body.interpretation.map((i: { input: string }) => i.input)).toEqual(['gpu 云']);
    expect(slugs(body)).toEqual(expect.arrayContaining(['runpod']));
    const mixed = await search({ q: 'OpenAI语音', limit: '3' });
    expect(mixed.interpretation.map((i: { input: string }) => i.input)).toEqual(['openai', '语音']);
    expect(slugs(mixed)[0]).toBe('openai');
  });

  it('finds a category by its Chinese name', async () => {
    const body = await search({ q: '图像生成', limit: '9' });
    const categories = body.results.map((r: { category: string }) => r.category);
    expect(categories.filter((c: string) => c === 'image').length).toBeGreaterThanOrEqual(6);
  });

  it('a sponsored flag never changes the rank', async () => {
    const queries = ['text to speech', '向量数据库', 'payments', 'web scraping', 'gpu'];
    const before = await Promise.all(queries.map((q) => search({ q, limit: '10' })));
    const bus = service.app.get(CommandBus);
    for (const slug of ['cartesia', 'chroma', 'paddle', 'scrapingbee', 'vast-ai']) {
      const listing = fixtureListing(slug);
      expect((await bus.execute(new PublishListingCommand({ ...listing, sponsored: true }, { actor: 'test' }))).outcome).toBe('revised');
    }
    const last = await service.app.get(EventStore).lastPosition();
    expect(await service.app.get(ProjectionWait).waitUntilProjected(last, 10_000)).toBe(true);
    const after = await Promise.all(queries.map((q) => search({ q, limit: '10' })));
    expect(after.map(slugs)).toEqual(before.map(slugs));
    expect(after[0].results.find((r: { slug: string }) => r.slug === 'cartesia').sponsored).toBe(true);
  });
});

it('answers a search from the index in memory: no Redis command', async () => {
  const client = service.app.get(RedisConnection).client as Redis;
  await search({ q: 'warm up' });
  const { commands } = await commandsDuring(client, () => search({ q: 'serverless gpu', category: 'cloud-gpu' }));
  // (The process's own check of the read models, and its search index following the log after a change, may
  // fall in the window: they read control keys and the log, never what a search would.)
  const keys = service.app.get(RedisConnection).keys;
  const background = new Set([keys.currentGeneration, keys.projectionFailure, keys.projectorLease, keys.events]);
  const own = commands.filter(([, key]) => !(background.has(key) || key?.endsWith(':checkpoint') || key?.endsWith(':applied')));
  expect(own).toEqual([]);
});
