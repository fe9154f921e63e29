import type { ChainableCommander } from 'ioredis';
import { EncodedCommands, queueEncoded, RespWriter } from '../redis/resp-writer';

/** Largest number of members or fields sent in one command. */
const CHUNK = 1000;

/**
 * Collects the writes of a projection batch and sends them grouped by key: one ZADD per term with every
 * listing of the batch that has it, one HSET per hash with every field, and so on. A batch of 500 listings
 * sharing vocabulary becomes thousands of commands instead of tens of thousands.
 * Deletions go before additions; a batch never deletes and adds the same member of the same key.
 */
export class WriteBatch {
  /** Postings by term (the key is built once per term at flush, not once per posting). */
  private readonly termAdds = new Map<string, Array<string | number>>();
  private readonly termRems = new Map<string, string[]>();

  constructor(private readonly termKey: (term: string) => string = (term) => term) {}

  termZadd(term: string, score: number, slug: string): void {
    listOf(this.termAdds, term).push(score, slug);
  }
  termZrem(term: string, slug: string): void {
    listOf(this.termRems, term).push(slug);
  }

  private readonly zadds = new Map<string, Array<string | number>>();
  private readonly zrems = new Map<string, string[]>();
  private readonly hsets = new Map<string, Array<string>>();
  private readonly hdels = new Map<string, string[]>();
  private readonly sadds = new Map<string, string[]>();
  private readonly sets = new Map<string, string>();

  zadd(key: string, score: number, member: string): void {
    const list = listOf(this.zadds, key);
    list.push(score, member);
  }
  zrem(key: string, member: string): void {
    listOf(this.zrems, key).push(member);
  }
  hset(key: string, field: string, value: string): void {
    listOf(this.hsets, key).push(field, value);
  }
  hdel(key: string, field: string): void {
    listOf(this.hdels, key).push(field);
  }
  sadd(key: string, member: string): void {
    listOf(this.sadds, key).push(member);
  }
  set(key: string, value: string): void {
    this.sets.set(key, value);
  }

  /** Appends the grouped commands to a pipeline or transaction. */
  applyTo(tx: ChainableCommander): void {
    queueEncoded(tx, encodedWrites(this));
  }

  /** The grouped commands, encoded (deletions first). */
  encode(writer = new RespWriter()): RespWriter {
    for (const [term, members] of this.termRems) encodeGroups(writer, 'zrem', this.termKey(term), members, CHUNK);
    for (const [key, members] of this.zrems) encodeGroups(writer, 'zrem', key, members, CHUNK);
    for (const [key, fields] of this.hdels) encodeGroups(writer, 'hdel', key, fields, CHUNK);
    for (const [term, pairs] of this.termAdds) encodeGroups(writer, 'zadd', this.termKey(term), pairs, CHUNK * 2);
    for (const [key, pairs] of this.zadds) encodeGroups(writer, 'zadd', key, pairs, CHUNK * 2);
    for (const [key, pairs] of this.hsets) encodeGroups(writer, 'hset', key, pairs, CHUNK * 2);
    for (const [key, members] of this.sadds) encodeGroups(writer, 'sadd', key, members, CHUNK);
    for (const [key, value] of this.sets) {
      writer.begin('set', key, 2).string(value).end();
    }
    return writer;
  }
}

/** One command per `size` arguments: `name key arg...`. */
function encodeGroups(writer: RespWriter, name: string, key: string, args: Array<string | number>, size: number): void {
  for (let start = 0; start < args.length; start += size) {
    const end = Math.min(args.length, start + size);
    writer.begin(name, key, 1 + end - start);
    for (let i = start; i < end; i++) {
      const arg = args[i];
      if (typeof arg === 'string') writer.string(arg);
      else writer.number(arg);
    }
    writer.end();
  }
}

function listOf<T>(map: Map<string, T[]>, key: string): T[] {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  return list;
}

/** A batch's commands, encoded, for this thread (a view of the encoder's memory, not a copy). */
export function encodedWrites(batch: WriteBatch): EncodedCommands {
  const writer = batch.encode();
  return { bytes: writer.bytes(), ends: writer.ends, names: writer.names, keys: writer.keys };
}
