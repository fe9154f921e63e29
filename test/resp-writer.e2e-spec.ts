import { Redis } from 'ioredis';
import { queueEncoded, RespWriter } from '../src/redis/resp-writer';
import { REDIS_URL, uniqueNamespace } from './support/harness';

/**
 * Bulk writes are encoded to bytes by RespWriter and sent through ioredis: what Redis stores must be
 * exactly what was written, whatever the characters (a UTF-8 length with more digits than the text's
 * length moves the text along), and each command keeps its own reply.
 */
const redis = new Redis(REDIS_URL);
const prefix = uniqueNamespace('resp');

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

const values = [
  '',
  'api',
  'x'.repeat(9),
  'x'.repeat(10),
  '中文',
  '向量数据库', // 5 characters, 15 bytes: one more digit
  '语'.repeat(33), // 33 characters, 99 bytes
  '语'.repeat(34), // 34 characters, 102 bytes: one more digit
  'déjà vu',
  'emoji 🚀 and 𠀋', // surrogate pairs: 4 bytes for 2 code units
  'line\r\nbreak $5\r\n*3',
  JSON.stringify({ name: 'OpenAI', nameCn: '开放人工智能', tags: ['语言模型', 'llm'] }).repeat(200),
];

it('stores every string, integer and number exactly as written, one reply per command', async () => {
  const writer = new RespWriter(16); // small, so the buffer grows many times
  values.forEach((value, i) => writer.begin('hset', `${prefix}:h`, 3).string(`f${i}`).string(value).end());
  const members: Array<[number, string]> = [
    [0, 'zero'],
    [-7, 'minus-seven'],
    [1234567890123, 'large'],
    [2.5, 'half'],
    [-0.125, 'negative-fraction'],
  ];
  writer.begin('zadd', `${prefix}:z`, 1 + members.length * 2);
  for (const [score, member] of members) writer.number(score).string(member);
  writer.end();
  writer.begin('zadd', `${prefix}:h`, 3).integer(1).string('wrong type').end();

  const pipeline = redis.pipeline();
  queueEncoded(pipeline, writer);
  const replies = (await pipeline.exec())!;
  expect(replies.slice(0, values.length)).toEqual(values.map(() => [null, 1]));
  expect(replies[values.length]).toEqual([null, members.length]);
  // An error stays the reply of its own command.
  expect(String(replies[values.length + 1][0])).toMatch(/WRONGTYPE/);

  const stored = await redis.hgetall(`${prefix}:h`);
  values.forEach((value, i) => expect(stored[`f${i}`]).toBe(value));
  const scored = await redis.zrange(`${prefix}:z`, '0', '-1', 'WITHSCORES');
  const byMember = new Map<string, number>();
  for (let i = 0; i < scored.length; i += 2) byMember.set(scored[i], Number(scored[i + 1]));
  for (const [score, member] of members) expect(byMember.get(member)).toBe(score);
});

it('encodes a repeated argument once and writes it as many times', async () => {
  const writer = new RespWriter();
  const slug = writer.encodeString('向量-db-😀');
  writer.begin('sadd', `${prefix}:s1`, 2).encoded(slug).end();
  writer.begin('sadd', `${prefix}:s2`, 2).encoded(slug).end();
  const pipeline = redis.pipeline();
  queueEncoded(pipeline, writer);
  expect(await pipeline.exec()).toEqual([
    [null, 1],
    [null, 1],
  ]);
  expect(await redis.smembers(`${prefix}:s1`)).toEqual(['向量-db-😀']);
  expect(await redis.smembers(`${prefix}:s2`)).toEqual(['向量-db-😀']);
});

it('writes a second pipeline over the memory of the first once that one is answered', async () => {
  const writer = new RespWriter(64);
  const first = redis.pipeline();
  writer.begin('set', `${prefix}:r1`, 2).string('first, and longer than what follows it').end();
  queueEncoded(first, writer);
  const text = (replies: Array<[Error | null, unknown]> | null) => replies!.map(([error, reply]) => [error, String(reply)]);
  expect(text(await first.exec())).toEqual([[null, 'OK']]);

  const second = redis.pipeline();
  writer.reset().begin('set', `${prefix}:r2`, 2).string('二').end();
  writer.begin('incr', `${prefix}:r3`, 1).end();
  queueEncoded(second, writer);
  // Only the second pipeline's commands are sent: no trailing bytes of the first one's.
  expect(text(await second.exec())).toEqual([
    [null, 'OK'],
    [null, '1'],
  ]);
  expect(await redis.mget(`${prefix}:r1`, `${prefix}:r2`, `${prefix}:r3`)).toEqual(['first, and longer than what follows it', '二', '1']);
});

it('stores a value given in parts of text and bytes exactly as their concatenation', async () => {
  const writer = new RespWriter(16);
  // Each case is a list of parts; their lengths cross the boundaries where the byte count gains a digit.
  const cases: Array<Array<string | Buffer>> = [
    [],
    ['"etag"\n', Buffer.from('{"a":1'), '}'],
    [Buffer.from('x'.repeat(5)), 'y'.repeat(4)], // 9 bytes
    [Buffer.from('ab'), '语语语'], // guessed 5, 11 bytes: one more digit
    ['语'.repeat(33), Buffer.from('')], // 99 bytes
    [Buffer.from('语'.repeat(20)), '语'.repeat(14)], // guessed 74, 102 bytes: one more digit
    [Buffer.from('🚀 𠀋'), 'line\r\nbreak $5\r\n*3', Buffer.from('语'.repeat(34))],
  ];
  cases.forEach((parts, i) => writer.begin('hset', `${prefix}:parts`, 3).string(`f${i}`).parts(parts).end());
  const pipeline = redis.pipeline();
  queueEncoded(pipeline, writer);
  expect(await pipeline.exec()).toEqual(cases.map(() => [null, 1]));
  const stored = await redis.hgetallBuffer(`${prefix}:parts`);
  cases.forEach((parts, i) => {
    const joined = Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)));
    expect(stored[`f${i}`].equals(joined)).toBe(true);
  });
});
