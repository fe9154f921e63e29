import { Redis } from 'ioredis';
import { queueEncoded, RespWriter } from '../src/redis/resp-writer';
import { appendRestoreSortedSet, crc64, PayloadMembers, restoreAccepted } from '../src/redis/sorted-set-dump';
import { REDIS_URL, uniqueNamespace } from './support/harness';

/**
 * A rebuild loads index postings with RESTORE, from payloads it encodes itself. They must be byte for byte
 * what Redis's own DUMP gives for the same set, and load into the same set (members, scores, encoding)
 * that ZADD makes, small (listpack) or large (skiplist), whatever the members' lengths.
 */
const redis = new Redis(REDIS_URL);
const prefix = uniqueNamespace('dump');

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

/** A set's members, scores and order, from the greatest (score, member) down, as a rebuild gives them. */
interface Entries {
  members: PayloadMembers;
  ids: number[];
  scores: number[];
}
function descending(entries: Array<[string, number]>): Entries {
  const sorted = [...entries].sort(([am, as], [bm, bs]) => bs - as || Buffer.compare(Buffer.from(bm), Buffer.from(am)));
  return { members: new PayloadMembers(sorted.map(([member]) => Buffer.from(member))), ids: sorted.map((_, i) => i), scores: sorted.map(([, score]) => score) };
}

async function restore(key: string, { members, ids, scores }: Entries, version?: number): Promise<void> {
  const writer = new RespWriter(64);
  appendRestoreSortedSet(writer, key, members, ids, scores, ids.length, version);
  const pipeline = redis.pipeline();
  queueEncoded(pipeline, writer);
  const [[error]] = (await pipeline.exec())!;
  if (error) throw error;
}

function members(count: number, memberLength: (i: number) => number): Array<[string, number]> {
  return Array.from({ length: count }, (_, i) => {
    const name = `listing-${i}-`.padEnd(memberLength(i), String.fromCharCode(97 + (i % 26)));
    // Ties on purpose: many members share a score, as postings of equal text do.
    return [name, ((i * 7) % 13) * 1024 + (i % 5)] as [string, number];
  });
}

it('computes the CRC-64 Redis computes', () => {
  expect(crc64(Buffer.from('123456789')).toString(16)).toBe('e9c6d914c4b8d9ca');
});

it('encodes a large sorted set exactly as DUMP does', async () => {
  const entries = members(300, (i) => 10 + (i % 90)); // lengths across the 6-bit and 14-bit length forms
  await redis.zadd(`${prefix}:by-zadd`, ...entries.flatMap(([member, score]) => [score, member]));
  const dumped = (await redis.dumpBuffer(`${prefix}:by-zadd`))!;
  const serverVersion = dumped.readUInt16LE(dumped.length - 10);
  await restore(`${prefix}:mine`, descending(entries), serverVersion);
  expect((await redis.dumpBuffer(`${prefix}:mine`))!.equals(dumped)).toBe(true);
});

it.each([
  ['small, short members (listpack)', 5, () => 12],
  ['small, one member too long for a listpack (skiplist)', 5, (i: number) => (i === 3 ? 100 : 12)],
  ['over 128 members (skiplist)', 129, () => 20],
  ['16,384 members and more (32-bit count)', 17_000, () => 18],
])('loads the set ZADD makes: %s', async (_, count, length) => {
  const entries = members(count, length);
  const zaddKey = `${prefix}:z:${count}:${length(3)}`;
  for (let i = 0; i < entries.length; i += 1000) {
    await redis.zadd(zaddKey, ...entries.slice(i, i + 1000).flatMap(([member, score]) => [score, member]));
  }
  const restoredKey = `${prefix}:r:${count}:${length(3)}`;
  await restore(restoredKey, descending(entries));
  expect(await redis.zrange(restoredKey, '0', '-1', 'WITHSCORES')).toEqual(await redis.zrange(zaddKey, '0', '-1', 'WITHSCORES'));
  expect(await redis.object('ENCODING', restoredKey)).toBe(await redis.object('ENCODING', zaddKey));
});

it('takes a member of 16,384 bytes and more (32-bit length)', async () => {
  const long = 'x'.repeat(20_000);
  await restore(`${prefix}:long`, descending([[long, 3], ['short', 1]]));
  expect(await redis.zrange(`${prefix}:long`, '0', '-1', 'WITHSCORES')).toEqual(['short', '1', long, '3']);
});

it('can be sent again (a resend after a lost connection): the set is the same', async () => {
  const entries = descending(members(200, () => 15));
  await restore(`${prefix}:again`, entries);
  await restore(`${prefix}:again`, entries);
  expect(await redis.zcard(`${prefix}:again`)).toBe(200);
});

it('a corrupted payload is refused, not loaded', async () => {
  const writer = new RespWriter(64);
  const { members, ids, scores } = descending([['a', 1]]);
  appendRestoreSortedSet(writer, `${prefix}:corrupt`, members, ids, scores);
  const bytes = writer.bytes();
  bytes[bytes.length - 20] ^= 0xff; // inside the payload, before the checksum
  const pipeline = redis.pipeline();
  queueEncoded(pipeline, writer);
  const [[error]] = (await pipeline.exec())!;
  expect(String(error)).toMatch(/payload|checksum/i);
  expect(await redis.exists(`${prefix}:corrupt`)).toBe(0);
});

it('tells whether the server accepts RESTORE, and leaves no probe key behind', async () => {
  expect(await restoreAccepted(redis, `${prefix}:probe`)).toBe(true);
  expect(await redis.exists(`${prefix}:probe`)).toBe(0);

  const user = `${prefix.replace(/[^a-z0-9]/gi, '')}-norestore`;
  await redis.acl('SETUSER', user, 'on', 'nopass', '~*', '&*', '+@all', '-restore');
  const limited = new Redis(REDIS_URL, { username: user, password: 'unused' });
  try {
    expect(await restoreAccepted(limited, `${prefix}:probe`)).toBe(false);
  } finally {
    limited.disconnect();
    await redis.acl('DELUSER', user);
  }
});
