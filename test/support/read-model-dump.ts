import type { Redis } from 'ioredis';

/**
 * Everything a generation of read models holds, keyed by key name without the generation tag, so two
 * generations built differently can be compared. The typo dictionary may keep terms that are no longer
 * used (harmless, cleaned by a rebuild), so it is left out along with the build metadata.
 */
export async function dumpGeneration(redis: Redis, namespace: string, generation: number): Promise<Record<string, unknown>> {
  const tag = `{${namespace}:g${generation}}`;
  const dump: Record<string, unknown> = {};
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${tag}:*`, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      const name = key.slice(tag.length + 1);
      if (name === 'meta' || name === 'terms' || name.startsWith('del:')) continue;
      const type = await redis.type(key);
      if (type === 'string') dump[name] = await redis.get(key);
      else if (type === 'hash') dump[name] = await redis.hgetall(key);
      else if (type === 'zset') dump[name] = await redis.zrange(key, '0', '-1', 'WITHSCORES');
      else if (type === 'set') dump[name] = (await redis.smembers(key)).sort();
      else dump[name] = `unexpected type ${type}`;
    }
  } while (cursor !== '0');
  return dump;
}
