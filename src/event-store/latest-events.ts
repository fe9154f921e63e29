import type { RedisClient } from '../redis/create-client';
import type { RedisKeys } from '../redis/redis-keys';
import type { RawEvent } from './event-envelope';

/**
 * The newest event at or before `upTo` of each of these aggregate streams (one script call each, pipelined),
 * not parsed, for rebuilds: every event carries its aggregate's whole document, so a rebuild needs no
 * other. Streams without such an event are left out.
 */
export async function readLatestEvents(client: RedisClient, keys: RedisKeys, streams: string[], upTo: string): Promise<RawEvent[]> {
  const replies = await Promise.all(streams.map((stream) => client.readLatest(keys.events, keys.aggregateEvents(stream), upTo)));
  const events: RawEvent[] = [];
  for (const reply of replies) if (reply.length === 2) events.push({ position: reply[0], json: reply[1] });
  return events;
}
