import type { Redis } from 'ioredis';

/**
 * Everything a generation of read models holds, keyed by key name without the generation tag, so two
 * generations built differently can be compared. The typo dictionary may keep terms that are no longer
 * used (harmless, cleaned by a rebuild), so it is left out along with the build metadata, unless
 * `withDictionary` (to compare two rebuilds).
 */
export async function dumpGeneration(
  redis: Redis,
  namespace: string,
  generation: number,
  withDictionary = false,
): Promise<Record<string, unknown>> {
  const tag = `{${namespace}:g${generation}}`;
  const dump: Record<string, unknown> = {};
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${tag}:*`, 'COUNT', 1000);
    cursor = next;
    const names = keys.map((key) => key.slice(tag.length + 1));
    const wanted = keys.filter((_, i) => names[i] !== 'meta' && (withDictionary || (names[i] !== 'terms' && !names[i].startsWith('del:'))));
    // One round trip for the types of a page, one for their values.
    const types = (await redis.pipeline(wanted.map((key) => ['type', key])).exec())!.map(([, type]) => type as string);
    const reads = wanted.map((key, i) => {
      if (types[i] === 'string') return ['get', key];
      if (types[i] === 'hash') return ['hgetall', key];
      if (types[i] === 'zset') return ['zrange', key, '0', '-1', 'WITHSCORES'];
      if (types[i] === 'set') return ['smembers', key];
      return ['type', key];
    });
    const values = (await redis.pipeline(reads).exec())!;
    wanted.forEach((key, i) => {
      const [error, value] = values[i];
      if (error) throw error;
      const name = key.slice(tag.length + 1);
      if (types[i] === 'set') dump[name] = (value as string[]).sort();
      else if (reads[i][0] === 'type') dump[name] = `unexpected type ${types[i]}`;
      else dump[name] = value;
    });
  } while (cursor !== '0');
  return dump;
}
