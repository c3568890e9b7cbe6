-- A computer player for both sides of Panzergruppe Guderian, for `kessel simulate`.
--
-- It only ever picks one of the actions the rules enumerate (the `ai` hook returns an index into
-- the engine's list) and the engine validates the pick like a player's. It is simple on purpose:
-- a scoring function per kind of action, the best score wins, and a phase ends (`end_phase`, score
-- 0) once nothing scores above zero. Equally good actions are told apart by the engine's seeded
-- `tiebreak` (never the game's dice): the same seed gives the same game.
--
-- German: each stack moves toward the nearest objective it does not own yet (distance by its own
-- movement class, so the highway and roads pull), panzer regiments stay together (integrity),
-- stacks never end over the limit; a city hex it owns is not left empty while a Soviet unit is
-- within 6 hexes, and an empty one so threatened draws a garrison (infantry before motorized): one
-- Soviet unit in one hex retakes the city [15]; around an objective hex the Soviet holds, a stack
-- is drawn, over the last four turns, to where its zone of control covers the hexes no German zone
-- covers yet, so the ring closes and the defenders, their lines cut [11.2], defend at half [11.3]
-- (earlier it pushed the campaign's games some 30 VP further the German's way); overruns and
-- attacks at good odds (attacks at 3-1 or better, or what the CRT makes as good, falling to 2-1
-- over the last four turns; in the last two, a city it would score is worth its VP weighed by the
-- chance of pushing the defender out), defending cities with step losses, advancing toward
-- objectives. Air markers go on Soviet stacks near the front and on railways.
-- Soviet: rifle divisions garrison threatened objectives (three to a city hex), the rest form a
-- line a hex or two in front of the Germans, inside a leader's command radius, in good terrain;
-- leaders stay just behind the line, drawn to the combat units no other leader reaches (and to
-- those just beyond its radius, who can walk back into it), never pulled to the front so hard that
-- they leave an army behind; a unit outside every leader's radius is pulled back toward the
-- nearest, a point a hex (out of supply otherwise [11.2]), and when it is five hexes or more beyond
-- it, toward a railway hex, from which it can ride back next turn [6.3] rather than walk at half
-- speed [11.3]; near the front a unit at the rim of its leader's radius pays for the hex it lacks
-- to spare (the German's next move cuts such lines with a one-hex detour); the distance to the
-- front is counted over the whole map, so units entering on a far edge know where to go; rail
-- moves bring far units forward; attacks at 2-1 or
-- better, more readily for a prize (a stack out of supply or disrupted, a unit on its last step, a
-- division's last steps), weighed by the chance of a D result; at worse odds to retake a city, all
-- the more in the last two turns, when the city is worth its VP; a Soviet who has not attacked
-- yet this game takes 1-1 from the fifth turn (its own memory of the game); retreats rather than losses
-- unless holding a city; South-Western Front divisions when outnumbered, entering nearest the
-- front; interdiction on the German road behind the spearhead three times a game.
-- Both: the opponent's retreat paths end next to one's own units or on crowded hexes; excess units
-- eliminated are the weakest.
--
-- Levels (the `ai` hook's 4th argument, `kessel simulate --ai german=ai:strong`): `fast`, the
-- above, for the balance lab's sweeps; `strong`, for play. Attack set-up: in the Movement Phase
-- before its Combat Phase a move earns what it adds to the attacks the side can make next (the
-- attack already next to each enemy hex plus the movers', at the side's odds) and pays for what it
-- takes away, so stacks converge on one hex for multi-hex attacks; the Soviet does this at both
-- levels (without it he went whole games without an attack), the German at the strong level only
-- (at the fast level it made the German some 35 VP stronger and the lab's games lopsided). The
-- strong level's combat phases also list every group of the units that may attack each hex (the
-- smallest group at good odds wins and the others stay free), and its Soviet looks ahead at the
-- German's next turn: a stack on an objective hex is worth the objective's VP times the chance that
-- the attack the German stacks could bring against it next turn does not hurt it, two and a half
-- times over (lazy.threat; at once, measured no better than the fast Soviet).
-- It costs about half as much CPU again.
--
-- What it cannot do: at the fast level it weighs only the short attack list (all units that can
-- reach a hex, each attacking hex alone, each with its leaders), not every group; at both, stacks
-- split only into single units (the move enumerator's groups), and it looks no further ahead than
-- the next Combat Phase.
--
-- Measures: the `result` hook reports, per game-turn, combat units on the map and out of supply,
-- cities the Soviet retook, German divisions destroyed and combat phases ended while attacks were
-- listed (kept by the hook itself, not game state); the lab records them per game.
--
-- Speed: the hook asks the engine only for the kinds of action it weighs (the phase-ending
-- actions, whose checks are costly, only when nothing else is worth doing). On its first call it
-- installs a narrower (ai/narrowing.lua) for that call only: the move, rail_move and overrun
-- enumerators then hand their candidates, stack by stack, to `AI.narrow`, which keeps the best
-- few (scores cached per stack and re-checked lazily, only a short list of each stack's best
-- moves kept for the re-check) so that each list stays short. (Reads of units, markers and the
-- clock are kept per state revision by the engine itself; what a hex is worth to a Soviet unit, its
-- stack aside, is kept while the leaders and the German units stand still.) Tests, scripts and
-- the editor never call the hook and always see full lists.
local C = require("rules.common")
local Narrowing = require("ai.narrowing")
local M = require("rules.movement")
local RL = require("rules.rail")
local O = require("rules.overrun")
local K = require("rules.combat")
local I = require("rules.integrity")
local S = require("rules.supply")
local L = require("rules.leaders")
local V = require("rules.victory")
local R = require("rules.retreat")
local B = require("rules.bidding")
local Book = require("ai.book")

local AI = {}

local NEG = -1e9
local DG_MAX = 80   -- (wider than the campaign map)
local GAP_MAX = 40
local GAP_SLOPE = 1.0

-- Levels: `fast` for the balance lab's sweeps, `strong` for play (slower: it weighs every group of
-- attackers, and moves that bring units up for an attack).
kessel.ai_level{ id = "fast", description = "greedy scores per action, short candidate lists: for balance sweeps" }
kessel.ai_level{ id = "strong", description = "also plans attacks: every group of attackers, units brought up to attack" }
local level = "fast"   -- the level playing the current decision (the ai hook's 4th argument)

-- Small helpers ----------------------------------------------------------------------------------

local function sorted_keys(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = k end
  table.sort(out)
  return out
end

-- A hex's neighbours, kept (the map does not change during a game; a new map, as tests build
-- them, starts the memo afresh: see frame()).
local nb_memo, nb_map = {}, nil
local rail_memo = {}   -- hex -> on a railway (kept per map like the neighbours)
local function neighbors(hex)
  local n = nb_memo[hex]
  if n == nil then n = kessel.hex.neighbors(hex); nb_memo[hex] = n end
  return n
end

-- Expected values of hidden Soviet counters, from the pools as they stand when first asked.
local est = nil
local function estimates()
  if est then return est end
  est = {}
  for _, pool in ipairs({ "rifle", "armour" }) do
    local n, a, d = 0, 0, 0
    for _, f in ipairs(kessel.game.pool(pool) or {}) do
      local x, y = f:match("^(%d+)-(%d+)")
      if x then n = n + 1; a = a + tonumber(x); d = d + tonumber(y) end
    end
    est[pool] = n > 0 and { a = a / n, d = d / n } or { a = 3, d = 3.5 }
  end
  return est
end

-- Value of each CRT result for the attacker, and the expected value of a column.
local RESULT_VALUE = { De = 3, D2 = 2, D1 = 1.2, ["De/A1"] = 2.2, ["D2/A1"] = 1.2, ["D1/A1"] = 0.4,
  Eng = -0.5, A1 = -1.2, A2 = -2, Ae = -4 }
local ev_cache = {}
local function column_ev(crt, column)
  local key = crt .. ":" .. column
  local v = ev_cache[key]
  if v == nil then
    v = 0
    for _, e in ipairs(kessel.tables.distribution(crt, column)) do v = v + e.p * (RESULT_VALUE[e.result] or 0) end
    ev_cache[key] = v
  end
  return v
end

-- Chance that a column's result hurts the defender (a D result, with or without A1).
local hurt_cache = {}
local function column_hurt(crt, column)
  local key = crt .. ":" .. column
  local v = hurt_cache[key]
  if v == nil then
    v = 0
    for _, e in ipairs(kessel.tables.distribution(crt, column)) do
      if e.result:sub(1, 1) == "D" then v = v + e.p end
    end
    hurt_cache[key] = v
  end
  return v
end

-- Expected value (attacker's view) of attacking `def` with `att`, and the chance of hurting the
-- defender.
local function odds_ev(att, def)
  if def <= 0 then return 4, 1 end
  if att <= 0 then return -4, 0 end
  local crt = K.CRT
  local o = kessel.tables.odds(crt, math.floor(att), math.max(1, math.floor(def)))
  return column_ev(crt, o.column), column_hurt(crt, o.column)
end

-- The frame: what one decision looks at ---------------------------------------------------------

local caches = {}   -- per-step caches: key -> value, reset when the step changes
local cache_step = nil

local function step_key() return kessel.game.turn() .. ":" .. kessel.game.step().index end

local function cached(key, fn)
  local sk = step_key()
  if cache_step ~= sk then caches = {}; cache_step = sk end
  local v = caches[key]
  if v == nil then v = fn(); caches[key] = v end
  return v
end

-- Kept across steps, for values whose key names everything they depend on besides the map (a new
-- map starts them afresh: see frame()); a bounded number of them.
local lasting, lasting_n = {}, 0
local LASTING_MAX = 64
local function kept(key, fn)
  local v = lasting[key]
  if v == nil then
    if lasting_n >= LASTING_MAX then lasting, lasting_n = {}, 0 end
    v = fn()
    lasting[key] = v
    lasting_n = lasting_n + 1
  end
  return v
end

-- Things a frame works out once, when first asked (F.cmd, F.dg, ...).
local lazy = {}
local Frame = { __index = function(F, k)
  local f = lazy[k]
  if f == nil then return nil end
  local v = f(F)
  rawset(F, k, v)
  return v
end }

-- One frame serves one decision: the enumerations and the choice after them (AI.pick drops it
-- once it has picked, before the engine applies the action).
local current_frame = nil

local function frame()
  if current_frame then return current_frame end
  local c, r = kessel.map.size()
  local map_key = c .. "x" .. r
  if map_key ~= nb_map then nb_memo, nb_map, rail_memo, lasting, lasting_n = {}, map_key, {}, {}, 0 end
  local F = setmetatable({ turn = kessel.game.turn(), step = kessel.game.step(), at = {}, by_id = {},
    units = { soviet = {}, german = {} }, combat_at = {}, goal = {},
    count = { soviet = { c = {}, t = {} }, german = { c = {}, t = {} } } }, Frame)
  for _, u in ipairs(C.map_units()) do
    F.by_id[u.id] = u
    local hex = u.hex
    local list = F.at[hex]
    if not list then list = {}; F.at[hex] = list end
    list[#list + 1] = u
    local mine = F.units[u.side]
    mine[#mine + 1] = u
    local cs = F.count[u.side]
    cs.t[hex] = (cs.t[hex] or 0) + 1
    if C.is_combat_unit(u) then
      F.combat_at[hex] = (F.combat_at[hex] or 0) + 1
      cs.c[hex] = (cs.c[hex] or 0) + 1
    end
  end
  current_frame = F
  return F
end

local function occupied_sig(side)
  return table.concat(kessel.units.occupied(side), ",")
end

-- Hex distances (not across lakes) from the units of `side`, up to `budget`.
local function distance_from(side, budget)
  local sig = occupied_sig(side)
  -- (the units' hexes and the map are all it depends on)
  return kept("dist:" .. side .. ":" .. budget .. ":" .. sig, function()
    local hexes = kessel.units.occupied(side)
    if #hexes == 0 then return {} end
    return kessel.paths.reach{ from = hexes, budget = budget, step = { hex = true, blocked_by = { "lake" } } }
  end)
end

-- Objectives with their hexes; owner of each hex.
local function objectives()
  return cached("objectives", function()
    local list = V.objectives()
    local hex_vp, hex_obj = {}, {}
    for _, o in ipairs(list) do
      for _, h in ipairs(o.hexes) do hex_vp[h] = o.vp; hex_obj[h] = o end
    end
    return { list = list, vp = hex_vp, obj = hex_obj }
  end)
end

-- Objective hexes the German does not own yet.
local function german_targets()
  local owner = V.owners()
  local out = {}
  for _, o in ipairs(objectives().list) do
    for _, h in ipairs(o.hexes) do
      if owner[h] ~= C.GERMAN then out[#out + 1] = h end
    end
  end
  table.sort(out)
  return out
end

-- Cost for a German unit of `class` to the nearest target, by the terrain effects chart.
local function goal_field(class, targets)
  local key = "goal:" .. class .. ":" .. table.concat(targets, ",")
  -- (the declared costs of a class do not change in a game: the targets are all it depends on)
  return kept(key, function()
    if #targets == 0 then return {} end
    return kessel.paths.reach{ from = targets, budget = 400, step = { class = class, side = C.GERMAN } }
  end)
end

local function command_hexes()
  local leaders = {}
  for _, u in ipairs(kessel.units.all{ side = C.SOVIET, type = "leader", location = "map" }) do
    leaders[#leaders + 1] = u.hex .. (C.disrupted(u) and "d" or "")
  end
  local key = "cmd:" .. table.concat(leaders, ",") .. ":" .. occupied_sig(C.GERMAN)
  return cached(key, L.command_hexes)
end

local function supply_status(side)
  return cached("supply:" .. side, function() return S.status(side) end)
end

lazy.obj = function() return objectives() end
lazy.targets = function() return german_targets() end
lazy.tset = function(F)
  local t = {}
  for _, h in ipairs(F.targets) do t[h] = true end
  return t
end
lazy.cmd = function() return command_hexes() end
-- distance from the nearest German unit, across the whole map (a unit entering on the far edge
-- must still feel which way the front is)
lazy.dg = function() return distance_from(C.GERMAN, DG_MAX) end
lazy.dz = function() return distance_from(C.SOVIET, 40) end   -- from the nearest Soviet unit
-- Hexes beyond the radius of the nearest working Soviet leader (by hex distance), per hex; below
-- zero inside it (-1: one hex to spare).
-- (The gaps are kept from one decision to the next while the leaders stand where they were.)
local gap_memo, gap_sig = {}, nil
lazy.leader_gap = function(F)
  local leaders, sig = {}, ""
  for _, u in ipairs(F.units.soviet) do
    if L.rating(u) > 0 then
      leaders[#leaders + 1] = { hex = u.hex, r = L.rating(u) }
      sig = sig .. u.hex .. ":" .. L.rating(u) .. ";"
    end
  end
  if sig ~= gap_sig then gap_memo, gap_sig = {}, sig end
  local memo = gap_memo
  return function(hex)
    local g = memo[hex]
    if g == nil then
      g = 99
      for _, l in ipairs(leaders) do
        local d = kessel.hex.distance(l.hex, hex) - l.r
        if d < g then g = d end
      end
      memo[hex] = g
    end
    return g
  end
end
lazy.mech_phase = function() return C.step_is("german_mech_movement") end
-- Objective hexes the German owns [15] that a Soviet unit could walk into soon (a Soviet unit within
-- GARRISON_THREAT hexes): hex -> what a garrison there is worth. Every hex of a city counts, since
-- one Soviet unit in one hex takes the city back (2 VP each time [15]) and breaks the German's
-- claim to it at the end.
local GARRISON_THREAT = 6
lazy.garrison = function(F)
  local owner = V.owners()
  local out = {}
  for _, o in ipairs(F.obj.list) do
    for _, h in ipairs(o.hexes) do
      if owner[h] == C.GERMAN and (F.dz[h] or 99) <= GARRISON_THREAT then out[h] = 10 + o.vp / 2 end
    end
  end
  return out
end

local function goal_of(F, class)
  local g = F.goal[class]
  if g == nil then g = goal_field(class, F.targets); F.goal[class] = g end
  return g
end

-- Combat estimates ------------------------------------------------------------------------------

local function supplied_fn(status)
  return function(u)
    local s = status[u.id]
    return s == nil or s.ok
  end
end

-- Estimated defence of `hexes` against attackers in `att_hexes` (hidden units at pool averages).
local function defence_estimate(hexes, att_hexes)
  local E = estimates()
  local total = 0
  for _, hex in ipairs(hexes) do
    local mult = K.terrain_multiplier(hex, att_hexes)
    local defenders = K.defenders_at(hex)
    local side = defenders[1] and defenders[1].side
    local status = side and supply_status(side) or {}
    for _, d in ipairs(defenders) do
      local v
      if d.hidden then v = (E[d.pool or "rifle"] or E.rifle).d
      else v = d.defence or 0 end
      if d.side == C.GERMAN and I.intact(d) then v = v * 2 end
      local st = status[d.id]
      if st and not st.ok then v = v / 2 end
      total = total + v * mult
    end
  end
  return total
end

local function attack_estimate(units, overrun)
  local side = units[1].side
  local E = estimates()
  local known, hidden = {}, 0
  for _, u in ipairs(units) do
    if u.hidden then hidden = hidden + (E[u.pool or "rifle"] or E.rifle).a
    else known[#known + 1] = u end
  end
  local att = 0
  if #known > 0 then
    att = K.attack_total(known, { in_supply = supplied_fn(supply_status(side)) })
  end
  att = att + hidden
  if overrun then att = att / 2 end
  return att
end

-- Scores: movement ----------------------------------------------------------------------------
--
-- A move is scored in two parts: what depends only on the moving group (worked out once per group,
-- `group_scorer`) and what depends on the destination (the returned function).

local function group_units(F, ids)
  local out = {}
  for _, id in ipairs(ids) do
    local u = F.by_id[id] or kessel.units.get(id)
    out[#out + 1] = u
  end
  return out
end

-- Movement class a group travels with (the slowest).
local CLASS_RANK = { infantry = 1, cavalry = 2, leader = 3, motorized = 4 }
local function group_class(units)
  local rank = CLASS_RANK
  local best, br = "motorized", 99
  for _, u in ipairs(units) do
    local c = C.class(u) or "infantry"
    if (rank[c] or 1) < br then best, br = c, rank[c] or 1 end
  end
  if best == "leader" then best = "motorized" end
  return best
end

-- Per frame: combat units and all units of each side per hex (frame() fills them).
-- Units of `side` at `hex` (not counting `excluding`), as counts.
local function counts_at(F, hex, side, excluding)
  if not excluding then
    local cs = F.count[side]
    return cs.c[hex] or 0, cs.t[hex] or 0
  end
  local combat, total = 0, 0
  for _, u in ipairs(F.at[hex] or {}) do
    if u.side == side and not (excluding and excluding[u.id]) then
      total = total + 1
      if C.is_combat_unit(u) then combat = combat + 1 end
    end
  end
  return combat, total
end

local function over_limit(side, combat, total)
  if side == C.SOVIET then return combat > 3 or total > 4 end
  return total > 3
end

local DIVISION_TYPES = { panzer = true, rifle_mot = true, motorized = true }
local FAR = 400

-- Attack set-up (strong level): in the Movement Phase before his Combat Phase a side weighs how a
-- move changes the attacks it can make next, hex by enemy hex: the attack strength already next to
-- the hex plus the movers' against its defence. An attack worth making (EV above the side's need,
-- see attack_score) is worth 1 + EV, times SETUP_WEIGHT of the side. Moves that bring several
-- stacks around one hex add up, so multi-hex attacks get built; leaving an attack short costs.
-- Sides that plan attacks this way at the fast level too.
local SETUP_FAST = { soviet = true }
local SETUP_NEED = { german = 0.85, soviet = 0.15 }
local SETUP_WEIGHT = { german = 4, soviet = 3 }
local function setup_potential(side, att, def)
  local ev = odds_ev(att, def)
  if ev < SETUP_NEED[side] then return 0 end
  return 1 + ev
end

-- Per frame: enemy hex -> { def = estimated defence, adj = attack of own units next to it } for the
-- phasing side, or false outside a Movement Phase that comes before the side's Combat Phase.
lazy.setup = function(F)
  if not C.step_is("german_movement", "soviet_movement") then return false end
  local me = C.phasing()
  if level ~= "strong" and not SETUP_FAST[me] then return false end
  local enemy = C.other(me)
  -- (the enemy does not move in this phase: its defences are kept for the phase)
  local defs = cached("setup_def:" .. occupied_sig(enemy), function()
    local d = {}
    for hex, list in pairs(F.at) do
      local e = false
      for _, u in ipairs(list) do
        if u.side == enemy and C.is_combat_unit(u) then e = true; break end
      end
      if e then d[hex] = defence_estimate({ hex }, {}) end
    end
    return d
  end)
  local att_memo = cached("setup_att", function() return {} end)
  local out = {}
  for hex, d in pairs(defs) do out[hex] = { def = d, adj = 0 } end
  for _, u in ipairs(F.units[me]) do
    if C.is_combat_unit(u) and C.on_map(u) and not C.disrupted(u) then
      local a = att_memo[u.id]
      if a == nil then a = attack_estimate({ u }, false); att_memo[u.id] = a end
      for _, n in ipairs(neighbors(u.hex)) do
        local t = out[n]
        if t then t.adj = t.adj + a end
      end
    end
  end
  return out
end

-- The set-up scorer of a moving group from `from` (nil when it enters): function(dest) -> the
-- change in attack potential, or nil when the level or phase does not plan attacks.
local function setup_scorer(F, units, from)
  local info = F.setup
  if not info or not from then return nil end   -- (units entering the map are left to their own scores)
  local side = units[1].side
  local att = 0
  local combat = {}
  for _, u in ipairs(units) do if C.is_combat_unit(u) then combat[#combat + 1] = u end end
  if #combat == 0 then return nil end
  att = attack_estimate(combat, false)
  local w = SETUP_WEIGHT[side]
  -- what leaving costs: the attacks next to `from` lose the movers
  local here, loss = {}, 0
  if from then
    for _, n in ipairs(neighbors(from)) do
      local t = info[n]
      if t then
        here[n] = true
        loss = loss + setup_potential(side, t.adj, t.def) - setup_potential(side, t.adj - att, t.def)
      end
    end
  end
  return function(dest)
    local best = 0
    for _, n in ipairs(neighbors(dest)) do
      local t = info[n]
      if t then
        local base = here[n] and t.adj - att or t.adj
        local g = setup_potential(side, base + att, t.def) - setup_potential(side, base, t.def)
        if g > best then best = g end
      end
    end
    return w * (best - loss)
  end
end

-- Encircling: the hexes around each objective hex the German does not own and the Soviet holds,
-- outside the German's zone of control now. A German stack whose zone covers them closes the
-- defenders' lines [11.2] (out of supply, they defend at half [11.3]). Kept per hex a stack might
-- end on: how many such hexes its zone would cover (one count per objective hex they touch).
local RING_W = 1.0
local RING_TURNS = 4   -- over the last four turns, as the attack threshold falls
lazy.ring = function(F)
  local ring = {}
  if kessel.game.last_turn() - F.turn >= RING_TURNS then return ring end
  local gz = require("rules.zoc").zoc_of(C.GERMAN)
  for _, t in ipairs(F.targets) do
    local held = false
    for _, u in ipairs(F.at[t] or {}) do if u.side == C.SOVIET then held = true; break end end
    if held then
      for _, n in ipairs(neighbors(t)) do
        if not gz:has(n) and kessel.map.terrain(n) ~= "lake" then
          local sov = false
          for _, u in ipairs(F.at[n] or {}) do if u.side == C.SOVIET then sov = true; break end end
          if not sov then ring[n] = (ring[n] or 0) + 1 end
        end
      end
    end
  end
  local cover = {}
  for n, k in pairs(ring) do
    cover[n] = (cover[n] or 0) + k
    for _, h in ipairs(neighbors(n)) do cover[h] = (cover[h] or 0) + k end
  end
  return cover
end

local function german_scorer(F, units, from)
  local D = goal_of(F, group_class(units))
  local tset, vp = F.tset, F.obj.vp
  local ids, forms = {}, {}
  for _, u in ipairs(units) do
    ids[u.id] = true
    if u.formation then forms[u.formation] = true end
  end
  local n = #units
  local const, per_mp = 0, 1.0
  local garrison = F.garrison
  local mech_only = true   -- (infantry makes the better garrison: the panzers are for the advance)
  for _, u in ipairs(units) do if C.class(u) ~= "motorized" then mech_only = false end end
  if from then
    const = D[from] or FAR
    local c0, t0 = counts_at(F, from, C.GERMAN)
    if over_limit(C.GERMAN, c0, t0) then const = const + 50 end   -- leaving an over-full hex
    -- leaving a threatened city hex empty
    if garrison[from] and t0 <= n then const = const - garrison[from] end
    for _, u in ipairs(F.at[from] or {}) do
      -- breaking up a division [7.3]
      if not ids[u.id] and u.formation and forms[u.formation] and DIVISION_TYPES[u.type] then const = const - 6 end
    end
  else
    const, per_mp = 60, 0.05   -- reinforcements come in
  end
  local mech = F.mech_phase
  local dz = F.dz
  local setup = setup_scorer(F, units, from)
  local ring = F.ring
  return function(dest)
    local c1, t1 = counts_at(F, dest, C.GERMAN, dest == from and ids or nil)
    if over_limit(C.GERMAN, c1 + n, t1 + n) then return -1000 end
    local score = const - (D[dest] or FAR) * per_mp
    if setup then score = score + setup(dest) end
    score = score + RING_W * (ring[dest] or 0)
    if tset[dest] and t1 == 0 then score = score + 15 + (vp[dest] or 0) / 2 end   -- capture
    if garrison[dest] and t1 == 0 and dest ~= from then   -- garrison an empty threatened city hex
      score = score + garrison[dest] * (mech_only and 0.6 or 1)
    end
    for _, u in ipairs(F.at[dest] or {}) do
      if u.side == C.GERMAN and not ids[u.id] then
        if u.formation and forms[u.formation] then score = score + 2 else score = score - 0.5 end
      end
    end
    if (dz[dest] or 99) <= 1 then
      if mech then score = score - 0.5 else score = score + 0.5 end
    end
    return score
  end
end

-- Defensive worth of a hex's terrain (the map does not change during a game).
local terrain_memo = {}
local function terrain_bonus(hex)
  local v = terrain_memo[hex]
  if v == nil then
    v = 0
    if kessel.map.terrain(hex) == "forest" then v = v + 0.5 end
    local p = kessel.map.place(hex)
    if p and p.kind == "major_city" then v = v + 1 end
    terrain_memo[hex] = v
  end
  return v
end

-- How much a Soviet combat unit is worth at `hex` with `n` combat units there (itself included).
-- Look-ahead at the German's next turn (strong level, Soviet Movement Phase): per objective hex,
-- the attack the German stacks could bring against it (each stack whose movement field, by the
-- terrain effects chart at its own movement allowance and ignoring zones of control, reaches the
-- hex or a hex next to it, at half again its strength for divisional integrity [7.3]) and the
-- hex's terrain multiplier; a Soviet stack there is then worth its objective's VP times the chance
-- that such an attack does not hurt it (no D result), so the cities and exits the German can reach
-- draw the units that keep his odds down.
local THREAT_WEIGHT = 2.5
lazy.threat = function(F)
  if level ~= "strong" or not C.step_is("soviet_movement") then return false end
  return cached("threat:" .. occupied_sig(C.GERMAN), function()
    local stacks = {}
    for _, u in ipairs(F.units.german) do
      if C.is_combat_unit(u) and C.on_map(u) and not C.disrupted(u) then
        local st = stacks[u.hex]
        if not st then st = { units = {} }; stacks[u.hex] = st end
        st.units[#st.units + 1] = u
      end
    end
    local att_at = {}   -- hex -> German attack that can reach it or a hex next to it
    for _, hex in ipairs(sorted_keys(stacks)) do
      local units = stacks[hex].units
      local ma = 99
      for _, u in ipairs(units) do ma = math.min(ma, M.ma(u)) end
      local a = attack_estimate(units, false) * 1.5
      local field = kessel.paths.reach{ from = { hex }, budget = ma,
        step = { class = group_class(units), side = C.GERMAN } }
      local near = {}
      for h in pairs(field) do
        near[h] = true
        for _, n in ipairs(neighbors(h)) do near[n] = true end
      end
      for h in pairs(near) do
        if F.obj.vp[h] then att_at[h] = (att_at[h] or 0) + a end
      end
    end
    local out = {}
    for h, att in pairs(att_at) do
      out[h] = { att = att, mult = K.terrain_multiplier(h, {}), vp = F.obj.vp[h] }
    end
    return out
  end)
end

local RAIL_GAP, RAIL_BONUS = 5, 0.6
local SLACK_W = 1.5
local function is_rail(hex)
  local r = rail_memo[hex]
  if r == nil then r = kessel.map.has_link(hex, "railway"); rail_memo[hex] = r end
  return r
end

-- The part of a Soviet unit's worth at `hex` that does not depend on the stack there: its
-- distance from the front, terrain, command; with the objective's weight and whether the hex is at
-- the front. It depends on the leaders and the German units only, as the command hexes `cmd` do, so
-- it is kept with that table (a new one whenever either changes).
local hex_memo = setmetatable({}, { __mode = "k" })
local function hex_worth(F, hex, cmd)
  local memo = hex_memo[cmd]
  if memo == nil then memo = { base = {}, vpw = {}, front = {} }; hex_memo[cmd] = memo end
  local base = memo.base[hex]
  if base ~= nil then return base, memo.vpw[hex], memo.front[hex] end
  local dg = F.dg[hex] or DG_MAX
  local v
  if dg <= 1 then v = 1.5 elseif dg == 2 then v = 2 elseif dg == 3 then v = 1
  else v = 1 - (dg - 3) * 0.35 end
  local vp = F.obj.vp[hex]
  local vpw = false
  if vp then
    vpw = 3 + vp / 5
    if dg <= 10 then vpw = vpw * 1.5 end
  end
  local front = dg <= 3
  if front then v = v + terrain_bonus(hex) end
  if not cmd[hex] then
    -- out of every working leader's radius [10.35] [11.2]: worse the farther beyond it, so that a
    -- unit left behind walks back toward a leader instead of staying put
    local gap = math.max(F.leader_gap(hex), 0)
    v = v - 3 - GAP_SLOPE * math.min(gap, GAP_MAX)
    -- far from every leader, a railway hex is the way back: next turn the unit may ride up to 30
    -- hexes [6.3] instead of walking at half speed [11.3]
    if gap >= RAIL_GAP and dg >= 6 and is_rail(hex) then v = v + RAIL_BONUS * math.min(gap, 15) end
  elseif front then
    -- near the front, at the rim of the radius: the German's next move cuts such a line with
    -- a detour of a hex [11.2]; a hex or two to spare keeps it
    local spare = -F.leader_gap(hex)
    if spare < 2 then v = v - SLACK_W * (2 - math.max(spare, 0)) end
  end
  memo.base[hex], memo.vpw[hex], memo.front[hex] = v, vpw, front
  return v, vpw, front
end

local function soviet_unit_value(F, hex, n, total, cmd)
  if n > 3 or total > 4 then return -500 end
  local v, vpw, front = hex_worth(F, hex, cmd)
  if vpw and n <= 3 then v = v + vpw * (4 - n) / 3 end
  if front then v = v + 0.4 * (n - 1) end
  local th = F.threat and F.threat[hex]
  if th and n > 0 then
    -- (the stack's share of what holding the hex against the German's next attack is worth)
    local _, hurt = odds_ev(th.att, n * estimates().rifle.d * th.mult)
    v = v + THREAT_WEIGHT * th.vp * (1 - hurt) / n
  end
  return v
end

local function soviet_leader_value(F, hex, combat, total)
  local dg = F.dg[hex] or 40
  if combat > 3 or total > 4 then return -500 end
  -- (capped: far from the front a leader stays with the units it keeps in supply)
  local v = -math.min(math.abs(dg - 3), 8) * 0.5
  if dg <= 1 then v = v - 4 end
  if combat > 0 then v = v + 1 end
  return v
end

-- Combat units a leader of rating `r` at `hex` would reach by hex distance [10.35] and no other
-- leader (outside `moving`) does: what a leader's place is worth for supply [11.2].
local LEADER_COVER = 0.6
-- Hexes within `r` of `hex` (by hex distance), as a set; the map does not change in a game, so
-- they are kept (a bounded number of them).
local within_memo, within_count = {}, 0
local function within(hex, r)
  local key = hex .. ":" .. r
  local set = within_memo[key]
  if set == nil then
    if within_count >= 4000 then within_memo, within_count = {}, 0 end
    set = {}
    for _, h in ipairs(kessel.hex.range(hex, r)) do set[h] = true end
    within_memo[key] = set
    within_count = within_count + 1
  end
  return set
end
-- Per frame: each Soviet combat unit with the working leaders whose rating reaches it.
lazy.cover_info = function(F)
  local leaders, out = {}, {}
  for _, l in ipairs(F.units.soviet) do
    if L.rating(l) > 0 then leaders[#leaders + 1] = l end
  end
  local reach = {}
  for i, l in ipairs(leaders) do reach[i] = within(l.hex, L.rating(l)) end
  for _, u in ipairs(F.units.soviet) do
    if C.is_combat_unit(u) then
      local by = {}
      for i, l in ipairs(leaders) do
        if reach[i][u.hex] then by[#by + 1] = l.id end
      end
      out[#out + 1] = { id = u.id, hex = u.hex, by = by }
    end
  end
  return out
end
-- The hexes of the combat units outside `moving` that no leader outside `moving` reaches (they
-- depend on the moving group only: worked out once per group, kept by the group's id table).
local function uncovered(F, moving)
  local memo = F.uncovered_memo
  if memo == nil then memo = {}; F.uncovered_memo = memo end
  local list = memo[moving]
  if list == nil then
    list = {}
    for _, c in ipairs(F.cover_info) do
      if not moving[c.id] then
        local other = false
        for _, id in ipairs(c.by) do
          if not moving[id] then other = true; break end
        end
        if not other then list[#list + 1] = c.hex end
      end
    end
    memo[moving] = list
  end
  return list
end
-- (Counted for every hex at once, per moving group and rating: how many of those units are
-- within `r` of it, and half for each just beyond, within `r` + 2: such a unit can still walk
-- back into the radius.)
local cover_counts, cover_count_n = {}, 0
local function leader_cover(F, hex, r, moving)
  local memo = F.cover_memo
  if memo == nil then memo = {}; F.cover_memo = memo end
  local per = memo[moving]
  if per == nil then per = {}; memo[moving] = per end
  local count = per[r]
  if count == nil then
    -- (the same uncovered units give the same counts: kept across decisions, a bounded number)
    local list = uncovered(F, moving)
    local key = r .. ":" .. table.concat(list, ",")
    count = cover_counts[key]
    if count == nil then
      count = {}
      for _, h in ipairs(list) do
        local near = within(h, r)
        for x in pairs(within(h, r + 2)) do
          count[x] = (count[x] or 0) + (near[x] and 1 or 0.5)
        end
      end
      if cover_count_n >= 200 then cover_counts, cover_count_n = {}, 0 end
      cover_counts[key] = count
      cover_count_n = cover_count_n + 1
    end
    per[r] = count
  end
  return count[hex] or 0
end

local function soviet_scorer(F, units, from)
  local cmd = F.cmd
  local ids = {}
  local nc, nl = 0, 0
  local lr = 0   -- the best working rating among the moving leaders
  for _, u in ipairs(units) do
    ids[u.id] = true
    if C.is_leader(u) then nl = nl + 1; lr = math.max(lr, L.rating(u)) else nc = nc + 1 end
  end
  local const
  if from then
    local oc, ot = counts_at(F, from, C.SOVIET)
    const = -(nc * soviet_unit_value(F, from, oc, ot, cmd) + nl * soviet_leader_value(F, from, oc, ot))
    -- the units staying behind gain from the room
    local rest_c = oc - nc
    if rest_c > 0 then
      local was = soviet_unit_value(F, from, oc, ot, cmd)
      local now = soviet_unit_value(F, from, rest_c, ot - nc - nl, cmd)
      const = const + rest_c * (now - was)
    end
  else
    const = 2   -- off the map: coming in is worth it
  end
  if lr > 0 and from then const = const - LEADER_COVER * leader_cover(F, from, lr, ids) end
  local setup = setup_scorer(F, units, from)
  return function(dest)
    local dc, dt = counts_at(F, dest, C.SOVIET, dest == from and ids or nil)
    local after_c, after_t = dc + nc, dt + nc + nl
    if after_c > 3 or after_t > 4 then return -1000 end
    local now = soviet_unit_value(F, dest, after_c, after_t, cmd)
    local score = const + nc * now + (nl > 0 and nl * soviet_leader_value(F, dest, after_c, after_t) or 0)
    if setup and cmd[dest] then score = score + setup(dest) end
    if dc > 0 then   -- the units already there lose room
      local was = soviet_unit_value(F, dest, dc, dt, cmd)
      score = score + dc * (now - was)
    end
    if lr > 0 then score = score + LEADER_COVER * leader_cover(F, dest, lr, ids) end
    return score
  end
end

-- The scorer of a group's moves: function(dest) -> score.
local function group_scorer(F, ids, kind)
  local units = group_units(F, ids)
  if #units == 0 then return function() return NEG end end
  local side = units[1].side
  local from = units[1].location == "map" and units[1].hex or nil
  local f = side == C.GERMAN and german_scorer(F, units, from) or soviet_scorer(F, units, from)
  local extra = kind == "rail_move" and -0.5 or 0
  -- first turn: the 13th and 20th Armies must spend their movement [5.2]
  if F.turn == 1 and from and side == C.SOVIET then
    for _, u in ipairs(units) do if M.first_turn_full_ma(u) then extra = extra + 0.2 end end
  end
  if extra == 0 then return f end
  return function(dest) return f(dest) + extra end
end

local function move_score(F, a)
  return group_scorer(F, a.units or {}, a.kind)(a.path[#a.path])
end

-- Scores: combat -------------------------------------------------------------------------------

-- Sides this player has seen attack in this game: side -> the first game-turn it did (its own
-- memory, like the measures below: a game loaded from a save starts it afresh, and a turn before
-- the one remembered means another game).
local attacked = {}
local function has_attacked(side, turn)
  local t = attacked[side]
  return t ~= nil and t <= turn
end
local LATE_FIRST_ATTACK = 5

local function attack_score(F, a, overrun)
  local units = group_units(F, a.units or {})
  if #units == 0 then return NEG end
  local side = units[1].side
  local targets = a.targets or { a.target }
  local att_hexes = {}
  local seen = {}
  for _, u in ipairs(units) do if not seen[u.hex] then seen[u.hex] = true; att_hexes[#att_hexes + 1] = u.hex end end
  local att = attack_estimate(units, overrun)
  local def = defence_estimate(targets, att_hexes)
  local ev, hurt = odds_ev(att, def)
  local obj = F.obj
  local bonus = 0
  -- in the last two turns a city the German would score at the end [15] is worth its VP to
  -- either side: to the Soviet who takes a hex of it back, to the German who takes it at last
  -- (the defender pushed out, the attackers advancing in): what is not taken then never is
  local closing = F.turn >= kessel.game.last_turn() - 1
  for _, t in ipairs(targets) do
    local vp = obj.vp[t]
    if vp then
      bonus = bonus + (side == C.SOVIET and 1.0 or 0.3) + vp / 50
      if closing and ev > -1 then bonus = bonus + hurt * vp / 8 end
    end
  end
  -- the Soviet's prizes: a stack out of supply or disrupted, a unit on its last step, above all a
  -- division's last steps (5 VP [15]), each weighed by the chance the attack hurts the defender
  if side == C.SOVIET and not overrun then
    local gstatus = supply_status(C.GERMAN)
    local prize = 0
    local forms = {}
    for _, t in ipairs(targets) do
      for _, d in ipairs(K.defenders_at(t)) do
        local st = gstatus[d.id]
        if st and not st.ok then prize = prize + 0.4 end
        if C.disrupted(d) then prize = prize + 0.4 end
        if (d.steps_left or 1) <= 1 then prize = prize + 0.4 end
        if d.formation and d.formation ~= "" and d.type ~= "cavalry" and (d.attrs.independent or 0) == 0 then
          forms[d.formation] = (forms[d.formation] or 0) + (d.steps_left or 1)
        end
      end
    end
    -- a division whose every surviving unit is among the defenders: the fewer steps left, the
    -- nearer its end
    for _, f in ipairs(sorted_keys(forms)) do
      local here, left = forms[f], 0
      for _, m in ipairs(kessel.units.all{ side = C.GERMAN, formation = f }) do
        if m.location ~= "eliminated" and m.location ~= "removed" then left = left + (m.steps_left or 1) end
      end
      if left == here and left > 0 then prize = prize + 2.5 / left end
    end
    if ev > -0.4 then bonus = bonus + math.min(prize, 2.5) * hurt end
  end
  -- Germans want 3-1 or better (EV 0.92), Soviets 2-1 (EV 0.38); overruns about 4-1
  local need = side == C.GERMAN and 0.85 or 0.15
  -- the German's threshold falls over the last four turns, to 2-1 (EV 0.39) on the last: what is
  -- not taken by then is not taken at all [15]
  if side == C.GERMAN then
    local left = kessel.game.last_turn() - F.turn
    if left < 4 then need = need - (4 - left) * 0.12 end
  end
  -- a Soviet who has not attacked yet this game (as far as this player remembers) takes 1-1 from
  -- the fifth turn: a whole game in his lines gives the German every city for free
  if side == C.SOVIET and not overrun and not has_attacked(C.SOVIET, F.turn) and F.turn >= LATE_FIRST_ATTACK then
    need = math.min(need, -0.35)
  end
  if overrun then need = 1.0 end
  -- the fewer units the better: every attacker may have to retreat or lose a step, and units
  -- not used can attack elsewhere
  local s = ev + bonus - need - (side == C.GERMAN and 0.05 or 0.03) * #units
  if overrun then s = s * 4 + 2 end
  return s
end

-- Scores: decisions ------------------------------------------------------------------------------

local function unit_worth(u)
  if C.is_leader(u) then return 20 end
  if u.hidden then return 3.5 end
  return (u.attack or 0) + (u.defence or 0) + (u.steps_left or 1)
end

-- Would the stack(s) of `ids` have somewhere to retreat `n` hexes?
local function retreat_possible(ids, n)
  local groups = {}
  for _, id in ipairs(ids) do
    local u = kessel.units.get(id)
    if u and C.on_map(u) then
      groups[u.hex] = groups[u.hex] or {}
      table.insert(groups[u.hex], u)
    end
  end
  for _, hex in ipairs(sorted_keys(groups)) do
    if #R.allowed(groups[hex], n, {}) == 0 then return false end
  end
  return true
end

local function choose_score(F, a, p)
  local side = p.side
  local units = group_units(F, p.units or {})
  local in_city = false
  for _, u in ipairs(units) do if F.obj.vp[u.hex] then in_city = true end end
  local can_retreat = retreat_possible(p.units or {}, p.n)
  if a.choice == "retreat" then
    if not can_retreat then return -10 end
    if in_city and p.who == "defender" then return 0.5 end
    return 2
  end
  -- loss
  local steps = 0
  for _, u in ipairs(units) do steps = steps + (u.steps_left or 1) end
  local s
  if side == C.GERMAN then
    s = (in_city and steps >= p.n + 3) and 1 or 0
  else
    s = (in_city and #units > p.n) and 1 or 0
  end
  -- a big attacking group gives up a step or two rather than fall back (and may then advance)
  if p.who == "attacker" and #units >= 3 and #units > p.n then s = 3 end
  if not can_retreat then s = 5 end
  if a.units then
    local u = F.by_id[a.units[1]] or kessel.units.get(a.units[1])
    s = s + 0.5 - unit_worth(u) / 100
  end
  return s
end

local function retreat_score(F, a, p)
  local picker = p.side
  local path = a.path or {}
  if #path == 0 then return 10 * #(a.units or {}) end
  local dest = path[#path]
  local s = 0
  for _, n in ipairs(neighbors(dest)) do
    for _, u in ipairs(F.at[n] or {}) do if u.side == picker then s = s + 2; break end end
  end
  for _, u in ipairs(F.at[dest] or {}) do if u.side ~= picker then s = s + 3; break end end
  local col = C.column(dest)
  if picker == C.GERMAN then s = s - col / 10 else s = s + col / 10 end
  return s
end

local function advance_score(F, a, p)
  if a.skip then return 0 end
  local units = group_units(F, a.units or {})
  local dest = a.path[#a.path]
  local obj = F.obj
  local s = -0.2
  if p.side == C.GERMAN then
    local targets = F.targets
    local D = goal_of(F, group_class(units))
    local from = units[1].hex
    s = s + ((D[from] or 400) - (D[dest] or 400))
    for _, t in ipairs(targets) do if t == dest then s = s + 10 end end
    if obj.vp[from] then s = s - 3 end
    local _, here = counts_at(F, from, C.GERMAN)
    if F.garrison[from] and here <= #units then s = s - F.garrison[from] end
    -- keep divisions together: the whole group, not pieces
    s = s + 0.1 * #units
  else
    if obj.vp[dest] then s = s + 5 end
    if obj.vp[units[1].hex] then s = s - 5 end
  end
  return s
end

local function marker_score(F, a)
  local hex = a.hex
  if C.step_is("soviet_interdiction") then
    local t = kessel.game.turn()
    if t < 4 or (t - 4) % 3 ~= 0 then return -1 end
    local s = 0.5 + C.column(hex) / 20
    if kessel.map.has_link(hex, "road") then s = s + 2 end
    return s
  end
  local s = 0.5
  for _, u in ipairs(F.at[hex] or {}) do if u.side == C.SOVIET then s = s + 1 end end
  if kessel.map.has_link(hex, "railway") then s = s + 2 end
  if (F.dg[hex] or 99) <= 8 then s = s + 2 end
  if kessel.game.turn() == 1 then s = s + (60 - C.column(hex)) / 30 end
  return s
end

local function swf_score(F, a)
  local t = kessel.game.turn()
  if t < 3 then return -1 end
  local sov, ger = 0, 0
  for _, u in ipairs(F.units.soviet) do if C.is_combat_unit(u) then sov = sov + 1 end end
  for _, u in ipairs(F.units.german) do if C.is_combat_unit(u) then ger = ger + 1 end end
  if sov >= ger * 1.3 then return -1 end
  -- enter nearest the front (the divisions walk, and out of a leader's reach they are out of
  -- supply [11.2] and crawl at half speed), but not next to a German unit
  local dg = F.dg[a.hex] or 40
  if dg <= 1 then return 0.5 end
  return 1 + (40 - math.min(dg, 40)) / 100
end

-- Bidding for the German side (WBC 2009 sides): raise by one VP while the standing bid is below
-- what the German side is worth in this scenario under the options in force (ai/book.lua), else pass. Two
-- computer players with the same book settle at that worth.
local function bid_score(a)
  local s = B.state() or {}
  local next_bid = (s.high or -1) + 1
  local worth = Book.german_worth()
  if a.pass then return next_bid > worth and 1 or -1 end
  if a.vp == next_bid and next_bid <= worth then return 1 end
  return -1
end

local function eliminate_score(F, a)
  local u = F.by_id[a.unit] or kessel.units.get(a.unit)
  return 10 - unit_worth(u)
end

-- Scoring any listed action.
local scored = {}   -- { action, score } the narrower worked out for this choice (moves, rail
                    -- moves, overruns: a few of them)
local NARROWED = { move = true, rail_move = true, overrun = true }

local function score(F, a, p)
  local k = a.kind
  if k == "end_phase" or k == "end_air_placement" or k == "end_setup" then return 0 end
  if k == "first_turn_roll" then return 100 end
  if NARROWED[k] then
    for _, x in ipairs(scored) do
      if C.same_action(x[1], a) then return x[2] end
    end
  end
  if k == "move" or k == "rail_move" then return move_score(F, a) end
  if k == "overrun" then return attack_score(F, a, true) end
  if k == "attack" then return attack_score(F, a, false) end
  if k == "choose" then return choose_score(F, a, p) end
  if k == "retreat" then return retreat_score(F, a, p) end
  if k == "advance" then return advance_score(F, a, p) end
  if k == "place_marker" then return marker_score(F, a) end
  if k == "swf_call" then return swf_score(F, a) end
  if k == "eliminate_excess" then return eliminate_score(F, a) end
  if k == "bid" then return bid_score(a) end
  if k == "bid_roll" then return 100 end
  return -1
end

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

-- The best of `list` and its score, and the SHORT best candidates (kept for re-checking later:
-- the scores of one stack's moves change little while other stacks move).
local SHORT = 8
-- `list` may hold the move enumerator's compact group records (M.stack_moves): each destination
-- of a record counts as the action M.expand makes of it, in the same order, and only the kept
-- ones are made.
local function best_of(F, list)
  local best, bs = nil, NEG
  local scorers = {}
  local top = {}   -- { {a, s} or {record, s, i} } best first, at most SHORT
  local floor = NEG  -- the score a candidate must beat to enter a full short list
  local function keep(a, s, i)
    local n = #top
    if n < SHORT or s > top[n][2] then
      local j = math.min(n + 1, SHORT)
      while j > 1 and top[j - 1][2] < s do
        if j <= SHORT then top[j] = top[j - 1] end
        j = j - 1
      end
      top[j] = { a, s, i }
      if #top == SHORT then floor = top[SHORT][2] end
    end
  end
  for _, a in ipairs(list) do
    if a.dests then
      local f = group_scorer(F, a.units, a.kind)
      for i, h in ipairs(a.dests) do
        local s = f(h)
        if s > bs then best, bs = top, s end   -- (made below from the short list)
        if s > floor or #top < SHORT then keep(a, s, i) end
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
      if s > bs then best, bs = a, s end
      keep(a, s, nil)
    end
  end
  local short = {}
  for j, x in ipairs(top) do short[j] = x[3] and M.expand(x[1], x[3]) or x[1] end
  -- the best is the first of the short list whenever it came from a record
  if best == top then best = short[1] end
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

function AI.narrow(kind, provider)
  local F = frame()
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
      e.best, e.score, e.moves = best_of(F, provider.moves(hex, kind == "move" and want_group(F, hex) or nil, true))
      e.fresh = call_id
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
      if top.fresh == call_id then
        top.taken = true
        picked[#picked + 1] = top
        break
      end
      top.best, top.score, top.moves = best_of(F, top.moves)
      top.fresh = call_id
      guard = guard + 1
      if guard > 50 then top.taken = true; picked[#picked + 1] = top; break end
    end
  end
  for _, e in ipairs(entries) do e.taken = nil end
  local out = {}
  for _, e in ipairs(picked) do
    out[#out + 1] = e.best
    scored[#scored + 1] = { e.best, e.score }
  end
  if provider.extra then
    local best, bs = best_of(F, provider.extra())
    if best then out[#out + 1] = best; scored[#scored + 1] = { best, bs } end
  end
  return out
end

-- The hooks ------------------------------------------------------------------------------------

-- The best of `actions` (first of the best on a tie): index and score.
-- Equally good actions worth doing (the best score above zero, shared within a hair) are told
-- apart by the engine's `tiebreak`, a seeded draw of the chooser's own (never the game's dice), so
-- how a tie is broken is one documented rule and `kessel simulate --ai-variations` can break it
-- otherwise to see how much the AI's choices move the results. At zero or below (nothing worth
-- doing) the first listed wins, so the phase-ending actions keep their declaration order.
local tiebreak = nil
local TIE = 1e-9

local function best_index(actions)
  if #actions == 1 then return 1, 0 end
  local F = frame()
  local p = kessel.game.var("pending")
  local best, bs = nil, nil
  local scores = {}
  for i, a in ipairs(actions) do
    local s = score(F, a, p)
    scores[i] = s
    if bs == nil or s > bs then best, bs = i, s end
  end
  if tiebreak and bs > 0 then
    local tied = {}
    for i, s in ipairs(scores) do
      if bs - s <= TIE * math.max(1, math.abs(bs)) then tied[#tied + 1] = i end
    end
    if #tied > 1 then best = tied[tiebreak(#tied)] end
  end
  return best, bs
end

-- Kinds that only end something (score 0): listed only when nothing else is worth doing.
local ENDING = { end_phase = true, end_air_placement = true, end_setup = true }

-- The hook: `legal(kind)` lists the actions of one kind, `kinds` names them in declaration order.
-- First every kind but the ending ones; when nothing there scores above zero (or nothing is
-- listed), the ending kinds join in and the choice is made among all of them in declaration
-- order, exactly as if everything had been listed at once.
local function choose(legal, kinds)
  local lists, all = {}, {}
  for _, kind in ipairs(kinds) do
    if not ENDING[kind] then
      lists[kind] = legal(kind)
      for _, a in ipairs(lists[kind]) do all[#all + 1] = a end
    end
  end
  local chosen = nil
  if #all > 1 then
    local i, s = best_index(all)
    if s > 0 then chosen = all[i] end
  end
  if chosen == nil then
    all = {}
    for _, kind in ipairs(kinds) do
      for _, a in ipairs(lists[kind] or legal(kind)) do all[#all + 1] = a end
    end
    if #all > 0 then chosen = all[(best_index(all))] end
  end
  return chosen
end

-- Combat phases the computer player ended while attacks were listed, by game-turn and side (a
-- measure of how it plays, for the balance lab's `result` metrics; not game state).
local passed_with_attacks = {}

local function note_pass(chosen, legal)
  if not (chosen and chosen.kind == "end_phase" and C.in_combat_phase()) then return end
  if #legal("attack") == 0 then return end
  local t, side = kessel.game.turn(), C.phasing()
  local row = passed_with_attacks[t] or {}
  passed_with_attacks[t] = row
  row[side] = (row[side] or 0) + 1
end

-- The hook: the narrower (ai/narrowing.lua) is in place for this choice only. At the strong level
-- a combat phase goes without it, so the attack enumerator lists every group of the units that may
-- attack each hex (not only all of them and each hex alone): the smallest group at good odds wins
-- and the rest can attack elsewhere.
function AI.pick(legal, kinds, view, lvl, draw)
  level = lvl or "fast"
  tiebreak = draw
  local chosen
  if level == "strong" and C.in_combat_phase() and not kessel.game.var("pending") then
    chosen = choose(legal, kinds)
  else
    chosen = Narrowing.within(AI.narrow, choose, legal, kinds)
  end
  if chosen and chosen.kind == "attack" then
    local side, t = C.phasing(), kessel.game.turn()
    if not has_attacked(side, t) then attacked[side] = t end
  end
  if chosen and chosen.kind == "end_phase" and C.in_combat_phase() then
    Narrowing.within(AI.narrow, note_pass, chosen, legal)
  end
  -- the scores and the frame served this choice only
  scored = {}
  current_frame = nil
  return chosen
end

kessel.on("ai", AI.pick)

-- How the game stands [15], with measures of how it is being played for the balance lab, each for
-- the game-turn just recorded (the lab asks at the start of the next one, and once more when the
-- game is over): combat units on the map and those out of supply (the flag of the last Movement
-- Phase [11.3]); cities the Soviet retook [15] (game var `soviet_recaptures`); German divisions
-- destroyed [15]; combat phases the computer player ended while attacks were listed. Summed over
-- a game's turns they give the per-game figures.
local destroyed_by_turn = {}   -- game-turn -> divisions destroyed by its end (memo for the delta)

local function play_metrics()
  local m = {}
  for _, side in ipairs({ C.GERMAN, C.SOVIET }) do
    local on, oos = 0, 0
    for _, u in ipairs(C.units_of(side)) do
      if C.on_map(u) and C.is_combat_unit(u) then
        on = on + 1
        if S.is_oos(u) then oos = oos + 1 end
      end
    end
    m[side .. "_units_on_map"], m[side .. "_units_out_of_supply"] = on, oos
  end
  local t = kessel.game.turn()
  if not kessel.game.finished() then t = t - 1 end
  local rec = 0
  for _, r in ipairs(kessel.game.var("soviet_recaptures") or {}) do
    if r.turn == t then rec = rec + 1 end
  end
  m.soviet_recaptures = rec
  local dead = #V.divisions_destroyed()
  destroyed_by_turn[t] = dead
  m.german_divisions_destroyed = dead - (destroyed_by_turn[t - 1] or 0)
  local row = passed_with_attacks[t] or {}
  for _, side in ipairs({ C.GERMAN, C.SOVIET }) do
    m[side .. "_combat_phases_passed_with_attacks"] = row[side] or 0
  end
  return m
end

kessel.on("result", function()
  local r = V.score()
  return { level = r.level, scores = { german = r.german_vp, soviet = r.soviet_vp }, metrics = play_metrics() }
end)

return AI
