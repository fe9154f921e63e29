/**
 * One search in one round trip. KEYS[1] is the hash-tag base of a read-model generation ("{ns:gN}"); every
 * key the script touches is built from it, so all live in one slot (Redis Cluster safe).
 * ARGV[1] is a JSON request built by search-query.ts:
 *   { clauses: [{ alts: [{ w, terms: [{ t, p, f }] }] }], category, limit, k1, pq, fq, tolerance, common, top }
 * A clause is one concept of the query (a word, or a phrase with its synonyms); an alternative matches when
 * all its terms match; a term matches exactly, as a prefix (p = 1) or within f edits (symmetric deletion).
 * Ranking: clauses matched (desc), then BM25-style score (desc), where scores within `tolerance` of their
 * group's best count as a tie that popularity breaks, then slug.
 * Terms found in more than `common` listings are not read whole: each alternative takes its candidates from
 * its most selective term (a common term gives its best postings, page by page, until `top` of them are in
 * the category and have the alternative's other terms), the most popular listings join them (popularity
 * orders equals), and they are scored from what was read, ZMSCORE filling in what a candidate needs, so a
 * query reads a bounded part of the index however large the catalog; `total` is then a lower bound.
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
-- Terms in more than \`common\` listings are not read whole (see the candidates below).
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

-- Resolve every term of every alternative to its expansions.
local plan = {}
for c, clause in ipairs(req.clauses) do
  plan[c] = {}
  for a, alt in ipairs(clause.alts) do
    plan[c][a] = {}
    for i, spec in ipairs(alt.terms) do
      local list = {}
      for _, e in ipairs(expansions(spec)) do
        local p = term(e[1])
        if p.n > 0 then list[#list + 1] = {p = p, quality = e[2], kind = e[3], idf = e[4] or p.idf, t = e[1]} end
      end
      plan[c][a][i] = list
    end
  end
end

-- Scores of many members of a sorted set (false where absent), 1000 per ZMSCORE (Lua's unpack has limits).
local function scoresOf(key, members)
  if #members == 0 then return {} end
  if #members <= 1000 then return redis.call('ZMSCORE', key, unpack(members)) end
  local out = {}
  for from = 1, #members, 1000 do
    local chunk = {}
    for k = from, math.min(from + 999, #members) do chunk[#chunk + 1] = members[k] end
    local scores = redis.call('ZMSCORE', key, unpack(chunk))
    for k = 1, #chunk do out[from + k - 1] = scores[k] end
  end
  return out
end

-- The whole posting list of a rare term: slug -> encoded posting.
local function fetchAll(p)
  if p.docs == nil then
    local flat = redis.call('ZRANGE', p.key, 0, -1, 'WITHSCORES')
    local docs, slugs = {}, {}
    for i = 1, #flat, 2 do
      docs[flat[i]] = tonumber(flat[i + 1])
      slugs[(i + 1) / 2] = flat[i]
    end
    p.docs, p.slugs = docs, slugs
  end
  return p.docs
end
-- Postings of a common term read so far: slug -> encoded posting, or false where the term is absent.
local function known(p)
  if p.known == nil then p.known = {} end
  return p.known
end
-- Reads (ZMSCORE) a common term's postings for the listings of \`slugs\` not read yet.
-- (Loops over listings here and below count with numbers: ipairs and # cost a call or a search per step.)
local function lookup(p, slugs)
  if p.n <= common then return end
  local seen = known(p)
  local missing, n = {}, 0
  for k = 1, #slugs do
    local slug = slugs[k]
    if seen[slug] == nil then
      n = n + 1
      missing[n] = slug
    end
  end
  if n == 0 then return end
  local scores = scoresOf(p.key, missing)
  for k = 1, n do
    local score = scores[k]
    seen[missing[k]] = score and tonumber(score) or false
  end
end

-- Term specs of each alternative, most selective (fewest postings) first; nil for one that cannot match.
-- Every expansion carries the table its postings are found in: a rare term's whole list, or what was read
-- of a common term (false there: the listing lacks the term; nil: not read yet).
local order = {}
for c, clause in ipairs(req.clauses) do
  order[c] = {}
  for a, alt in ipairs(clause.alts) do
    local specs = {}
    local possible = true
    for i, list in ipairs(plan[c][a]) do
      local n = 0
      for _, e in ipairs(list) do
        n = n + e.p.n
        e.factor = e.quality * e.idf
        if e.p.n <= common then e.postings = fetchAll(e.p) else e.postings = known(e.p) end
      end
      if #list == 0 then possible = false end
      specs[i] = {i = i, n = n}
    end
    if possible and #specs > 0 then
      table.sort(specs, function(x, y) if x.n ~= y.n then return x.n < y.n end return x.i < y.i end)
      specs.weight = tonumber(alt.w or 1) / #specs
      order[c][a] = specs
    end
  end
end
-- The same, flat, for the loops that score and test listings: per clause, the alternatives that can match,
-- each the list of its terms' expansions, most selective first.
local matchers = {}
for c in ipairs(req.clauses) do
  matchers[c] = {}
  for a = 1, #plan[c] do
    local specs = order[c][a]
    if specs then
      local lists = {weight = specs.weight}
      for k = 1, #specs do lists[k] = plan[c][a][specs[k].i] end
      matchers[c][#matchers[c] + 1] = lists
    end
  end
end

-- Scoring and membership tests run tens of thousands of times per query: clauseScore is written out as loops
-- (a Lua function call costs more than the lookup it would wrap), membership tests (has and those built on it)
-- compute no score, and scoring leaves field masks to the page's listings (clauseMask).
-- A listing's score for a clause, from what was read: that of its best alternative (an alternative scores the
-- mean of its terms' best expansions, times its weight); nil if it matches none.
local function clauseScore(c, slug)
  local best = nil
  local alts = matchers[c]
  for a = 1, #alts do
    local lists = alts[a]
    local sum = 0
    for k = 1, #lists do
      local list, s = lists[k], nil
      for x = 1, #list do
        local e = list[x]
        local enc = e.postings[slug]
        if enc then
          local tf = (enc - enc % 1024) / 102400  -- the high part is the frequency times 100
          local v = e.factor * tf * (k1 + 1) / (tf + k1)
          if s == nil or v > s then s = v end
        end
      end
      if s == nil then
        sum = nil
        break
      end
      sum = sum + s
    end
    if sum then
      sum = sum * lists.weight
      if best == nil or sum > best then best = sum end
    end
  end
  return best
end
-- Whether a listing has a term (any of its expansions), from what was read.
local function has(list, slug)
  for k = 1, #list do
    if list[k].postings[slug] then return true end
  end
  return false
end
-- The listings of \`slugs\` that have a term, and how many they are.
local function having(list, slugs)
  local out, n = {}, 0
  for k = 1, #slugs do
    if has(list, slugs[k]) then
      n = n + 1
      out[n] = slugs[k]
    end
  end
  return out, n
end
-- Whether a listing has every term of an alternative, from what was read.
local function altHas(lists, slug)
  for k = 1, #lists do
    if not has(lists[k], slug) then return false end
  end
  return true
end
-- Whether a listing matches a clause (has every term of one of its alternatives), from what was read.
local function clauseHas(c, slug)
  local alts = matchers[c]
  for a = 1, #alts do
    if altHas(alts[a], slug) then return true end
  end
  return false
end
-- The fields a listing matches a clause in: those of every alternative it matches (for the page only).
local function clauseMask(c, slug)
  local mask = 0
  for _, lists in ipairs(matchers[c]) do
    if altHas(lists, slug) then
      for _, list in ipairs(lists) do
        for _, e in ipairs(list) do mask = bit.bor(mask, (e.postings[slug] or 0) % 1024) end
      end
    end
  end
  return mask
end
-- Reads what an alternative needs to be scored for \`slugs\`, most selective term first, so the other terms
-- are read only for the listings that have the ones before; returns the listings that have them all.
local function readAlt(c, a, slugs)
  local specs = order[c][a]
  if not specs then return {} end
  for _, spec in ipairs(specs) do
    local list = plan[c][a][spec.i]
    for _, e in ipairs(list) do lookup(e.p, slugs) end
    local n
    slugs, n = having(list, slugs)
    if n == 0 then break end
  end
  return slugs
end

-- Candidates: a listing matches an alternative only if it has every term of it, so each alternative
-- contributes listings of its most selective term: the whole posting list when the term is rare, else its
-- best postings, read page by page (\`top\` at a time, \`common\` at most) until \`top\` of them are in the
-- category and have the alternative's other terms.
local top = tonumber(req.top)
local candidates, candidateList = {}, {}
local inFilter = {}
-- The listings of \`slugs\` that are in the category (all of them without one).
local function keep(slugs)
  if not filter then return slugs end
  local fresh = {}
  for _, slug in ipairs(slugs) do
    if inFilter[slug] == nil then fresh[#fresh + 1] = slug end
  end
  local scores = scoresOf(filter, fresh)
  for k, slug in ipairs(fresh) do inFilter[slug] = scores[k] and true or false end
  local kept = {}
  for _, slug in ipairs(slugs) do
    if inFilter[slug] then kept[#kept + 1] = slug end
  end
  return kept
end
local function addCandidates(slugs)
  local n = #candidateList
  for k = 1, #slugs do
    local slug = slugs[k]
    if not candidates[slug] then
      candidates[slug] = true
      n = n + 1
      candidateList[n] = slug
    end
  end
end
local usedBest = false
local function addBestPostings(p, accept)
  usedBest = true
  local seen = known(p)
  local found, from = 0, 0
  repeat
    local flat = redis.call('ZRANGE', p.key, from, from + top - 1, 'REV', 'WITHSCORES')
    local slugs = {}
    for i = 1, #flat, 2 do
      seen[flat[i]] = tonumber(flat[i + 1])
      slugs[(i + 1) / 2] = flat[i]
    end
    local kept = accept(slugs)
    addCandidates(kept)
    found = found + #kept
    from = from + top
  until found >= top or from >= p.n or from >= common
end
for c, clause in ipairs(req.clauses) do
  for a in ipairs(clause.alts) do
    local specs = order[c][a]
    if specs then
      local accept = keep
      if #specs > 1 then accept = function(slugs) return readAlt(c, a, keep(slugs)) end end
      for _, e in ipairs(plan[c][a][specs[1].i]) do
        if e.p.n <= common then addCandidates(accept(e.p.slugs)) else addBestPostings(e.p, accept) end
      end
    end
  end
end

-- What is read beyond the candidates' own postings: a listing that a term of an alternative brought in is
-- checked for that alternative's other terms; with several clauses, a listing with no match known in a
-- clause is checked against that clause (the number of clauses matched ranks first). A single-term
-- alternative needs nothing more: a listing among the best of the query is among the best postings of
-- the alternative it scores best through, so the postings read already give its score.
for c, clause in ipairs(req.clauses) do
  for a in ipairs(clause.alts) do
    local specs = order[c][a]
    if specs and #specs > 1 then
      readAlt(c, a, (having(plan[c][a][specs[1].i], candidateList)))
    end
  end
end
-- Among listings that score alike (a word found in thousands of listings), popularity decides, and the best
-- postings of a common term say nothing about popularity: the most popular listings (in the category) are
-- candidates too, checked against every alternative.
if usedBest then
  local popular = redis.call('ZRANGE', filter or browse, 0, top - 1)
  addCandidates(popular)
  for c, clause in ipairs(req.clauses) do
    for a in ipairs(clause.alts) do readAlt(c, a, popular) end
  end
end
if #req.clauses > 1 then
  for c, clause in ipairs(req.clauses) do
    local unknown, n = {}, 0
    for k = 1, #candidateList do
      if not clauseHas(c, candidateList[k]) then
        n = n + 1
        unknown[n] = candidateList[k]
      end
    end
    for a in ipairs(clause.alts) do readAlt(c, a, unknown) end
  end
end

-- what each term matched as, for the response's interpretation: explain[clause][alt][term] = {kind = {terms}}
local explain = {}
for c, clause in ipairs(req.clauses) do
  explain[c] = {}
  for a in ipairs(clause.alts) do
    explain[c][a] = {}
    for i, list in ipairs(plan[c][a]) do
      local note = {}
      for _, e in ipairs(list) do
        local kinds = note[e.kind]
        if not kinds then
          kinds = {}
          note[e.kind] = kinds
        end
        if #kinds < 8 then kinds[#kinds + 1] = e.t end
      end
      explain[c][a][i] = note
    end
  end
end

-- rows: {slug, clauses matched, score}
local rows, nRows = {}, 0
local nClauses = #req.clauses
for k = 1, #candidateList do
  local slug = candidateList[k]
  local matched, score = 0, 0
  for c = 1, nClauses do
    local s = clauseScore(c, slug)
    if s then
      matched = matched + 1
      score = score + s
    end
  end
  if matched > 0 then
    nRows = nRows + 1
    rows[nRows] = {slug, matched, score}
  end
end

-- How many listings match at least: every listing with a single-term alternative's term matches its
-- clause, so without a category the largest such posting list is a lower bound when not all were read.
local function matchingAtLeast(found)
  if filter then return found end
  local n = found
  for c, clause in ipairs(req.clauses) do
    for a, alt in ipairs(clause.alts) do
      if #alt.terms == 1 then
        for _, e in ipairs(plan[c][a][1]) do
          if e.p.n > n then n = e.p.n end
        end
      end
    end
  end
  return n
end

local tolerance = tonumber(req.tolerance)
local function floorOf(score) return score - math.max(score * tolerance, tolerance * 5) end
-- Rows that cannot reach the page are set aside first. The groups below start within the first \`limit\` rows
-- of the ranking, and a group takes rows down to its lead's floor, so no row under the floor of the limit-th
-- row is shown. That row is found among plain numbers (clauses matched, then score), which Lua sorts without
-- calling a comparison function per pair.
local ranked = rows
if #rows > limit and limit >= 1 and limit % 1 == 0 and tolerance >= 0 and tolerance < 1 then  -- (the cut's premises)
  local keys, highest = {}, 0
  for k = 1, #rows do
    keys[k] = rows[k][2] * 1e6 + rows[k][3]
    if rows[k][3] > highest then highest = rows[k][3] end
  end
  if highest < 1e5 then  -- the keys keep the order only while scores stay far below the clause step
    table.sort(keys)
    local key = keys[#keys - limit + 1]
    local matched = math.floor(key / 1e6)
    local cut = matched * 1e6 + floorOf(key - matched * 1e6) - 1e-6  -- the margin covers rounding
    ranked = {}
    for k = 1, #rows do
      local r = rows[k]
      if r[2] * 1e6 + r[3] >= cut then ranked[#ranked + 1] = r end
    end
  end
end
-- r[4]: popularity (the browse set's score is minus the popularity)
local function byPopularity(a, b)
  if a[4] ~= b[4] then return a[4] < b[4] end
  if a[3] ~= b[3] then return a[3] > b[3] end
  return a[1] < b[1]
end
-- Ties: listings that match as many clauses and score within \`tolerance\` of the best of their group (or
-- within 5 x tolerance in absolute terms, for words so common they carry no information) are equally
-- relevant; popularity orders them. Groups are taken best first until the page is full: the best row left
-- (clauses matched, then score) leads, and every row left that matches as many clauses and scores at least
-- the lead's floor joins it. Found by scanning, not by sorting the rows: usually one large group
-- of equals fills the page, and of a large group only the members popular enough for the places left are
-- put in order.
local page = {}
local rest = ranked
while #rest > 0 and #page < limit do
  local lead = rest[1]
  for k = 2, #rest do
    local r = rest[k]
    if r[2] > lead[2] or (r[2] == lead[2] and r[3] > lead[3]) then lead = r end
  end
  local floor = floorOf(lead[3])
  local group, slugs, others = {}, {}, {}
  for k = 1, #rest do
    local r = rest[k]
    if r == lead or (r[2] == lead[2] and r[3] >= floor) then  -- the lead always: each pass takes a row
      group[#group + 1] = r
      slugs[#slugs + 1] = r[1]
    else
      others[#others + 1] = r
    end
  end
  rest = others
  if #group > 1 then
    local pops = scoresOf(browse, slugs)
    for k, r in ipairs(group) do r[4] = tonumber(pops[k]) or 0 end
    local places = limit - #page
    if #group > 2 * places then
      local byPop = {}
      for k = 1, #group do byPop[k] = group[k][4] end
      table.sort(byPop)
      local last = byPop[math.ceil(places)]
      local kept = {}
      for k = 1, #group do
        if group[k][4] <= last then kept[#kept + 1] = group[k] end
      end
      group = kept
    end
    table.sort(group, byPopularity)
  end
  for _, r in ipairs(group) do
    if #page < limit then page[#page + 1] = {r[1], string.format('%.3f', r[3])} end
  end
end
-- The fields a result matched, from every term of the query: read what the candidates did not need.
local pageSlugs = {}
for k, r in ipairs(page) do pageSlugs[k] = r[1] end
for c, clause in ipairs(req.clauses) do
  for a in ipairs(clause.alts) do readAlt(c, a, pageSlugs) end
end
for _, r in ipairs(page) do
  local mask = 0
  for c in ipairs(req.clauses) do mask = bit.bor(mask, clauseMask(c, r[1])) end
  r[3] = mask
end
return emit(matchingAtLeast(#rows), page, cjson.encode(explain))
`;