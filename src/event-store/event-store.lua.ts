import type { Cluster, Redis } from 'ioredis';

/**
 * An event's summary line, `type|changedFields` (the JSON list as the envelope writes it; nothing after the
 * bar when the event names none): what a history reads instead of the event. Written once, put before the
 * scripts that write it (the append, and the history that fills in an older aggregate's).
 */
const SUMMARY_LINE = `
local function summaryLine(eventType, envelope)
  return eventType .. '|' .. (string.match(envelope, '"changedFields":(%b[])') or '')
end
`;

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
export const APPEND_EVENTS_LUA = `${SUMMARY_LINE}
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
    redis.call('RPUSH', KEYS[6], summaryLine(ARGV[i], ARGV[i + 1]))
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
 * - `fieldsOf(id)` and `envelopeOf(id)`: the fields of the event's entry in the global stream (KEYS[1])
 *   by name (type, stream, version, event), and its envelope JSON; nil when it is not there;
 * - `withEnvelopes(ids)`: `{id, envelope JSON, ...}` of those ids whose event is there (an id may be false).
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
local function fieldsOf(id)
  local entry = redis.call('XRANGE', KEYS[1], id, id)[1]
  if not entry then return nil end
  local fields = {}
  for f = 1, #entry[2], 2 do fields[entry[2][f]] = entry[2][f + 1] end
  return fields
end
local function envelopeOf(id)
  local fields = fieldsOf(id)
  return fields and fields.event
end
local function withEnvelopes(ids)
  local out = {}
  for _, id in ipairs(ids) do
    local envelope = id and envelopeOf(id)
    if envelope then
      out[#out + 1] = id
      out[#out + 1] = envelope
    end
  end
  return out
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
return withEnvelopes(redis.call('LRANGE', KEYS[2], 0, -1))
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
 * One page of an aggregate's history, newest first, from its summaries alone, worked out where they are:
 * each event up to a position of the global stream is published (the first, or the first after a
 * withdrawal), revised or withdrawn, which its own line and the one before it tell; a revision of hidden
 * fields only is not shown. The count of shown events is kept beside the summaries (KEYS[4]: how many
 * lines it has read, the count, the last kind, and the rule it read them by), so a request reads the lines
 * appended since and the page's own, never the whole history: a page costs the same at 100,000 versions as
 * at 10.
 * KEYS[1] global stream, KEYS[2] list of the aggregate's stream ids, KEYS[3] its summaries, KEYS[4] its
 * count of shown events; ARGV[1] the position ('ms-seq'), ARGV[2] the version the page starts below (-1:
 * from the newest), ARGV[3] the limit, ARGV[4] the withdrawal's event type, then the hidden field names.
 * An aggregate written before summaries were kept has them written first, from its events (one long call,
 * once). Returns {events up to the position, the last one's kind, shown count, next version to start below (0: none),
 * then index (0 = first), kind, stream id for each change of the page}.
 */
export const HISTORY_PAGE_LUA = `${READ_HELPERS}${SUMMARY_LINE}
local n = redis.call('LLEN', KEYS[2])
-- An aggregate written before summaries were kept: its summaries are written now, from its events, once.
if redis.call('LLEN', KEYS[3]) ~= n then
  redis.call('DEL', KEYS[3], KEYS[4])
  for _, id in ipairs(redis.call('LRANGE', KEYS[2], 0, -1)) do
    local fields = fieldsOf(id) or {}
    redis.call('RPUSH', KEYS[3], summaryLine(fields.type or '', fields.event or ''))
  end
