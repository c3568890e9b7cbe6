-- The computer player's view of one decision (the frame) and what it keeps between decisions:
-- neighbours, distances, objectives, supply, expected values of combat. Part of ai/player.lua.

local C = require("rules.common")
local K = require("rules.combat")
local I = require("rules.integrity")
local S = require("rules.supply")
local L = require("rules.leaders")
local V = require("rules.victory")

local Fr = {}

local NEG = -1e9
local DG_MAX = 80   -- (wider than the campaign map)
local GAP_MAX = 40
local GAP_SLOPE = 1.0

-- The Fr.level playing the current decision (the ai hook's 4th argument: ai/player.lua sets it).
Fr.level = "fast"

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
-- (asked for every destination next to an enemy hex while attacks are planned: kept by table,
-- attack, then defence, the whole numbers the odds are worked out from)
local odds_memo = {}
local function odds_ev(att, def)
  if def <= 0 then return 4, 1 end
  if att <= 0 then return -4, 0 end
  local crt = K.CRT
  local a, d = math.floor(att), math.max(1, math.floor(def))
  local by_crt = odds_memo[crt]
  if by_crt == nil then by_crt = {}; odds_memo[crt] = by_crt end
  local by_att = by_crt[a]
  if by_att == nil then by_att = {}; by_crt[a] = by_att end
  local e = by_att[d]
  if e == nil then
    local o = kessel.tables.odds(crt, a, d)
    e = { column_ev(crt, o.column), column_hurt(crt, o.column) }
    by_att[d] = e
  end
  return e[1], e[2]
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

-- A frame's base: the units on the map by id, by hex and by side (in the scenario's order), with
-- counts per hex. It is kept from one decision to the next and brought up to date from the units
-- the last actions changed (kessel.units.changed_since), each put back where a fresh build would
-- put it; built afresh when the state was replaced (a set-up, an undo), on another map, or when
-- many units changed at once.
local base = nil
local PATCH_MAX = 12

