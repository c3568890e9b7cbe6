-- The computer player's narrower (the other side of ai/narrowing.lua): it keeps the best few
-- movement candidates of each stack, scores cached per stack and re-checked lazily. Part of
-- ai/player.lua.

local C = require("rules.common")
local M = require("rules.movement")
local RL = require("rules.rail")
local L = require("rules.leaders")
local Fr = require("ai.frame")
local NEG = Fr.NEG
local step_key = Fr.step_key
local occupied_sig = Fr.occupied_sig
local frame = Fr.frame
local Mv = require("ai.moves")
local counts_at = Mv.counts_at
local over_limit = Mv.over_limit
local group_scorer = Mv.group_scorer
local D = require("ai.decisions")
local attack_score = D.attack_score

local Nr = {}

-- { action, score } the narrower worked out for the current choice (moves, rail moves, overruns:
-- a few of them); AI.pick starts a new list for each choice.
Nr.scored = {}

-- The narrower: keep the best few movement candidates ---------------------------------------

local KEEP = 3
-- per kind: { key = what every stack's candidates depend on, stacks = signature -> { moves = list,
-- best = action, score = n, fresh = call id } }
local stack_caches = {}
local call_id = 0

-- (The engine hands out the same snapshot table for a unit until the unit changes: its signature
-- is kept by the table, weakly.)
local sig_memo = setmetatable({}, { __mode = "k" })
local function unit_sig(u)
  local sig = sig_memo[u]
  if sig == nil then
    local f = u.flags
    sig = u.id .. ":" .. ((u.vars and u.vars.mp_spent) or 0) .. (f.disrupted and "d" or "")
      .. (f.oos and "o" or "") .. (f.stopped and "s" or "") .. (u.hidden and "h" or "")
    sig_memo[u] = sig
  end
  return sig
end

local function stack_sig(kind, F, hex)
  local sig = kind .. ";" .. hex
  for _, u in ipairs(F.at[hex] or {}) do sig = sig .. ";" .. unit_sig(u) end
  return sig
end

