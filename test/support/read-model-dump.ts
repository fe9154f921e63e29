import type { Redis } from 'ioredis';

/**
 * Everything a generation of read models holds, keyed by key name without the generation tag, so two
 * generations built differently can be compared (the build metadata, which says when, is left out).
 */
export async function dumpGeneration(redis: Redis, namespace: string, generation: number): Promise<Record<string, unknown>> {
  const tag = `{${namespace}:g${generation}}`;
  const dump: Record<string, unknown> = {};
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${tag}:*`, 'COUNT', 1000);
    cursor = next;
    const wanted = keys.filter((key) => key.slice(tag.length + 1) !== 'meta');
    // One round trip for the types of a page, one for their values.
    const types = (await redis.pipeline(wanted.map((key) => ['type', key])).exec())!.map(([, type]) => type as string);
    const reads = wanted.map((key, i) => (types[i] === 'string' ? ['get', key] : types[i] === 'hash' ? ['hgetall', key] : ['type', key]));
    const values = (await redis.pipeline(reads).exec())!;
    wanted.forEach((key, i) => {
      const [error, value] = values[i];
      if (error) throw error;
      dump[key.slice(tag.length + 1)] = reads[i][0] === 'type' ? `unexpected type ${types[i]}` : value;
    });
  } while (cursor !== '0');
  return dump;
}
