import type { RedisClient } from './redis-connection';

/** Deletes every key matching a glob pattern (SCAN + UNLINK), on each master of a cluster. */
export async function deleteMatching(client: RedisClient, pattern: string): Promise<void> {
  const nodes = 'nodes' in client ? client.nodes('master') : [client];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await node.unlink(...keys);
    } while (cursor !== '0');
  }
}