-- What changed before each frame (current_base's `changes`), by frame number (F.change_id): a
-- cache kept across decisions (ai/narrower.lua) asks whether anything it read changed since.
local change_log, change_n = {}, 0
local CHANGES_KEPT = 4096
Fr.change_log = change_log

local function insert_ordered(list, u, order)
  local k, i = order[u.id], #list + 1
  while i > 1 and order[list[i - 1].id] > k do i = i - 1 end
  table.insert(list, i, u)
end

local function remove_id(list, id)
  for i = #list, 1, -1 do
    if list[i].id == id then table.remove(list, i); return end
  end
end

local function decrement(t, hex)
  local v = t[hex] - 1
  t[hex] = v > 0 and v or nil
end

local function base_place(b, u, append)
  b.by_id[u.id] = u
  local hex = u.hex
  local list = b.at[hex]
  if not list then list = {}; b.at[hex] = list end
  local mine = b.units[u.side]
  if not mine then mine = {}; b.units[u.side] = mine end
  if append then list[#list + 1] = u; mine[#mine + 1] = u
  else insert_ordered(list, u, b.order); insert_ordered(mine, u, b.order) end
  local cs = b.count[u.side]
  if not cs then cs = { c = {}, t = {} }; b.count[u.side] = cs end
  cs.t[hex] = (cs.t[hex] or 0) + 1
  if C.is_combat_unit(u) then
    b.combat_at[hex] = (b.combat_at[hex] or 0) + 1
    cs.c[hex] = (cs.c[hex] or 0) + 1
  end
end

local function base_lift(b, u)
  b.by_id[u.id] = nil
  local hex = u.hex
  local list = b.at[hex]
  remove_id(list, u.id)
  if #list == 0 then b.at[hex] = nil end
  remove_id(b.units[u.side], u.id)
  local cs = b.count[u.side]
  decrement(cs.t, hex)
  if C.is_combat_unit(u) then
    decrement(b.combat_at, hex)
    decrement(cs.c, hex)
  end
end

local function fresh_base(map_key)
  local b = { map = map_key, at = {}, by_id = {}, units = { soviet = {}, german = {} }, combat_at = {},
    count = { soviet = { c = {}, t = {} }, german = { c = {}, t = {} } }, order = {} }
  for i, u in ipairs(kessel.units.all()) do b.order[u.id] = i end
  for _, u in ipairs(C.map_units()) do base_place(b, u, true) end
  return b
end

-- Also says what changed since the base was last asked for: { hexes = the hexes units left or
-- entered, forms = the formations of the units that changed, global = true when that cannot be
-- told hex by hex (a new base, a leader changed), arrived = true when a unit came onto the map
-- or left it (an entry, an evacuation, an elimination) }.
local function current_base(map_key)
  local rev = kessel.game.revision()
  local b = base
  local changes = { hexes = {}, forms = {}, global = false, arrived = false }
  if b and (b.map ~= map_key) then b = nil end
  if b and b.rev ~= rev then
    local changed = kessel.units.changed_since(b.rev)
    if changed == nil or #changed > PATCH_MAX then b = nil
    else
      local hexes = changes.hexes
      for _, id in ipairs(changed) do
        if b.order[id] == nil then b = nil; break end   -- (a unit made during the game)
        local old = b.by_id[id]
        if old then
          hexes[#hexes + 1] = old.hex
          if old.formation then changes.forms[old.formation] = true end
          if C.is_leader(old) then changes.global = true end
          base_lift(b, old)
        end
        local u = kessel.units.get(id)
        if u and u.formation then changes.forms[u.formation] = true end
        local on_map = u and u.location == "map"
        if on_map then
          hexes[#hexes + 1] = u.hex
          if C.is_leader(u) then changes.global = true end
          base_place(b, u, false)
        end
        if (old ~= nil) ~= (on_map or false) then changes.arrived = true end
      end
    end
  end
  if b == nil then b = fresh_base(map_key); changes.global = true end
  b.rev = rev
  base = b
  return b, changes
end

local function frame()
  if current_frame then return current_frame end
  -- (a map of the same size is another map all the same: C.map_epoch() counts the maps)
  local map_key = C.map_epoch()
  if map_key ~= nb_map then nb_memo, nb_map, rail_memo, lasting, lasting_n = {}, map_key, {}, {}, 0 end
  local b, changes = current_base(map_key)
  change_n = change_n + 1
  change_log[change_n] = changes
  change_log[change_n - CHANGES_KEPT] = nil   -- (a missing record reads as "anything changed")
  -- (the base's tables are read, never changed, by what a decision works out)
  local F = setmetatable({ turn = kessel.game.turn(), step = kessel.game.step(), at = b.at, by_id = b.by_id,
    units = b.units, combat_at = b.combat_at, goal = {}, count = b.count, change_id = change_n }, Frame)
  current_frame = F
  return F
end

local function occupied_sig(side)
  return table.concat(kessel.units.occupied(side), ",")
end

-- The hexes a side's units come in by this turn or the next (the areas of its reinforcements due):
-- where the front will be while none of its units is on the map yet (the German's, on turn 1).
local function entry_hexes(side)
  local t, seen, out = kessel.game.turn(), {}, {}
  for _, u in ipairs(kessel.units.all{ side = side, location = "pending" }) do
    if u.enter_turn and u.enter_turn <= t + 1 and u.enter_area and not seen[u.enter_area] then
      seen[u.enter_area] = true
      for _, h in ipairs(kessel.map.area(u.enter_area) or {}) do out[#out + 1] = h end
    end
  end
  table.sort(out)
  return out
end

-- Hex distances (not across lakes) from the units of `side`, up to `budget`; from its entry hexes
-- while it has none on the map.
local function distance_from(side, budget)
  local hexes = kessel.units.occupied(side)
  -- (the units' hexes and the map are all it depends on, and while the side has none on the map,
  -- its entry hexes: the turn)
  local sig = #hexes > 0 and table.concat(hexes, ",") or "@" .. kessel.game.turn()
  return kept("dist:" .. side .. ":" .. budget .. ":" .. sig, function()
    if #hexes == 0 then hexes = entry_hexes(side) end
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
-- from the nearest Soviet unit, up to 6 hexes: every use asks whether a hex is within 6 or 1
lazy.dz = function() return distance_from(C.SOVIET, 6) end
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

-- Is `hex` on a railway? (kept per map, like the neighbours)
local function is_rail(hex)
  local r = rail_memo[hex]
  if r == nil then r = kessel.map.has_link(hex, "railway"); rail_memo[hex] = r end
  return r
end

-- Drops the frame of the decision just made (AI.pick, once it has picked).
function Fr.drop() current_frame = nil end

Fr.NEG = NEG
Fr.DG_MAX = DG_MAX
Fr.GAP_MAX = GAP_MAX
Fr.GAP_SLOPE = GAP_SLOPE
Fr.sorted_keys = sorted_keys
Fr.neighbors = neighbors
Fr.is_rail = is_rail
Fr.estimates = estimates
Fr.odds_ev = odds_ev
Fr.step_key = step_key
Fr.cached = cached
Fr.kept = kept
Fr.lazy = lazy
Fr.frame = frame
Fr.occupied_sig = occupied_sig
Fr.supply_status = supply_status
Fr.goal_of = goal_of
Fr.defence_estimate = defence_estimate
Fr.attack_estimate = attack_estimate
Fr.objectives = objectives

return Fr
