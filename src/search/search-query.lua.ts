/**
 * One search in one round trip. KEYS[1] is the hash-tag base of a read-model generation ("{ns:gN}"); every
 * key the script touches is built from it, so all live in one slot (Redis Cluster safe).
 * ARGV[1] is a JSON request built by search-query.ts:
 *   { clauses: [{ alts: [{ w, terms: [{ t, p, f }] }] }], category, limit, k1, pq, fq, tolerance, common }
 * A clause is one concept of the query (a word, or a phrase with its synonyms); an alternative matches when
 * all its terms match; a term matches exactly, as a prefix (p = 1) or within f edits (symmetric deletion).
 * Ranking: clauses matched (desc), then BM25-style score (desc), where scores within `tolerance` of their
 * group's best count as a tie that popularity breaks, then slug.
 * Terms found in more than `common` listings only score the candidates of rarer terms, so a query reads a
 * bounded part of the index however large the catalog; `total` is then a lower bound.
 * Reply: { total, explainJson, slug, score, mask, summaryJson, ... } for the first `limit` results, where
 * explainJson says, per clause, alternative and term, which index terms matched and how (exact, prefix, fuzzy).
 */
export const SEARCH_QUERY_LUA = `
local base = KEYS[1]
local req = cjson.decode(ARGV[1])
local limit = tonumber(req.limit)
local browse = base .. ':browse'
local filter = nil
if type(req.category) == 'string' then filter = base .. ':browse:' .. req.category end

local function emit(total, rows, notes)
  local out = {total, notes}
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
  return emit(redis.call('ZCARD', key), rows, '[]')
end

local N = redis.call('ZCARD', browse)
local k1 = tonumber(req.k1)
-- Terms in more than \`common\` listings are not read whole: they score the candidates that rarer terms
-- found (ZMSCORE), and only when every term is that common do their best postings make the candidates.
local common = tonumber(req.common)
local cache = {}
local function term(t)
  local p = cache[t]
  if p == nil then
    local n = redis.call('ZCARD', base .. ':t:' .. t)
    p = { key = base .. ':t:' .. t, n = n, idf = math.log(1 + (N - n + 0.5) / (n + 0.5)), docs = nil }
    cache[t] = p
  end
  return p
end
local function fetch(p, top)
  if p.docs == nil then
    local flat
    if top then
      flat = redis.call('ZRANGE', p.key, 0, common - 1, 'REV', 'WITHSCORES')
    else
      flat = redis.call('ZRANGE', p.key, 0, -1, 'WITHSCORES')
    end
    local docs = {}
    for i = 1, #flat, 2 do docs[flat[i]] = tonumber(flat[i + 1]) end
    p.docs = docs
  end
  return p.docs
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
  local exact = term(t)
  -- {term, quality, kind, idf override}: completions of a word that is itself indexed are weighed with
  -- that word's idf, so a rare completion ("apiv3") cannot outrank the word the user typed ("api")
  local list = {{t, 1.0, 'exact'}}
  local seen = {[t] = true}
  if spec.p == 1 then
    local damp = (exact.n > 0) and 0.5 or 1
    local more = redis.call('ZRANGEBYLEX', base .. ':terms', '[' .. t, '[' .. t .. '\\255', 'LIMIT', 0, 64)
    for _, x in ipairs(more) do
      if not seen[x] then
        seen[x] = true
        list[#list + 1] = {x, tonumber(req.pq) * damp * #t / #x, 'prefix', (exact.n > 0) and exact.idf or nil}
      end
    end
  end
  local maxd = tonumber(spec.f or 0)
  if maxd > 0 and exact.n == 0 then
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
            list[#list + 1] = {c, tonumber(req.fq[d + 1]), 'fuzzy'}  -- fq = {exact, one edit, two edits}
          end
        end
      end
    end
  end
  return list
end

-- Resolve every term of every alternative to its expansions, and collect candidates from the selective ones.
local plan = {}
local candidates, candidateList = {}, {}
local commonOnly = {}
local function addCandidates(docs)
  for slug in pairs(docs) do
    if not candidates[slug] then
      candidates[slug] = true
      candidateList[#candidateList + 1] = slug
    end
  end
end
for c, clause in ipairs(req.clauses) do
  plan[c] = {}
  for a, alt in ipairs(clause.alts) do
    plan[c][a] = {}
    for i, spec in ipairs(alt.terms) do
      local list = {}
      for _, e in ipairs(expansions(spec)) do
        local p = term(e[1])
        if p.n > 0 then
          list[#list + 1] = {p = p, quality = e[2], kind = e[3], idf = e[4] or p.idf, t = e[1]}
          if p.n <= common then addCandidates(fetch(p, false)) else commonOnly[#commonOnly + 1] = p end
        end
      end
      plan[c][a][i] = list
    end
  end
end
if #candidateList == 0 then
  for _, p in ipairs(commonOnly) do addCandidates(fetch(p, true)) end
end

-- Scores of many members of a sorted set (nil where absent), 1000 per ZMSCORE (Lua's unpack has limits).
local function scoresOf(key, members)
  local out = {}
  for from = 1, #members, 1000 do
    local chunk = {}
    for k = from, math.min(from + 999, #members) do chunk[#chunk + 1] = members[k] end
    local scores = redis.call('ZMSCORE', key, unpack(chunk))
    for k = 1, #chunk do out[from + k - 1] = scores[k] end
  end
  return out
end

-- The encoded posting (weighted frequency and field mask) of a common term for every candidate.
local function candidatePostings(p)
  if p.docs == nil and p.n > common then
    local docs = {}
    local scores = scoresOf(p.key, candidateList)
    for k = 1, #candidateList do
      if scores[k] then docs[candidateList[k]] = tonumber(scores[k]) end
    end
    p.docs = docs
  end
  return fetch(p, false)
end

-- what each term matched as, for the response's interpretation: explain[clause][alt][term] = {kind = {terms}}
local explain = {}
local function termMatches(list, note)
  local res = {}
  for _, e in ipairs(list) do
    local kinds = note[e.kind]
    if not kinds then
      kinds = {}
      note[e.kind] = kinds
    end
    if #kinds < 8 then kinds[#kinds + 1] = e.t end
    for slug, enc in pairs(candidatePostings(e.p)) do
      if candidates[slug] then
        local mask = enc % 1024
        local tf = math.floor(enc / 1024) / 100
        local s = e.quality * e.idf * tf * (k1 + 1) / (tf + k1)
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

local function altMatches(termLists, altNotes)
  local acc = nil
  for i, list in ipairs(termLists) do
    altNotes[i] = {}
    local m = termMatches(list, altNotes[i])
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
for c, clause in ipairs(req.clauses) do
  local best = {}
  explain[c] = {}
  for a, alt in ipairs(clause.alts) do
    local weight = tonumber(alt.w or 1) / #alt.terms
    explain[c][a] = {}
    for slug, v in pairs(altMatches(plan[c][a], explain[c][a])) do
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

local tolerance = tonumber(req.tolerance)
local rows = {}
for slug, d in pairs(docs) do rows[#rows + 1] = {slug, d[1], d[2], d[3]} end
if filter then
  local slugs, kept = {}, {}
  for k, r in ipairs(rows) do slugs[k] = r[1] end
  local inCategory = scoresOf(filter, slugs)
  for k, r in ipairs(rows) do
    if inCategory[k] then kept[#kept + 1] = r end
  end
  rows = kept
end
table.sort(rows, function(a, b)
  if a[2] ~= b[2] then return a[2] > b[2] end
  if a[3] ~= b[3] then return a[3] > b[3] end
  return a[1] < b[1]
end)
local pops = {}
local function popularity(slug)
  local p = pops[slug]
  if p == nil then
    p = -(tonumber(redis.call('ZSCORE', browse, slug)) or 0)
    pops[slug] = p
  end
  return p
end
local function byPopularity(a, b)
  local pa, pb = popularity(a[1]), popularity(b[1])
  if pa ~= pb then return pa > pb end
  if a[3] ~= b[3] then return a[3] > b[3] end
  return a[1] < b[1]
end
-- Ties: listings that match as many clauses and score within \`tolerance\` of the best of their group (or
-- within 5 x tolerance in absolute terms, for words so common they carry no information) are equally
-- relevant; popularity orders them. Only the groups that reach the first \`limit\` are ordered.
local top = {}
local i = 1
while i <= #rows and #top < limit do
  local lead = rows[i]
  local j = i
  local floor = lead[3] - math.max(lead[3] * tolerance, tolerance * 5)
  while j < #rows and rows[j + 1][2] == lead[2] and rows[j + 1][3] >= floor do j = j + 1 end
  local group = {}
  for k = i, j do group[#group + 1] = rows[k] end
  table.sort(group, byPopularity)
  for _, r in ipairs(group) do
    if #top < limit then top[#top + 1] = {r[1], string.format('%.3f', r[3]), r[4]} end
  end
  i = j + 1
end
return emit(#rows, top, cjson.encode(explain))
`;
