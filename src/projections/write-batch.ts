import type { ChainableCommander } from 'ioredis';

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

  /** Appends the grouped commands to a transaction. */
  applyTo(tx: ChainableCommander): void {
    for (const [term, members] of this.termRems) for (const part of chunks(members, CHUNK)) tx.zrem(this.termKey(term), ...part);
    for (const [key, members] of this.zrems) for (const part of chunks(members, CHUNK)) tx.zrem(key, ...part);
    for (const [key, fields] of this.hdels) for (const part of chunks(fields, CHUNK)) tx.hdel(key, ...part);
    for (const [term, pairs] of this.termAdds) for (const part of chunks(pairs, CHUNK * 2)) tx.zadd(this.termKey(term), ...part);
    for (const [key, pairs] of this.zadds) for (const part of chunks(pairs, CHUNK * 2)) tx.zadd(key, ...part);
    for (const [key, pairs] of this.hsets) for (const part of chunks(pairs, CHUNK * 2)) tx.hset(key, ...part);
    for (const [key, members] of this.sadds) for (const part of chunks(members, CHUNK)) tx.sadd(key, ...part);
    for (const [key, value] of this.sets) tx.set(key, value);
  }
}

function listOf<T>(map: Map<string, T[]>, key: string): T[] {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  return list;
}

function chunks<T>(items: T[], size: number): T[][] {
  if (items.length <= size) return [items];
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
