import type { RedisClient } from '../../redis/create-client';
import { RespWriter, sendEncoded } from '../../redis/resp-writer';
import { appendRestoreSortedSet, PayloadMembers } from '../../redis/sorted-set-dump';

/** A sorted set as a rebuild writes it: every member with its score. */
export interface WholeSortedSet {
  key: string;
  members: string[];
  scores: number[];
}

/** Members a ZADD carries at a time when RESTORE is refused. */
const ZADD_MEMBERS = 1000;

/**
 * Writes sorted sets of a new generation whole, from this thread, once a rebuild knows every member: the
 * term dictionary and the browse sets. RESTORE when `restore` (see sorted-set-dump.ts), else ZADD.
 *
 * Why: the builders added them share by share with ZADD, and Redis spent 1.7-1.8 s of its single thread
 * on those 1,628 commands in a rebuild of 100,127 listings (about 400,000 members: 204,000 terms, every
 * listing twice); RESTORE loads them in about 0.3 s. Redis's thread is the one part of an import that
 * cannot be spread over cores (see bench/README.md).
 */
export async function writeWholeSortedSets(client: RedisClient, sets: WholeSortedSet[], restore: boolean): Promise<void> {
  const writer = new RespWriter(1 << 20);
  for (const { key, members, scores } of sets) {
    if (members.length === 0) continue;
    // Greatest (score, member) first: the order in which Redis loads a set fastest. Only the speed
    // depends on it (Redis orders what it loads), so comparing UTF-16 rather than bytes is harmless.
    const order = members.map((_, i) => i);
    order.sort((a, b) => scores[b] - scores[a] || (members[b] < members[a] ? -1 : members[b] > members[a] ? 1 : 0));
    if (restore) {
      const payloadMembers = new PayloadMembers(members.map((member) => Buffer.from(member)));
      appendRestoreSortedSet(writer, key, payloadMembers, order, order.map((i) => scores[i]));
    } else {
      for (let from = 0; from < order.length; from += ZADD_MEMBERS) {
        const chunk = order.slice(from, from + ZADD_MEMBERS);
        writer.begin('zadd', key, 1 + 2 * chunk.length);
        for (const i of chunk) writer.number(scores[i]).string(members[i]);
        writer.end();
      }
    }
  }
  if (writer.size > 0) await sendEncoded(client, writer);
}
