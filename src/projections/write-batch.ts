import type { ChainableCommander } from 'ioredis';
import { queueEncoded, RespWriter } from '../redis/resp-writer';

/** Largest number of members or fields sent in one command. */
const CHUNK = 1000;

/**
 * Collects the writes of a projection batch and sends them grouped by key: one ZADD per term with every
 * listing of the batch that has it, one HSET per hash with every field, and so on. A batch of 500 listings
 * sharing vocabulary becomes thousands of commands instead of tens of thousands.
 * Deletions go before additions; a batch never deletes and adds the same member of the same key.
 */
export class WriteBatch {
  /**
   * Postings by term, as (score, listing number) pairs: numbers only, and each listing's slug is encoded
   * once for all its postings (a listing has about 150). The key is built once per term, at encoding.
   */
  private readonly termAdds = new Map<string, number[]>();
  private readonly termRems = new Map<string, string[]>();
  private readonly postingSlugs: string[] = [];
  private readonly slugNumbers = new Map<string, number>();
  /** The slug of the last posting and its number: a listing's postings come one after another. */
  private lastSlug: string | null = null;
  private lastSlugNumber = -1;

  constructor(private readonly termKey: (term: string) => string = (term) => term) {}

  termZadd(term: string, score: number, slug: string): void {
    if (slug !== this.lastSlug) {
      let n = this.slugNumbers.get(slug);
      if (n === undefined) {
        n = this.postingSlugs.push(slug) - 1;
        this.slugNumbers.set(slug, n);
      }
      this.lastSlug = slug;
      this.lastSlugNumber = n;
    }
    let pairs = this.termAdds.get(term);
    if (!pairs) this.termAdds.set(term, (pairs = []));
    pairs.push(score, this.lastSlugNumber);
  }
  termZrem(term: string, slug: string): void {
    listOf(this.termRems, term).push(slug);
  }

  private readonly zadds = new Map<string, Array<string | number>>();
  private readonly zrems = new Map<string, string[]>();
  private readonly hsets = new Map<string, Array<HashValue>>();
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
  hset(key: string, field: string, value: HashValue): void {
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

  /**
   * Appends the grouped commands to a pipeline or transaction, encoded into `writer` (a fresh one by
   * default; a reused one must not be written again before the pipeline is answered).
   */
  applyTo(tx: ChainableCommander, writer = new RespWriter()): void {
    queueEncoded(tx, this.encode(writer));
  }

  /** The grouped commands, encoded (deletions first). */
  encode(writer = new RespWriter()): RespWriter {
    for (const [term, members] of this.termRems) encodeGroups(writer, 'zrem', this.termKey(term), members, CHUNK);
    for (const [key, members] of this.zrems) encodeGroups(writer, 'zrem', key, members, CHUNK);
    for (const [key, fields] of this.hdels) encodeGroups(writer, 'hdel', key, fields, CHUNK);
    if (this.termAdds.size > 0) {
      const slugs = this.postingSlugs.map((slug) => writer.encodeString(slug));
      for (const [term, pairs] of this.termAdds) {
        const key = this.termKey(term);
        for (let start = 0; start < pairs.length; start += CHUNK * 2) {
          const end = Math.min(pairs.length, start + CHUNK * 2);
          writer.begin('zadd', key, 1 + end - start);
          for (let i = start; i < end; i += 2) writer.integer(pairs[i]).encoded(slugs[pairs[i + 1]]);
          writer.end();
        }
      }
    }
    for (const [key, pairs] of this.zadds) encodeGroups(writer, 'zadd', key, pairs, CHUNK * 2);
    for (const [key, pairs] of this.hsets) encodeGroups(writer, 'hset', key, pairs, CHUNK * 2);
    for (const [key, members] of this.sadds) encodeGroups(writer, 'sadd', key, members, CHUNK);
    for (const [key, value] of this.sets) {
      writer.begin('set', key, 2).string(value).end();
    }
    return writer;
  }
}

/** A hash field's value: text, or consecutive parts of text and bytes sent as one value (RespWriter.parts). */
export type HashValue = string | ReadonlyArray<string | Uint8Array>;

/** One command per `size` arguments: `name key arg...`. */
function encodeGroups(writer: RespWriter, name: string, key: string, args: Array<HashValue | number>, size: number): void {
  for (let start = 0; start < args.length; start += size) {
    const end = Math.min(args.length, start + size);
    writer.begin(name, key, 1 + end - start);
    for (let i = start; i < end; i++) {
      const arg = args[i];
      if (typeof arg === 'string') writer.string(arg);
      else if (typeof arg === 'number') writer.number(arg);
      else writer.parts(arg);
    }
    writer.end();
  }
}

function listOf<T>(map: Map<string, T[]>, key: string): T[] {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  return list;
}
