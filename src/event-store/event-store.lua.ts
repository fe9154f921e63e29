import type { Cluster, Redis } from 'ioredis';

/**
 * Appends events to one aggregate if its version is still the expected one, in one atomic step, and
 * records the digest of the aggregate's document after them as `version:digest` (or drops it: an append
 * that names no digest must never leave the previous one standing). The version in the record is a
 * second guard: a digest counts only while the aggregate is still at that version, whatever wrote since.
 * The first append of a store also records its identity (see RedisKeys.storeIdentity).
 * KEYS[1] global stream, KEYS[2] hash of aggregate versions, KEYS[3] list of the aggregate's stream ids,
 * KEYS[4] hash of content digests, KEYS[5] the store's identity, KEYS[6] list of the aggregate's event
 * summaries (`type|changedFields JSON`, for histories read without the documents).
 * ARGV[1] aggregate stream name, ARGV[2] expected version, ARGV[3] the document's digest ('' = none),
 * ARGV[4] an identity for a store that has none yet, then pairs of (event type, envelope JSON).
 * Returns {1, id...} on success, {0, actualVersion} on a version conflict.
 */
export const APPEND_EVENTS_LUA = `
local current = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
local expected = tonumber(ARGV[2])
if current ~= expected then
  return {0, current}
end
if redis.call('EXISTS', KEYS[5]) == 0 then
  redis.call('SET', KEYS[5], ARGV[4])
end
local result = {1}
local n = 0
-- The summaries list holds one line per event while it is whole (as long as the id list): kept whole, or
-- left as it is for an aggregate written before summaries were kept (a history read fills it in).
local summarised = redis.call('LLEN', KEYS[6]) == expected
for i = 5, #ARGV, 2 do
  n = n + 1
  local id = redis.call('XADD', KEYS[1], '*', 'type', ARGV[i], 'stream', ARGV[1], 'version', expected + n, 'event', ARGV[i + 1])
  redis.call('RPUSH', KEYS[3], id)
  if summarised then
    redis.call('RPUSH', KEYS[6], ARGV[i] .. '|' .. (string.match(ARGV[i + 1], '"changedFields":(%b[])') or ''))
  end
  result[#result + 1] = id
end
redis.call('HSET', KEYS[2], ARGV[1], expected + n)
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[4], ARGV[1], (expected + n) .. ':' .. ARGV[3])
else
  redis.call('HDEL', KEYS[4], ARGV[1])
end
return result
`;

/**
 * Records the digest of an aggregate's document as of a version, if the aggregate is still at that
 * version (for stores written before digests were kept, see EventStore.recordDigests).
 * KEYS[1] hash of aggregate versions, KEYS[2] hash of content digests; ARGV[1] aggregate stream name,
 * ARGV[2] version, ARGV[3] digest. Returns 1 when recorded, 0 when the aggregate has moved on.
 */
export const RECORD_DIGEST_LUA = `
if tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0') ~= tonumber(ARGV[2]) then
  return 0
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2] .. ':' .. ARGV[3])
return 1
`;

/**
 * What the reading scripts share, written once and put before each of them:
 * - `parse(id)`: a stream id's milliseconds and sequence;
 * - `lastIndex(hi, accepts)`: the last index from 0 to hi of the aggregate's id list (KEYS[2]) whose id
 *   `accepts` takes, by binary search (the list is in stream order), -1 when none is: about log2(n) LINDEX
 *   calls, so an aggregate of 10,000 versions is read as fast as one of ten;
 * - `envelopeOf(id)`: the event's envelope JSON in the global stream (KEYS[1]), nil when it is not there.
 */
const READ_HELPERS = `
local function parse(id)
  local dash = string.find(id, '-', 1, true)
  return tonumber(string.sub(id, 1, dash - 1)), tonumber(string.sub(id, dash + 1))
end
local function lastIndex(hi, accepts)
  local lo, found = 0, -1
  while lo <= hi do
    local mid = math.floor((lo + hi) / 2)
    if accepts(redis.call('LINDEX', KEYS[2], mid), mid) then
      found = mid
      lo = mid + 1
    else
      hi = mid - 1
    end
  end
  return found
end
local function envelopeOf(id)
  local entry = redis.call('XRANGE', KEYS[1], id, id)[1]
  if not entry then return nil end
  local fields = entry[2]
  for f = 1, #fields, 2 do
    if fields[f] == 'event' then return fields[f + 1] end
  end
  return nil
end
local function atOrBefore(position)
  local maxMs, maxSeq = parse(position)
  return function(id)
    local ms, seq = parse(id)
    return ms < maxMs or (ms == maxMs and seq <= maxSeq)
  end
end
`;

/**
 * Reads one aggregate's events in order: its id list, then each entry of the global stream.
 * KEYS[1] global stream, KEYS[2] list of the aggregate's stream ids. Returns {id, envelope JSON, ...}.
 */
export const READ_AGGREGATE_LUA = `${READ_HELPERS}
local out = {}
for _, id in ipairs(redis.call('LRANGE', KEYS[2], 0, -1)) do
  local envelope = envelopeOf(id)
  if envelope then
    out[#out + 1] = id
    out[#out + 1] = envelope
  end
end
return out
`;

/**
 * The newest event of one aggregate at or before a position of the global stream (for rebuilds: every
 * event carries the aggregate's full state, so the newest one is the aggregate), by binary search.
 * KEYS[1] global stream, KEYS[2] list of the aggregate's stream ids; ARGV[1] the position ('ms-seq').
 * Returns {id, envelope JSON} or an empty reply.
 */
