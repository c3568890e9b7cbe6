-- [10] Soviet leaders. One rating (2 to 5) serves as the leader's command radius [10.35], the most
-- it can add to an attack [10.36] and its own defence strength [10.2]. Leaders have no attack
-- strength, count as one step [9.6] and lose every function while disrupted [6.6].
--
-- Command radius [10.35]: a line of at most `rating` hexes from the leader to the unit, never into
-- enemy units, never across lake hexsides, never through a hex in an enemy zone of control unless a
-- Soviet unit stands there [11.2]; under WBC09 #13 it may enter swamp but not pass through it.
--
-- Evacuation [10.4] (optional rule `leader_evacuation`, never under WBC09 #5): once a turn the
-- Soviet player may take off the map a leader that has no line of supply to the east edge; it comes
-- back at the start of the next Soviet Movement Phase in the scenario's `evacuation_area` (default
-- X), in time for that phase's supply judgement; at most `evacuation_max` (default 2) a game. Both come from the scenario's [vars]; a position
-- built inline (kessel.setup, no scenario) may give them as game variables of the same names. The
-- trigger ("no line of supply") and the one-turn delay are the project's reading: the exact wording
-- is not known.
local C = require("rules.common")
local Z = require("rules.zoc")
local L = {}

-- [10.1] The ratings a leader may have: every printed leader is rated 2 to 5. The odds flag
-- `leader=N` (combat.lua) and a scenario's leaders (the set-up check) are held to this range.
L.RATING_MIN, L.RATING_MAX = 2, 5

-- Why `r` cannot be a leader's rating [10.1], or nil.
function L.rating_problem(r)
  if type(r) ~= "number" or r ~= math.floor(r) then
    return string.format("a leader's rating is a whole number from %d to %d [10.1] (got %s)", L.RATING_MIN, L.RATING_MAX, tostring(r))
  end
  -- (`%s`: a float past the integers, 1e20 or an infinity, equals its floor but has no `%d`)
  if r < L.RATING_MIN or r > L.RATING_MAX then
    return string.format("a leader's rating runs from %d to %d [10.1] (got %s)", L.RATING_MIN, L.RATING_MAX, tostring(r))
  end
  return nil
end

-- The leader's working rating: 0 when disrupted or off the map.
function L.rating(u)
  if not C.is_leader(u) or not C.on_map(u) or C.disrupted(u) then return 0 end
  return C.rating(u)
end

local function lake_step(a, b)
  if kessel.map.has_side(a, b, "lake") or kessel.map.terrain(b) == "lake" then return nil end
  return 1
end

-- The passage rule of Soviet lines (LOC and supply): hexes with German units are closed; hexes in a
-- German zone of control are closed unless a Soviet unit is there; swamp may be entered, not
-- crossed, when `swamp_enter_only` is set.
local function soviet_passage(swamp_enter_only)
  local ezoc = Z.enemy_zoc(C.SOVIET)
  local german = C.occupied(C.GERMAN)
  local soviet = C.occupied(C.SOVIET)
  return function(h)
    if german:has(h) then return "blocked" end
    if ezoc:has(h) and not soviet:has(h) then return "blocked" end
    if swamp_enter_only and kessel.map.terrain(h) == "swamp" then return "enter" end
    return nil
  end
end

-- The same rule as sets, for the engine's searches (no call back into Lua at every step):
-- lake hexes and hexsides closed, German units closed, German ZOC closed unless a Soviet unit is
-- there, swamp enter-only when asked.
local function soviet_passage_sets(swamp_enter_only)
  local t = C.terrain_lists()
  local blocked = C.occupied(C.GERMAN):union(Z.enemy_zoc(C.SOVIET):minus(C.occupied(C.SOVIET)))
  for _, h in ipairs(t.lake) do blocked:add(h) end
  local passage = { blocked = blocked }
  if swamp_enter_only then passage.enter_only = kessel.hexset(t.swamp) end
  return passage
end
local LAKE_STEP = { hex = true, blocked_by = { "lake" } }

