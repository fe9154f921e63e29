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
  private readonly zadds = new Map<string, Array<string | number>>();
  private readonly zrems = new Map<string, string[]>();
  private readonly hsets = new Map<string, Array<string>>();
  private readonly hdels = new Map<string, string[]>();
  private readonly sadds = new Map<string, string[]>();
  private readonly sets = new Map<string, string>();

  zadd(key: string, score: number, member: string): void {
    push(this.zadds, key, score, member);
  }
  zrem(key: string, member: string): void {
    push(this.zrems, key, member);
  }
  hset(key: string, field: string, value: string): void {
    push(this.hsets, key, field, value);
  }
  hdel(key: string, field: string): void {
    push(this.hdels, key, field);
  }
  sadd(key: string, member: string): void {
    push(this.sadds, key, member);
  }
  set(key: string, value: string): void {
    this.sets.set(key, value);
  }

  /** Appends the grouped commands to a transaction. */
  applyTo(tx: ChainableCommander): void {
    for (const [key, members] of this.zrems) for (const part of chunks(members, CHUNK)) tx.zrem(key, ...part);
    for (const [key, fields] of this.hdels) for (const part of chunks(fields, CHUNK)) tx.hdel(key, ...part);
    for (const [key, pairs] of this.zadds) for (const part of chunks(pairs, CHUNK * 2)) tx.zadd(key, ...part);
    for (const [key, pairs] of this.hsets) for (const part of chunks(pairs, CHUNK * 2)) tx.hset(key, ...part);
    for (const [key, members] of this.sadds) for (const part of chunks(members, CHUNK)) tx.sadd(key, ...part);
    for (const [key, value] of this.sets) tx.set(key, value);
  }
}

function push<T>(map: Map<string, T[]>, key: string, ...values: T[]): void {
  const list = map.get(key);
  if (list) list.push(...values);
  else map.set(key, values);
}

function chunks<T>(items: T[], size: number): T[][] {
  if (items.length <= size) return [items];
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