end
local count = lastIndex(n - 1, atOrBefore(ARGV[1])) + 1
if count == 0 then return {0, '', 0, 0} end
local hidden, quoted = {}, {}
for i = 5, #ARGV do
  hidden[ARGV[i]] = true
  quoted[#quoted + 1] = '"' .. ARGV[i] .. '"'
end
local withdrawal = ARGV[4] .. '|'
local rule = withdrawal .. table.concat(quoted, ',')
local function withdrawn(line) return string.sub(line, 1, #withdrawal) == withdrawal end
-- A line's kind (by the line before it, nil for the first) and whether a reader sees it: a revision is
-- hidden only if each field it changed is (most name none, found by a plain search).
local function classify(line, before)
  if withdrawn(line) then return 'withdrawn', true end
  if before == nil or withdrawn(before) then return 'published', true end
  local bar = string.find(line, '|', 1, true)
  local names = false
  for _, name in ipairs(quoted) do
    if string.find(line, name, bar, true) then names = true break end
  end
  if not names and bar ~= #line - 2 then return 'revised', true end
  for field in string.gmatch(string.sub(line, bar + 1), '"([^"]+)"') do
    if not hidden[field] then return 'revised', true end
  end
  return 'revised', false
end
-- The count: from the one kept, adding the lines appended since; from the start when it was kept by
-- another rule, or for more lines than the position shows (a checkpoint behind the log: not kept then).
local kept = redis.call('HMGET', KEYS[4], 'lines', 'total', 'last', 'rule')
local done, total, last, previous = 0, 0, nil, nil
if kept[4] == rule and tonumber(kept[1]) and tonumber(kept[1]) <= count then
  done, total, last = tonumber(kept[1]), tonumber(kept[2]), kept[3]
  if done > 0 then previous = redis.call('LINDEX', KEYS[3], done - 1) end
end
if done < count then
  for _, line in ipairs(redis.call('LRANGE', KEYS[3], done, count - 1)) do
    local kind, shown = classify(line, previous)
    if shown then total = total + 1 end
    last, previous = kind, line
  end
  if count == n then redis.call('HSET', KEYS[4], 'lines', count, 'total', total, 'last', last, 'rule', rule) end
end
-- The page: lines read a window at a time, from the newest below the version asked for, down.
local before = tonumber(ARGV[2])
local from = count
if before >= 0 and before - 1 < count then from = before - 1 end
local limit = tonumber(ARGV[3])
local page, taken, nextBefore = {}, 0, 0
local top = from
while top >= 1 and nextBefore == 0 do
  local bottom = math.max(1, top - limit)
  -- One line more than the window, below it, tells the window's lowest line its kind.
  local lines = redis.call('LRANGE', KEYS[3], math.max(0, bottom - 2), top - 1)
  local offset = bottom - 1 - math.max(0, bottom - 2)
  for i = top, bottom, -1 do
    local kind, shown = classify(lines[i - bottom + 1 + offset], lines[i - bottom + offset])
    if shown then
      if taken == limit then nextBefore = page[#page - 2] + 1 break end
      page[#page + 1] = i - 1
      page[#page + 1] = kind
      page[#page + 1] = redis.call('LINDEX', KEYS[2], i - 1)
      taken = taken + 1
    end
  end
  top = bottom - 1
end
local reply = {count, last, total, nextBefore}
for _, value in ipairs(page) do reply[#reply + 1] = value end
return reply
`;

/**
 * Some events of one aggregate by their index in its id list (0 = the first). KEYS[1] global stream,
 * KEYS[2] list of the aggregate's stream ids; ARGV the indexes. Returns {id, envelope JSON, ...} in order.
 */
export const READ_EVENTS_AT_LUA = `${READ_HELPERS}
local ids = {}
for i, index in ipairs(ARGV) do ids[i] = redis.call('LINDEX', KEYS[2], tonumber(index)) end
return withEnvelopes(ids)
`;

/** Registers the event store's scripts on a client (ioredis sends EVALSHA, with EVAL when Redis lacks one). */
export function defineEventStoreScripts(client: Redis | Cluster): void {
  client.defineCommand('appendEvents', { numberOfKeys: 6, lua: APPEND_EVENTS_LUA });
  client.defineCommand('historyPage', { numberOfKeys: 4, lua: HISTORY_PAGE_LUA });
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
    historyPage(stream: string, aggregate: string, summaries: string, shown: string, upTo: string, before: number, limit: number, withdrawnType: string, ...hidden: string[]): Promise<Array<string | number>>;
    readEventsAt(stream: string, aggregate: string, ...indexes: number[]): Promise<string[]>;
    recordDigest(versions: string, digests: string, streamName: string, version: number, digest: string): Promise<number>;
    readAggregate(stream: string, aggregate: string): Promise<string[]>;
    readLatestBuffer(stream: string, aggregate: string, upTo: string): Promise<Buffer[]>;
    readLatest(stream: string, aggregate: string, upTo: string): Promise<string[]>;
    readAtMoment(stream: string, aggregate: string, upTo: string, moment: string, limitMs: number): Promise<string[]>;
  }
}
