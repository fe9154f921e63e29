import type { RedisClient } from './create-client';
import { queueEncoded, RespWriter } from './resp-writer';

/**
 * Sorted sets written whole with RESTORE, in the serialized form Redis's own DUMP gives (RDB type
 * "zset 2": the member count, then each member and its score as a binary double, then the RDB version and
 * a CRC-64 of it all).
 *
 * Why: a rebuild writes about 100 index postings per listing. Added with ZADD, Redis spends 2.4-4 us on
 * each member of a large set (parsing the score, a lookup, then a skiplist insert among the members
 * already there); loaded by RESTORE, with the dictionary sized up front and the members coming from the
 * greatest to the smallest (each insert stops at the head of the skiplist), 0.4 us. For the 10.8 million
 * postings of 100,127 listings that is 5 s of Redis's single thread instead of 42 s.
 *
 * The result is the same sorted set: Redis keeps small ones (up to zset-max-listpack-entries) in its
 * compact encoding after loading, exactly as it does after ZADD. The payload uses RDB version 9
 * (Redis 6.2); Redis refuses only payloads newer than itself, so every later version reads it. Servers
 * that refuse RESTORE (an ACL, a renamed command) are detected by `restoreAccepted` and written with ZADD.
 */
export const PAYLOAD_RDB_VERSION = 9;
const RDB_TYPE_ZSET_2 = 5;

/** One member: its bytes, and its score. Entries must come from the greatest (score, member) down. */
export interface SortedSetEntries {
  count: number;
  member(i: number): Uint8Array;
  score(i: number): number;
}

/** Appends `RESTORE key 0 <payload>` for a new sorted set (the key must not exist). */
export function appendRestoreSortedSet(writer: RespWriter, key: string, entries: SortedSetEntries, version = PAYLOAD_RDB_VERSION): void {
  let length = 1 + lengthSize(entries.count) + 2 + 8;
  for (let i = 0; i < entries.count; i++) {
    const size = entries.member(i).length;
    length += lengthSize(size) + size + 8;
  }
  writer.begin('restore', key, 3).integer(0);
  writer.raw(length, (buffer, start) => {
    let at = start;
    buffer[at++] = RDB_TYPE_ZSET_2;
    at = writeLength(buffer, at, entries.count);
    for (let i = 0; i < entries.count; i++) {
      const member = entries.member(i);
      at = writeLength(buffer, at, member.length);
      for (let b = 0; b < member.length; b++) buffer[at++] = member[b];
      buffer.writeDoubleLE(entries.score(i), at);
      at += 8;
    }
    buffer.writeUInt16LE(version, at);
    at += 2;
    writeCrc64(buffer, start, at);
  });
  writer.end();
}

/**
 * Whether this server takes our payloads: restores a one-member set into `probeKey` (then deletes it).
 * False when RESTORE is refused for any reason (ACL, renamed command, a server that does not read them).
 */
export async function restoreAccepted(client: RedisClient, probeKey: string): Promise<boolean> {
  const writer = new RespWriter();
  const member = Buffer.from('probe');
  appendRestoreSortedSet(writer, probeKey, { count: 1, member: () => member, score: () => 1 });
  try {
    await client.del(probeKey);
    const pipeline = client.pipeline();
    queueEncoded(pipeline, writer);
    const [[error]] = (await pipeline.exec())!;
    if (error) return false;
    return (await client.zscore(probeKey, 'probe')) === '1';
  } catch {
    return false;
  } finally {
    await client.del(probeKey).catch(() => undefined);
  }
}

/** Bytes of an RDB length: 6, 14 or 32 bits with a 2-bit tag. */
function lengthSize(value: number): number {
  return value < 1 << 6 ? 1 : value < 1 << 14 ? 2 : 5;
}

function writeLength(buffer: Buffer, at: number, value: number): number {
  if (value < 1 << 6) {
    buffer[at] = value;
    return at + 1;
  }
  if (value < 1 << 14) {
    buffer[at] = 0x40 | (value >> 8);
    buffer[at + 1] = value & 0xff;
    return at + 2;
  }
  buffer[at] = 0x80;
  buffer.writeUInt32BE(value, at + 1);
  return at + 5;
}

/**
 * CRC-64 as Redis computes it (Jones polynomial, reflected, initial value 0), over buffer[start, end),
 * written little-endian after it. Table-driven on two 32-bit halves (no BigInt in the loop).
 */
function writeCrc64(buffer: Buffer, start: number, end: number): void {
  let lo = 0;
  let hi = 0;
  for (let i = start; i < end; i++) {
    const index = (lo ^ buffer[i]) & 0xff;
    const shiftedLo = ((lo >>> 8) | (hi << 24)) >>> 0;
    lo = (shiftedLo ^ CRC_LO[index]) >>> 0;
    hi = ((hi >>> 8) ^ CRC_HI[index]) >>> 0;
  }
  buffer.writeUInt32LE(lo, end);
  buffer.writeUInt32LE(hi, end + 4);
}

/** CRC-64 of bytes (for tests: Redis's check value of "123456789" is e9c6d914c4b8d9ca). */
export function crc64(bytes: Uint8Array): bigint {
  const buffer = Buffer.alloc(bytes.length + 8);
  buffer.set(bytes);
  writeCrc64(buffer, 0, bytes.length);
  return buffer.readBigUInt64LE(bytes.length);
}

const { CRC_LO, CRC_HI } = (() => {
  const reflectedPolynomial = 0x95ac9329ac4bc9b5n; // 0xad93d23594c935a9, bit-reversed
  const lo = new Uint32Array(256);
  const hi = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = BigInt(i);
    for (let bit = 0; bit < 8; bit++) crc = crc & 1n ? (crc >> 1n) ^ reflectedPolynomial : crc >> 1n;
    lo[i] = Number(crc & 0xffffffffn);
    hi[i] = Number(crc >> 32n);
  }
  return { CRC_LO: lo, CRC_HI: hi };
})();
