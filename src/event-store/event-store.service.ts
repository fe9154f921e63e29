import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { RedisConnection } from '../redis/redis-connection';
import type { DocumentAggregate } from './document-aggregate';
import { ConcurrencyConflictError, EventEnvelope, NewEvent, StoredEvent } from './event-envelope';
import { defineEventStoreScripts } from './event-store.lua';

export const EVENT_SCHEMA_VERSION = 1;

/** An identity for a store (see RedisKeys.storeIdentity): unique, and when it began. */
export function newStoreIdentity(): string {
  return `${randomUUID()} ${new Date().toISOString()}`;
}

/**
 * How much later than its occurredAt an event may have been given its position: the writer stamps the
 * time, then Redis appends (a round trip, or a wait behind other commands). A minute is far more than that.
 */
const OCCURRED_AT_MARGIN_MS = 60_000;

/** What an event of an aggregate's history was to a reader. */
export type HistoryKind = 'published' | 'revised' | 'withdrawn';

/** A page of an aggregate's history (EventStore.historyPage). */
export interface HistoryPage {
  /** Its events up to the position asked: the version it was at then (0: none). */
  versions: number;
  /** The kind of the last of them (null: none). */
  lastKind: HistoryKind | null;
  /** How many of them are changes a reader sees. */
  total: number;
  /** The version the next page starts below, or null on the last page. */
  nextBefore: number | null;
  /** The page's changes, newest first: each event's index (0 = the first), kind and position in the log. */
  changes: Array<{ index: number; kind: HistoryKind; position: string }>;
}

/** The events of a script's reply `{id, envelope JSON, ...}`, in its order. */
function storedEvents(reply: string[]): StoredEvent[] {
  const events: StoredEvent[] = [];
  for (let i = 0; i < reply.length; i += 2) events.push({ ...(JSON.parse(reply[i + 1]) as EventEnvelope), position: reply[i] });
  return events;
}

/**
 * The event store: one Redis stream holds every event in global order; a hash holds each aggregate's
 * version, another the digest of its current document; a list per aggregate holds the ids of its events.
 * Appends are atomic Lua scripts with an expected-version check. The stream is never trimmed.
 */
@Injectable()
export class EventStore {
  constructor(private readonly redis: RedisConnection) {
    defineEventStoreScripts(redis.client);
  }

  /**
   * Appends events to an aggregate whose current version must be `expectedVersion` (0 = new).
   * Throws ConcurrencyConflictError when another writer got there first. `contentDigest` is the
   * documentDigest of the aggregate's document after these events; null (withdrawn, or not known) drops
   * the recorded one, in the same atomic step.
   */
  async append(
    aggregateType: string,
    aggregateId: string,
    expectedVersion: number,
    events: NewEvent[],
    actor: string,
    contentDigest: string | null = null,
  ): Promise<StoredEvent[]> {
    if (events.length === 0) return [];
    const stream = streamName(aggregateType, aggregateId);
    const occurredAt = new Date().toISOString();
    const envelopes: EventEnvelope[] = events.map((event, i) => ({
      id: randomUUID(),
      type: event.type,
      aggregateType,
      aggregateId,
      version: expectedVersion + i + 1,
      occurredAt,
      actor,
      schemaVersion: EVENT_SCHEMA_VERSION,
      data: event.data,
    }));
    const args: string[] = [];
    for (const envelope of envelopes) args.push(envelope.type, JSON.stringify(envelope));
    const keys = this.redis.keys;
    const reply = await this.redis.client.appendEvents(
      keys.events,
      keys.versions,
      keys.aggregateEvents(stream),
      keys.contentDigests,
      keys.storeIdentity,
      keys.aggregateSummaries(stream),
      stream,
      expectedVersion,
      contentDigest ?? '',
      newStoreIdentity(),
      ...args,
    );
    if (Number(reply[0]) !== 1) {
      throw new ConcurrencyConflictError(stream, expectedVersion, Number(reply[1]));
    }
    return envelopes.map((envelope, i) => ({ ...envelope, position: String(reply[i + 1]) }));
  }