-- Hexes (label → true) within one leader's command radius [10.35]; none while it does not work.
-- `passage` is the Soviet line rule as sets, computed once when many leaders are asked.
function L.radius_hexes(l, passage)
  local out = {}
  if L.rating(l) <= 0 then return out end
  passage = passage or soviet_passage_sets(C.option("wbc09_13_loc_not_through_swamp"))
  local reach = kessel.paths.reach{ from = l.hex, budget = L.rating(l), step = LAKE_STEP, passage = passage }
  for h in pairs(reach) do out[h] = true end
  out[l.hex] = true
  return out
end

-- Hexes (label → true) within the command radius of some working Soviet leader [10.35], the
-- same hexes L.radius_hexes gives leader by leader: kept for the state (every attack and overrun
-- check asks), shared, read-only. The radii are joined as hexsets, one table made at the end.
function L.command_hexes()
  return C.per_revision("command_hexes", function()
    local passage = soviet_passage_sets(C.option("wbc09_13_loc_not_through_swamp"))
    local all = kessel.hexset()
    for _, l in ipairs(C.units_of(C.SOVIET)) do
      local r = L.rating(l)
      if r > 0 then
        all = all:union(kessel.paths.reach_set{ from = l.hex, budget = r, step = LAKE_STEP, passage = passage })
        all:add(l.hex)
      end
    end
    local out = {}
    for _, h in ipairs(all:labels()) do out[h] = true end
    return out
  end)
end

-- A disrupted leader whose rating would reach this Soviet unit's hex were he working, or nil: he
-- gives no command radius [6.6], and a refusal says so.
function L.disrupted_leader_near(u)
  local passage = soviet_passage_sets(C.option("wbc09_13_loc_not_through_swamp"))
  for _, l in ipairs(C.units_of(C.SOVIET)) do
    if C.is_leader(l) and C.disrupted(l) then
      local r = C.rating(l)
      if l.hex == u.hex or (r > 0 and kessel.paths.reach_set{ from = l.hex, budget = r, step = LAKE_STEP, passage = passage }:has(u.hex)) then
        return l
      end
    end
  end
  return nil
end

-- Is this Soviet unit inside some working leader's command radius? [10.35]
function L.in_command(u, hexes)
  if u.side ~= C.SOVIET then return true end
  hexes = hexes or L.command_hexes()
  return hexes[u.hex] == true
end

-- Why a Soviet unit outside command may not attack or overrun [10.35]: the case that gives the
-- command radius says so for both, so both refusals cite it from here. `how` words the moment
-- judged (an overrun judges the start of the phase [6.5]); the default is the attack's.
function L.outside_command_reason(u, how)
  return C.reason("10.35", "%s %s", C.name_at(u), how or "is outside every leader's command radius")
end