-- Units of one stack that move alike and score alike: a stack of three rifle divisions lists each
-- alone, and each alone scores the same at every destination. The key of a one-unit group record
-- names what its scorer (ai/moves.lua) reads of the unit: the ways it has (the same destinations
-- and paths), whether it is a leader (a leader's cover depends on which leader goes: none is
-- keyed), its type, formation and class (the German's goals and divisions), the attack kept for it
-- when attacks are planned, and the first turn's spend-it-all rule [5.2]. Nil: score it alone.
local function alike_key(F, a)
  if #a.units ~= 1 or not a.ways then return nil end
  local u = F.by_id[a.units[1]]
  if not u or C.is_leader(u) then return nil end
  local att = F.setup and Mv.unit_attack(F.setup_att, u) or ""
  return table.concat({ tostring(a.ways), u.type, u.formation or "", C.class(u) or "", att,
    (F.turn == 1 and M.first_turn_full_ma(u)) and "t1" or "" }, "|")
end

-- The best of `list` and its score, and the SHORT best candidates (kept for re-checking later:
-- the scores of one stack's moves change little while other stacks move).
local SHORT = 8
-- `list` may hold the move enumerator's compact group records (M.stack_moves): each destination
-- of a record counts as the action M.expand makes of it, in the same order, and only the kept
-- ones are made.
local function best_of(F, list)
  local best, bs = nil, NEG
  local scorers = {}
  -- the short list, best first, at most SHORT: candidate (an action, or a record with the index
  -- of its destination) and score, in three parallel arrays (no table per candidate)
  local top_a, top_s, top_i, n = {}, {}, {}, 0
  local floor = NEG  -- the score a candidate must beat to enter a full short list
  local function keep(a, s, i)
    if n < SHORT or s > top_s[n] then
      local j = n < SHORT and n + 1 or SHORT
      if n < SHORT then n = n + 1 end
      while j > 1 and top_s[j - 1] < s do
        top_a[j], top_s[j], top_i[j] = top_a[j - 1], top_s[j - 1], top_i[j - 1]
        j = j - 1
      end
      top_a[j], top_s[j], top_i[j] = a, s, i or false
      if n == SHORT then floor = top_s[SHORT] end
    end
  end
  local from_record = false
  local scored_alike = {}   -- alike_key -> the scores of a group's destinations
  for _, a in ipairs(list) do
    if a.dests then
      local key = alike_key(F, a)
      local scores = key and scored_alike[key]
      if not scores then
        local f = group_scorer(F, a.units, a.kind)
        scores = {}
        for i, h in ipairs(a.dests) do scores[i] = f(h) end
        if key then scored_alike[key] = scores end
      end
      for i = 1, #a.dests do
        local s = scores[i]
        if s > bs then from_record, bs = true, s end   -- (made below from the short list)
        if s > floor or n < SHORT then keep(a, s, i) end
      end
    else
      local s
      if a.kind == "overrun" then s = attack_score(F, a, true)
      else
        -- (an enumerator hands every move of one group the same units table)
        local key = a.units
        local f = scorers[key]
        if f == nil then f = group_scorer(F, a.units, a.kind); scorers[key] = f end
        s = f(a.path[#a.path])
      end
      if s > bs then from_record, best, bs = false, a, s end
      keep(a, s, nil)
    end
  end
  local short = {}
  for j = 1, n do short[j] = top_i[j] and M.expand(top_a[j], top_i[j]) or top_a[j] end
  -- the best is the first of the short list whenever it came from a record
  if from_record then best = short[1] end
  return best, bs, short
end

-- Which groups of the stack in `hex` are worth working out (M.stack_moves `want`): the whole stack
-- always; single units when the hex is over the limit, on the first turn, when a German stack
-- mixes formations, or when Soviet units near the front might spread out.
local function want_group(F, hex)
  local here = F.at[hex] or {}
  local side = here[1] and here[1].side
  local c, t = counts_at(F, hex, side)
  local split = over_limit(side, c, t) or F.turn == 1
  if not split and side == C.GERMAN and F.garrison[hex] then split = true end
  if not split and side == C.GERMAN then
    local f = nil
    for _, u in ipairs(here) do
      if f == nil then f = u.formation or u.id elseif (u.formation or u.id) ~= f then split = true end
    end
  elseif not split then
    split = (F.dg[hex] or 40) <= 8 and t > 1
  end
  return function(units, whole) return whole or split end
end

local change_log = Fr.change_log

-- Is a cached entry's score what a re-check would give? (Nothing it reads changed since.)
-- A move's score (ai/moves.lua) reads, for its stack's hex and each destination: the units and
-- counts there, the attacks next to it (the own units next to the enemy hexes beside it: two hexes
-- away), a leader's cover (the units that no other leader reaches, within his rating and two more
-- [11.2]) and, for the German, his goals; everything else it reads stays put while the enemy, the
-- markers and the step do (the cache's key). So a move entry is still good when every change
-- since it was scored lies beyond that reach (`e.reach` hexes) of its hexes and the goals are the
-- same. An overrun's score reads the overrunners' strength, which follows their division's
-- regiments wherever they are [7.3], and the defenders' (revealed when attacked [12.2]): still
-- good while no unit of their formations changed and nothing changed in their targets' hexes. A
-- change not told hex by hex (a leader's, a new state) spoils every entry.
local function unchanged_since(e, now, goals)
  if e.goals ~= goals then return false end
  for k = e.seen + 1, now do
    local c = change_log[k]
    if c == nil or c.global then return false end
    if e.forms then
      for f in pairs(c.forms) do
        if e.forms[f] then return false end
      end
      for _, x in ipairs(c.hexes) do
        if e.hexes[x] then return false end
      end
    else
      for _, x in ipairs(c.hexes) do
        for h in pairs(e.hexes) do
          if kessel.hex.distance(x, h) <= e.reach then return false end
        end
      end
    end
  end
  return true
end

-- The hexes an entry's score reads: its stack's and its short list's destinations or targets.
local function entry_hexes(hex, moves)
  local t = { [hex] = true }
  for _, a in ipairs(moves) do
    local p = a.path
    if p then t[p[#p]] = true end
    if a.target then t[a.target] = true end
  end
  return t
end

-- The enumerator's actions not tied to a stack (`provider.extra`: reinforcement entries), kept
-- from one decision to the next while nothing they depend on changed: they follow from the units
-- still to come and whether enemy units stand on the entry hexes, so they stay the same while
-- the narrower's key (the step, the enemy's hexes, the markers) does and no unit came onto the
-- map or left it (an entry, an evacuation). Their scores are worked out afresh each time.
local extra_lists = {}   -- kind -> { key, seen = frame number, list }

local function extra_list(kind, provider, key, now)
  local kept = extra_lists[kind]
  if kept and kept.key == key then
    local same = true
    for k = kept.seen + 1, now do
      local c = change_log[k]
      if c == nil or c.global or c.arrived then same = false; break end
    end
    if same then kept.seen = now; return kept.list end
  end
  local list = provider.extra()
  extra_lists[kind] = { key = key, seen = now, list = list }
  return list
end

function Nr.narrow(kind, provider)
  local F = frame()
  local now = F.change_id
  -- (the German's goals: the objectives he does not hold yet; worked out once a frame)
  local goals = ""
  if provider.side == C.GERMAN then
    goals = F.goals_sig or table.concat(F.targets, ",")
    F.goals_sig = goals
  end
  -- what every stack's candidates depend on besides the stack itself: enemy units, markers,
  -- rail capacity used, the initial air placement
  -- (the same for every kind this decision lists, rail capacity aside: worked out once a frame)
  local keys = F.narrow_keys
  if keys == nil then keys = {}; F.narrow_keys = keys end
  local base = keys[provider.side]
  if base == nil then
    local marks = {}
    for _, m in ipairs(kessel.markers.all{ placed = true }) do marks[#marks + 1] = m.kind .. "@" .. m.hex end
    table.sort(marks)
    base = table.concat({ step_key(), occupied_sig(C.other(provider.side)), table.concat(marks, ","),
      tostring(M.initial_air_pending()),
      #kessel.units.all{ side = C.other(provider.side), location = "map", flag = "disrupted" } }, "|")
    keys[provider.side] = base
  end
  local sk = base .. "|" .. (kind == "rail_move" and RL.used_this_turn() or "")
  -- (rail capacity used matters to rail moves only: ordinary moves keep their cache across them)
  local cache = stack_caches[kind]
  if cache == nil or cache.key ~= sk then cache = { key = sk, stacks = {} }; stack_caches[kind] = cache end
  local stack_cache = cache.stacks
  call_id = call_id + 1
  local entries = {}
  local near = kind == "overrun" and (provider.side == C.SOVIET and F.dg or F.dz) or nil
  for _, hex in ipairs(provider.stacks) do
    if near and (near[hex] or 99) > 1 then goto continue end
    -- rail moves are for bringing far units forward, not for the front line
    if kind == "rail_move" and (F.dg[hex] or 40) < 6 then goto continue end
    -- a Soviet garrison of a threatened objective holds
    if kind == "move" and provider.side == C.SOVIET and F.obj.vp[hex] and (F.dg[hex] or 40) <= 4 then
      local c, t = counts_at(F, hex, C.SOVIET)
      if c > 0 and not over_limit(C.SOVIET, c, t) then goto continue end
    end
    local sig = stack_sig(kind, F, hex)
    local e = stack_cache[sig]
    if e == nil then
      e = {}
      local want, kept = nil, nil
      if kind == "move" then
        want = want_group(F, hex)
        kept = cache.ways
        if kept == nil then kept = {}; cache.ways = kept end
      end
      e.best, e.score, e.moves = best_of(F, provider.moves(hex, want, true, kept))
      e.fresh = call_id
      e.seen, e.hex, e.goals = now, hex, goals
      e.hexes = entry_hexes(hex, e.moves)
      if kind == "overrun" then
        e.forms = {}
        for _, u in ipairs(F.at[hex] or {}) do e.forms[u.formation or u.id] = true end
      else
        e.reach = 2
        for _, u in ipairs(F.at[hex] or {}) do
          if C.is_leader(u) then e.reach = math.max(e.reach, L.rating(u) + 2) end
        end
      end
      stack_cache[sig] = e
    end
    if e.best then entries[#entries + 1] = e end
    ::continue::
  end
  -- lazily re-check the leaders: a cached score may have gone stale since (others moved)
  local picked = {}
  for _ = 1, KEEP do
    local guard = 0
    while true do
      local top, ts = nil, NEG
      for _, e in ipairs(entries) do
        if not e.taken and e.best and e.score > ts then top, ts = e, e.score end
      end
      if top == nil then break end
      if top.fresh ~= call_id and unchanged_since(top, now, goals) then
        top.fresh, top.seen = call_id, now
      end
      if top.fresh == call_id then
        top.taken = true
        picked[#picked + 1] = top
        break
      end
      top.best, top.score, top.moves = best_of(F, top.moves)
      top.fresh, top.seen, top.goals = call_id, now, goals
      top.hexes = entry_hexes(top.hex, top.moves)
      guard = guard + 1
      if guard > 50 then top.taken = true; picked[#picked + 1] = top; break end
    end
  end
  for _, e in ipairs(entries) do e.taken = nil end
  local out = {}
  for _, e in ipairs(picked) do
    out[#out + 1] = e.best
    Nr.scored[#Nr.scored + 1] = { e.best, e.score }
  end
  if provider.extra then
    local best, bs = best_of(F, extra_list(kind, provider, base, now))
    if best then out[#out + 1] = best; Nr.scored[#Nr.scored + 1] = { best, bs } end
  end
  return out
end


return Nr