  /** All events of one aggregate, oldest first. */
  async readAggregate(aggregateType: string, aggregateId: string): Promise<StoredEvent[]> {
    const keys = this.redis.keys;
    const reply = await this.redis.client.readAggregate(
      keys.events,
      keys.aggregateEvents(streamName(aggregateType, aggregateId)),
    );
    return storedEvents(reply);
  }

  /**
   * One aggregate's newest event at or before `position` of the log ('+': now) and, with `moment`, that
   * happened by then (its occurredAt): null when there is none. Independent of the aggregate's length.
   */
  async latestEvent(aggregateType: string, aggregateId: string, position: string, moment?: string): Promise<StoredEvent | null> {
    const keys = this.redis.keys;
    const upTo = position === '+' ? `${Number.MAX_SAFE_INTEGER}-0` : position;
    const list = keys.aggregateEvents(streamName(aggregateType, aggregateId));
    const reply =
      moment === undefined
        ? await this.redis.client.readLatest(keys.events, list, upTo)
        : await this.redis.client.readAtMoment(keys.events, list, upTo, moment, Date.parse(moment) + OCCURRED_AT_MARGIN_MS);
    return storedEvents(reply)[0] ?? null;
  }

  /**
   * One page of an aggregate's history, newest first, worked out in Redis from its summaries (see
   * HISTORY_PAGE_LUA): a page costs the same at 10,000 versions as at 10, and only the page crosses the
   * wire. Events up to `upTo` only; a revision of `hidden` fields only is not a change a reader sees.
   */
  async historyPage(
    aggregateType: string,
    aggregateId: string,
    page: { upTo: string; before: number | null; limit: number; withdrawnType: string; hidden: readonly string[] },
  ): Promise<HistoryPage> {
    const keys = this.redis.keys;
    const stream = streamName(aggregateType, aggregateId);
    const reply = await this.redis.client.historyPage(keys.events, keys.aggregateEvents(stream), keys.aggregateSummaries(stream), keys.aggregateShown(stream), page.upTo, page.before ?? -1, page.limit, page.withdrawnType, ...page.hidden);
    const [count, last, total, nextBefore, ...rest] = reply;
    const changes: HistoryPage['changes'] = [];
    for (let i = 0; i < rest.length; i += 3) changes.push({ index: Number(rest[i]), kind: String(rest[i + 1]) as HistoryKind, position: String(rest[i + 2]) });
    return { versions: Number(count), lastKind: Number(count) === 0 ? null : (String(last) as HistoryKind), total: Number(total), nextBefore: Number(nextBefore) || null, changes };
  }

  /** Some events of one aggregate, by their index in its history (0 = the first), in the order asked. */
  async eventsAt(aggregateType: string, aggregateId: string, indexes: number[]): Promise<StoredEvent[]> {
    if (indexes.length === 0) return [];
    const keys = this.redis.keys;
    const reply = await this.redis.client.readEventsAt(keys.events, keys.aggregateEvents(streamName(aggregateType, aggregateId)), ...indexes);
    return storedEvents(reply);
  }

  /** The id of every aggregate of a type that has events (withdrawn ones too). */
  async aggregateIds(aggregateType: string): Promise<string[]> {
    const prefix = streamName(aggregateType, '');
    const streams = await this.redis.client.hkeys(this.redis.keys.versions);
    return streams.filter((stream) => stream.startsWith(prefix)).map((stream) => stream.slice(prefix.length));
  }

