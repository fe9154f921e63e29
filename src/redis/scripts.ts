import type { Cluster, Redis } from 'ioredis';
import { APPEND_EVENTS_LUA, READ_AGGREGATE_LUA, READ_LATEST_LUA, RECORD_DIGEST_LUA } from '../event-store/event-store.lua';

/** The Lua scripts of the service, registered on every client (EVALSHA with a fallback to EVAL). */
export function defineScripts(client: Redis | Cluster): void {
  client.defineCommand('appendEvents', { numberOfKeys: 4, lua: APPEND_EVENTS_LUA });
  client.defineCommand('recordDigest', { numberOfKeys: 2, lua: RECORD_DIGEST_LUA });
  client.defineCommand('readAggregate', { numberOfKeys: 2, lua: READ_AGGREGATE_LUA });
  client.defineCommand('readLatest', { numberOfKeys: 2, lua: READ_LATEST_LUA });
}

type Arg = string | number;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    appendEvents(stream: string, versions: string, aggregate: string, digests: string, ...args: Arg[]): Promise<Array<string | number>>;
    recordDigest(versions: string, digests: string, streamName: string, version: number, digest: string): Promise<number>;
    readAggregate(stream: string, aggregate: string): Promise<string[]>;
    readLatest(stream: string, aggregate: string, upTo: string): Promise<string[]>;
  }
}
