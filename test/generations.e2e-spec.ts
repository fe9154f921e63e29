import { Redis } from 'ioredis';
import { BUILD_TIMEOUT_MS, Generations, RETIRED_GENERATION_GRACE_MS } from '../src/projections/generations';
import type { RedisConnection } from '../src/redis/redis-connection';
import { RedisKeys } from '../src/redis/redis-keys';
import { dropNamespace, REDIS_URL, uniqueNamespace } from './support/harness';

const namespace = uniqueNamespace('generations');
const redis = new Redis(REDIS_URL);
const keys = new RedisKeys(namespace);
const generations = new Generations({ client: redis, keys } as RedisConnection);

afterAll(async () => {
  await dropNamespace(namespace);
  await redis.quit();
});

const exists = async (generation: number) => (await redis.exists(keys.generation(generation).checkpoint)) === 1;

it('deletes a replaced generation after the grace period, never the live one', async () => {
  const first = await generations.allocate();
  await generations.adoptIfNone(first);
  await redis.set(keys.generation(first).checkpoint, '1-0');
  const second = await generations.allocate();
  await redis.set(keys.generation(second).checkpoint, '2-0');
  await generations.switchTo(second);

  expect(await generations.deleteRetired(Date.now())).toBe(0);
  expect(await exists(first)).toBe(true);
  expect(await generations.deleteRetired(Date.now() + RETIRED_GENERATION_GRACE_MS + 1)).toBe(1);
  expect(await exists(first)).toBe(false);
  expect(await exists(second)).toBe(true);
  expect(await generations.deleteRetired(Date.now() + BUILD_TIMEOUT_MS * 2)).toBe(0);
  expect(await exists(second)).toBe(true);
});

it('deletes a generation whose rebuild died before switching, once the build timeout has passed', async () => {
  const abandoned = await generations.allocate();
  await redis.set(keys.generation(abandoned).checkpoint, '3-0');
  expect(await generations.deleteRetired(Date.now() + RETIRED_GENERATION_GRACE_MS + 1)).toBe(0);
  expect(await exists(abandoned)).toBe(true);
  expect(await generations.deleteRetired(Date.now() + BUILD_TIMEOUT_MS + RETIRED_GENERATION_GRACE_MS + 1)).toBe(1);
  expect(await exists(abandoned)).toBe(false);
});