  /**
   * The documents of these aggregates as of `position` of the log (null for one withdrawn, or not
   * published by then): each from its aggregate's newest event at or before it (every event carries the
   * whole document). '+' means now. Pipelined: one script call per aggregate, in one round trip. The
   * replies are read as bytes and each turned into a string only to be parsed: strings from the Redis
   * client outlived the young generation's collections while the rest of the round trip came in, and
   * filled old space (see bench/README.md, the export's memory).
   */
  async documentsAt<D extends object>(aggregate: DocumentAggregate<D>, ids: string[], position: string): Promise<Map<string, D | null>> {
    const found = new Map<string, D | null>(ids.map((id) => [id, null]));
    // No event is at or before the start: asking Redis about every aggregate would learn nothing.
    if (position === START_POSITION || ids.length === 0) return found;
    const keys = this.redis.keys;
    const upTo = position === '+' ? `${Number.MAX_SAFE_INTEGER}-0` : position;
    const replies = await Promise.all(
      ids.map((id) => this.redis.client.readLatestBuffer(keys.events, keys.aggregateEvents(streamName(aggregate.aggregateType, id)), upTo)),
    );
    replies.forEach((reply, i) => {
      if (reply.length !== 2) return;
      const event = JSON.parse(reply[1].toString()) as EventEnvelope;
      found.set(ids[i], aggregate.documentAfter({ ...event, position: reply[0].toString() }));
    });
    return found;
  }

  /**
   * Every live document of one aggregate type as of `position` (see documentsAt), with its id, read a
   * thousand at a time (bounds memory and pipelines): in the order of the versions hash, or by id with
   * `sorted`.
   */
  async *documentsOfType<D extends object>(aggregate: DocumentAggregate<D>, position: string, { sorted = false } = {}): AsyncGenerator<[string, D]> {
    const ids = await this.aggregateIds(aggregate.aggregateType);
    if (sorted) ids.sort();
    for (const share of shares(ids)) {
      for (const [id, document] of await this.documentsAt(aggregate, share, position)) {
        if (document) yield [id, document];
      }
    }
  }

  /** Up to `count` events of the global stream strictly after `after` (START_POSITION = from the start), up to `upTo` ('+' = the end). */
  async readAll(after: string, count: number, upTo = '+'): Promise<StoredEvent[]> {
    const entries = (await this.redis.client.xrange(this.redis.keys.events, `(${after}`, upTo, 'COUNT', count)) as Array<
      [string, string[]]
    >;
    return entries.map(([id, fields]) => parseEntry(id, fields));
  }

  /** Up to `count` events of the global stream at or before `upTo`, newest first. */
  async readAllBackwards(upTo: string, count: number): Promise<StoredEvent[]> {
    const entries = (await this.redis.client.xrevrange(this.redis.keys.events, upTo, '-', 'COUNT', count)) as Array<[string, string[]]>;
    return entries.map(([id, fields]) => parseEntry(id, fields));
  }

  /** Whether the log holds an event at this position. */
  async has(position: string): Promise<boolean> {
    return (await this.redis.client.xrange(this.redis.keys.events, position, position, 'COUNT', 1)).length > 0;
  }

  /**
   * Waits up to `blockMs` for events after `after` on a dedicated connection, then returns them
   * (or nothing). Used by the projection runner so new events are applied as soon as they land.
   */
  async waitForEvents(
    client: RedisConnection['client'],
    after: string,
    count: number,
    blockMs: number,
  ): Promise<StoredEvent[]> {
    const reply = (await client.xread('COUNT', count, 'BLOCK', blockMs, 'STREAMS', this.redis.keys.events, after)) as
      | Array<[string, Array<[string, string[]]>]>
      | null;
    if (!reply) return [];
    return reply[0][1].map(([id, fields]) => parseEntry(id, fields));
  }

  /** Position of the newest event, or START_POSITION when the store is empty. */
  async lastPosition(): Promise<string> {
    return (await this.head()).position;
  }

  /** The newest position and the number of events, read together. */
  async head(): Promise<{ position: string; count: number }> {
    const reply = await this.redis.client.multi().xrevrange(this.redis.keys.events, '+', '-', 'COUNT', 1).xlen(this.redis.keys.events).exec();
    const entries = reply![0][1] as Array<[string, string[]]>;
    return { position: entries.length > 0 ? entries[0][0] : START_POSITION, count: Number(reply![1][1]) };
  }

  async count(): Promise<number> {
    return this.redis.client.xlen(this.redis.keys.events);
  }