export const READ_LATEST_LUA = `${READ_HELPERS}
local found = lastIndex(redis.call('LLEN', KEYS[2]) - 1, atOrBefore(ARGV[1]))
if found < 0 then return {} end
local id = redis.call('LINDEX', KEYS[2], found)
local envelope = envelopeOf(id)
if not envelope then return {} end
return {id, envelope}
`;

/**
 * The newest event of one aggregate that happened at or before a moment (its envelope's `occurredAt`), among
 * those at or before a position of the global stream. A binary search by position finds the last event
 * appended by the moment plus a margin (a writer stamps `occurredAt` just before Redis gives the event its
 * position); among those, a second one finds the last whose `occurredAt` is not after the moment
 * (occurredAt grows with the list: each append waits for the one before), reading one entry a step.
 * About 2 log2(n) LINDEX calls and log2(n) entries read, whatever the aggregate's length and however close
 * together its events were written.
 * KEYS[1] global stream, KEYS[2] list of the aggregate's stream ids; ARGV[1] the position ('ms-seq'),
 * ARGV[2] the moment (ISO 8601, UTC, as occurredAt is written), ARGV[3] the moment's milliseconds plus the
 * margin. Returns {id, envelope JSON} or an empty reply.
 */
export const READ_AT_MOMENT_LUA = `${READ_HELPERS}
local inLog = atOrBefore(ARGV[1])
local limitMs = tonumber(ARGV[3])
local found = lastIndex(redis.call('LLEN', KEYS[2]) - 1, function(id) return inLog(id) and parse(id) <= limitMs end)
local bestId, bestEnvelope = nil, nil
lastIndex(found, function(id)
  local envelope = envelopeOf(id)
  local occurredAt = envelope and string.match(envelope, '"occurredAt":"([^"]*)"')
  if not occurredAt or occurredAt > ARGV[2] then return false end
  bestId, bestEnvelope = id, envelope
  return true
end)
if not bestId then return {} end
return {bestId, bestEnvelope}
`;

/**
 * An aggregate's event ids and summaries (see APPEND_EVENTS_LUA), both lists whole: the summaries are
 * empty when they do not match the ids (an aggregate written before they were kept).
 * KEYS[1] list of the aggregate's stream ids, KEYS[2] its summaries. Returns {ids, summaries}.
 */
export const READ_SUMMARIES_LUA = `
local ids = redis.call('LRANGE', KEYS[1], 0, -1)
if redis.call('LLEN', KEYS[2]) ~= #ids then return {ids, {}} end
return {ids, redis.call('LRANGE', KEYS[2], 0, -1)}
`;

/**
 * Fills in an aggregate's summaries from what a full read found, if its events are still those read.
 * KEYS[1] list of the aggregate's stream ids, KEYS[2] its summaries; ARGV[1] the number of events read,
 * then the summaries. Returns 1 when written.
 */
export const WRITE_SUMMARIES_LUA = `
if redis.call('LLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return 0 end
redis.call('DEL', KEYS[2])
for i = 2, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
return 1
`;

/**
 * Some events of one aggregate by their index in its id list (0 = the first). KEYS[1] global stream,
 * KEYS[2] list of the aggregate's stream ids; ARGV the indexes. Returns {id, envelope JSON, ...} in order.
 */
export const READ_EVENTS_AT_LUA = `${READ_HELPERS}
local out = {}
for _, index in ipairs(ARGV) do
  local id = redis.call('LINDEX', KEYS[2], tonumber(index))
  local envelope = id and envelopeOf(id)
  if envelope then
    out[#out + 1] = id
    out[#out + 1] = envelope
  end
end
return out
`;

/** Registers the event store's scripts on a client (ioredis sends EVALSHA, with EVAL when Redis lacks one). */
export function defineEventStoreScripts(client: Redis | Cluster): void {
  client.defineCommand('appendEvents', { numberOfKeys: 6, lua: APPEND_EVENTS_LUA });
  client.defineCommand('readSummaries', { numberOfKeys: 2, lua: READ_SUMMARIES_LUA });
  client.defineCommand('writeSummaries', { numberOfKeys: 2, lua: WRITE_SUMMARIES_LUA });
  client.defineCommand('readEventsAt', { numberOfKeys: 2, lua: READ_EVENTS_AT_LUA });
  client.defineCommand('recordDigest', { numberOfKeys: 2, lua: RECORD_DIGEST_LUA });
  client.defineCommand('readAggregate', { numberOfKeys: 2, lua: READ_AGGREGATE_LUA });
  client.defineCommand('readLatest', { numberOfKeys: 2, lua: READ_LATEST_LUA });
  client.defineCommand('readAtMoment', { numberOfKeys: 2, lua: READ_AT_MOMENT_LUA });
}

type Arg = string | number;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    appendEvents(stream: string, versions: string, aggregate: string, digests: string, identity: string, summaries: string, ...args: Arg[]): Promise<Array<string | number>>;
    readSummaries(aggregate: string, summaries: string): Promise<[string[], string[]]>;
    writeSummaries(aggregate: string, summaries: string, count: number, ...summaryLines: string[]): Promise<number>;
    readEventsAt(stream: string, aggregate: string, ...indexes: number[]): Promise<string[]>;
    recordDigest(versions: string, digests: string, streamName: string, version: number, digest: string): Promise<number>;
    readAggregate(stream: string, aggregate: string): Promise<string[]>;
    readLatestBuffer(stream: string, aggregate: string, upTo: string): Promise<Buffer[]>;
    readLatest(stream: string, aggregate: string, upTo: string): Promise<string[]>;
    readAtMoment(stream: string, aggregate: string, upTo: string, moment: string, limitMs: number): Promise<string[]>;
  }
}