-- Leaders of `ids` grouped by hex, and the attack bonus they give [10.36]. The bonus of the
-- leaders in one hex is capped at the attack of the combat units of that hex in the same attack;
-- without WBC09 #12 only one leader may lend its rating to the units of one hex.
-- `combat_strength[hex]` is the (modified) attack of those combat units.
function L.bonus(leaders, combat_strength)
  local by_hex = {}
  for _, l in ipairs(leaders) do
    by_hex[l.hex] = by_hex[l.hex] or {}
    table.insert(by_hex[l.hex], l)
  end
  local total, notes = 0, {}
  -- (hexes in label order: `pairs` order changes from run to run, and the notes go in the log)
  for _, hex in ipairs(C.keys(by_hex)) do
    local list = by_hex[hex]
    local sum = 0
    for _, l in ipairs(list) do sum = sum + L.rating(l) end
    local cap = combat_strength[hex] or 0
    local add = math.min(sum, cap)
    total = total + add
    notes[#notes + 1] = string.format("leaders in %s add %d (rating %d, capped at the units' %d)", hex, add, sum, cap)
  end
  return total, notes
end

-- Checks the leaders listed in an attack or overrun [10.36]. Returns a list of reasons.
function L.check_attack_leaders(leaders, combat_units)
  local reasons = {}
  local combat_hex, count = {}, {}
  for _, u in ipairs(combat_units) do combat_hex[u.hex] = true end
  for _, l in ipairs(leaders) do
    if C.disrupted(l) then
      reasons[#reasons + 1] = C.reason("6.6", "%s is disrupted and cannot lead", C.name_at(l))
    elseif not combat_hex[l.hex] then
      reasons[#reasons + 1] = C.reason("10.36", "%s adds to an attack only with combat units of its own hex (%s)", C.name(l), l.hex)
    end
    count[l.hex] = (count[l.hex] or 0) + 1
    if count[l.hex] == 2 and not C.option("wbc09_12_multiple_leaders") then
      reasons[#reasons + 1] = C.reason("10.36", "only one leader in %s may add to the attack (WBC09 #12 allows several)", l.hex)
    end
  end
  return reasons
end

-- Evacuation [10.4] -----------------------------------------------------------------------------

-- Does the leader have a line of supply of any length to the east edge (the Soviet's supply edges,
-- scenario var `soviet_supply_edges`)? [11.2]
function L.line_to_east(l)
  local edge = kessel.hexset(C.supply_edge_hexes(C.SOVIET))
  local found = kessel.paths.trace{
    from = l.hex, step = lake_step, passage = soviet_passage(true),
    target = function(h) return edge:has(h) end,
  }
  return found ~= nil
end

-- Where evacuated leaders come back, and how many may be evacuated in a game [10.4]: scenario
-- parameters (C.scenario_param: an inline test position may give them as game variables).
function L.evacuation_area() return C.scenario_param("evacuation_area") end
function L.evacuation_max() return C.scenario_param("evacuation_max") end

local function evacuation_on()
  return C.option("leader_evacuation") and not C.option("wbc09_05_no_leader_evacuation")
end

-- [10.4] With evacuation in effect, the scenario's `evacuation_area` is an area of the map: one the
-- map lacks would keep every evacuated leader off it for good (each turn's return finds no hex to
-- come back through). A set-up error at the variable's line of [vars] (`var =`), as the entry
-- areas of [14.1] and [14.2] are (reinforcements.lua).
function L.evacuation_problems()
  if not evacuation_on() then return {} end
  local area = L.evacuation_area()
  if kessel.map.area(area) ~= nil then return {} end
  return { { var = "evacuation_area", message = string.format(
    "leader_evacuation is on [10.4] but the map has no entry area %s (evacuation_area): an evacuated leader could never return",
    tostring(area)) } }
end

kessel.on("check", function() return L.evacuation_problems() end)

-- The fields of an evacuation (C.shape_reason): a malformed action is refused, naming the field.
local EVAC_FIELDS = { { name = "leader", kind = "string" } }

local function evac_reasons(a)
  local shape = C.shape_reason(a, "10.4", EVAC_FIELDS)
  if shape then return shape end
  if not evacuation_on() then
    if C.option("wbc09_05_no_leader_evacuation") then
      return C.reason("WBC09 #5", "leader evacuation is not in effect (WBC09 #5)")
    end
    return C.reason("10.4", "leader evacuation is an optional rule that is off (option leader_evacuation)")
  end
  -- the decision waiting, named with its own case (a bid, a loss, a retreat path, an advance)
  local pr = C.pending_reason()
  if pr then return pr end
  if C.phasing() ~= C.SOVIET or not C.in_movement_phase() then
    return C.reason("10.4", "a leader is evacuated in the Soviet Movement Phase (%s)", tostring(a.leader))
  end
  if a.leader == nil then
    return C.reason("10.4", "name the leader to evacuate: evacuate{leader=id}")
  end
  local l = kessel.units.get(a.leader)
  if not l or not C.is_leader(l) or l.side ~= C.SOVIET or not C.on_map(l) then
    return C.reason("10.4", "only a Soviet leader on the map may be evacuated (`%s` is not one)", tostring(a.leader))
  end
  -- [6.6] a disrupted unit may not move, and an evacuation takes the leader off the map, which
  -- is a move as a rail ride is; a disrupted leader has lost his functions too [6.6]. He may go
  -- on a later turn, once his own Disruption Removal Phase has lifted the marker.
  if C.disrupted(l) then
    return C.reason("6.6", "%s is disrupted and may not move, so he may not be evacuated this phase", C.name_at(l))
  end
  local done = kessel.game.var("evacuations") or {}
  local max = L.evacuation_max()
  if #done >= max then
    local words = { "one leader has", "two leaders have", "three leaders have", "four leaders have", "five leaders have" }
    return C.reason("10.4", "%s already been evacuated this game (the limit is %d)",
      words[#done] or (#done .. " leaders have"), max)
  end
  for _, e in ipairs(done) do
    if e.turn == kessel.game.turn() then
      return C.reason("10.4", "a leader was already evacuated this turn (%s may go on a later turn)", C.name(l))
    end
  end
  if L.line_to_east(l) then
    return C.reason("10.4", "%s still has a line of supply to %s", C.name(l), C.edge_text(C.SOVIET))
  end
end

kessel.action{
  kind = "evacuate", rule = "10.4", description = "evacuate a cut-off Soviet leader (optional rule): evacuate{leader=id}",
  validate = C.sided(evac_reasons),
  apply = function(a)
    local l = kessel.units.get(a.leader)
    local done = kessel.game.var("evacuations") or {}
    done[#done + 1] = { id = l.id, turn = kessel.game.turn(), returns = kessel.game.turn() + 1 }
    kessel.emit.var("evacuations", done)
    kessel.emit.withdraw(l.id)
    kessel.emit.note("10.4", C.name(l) .. " evacuated from " .. l.hex .. "; returns next turn at " .. L.evacuation_area())
  end,
  enumerate = C.sided_list(function(side)
    local out = {}
    if side and side ~= C.SOVIET then return out end
    if not evacuation_on() or kessel.game.var("pending") then return out end
    for _, l in ipairs(C.units_of(C.SOVIET)) do
      if C.is_leader(l) and not evac_reasons{ leader = l.id } then
        out[#out + 1] = { kind = "evacuate", leader = l.id }
      end
    end
    return out
  end),
}

-- Evacuated leaders come back at the start of the Soviet Movement Phase of the next turn, in the
-- scenario's evacuation area [10.4], having paid the entry hex's cost as every arrival does.
kessel.on("step_start", function()
  if kessel.game.step().id ~= "soviet_movement" then return end
  local done = kessel.game.var("evacuations")
  if not done then return end
  local area = kessel.map.area(L.evacuation_area()) or {}
  local returned = false
  local ezoc = Z.enemy_zoc(C.SOVIET)
  for _, e in ipairs(done) do
    if not e.back and e.returns <= kessel.game.turn() then
      local waits = true
      for _, h in ipairs(area) do
        -- it comes back through X like any arrival: into a hex it may enter (no lake [6.7]), whose
        -- entry cost it spends [14.3]; alone, as a leader, never into a German unit's hex nor
        -- into a German zone of control [6.22]
        local cost = require("rules.reinforcements").entry_mp(kessel.units.get(e.id), h)
        if not C.enemy_at(h, C.SOVIET) and not ezoc:has(h) and cost ~= nil then
          waits = false
          kessel.emit.place(e.id, h)
          kessel.emit.unit_var(e.id, "mp_spent", math.ceil(cost * 2 - 1e-9))
          -- an arrival like any other: from a railway hex he may ride on that phase [6.3] [14.3]
          kessel.emit.unit_var(e.id, "entered_turn", kessel.game.turn())
          kessel.emit.unit_var(e.id, "entered_at", h)
          kessel.emit.note("10.4", string.format("%s returns from evacuation at %s (entering costs %s MP)",
            C.name(kessel.units.get(e.id)), h, C.mp(cost)))
          e.back = true
          returned = true
          break
        end
      end
      if waits then
        kessel.emit.note("10.4", string.format("%s cannot return at %s this turn: every hex of it is German-occupied or in a German zone of control, which a leader alone may not enter [%s]; he returns when one is open",
          C.name(kessel.units.get(e.id)), L.evacuation_area(), Z.ESCORT_RULE))
      end
    end
  end
  kessel.emit.var("evacuations", done)
  if returned then
    -- he is back for the start of the phase: supply for movement [11.3], judged by supply.lua's
    -- start-of-phase hook before this one ran, is judged again with him on the map (overrun.lua's
    -- record of who began the phase in command [6.5] is made after this hook)
    require("rules.supply").mark(C.SOVIET)
  end
end)

return L