  /** Current version of every aggregate, by aggregate type, from one read of the versions hash. */
  async versionsByType(): Promise<Map<string, Map<string, number>>> {
    return byType(await this.redis.client.hgetall(this.redis.keys.versions), Number);
  }

  /**
   * Every aggregate's version and, where one is recorded, the digest of its document with the version it
   * was recorded at, by aggregate type, read together (one transaction). A digest describes the current
   * document only when its version is the aggregate's version.
   */
  async versionsAndDigests(): Promise<{ versions: Map<string, Map<string, number>>; digests: Map<string, Map<string, RecordedDigest>> }> {
    const keys = this.redis.keys;
    const reply = await this.redis.client.multi().hgetall(keys.versions).hgetall(keys.contentDigests).exec();
    if (!reply) throw new Error('event store: the read of versions and digests was aborted');
    for (const [error] of reply) if (error) throw error;
    return {
      versions: byType(reply[0][1] as Record<string, string>, Number),
      digests: byType(reply[1][1] as Record<string, string>, recordedDigest),
    };
  }

  /**
   * Records the digests of documents found equal to what the store holds, each as of the version it was
   * compared with (an aggregate that has moved on since is left alone). Stores written before digests
   * were kept gain them this way, on their first import. Returns how many were recorded.
   */
  async recordDigests(items: Array<{ aggregateType: string; aggregateId: string; version: number; digest: string }>): Promise<number> {
    const keys = this.redis.keys;
    let recorded = 0;
    // A thousand at a time: a first import of a large store records one per document.
    for (let start = 0; start < items.length; start += 1000) {
      const replies = await Promise.all(
        items
          .slice(start, start + 1000)
          .map(({ aggregateType, aggregateId, version, digest }) =>
            this.redis.client.recordDigest(keys.versions, keys.contentDigests, streamName(aggregateType, aggregateId), version, digest),
          ),
      );
      recorded += replies.filter((reply) => Number(reply) === 1).length;
    }
    return recorded;
  }
}

/** The digest of an aggregate's document, and the version of the aggregate it was recorded at. */
export interface RecordedDigest {
  version: number;
  digest: string;
}

/** A digest as the digests hash holds it: 'version:digest'. */
function recordedDigest(raw: string): RecordedDigest {
  const cut = raw.indexOf(':');
  return { version: Number(raw.slice(0, cut)), digest: raw.slice(cut + 1) };
}

/** A hash keyed by aggregate stream name ('type:id'), split by aggregate type. */
function byType<T>(hash: Record<string, string>, value: (raw: string) => T): Map<string, Map<string, T>> {
  const result = new Map<string, Map<string, T>>();
  for (const [stream, raw] of Object.entries(hash)) {
    const cut = stream.indexOf(':');
    const type = stream.slice(0, cut);
    let ofType = result.get(type);
    if (!ofType) result.set(type, (ofType = new Map()));
    ofType.set(stream.slice(cut + 1), value(raw));
  }
  return result;
}

export function streamName(aggregateType: string, aggregateId: string): string {
  return `${aggregateType}:${aggregateId}`;
}

function parseEntry(id: string, fields: string[]): StoredEvent {
  return { ...(JSON.parse(eventField(id, fields)) as EventEnvelope), position: id };
}

function eventField(id: string, fields: string[]): string {
  for (let i = 0; i < fields.length; i += 2) if (fields[i] === 'event') return fields[i + 1];
  throw new Error(`event store entry ${id} has no 'event' field`);
}

/** The position before the first event of the log: the checkpoint of nothing applied, the cursor of the whole feed. */
export const START_POSITION = '0-0';

/** Compares two stream ids ('ms-seq'); negative when a < b. */
export function comparePositions(a: string, b: string): number {
  const [am, as] = a.split('-').map(Number);
  const [bm, bs] = b.split('-').map(Number);
  return am !== bm ? am - bm : as - bs;
}

/** `items` a thousand at a time: how documents are read from the event store (bounds memory and pipelines). */
export function* shares<T>(items: T[], size = 1000): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
