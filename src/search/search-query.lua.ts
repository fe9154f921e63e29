/**
 * One search in one round trip. KEYS[1] is the hash-tag base of a read-model generation ("{ns:gN}"); every
 * key the script touches is built from it, so all live in one slot (Redis Cluster safe).
 * ARGV[1] is a JSON request built by search-query.ts:
 *   { clauses: [{ alts: [{ w, terms: [{ t, p, f }] }] }], category, limit, k1, pq, fq, precision }
 * A clause is one concept of the query (a word, or a phrase with its synonyms); an alternative matches when
 * all its terms match; a term matches exactly, as a prefix (p = 1) or within f edits (symmetric deletion).
 * Ranking: clauses matched (desc), BM25-style score rounded to `precision` (desc), popularity (desc), slug.
 * Reply: { total, slug, score, mask, summaryJson, ... } for the first `limit` results.
 */
export const SEARCH_QUERY_LUA = `
local base = KEYS[1]
local req = cjson.decode(ARGV[1])
local limit = tonumber(req.limit)
local browse = base .. ':browse'
local filter = nil
if type(req.category) == 'string' then filter = base .. ':browse:' .. req.category end

local function emit(total, rows)
  local out = {total}
  if #rows == 0 then return out end
  local slugs = {}
  for i, r in ipairs(rows) do slugs[i] = r[1] end
  local summaries = redis.call('HMGET', base .. ':summary', unpack(slugs))
  for i, r in ipairs(rows) do
    out[#out + 1] = r[1]
    out[#out + 1] = r[2]
    out[#out + 1] = r[3]
    out[#out + 1] = summaries[i] or ''
  end
  return out
end

if #req.clauses == 0 then
  local key = filter or browse
  local slugs = redis.call('ZRANGE', key, 0, limit - 1)
  local rows = {}
  for i, s in ipairs(slugs) do rows[i] = {s, '0', 0} end
  return emit(redis.call('ZCARD', key), rows)
end

local N = redis.call('ZCARD', browse)
local k1 = tonumber(req.k1)
local cache = {}
local function postings(term)
  local p = cache[term]
  if p == nil then
    local flat = redis.call('ZRANGE', base .. ':t:' .. term, 0, -1, 'WITHSCORES')
    local docs = {}
    for i = 1, #flat, 2 do docs[flat[i]] = tonumber(flat[i + 1]) end
    local n = #flat / 2
    p = { docs = docs, n = n, idf = math.log(1 + (N - n + 0.5) / (n + 0.5)) }
    cache[term] = p
  end
  return p
end

-- optimal string alignment distance (edits: insert, delete, substitute, swap neighbours), nil above maxd
local function distance(a, b, maxd)
  local la, lb = #a, #b
  if math.abs(la - lb) > maxd then return nil end
  local before, prev = nil, {}
  for j = 0, lb do prev[j] = j end
  for i = 1, la do
    local cur = {[0] = i}
    local rowmin = i
    local ai = string.byte(a, i)
    for j = 1, lb do
      local bj = string.byte(b, j)
      local v = math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + ((ai == bj) and 0 or 1))
      if before and j > 1 and ai == string.byte(b, j - 1) and string.byte(a, i - 1) == bj then
        v = math.min(v, before[j - 2] + 1)
      end
      cur[j] = v
      if v < rowmin then rowmin = v end
    end
    if rowmin > maxd then return nil end
    before, prev = prev, cur
  end
  if prev[lb] > maxd then return nil end
  return prev[lb]
end

local function expansions(spec)
  local t = spec.t
  local list = {{t, 1.0}}
  local seen = {[t] = true}
  if spec.p == 1 then
    local more = redis.call('ZRANGEBYLEX', base .. ':terms', '[' .. t, '[' .. t .. '\\255', 'LIMIT', 0, 64)
    for _, x in ipairs(more) do
      if not seen[x] then
        seen[x] = true
        list[#list + 1] = {x, tonumber(req.pq)}
      end
    end
  end
  local maxd = tonumber(spec.f or 0)
  if maxd > 0 then
    local variants = {[t] = true}
    local frontier = {t}
    for _ = 1, maxd do
      local nextFrontier = {}
      for _, w in ipairs(frontier) do
        for i = 1, #w do
          local v = string.sub(w, 1, i - 1) .. string.sub(w, i + 1)
          if not variants[v] then
            variants[v] = true
            nextFrontier[#nextFrontier + 1] = v
          end
        end
      end
      frontier = nextFrontier
    end
    for v in pairs(variants) do
      local candidates = redis.call('SMEMBERS', base .. ':del:' .. v)
      if v ~= t and redis.call('ZSCORE', base .. ':terms', v) then candidates[#candidates + 1] = v end
      for _, c in ipairs(candidates) do
        if not seen[c] then
          local d = distance(t, c, maxd)
          if d and d > 0 then
            seen[c] = true
            list[#list + 1] = {c, tonumber(req.fq[d])}
          end
        end
      end
    end
  end
  return list
end

local function termMatches(spec)
  local res = {}
  for _, e in ipairs(expansions(spec)) do
    local p = postings(e[1])
    if p.n > 0 then
      for slug, enc in pairs(p.docs) do
        local mask = enc % 1024
        local tf = math.floor(enc / 1024) / 100
        local s = e[2] * p.idf * tf * (k1 + 1) / (tf + k1)
        local cur = res[slug]
        if not cur then
          res[slug] = {s, mask}
        else
          if s > cur[1] then cur[1] = s end
          cur[2] = bit.bor(cur[2], mask)
        end
      end
    end
  end
  return res
end

local function altMatches(alt)
  local acc = nil
  for _, spec in ipairs(alt.terms) do
    local m = termMatches(spec)
    if acc == nil then
      acc = m
    else
      local joined = {}
      for slug, v in pairs(acc) do
        local w = m[slug]
        if w then joined[slug] = {v[1] + w[1], bit.bor(v[2], w[2])} end
      end
      acc = joined
    end
  end
  return acc or {}
end

local docs = {}
for _, clause in ipairs(req.clauses) do
  local best = {}
  for _, alt in ipairs(clause.alts) do
    local weight = tonumber(alt.w or 1) / #alt.terms
    for slug, v in pairs(altMatches(alt)) do
      local s = v[1] * weight
      local b = best[slug]
      if not b then
        best[slug] = {s, v[2]}
      else
        if s > b[1] then b[1] = s end
        b[2] = bit.bor(b[2], v[2])
      end
    end
  end
  for slug, v in pairs(best) do
    local d = docs[slug]
    if not d then
      docs[slug] = {1, v[1], v[2]}
    else
      d[1] = d[1] + 1
      d[2] = d[2] + v[1]
      d[3] = bit.bor(d[3], v[2])
    end
  end
end

local precision = tonumber(req.precision)
local rows = {}
for slug, d in pairs(docs) do
  if (not filter) or redis.call('ZSCORE', filter, slug) then
    rows[#rows + 1] = {slug, d[1], math.floor(d[2] * precision + 0.5), d[3], d[2]}
  end
end
local pops = {}
local function popularity(slug)
  local p = pops[slug]
  if p == nil then
    p = -(tonumber(redis.call('ZSCORE', browse, slug)) or 0)
    pops[slug] = p
  end
  return p
end
table.sort(rows, function(a, b)
  if a[2] ~= b[2] then return a[2] > b[2] end
  if a[3] ~= b[3] then return a[3] > b[3] end
  local pa, pb = popularity(a[1]), popularity(b[1])
  if pa ~= pb then return pa > pb end
  return a[1] < b[1]
end)
local top = {}
for i = 1, math.min(limit, #rows) do
  local r = rows[i]
  top[i] = {r[1], string.format('%.3f', r[5]), r[4]}
end
return emit(#rows, top)
`;
