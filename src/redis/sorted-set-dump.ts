import { endianness } from 'node:os';
import { ReplyError } from 'ioredis';
import type { RedisClient } from './create-client';
import { RespWriter, sendEncoded } from './resp-writer';

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
 * (that of Redis 5 and 6); Redis refuses only payloads newer than itself, so every later version reads it. Servers
 * that refuse RESTORE (an ACL, a renamed command) are detected by `restoreAccepted` and written with ZADD.
 */
export const PAYLOAD_RDB_VERSION = 9;
const RDB_TYPE_ZSET_2 = 5;

/**
 * Members as payloads hold them (each its RDB length, then its bytes), encoded once for every set they
 * are in, side by side in one block: a rebuild reads them in no particular order millions of times, and one
 * object per member cost a cache miss or two at each read.
 */
export class PayloadMembers {
  readonly bytes: Uint8Array;
  readonly starts: Int32Array;

  constructor(members: Uint8Array[]) {
    this.starts = new Int32Array(members.length + 1);
    let size = 0;
    members.forEach((member, i) => {
      this.starts[i] = size;
      size += lengthSize(member.length) + member.length;
    });
    this.starts[members.length] = size;
    const bytes = Buffer.allocUnsafe(size);
    members.forEach((member, i) => bytes.set(member, writeLength(bytes, this.starts[i], member.length)));
    this.bytes = bytes;
  }
}

/**
 * Appends `RESTORE key 0 <payload> REPLACE`: the sorted set of member `ids[i]` of `members` with score
 * `scores[i]`, for i from 0 to count - 1, from the greatest (score, member) down. REPLACE makes it safe to
 * send again (ioredis resends what a lost connection left unanswered).
 */
export function appendRestoreSortedSet(
  writer: RespWriter,
  key: string,
  members: PayloadMembers,
  ids: ArrayLike<number>,
  scores: ArrayLike<number>,
  count = ids.length,
  version = PAYLOAD_RDB_VERSION,
): void {
  const { bytes, starts } = members;
  let length = 1 + lengthSize(count) + 2 + 8 + 8 * count;
  for (let i = 0; i < count; i++) length += starts[ids[i] + 1] - starts[ids[i]];
  writer.begin('restore', key, 4).integer(0);
  writer.raw(length, (buffer, start) => {
    let at = start;
    buffer[at++] = RDB_TYPE_ZSET_2;
    at = writeLength(buffer, at, count);
    for (let i = 0; i < count; i++) {
      const id = ids[i];
      for (let b = starts[id], end = starts[id + 1]; b < end; b++) buffer[at++] = bytes[b];
      DOUBLE[0] = scores[i];
      for (let b = 0; b < 8; b++) buffer[at++] = DOUBLE_BYTES[LITTLE_ENDIAN ? b : 7 - b];
    }
    buffer[at++] = version & 0xff;
    buffer[at++] = version >> 8;
    writeCrc64(buffer, start, at);
  });
  writer.string('REPLACE').end();
}

/** A double's bytes, in the machine's order: payloads hold them little-endian. */
const DOUBLE = new Float64Array(1);
const DOUBLE_BYTES = new Uint8Array(DOUBLE.buffer);
const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * Whether this server takes our payloads: restores a one-member set into `probeKey` (then deletes it).
 * False when Redis answers that it refuses them (an ACL, a renamed or disabled command, a payload it cannot
 * read); any other failure (a lost connection) is thrown, not taken for a refusal.
 */
export async function restoreAccepted(client: RedisClient, probeKey: string): Promise<boolean> {
  const writer = new RespWriter();
  appendRestoreSortedSet(writer, probeKey, new PayloadMembers([Buffer.from('probe')]), Int32Array.of(0), Float64Array.of(1));
  try {
    await sendEncoded(client, writer);
    return (await client.zscore(probeKey, 'probe')) === '1';
  } catch (error) {
    if (error instanceof ReplyError) return false;
    throw error;
  } finally {
    await client.del(probeKey);
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
 * written little-endian after it. Eight bytes a step with eight tables ("slicing by 8", as Redis's own
 * crcspeed does), each entry as two signed 32-bit halves (no BigInt in the loop, and every value stays a
 * small integer for V8).
 */
function writeCrc64(buffer: Buffer, start: number, end: number): void {
  let lo = 0;
  let hi = 0;
  let i = start;
  for (; i + 8 <= end; i += 8) {
    const a = lo ^ (buffer[i] | (buffer[i + 1] << 8) | (buffer[i + 2] << 16) | (buffer[i + 3] << 24));
    const b = hi ^ (buffer[i + 4] | (buffer[i + 5] << 8) | (buffer[i + 6] << 16) | (buffer[i + 7] << 24));
    const t7 = 7 * 256 + (a & 0xff);
    const t6 = 6 * 256 + ((a >>> 8) & 0xff);
    const t5 = 5 * 256 + ((a >>> 16) & 0xff);
    const t4 = 4 * 256 + (a >>> 24);
    const t3 = 3 * 256 + (b & 0xff);
    const t2 = 2 * 256 + ((b >>> 8) & 0xff);
    const t1 = 256 + ((b >>> 16) & 0xff);
    const t0 = b >>> 24;
    lo = CRC_LO[t7] ^ CRC_LO[t6] ^ CRC_LO[t5] ^ CRC_LO[t4] ^ CRC_LO[t3] ^ CRC_LO[t2] ^ CRC_LO[t1] ^ CRC_LO[t0];
    hi = CRC_HI[t7] ^ CRC_HI[t6] ^ CRC_HI[t5] ^ CRC_HI[t4] ^ CRC_HI[t3] ^ CRC_HI[t2] ^ CRC_HI[t1] ^ CRC_HI[t0];
  }
  for (; i < end; i++) {
    const index = (lo ^ buffer[i]) & 0xff;
    lo = ((lo >>> 8) | (hi << 24)) ^ CRC_LO[index];
    hi = (hi >>> 8) ^ CRC_HI[index];
  }
  buffer.writeInt32LE(lo, end);
  buffer.writeInt32LE(hi, end + 4);
}

/** CRC-64 of bytes (for tests: Redis's check value of "123456789" is e9c6d914c4b8d9ca). */
export function crc64(bytes: Uint8Array): bigint {
  const buffer = Buffer.alloc(bytes.length + 8);
  buffer.set(bytes);
  writeCrc64(buffer, 0, bytes.length);
  return buffer.readBigUInt64LE(bytes.length);
}

/** Table k (entries 256k to 256k + 255): the CRC of byte i followed by k zero bytes. */
const { CRC_LO, CRC_HI } = (() => {
  const reflectedPolynomial = 0x95ac9329ac4bc9b5n; // 0xad93d23594c935a9, bit-reversed
  const table: bigint[] = [];
  for (let i = 0; i < 256; i++) {
    let crc = BigInt(i);
    for (let bit = 0; bit < 8; bit++) crc = crc & 1n ? (crc >> 1n) ^ reflectedPolynomial : crc >> 1n;
    table.push(crc);
  }
  for (let k = 1; k < 8; k++) {
    for (let i = 0; i < 256; i++) {
      const previous = table[(k - 1) * 256 + i];
      table.push((previous >> 8n) ^ table[Number(previous & 0xffn)]);
    }
  }
  return {
    CRC_LO: Int32Array.from(table, (crc) => Number(BigInt.asIntN(32, crc))),
    CRC_HI: Int32Array.from(table, (crc) => Number(BigInt.asIntN(32, crc >> 32n))),
  };
})();
