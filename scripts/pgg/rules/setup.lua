-- [5] Set-up.
--
-- Checks run by `kessel check` (and the editor's validation) before play: the things a scenario
-- author can get wrong that the rules, not the file format, know about.
--
-- [5.1] The Soviet sets up first. Armies given a multi-hex set-up area (the 13th and 20th: units
-- with a `setup_area`, which the engine spreads over the area in file order) are arranged by the
-- Soviet player himself within the stacking limits [7.1]: `setup_place{unit=id, hex=label}` puts
-- one such unit in another hex of its own area, and `end_setup` ends his set-up. The pre-game runs
-- in this order: WBC bidding for sides (bidding.lua, a pending decision that holds up everything
-- else), then the Soviet set-up, then the German's initial air markers [13.2] (interdiction.lua:
-- offered only once the Soviet set-up is over), then turn 1. So the set-up is open on turn 1, in the
-- Soviet Movement Phase, with no decision pending, while the German's initial air placement waits
-- and until the Soviet ends it. Set-up stacks are judged like any other at the end of the Soviet
-- Movement Phase [7.1] (stacking.lua). Supply for the first move [11.3] is judged on the
-- arrangement as it stands after each placement. A position built inline gives a unit its area with
-- `setup_area`, as a scenario file does; game var `setup_areas` (unit id -> area id) is read for a
-- unit without one (older test positions name the areas so).
local C = require("rules.common")
local ST = require("rules.stacking")
local SU = {}

-- [10.1] Every leader of the position (on the map, to come or dead) has a rating within the
-- ruleset's range: it is the leader's command radius, attack bonus and defence, and a rating the
-- rules know no leader to have is a mistake in the scenario. `check` problems, one per leader.
function SU.leader_problems()
  local L = require("rules.leaders")
  local out = {}
  for _, u in ipairs(kessel.units.all()) do
    if C.is_leader(u) then
      local r = u.attrs and u.attrs.rating
      -- none at all is the newcomer's slip (a leader copied without its attrs line): say where it goes
      local bad = r == nil
          and string.format("a leader needs a rating [10.1]: give it `attrs = { rating = N }`, N from %d to %d",
            L.RATING_MIN, L.RATING_MAX)
        or L.rating_problem(r)
      if bad then out[#out + 1] = { unit = u.id, message = string.format("leader `%s`: %s", u.id, bad) } end
    end
  end
  return out
end

kessel.on("check", function()
  local problems = {}
  -- a unit's type must belong to its side
  for _, u in ipairs(kessel.units.all()) do
    local t = kessel.game.unit_type(u.type)
    if t and t.side and t.side ~= u.side then
      problems[#problems + 1] = { unit = u.id, message = string.format(
        "unit `%s` is %s, but unit type `%s` is a %s type", u.id, u.side, u.type, t.side) }
    end
  end
  for _, p in ipairs(SU.leader_problems()) do problems[#problems + 1] = p end
  -- [7.1, 7.2] stacking at set-up. The printed campaign puts whole Soviet armies in one hex; the
  -- first Soviet Movement Phase cures that [5.2]. A scenario lists such hexes in its
  -- `setup_overstack_hexes` variable; anywhere else an overstacked set-up is a mistake.
  local allowed = {}
  for _, h in ipairs(kessel.scenario.var("setup_overstack_hexes")) do allowed[h] = true end
  local seen = {}
  for _, u in ipairs(kessel.units.all{ location = "map" }) do
    if not seen[u.hex] then
      seen[u.hex] = true
      local here = kessel.units.at(u.hex)
      -- [6.1] no unit ever shares a hex with enemy units: nor at set-up
      for _, other in ipairs(here) do
        if other.side ~= here[1].side then
          problems[#problems + 1] = { unit = other.id, message = string.format(
            "hex %s holds units of both sides at set-up (%s and %s) [6.1]",
            u.hex, here[1].id, other.id) }
          break
        end
      end
      local ok, why = ST.limit_ok(here[1].side, here)
      if not ok and not allowed[u.hex] then
        problems[#problems + 1] = { unit = here[#here].id, message = string.format(
          "hex %s is overstacked at set-up: %s [%s]", u.hex, why.message, why.rule) }
      end
    end
  end
  return problems
end)

-- Soviet set-up within multi-hex areas [5.1] --------------------------------------------------

-- The set-up area of a unit (an area id), or nil.
function SU.area_of(u)
  if u.setup_area then return u.setup_area end
  local inline = kessel.game.var("setup_areas")
  return inline and inline[u.id] or nil
end

-- Is the Soviet set-up still open? Else false and the reason.
function SU.window()
  if kessel.game.turn() ~= 1 or not C.step_is("soviet_movement") then
    return false, C.reason("5.1", "the Soviet sets up before his first Movement Phase of turn 1")
  end
  local M = require("rules.movement")
  if not M.initial_air_pending() then
    return false, C.reason("5.1", "the Soviet set-up is over: the German's initial air placement is closed")
  end
  if #kessel.markers.all{ kind = "air_interdiction", side = C.GERMAN, placed = true } > 0 then
    return false, C.reason("13.2", "the Soviet set-up is over: the German places his air markers after it, and has begun")
  end
  if kessel.game.var("setup_done") then
    return false, C.reason("5.1", "the Soviet set-up is over: the Soviet has ended it")
  end
  return true
end

-- Soviet units on the map with a set-up area to arrange [5.1].
local function has_areas()
  for _, u in ipairs(C.units_of(C.SOVIET)) do
    if SU.area_of(u) then return true end
  end
  return false
end

-- Is the Soviet set-up still to be made? (The German's initial air markers wait for it [13.2].) A
-- position with no set-up area has nothing to arrange.
function SU.open()
  return (SU.window()) and has_areas()
end

kessel.action{
  kind = "end_setup", rule = "5.1", description = "the Soviet ends his set-up; the German's initial air markers follow [13.2]",
  validate = C.sided(function(a)
    local pr = C.pending_reason()
    if pr then return pr end
    if not SU.open() then
      local _, why = SU.window()
      return why or C.reason("5.1", "no unit has a set-up area to arrange")
    end
  end),
  apply = function(a)
    kessel.emit.var("setup_done", true)
    kessel.emit.note("5.1", "the Soviet set-up is over: the German places his initial air markers [13.2]")
  end,
  enumerate = C.sided_list(function(side)
    if side and side ~= C.SOVIET then return {} end
    if kessel.game.var("pending") or not SU.open() then return {} end
    return { { kind = "end_setup" } }
  end),
}

-- The fields of a set-up placement (C.shape_reason): a malformed action is refused, naming the field.
local SETUP_FIELDS = { { name = "unit", kind = "string" }, { name = "hex", kind = "hex" } }

function SU.place_reasons(a)
  local shape = C.shape_reason(a, "5.1", SETUP_FIELDS)
  if shape then return shape end
  local pr = C.pending_reason()
  if pr then return pr end
  local open, why = SU.window()
  if not open then return why end
  local u = type(a.unit) == "string" and kessel.units.get(a.unit) or nil
  if not u then return C.reason("5.1", "no unit `%s`", tostring(a.unit)) end
  if u.side ~= C.SOVIET or not C.on_map(u) then
    return C.reason("5.1", "%s is not a Soviet unit set up on the map", C.name(u))
  end
  local area = SU.area_of(u)
  if not area then
    return C.reason("5.1", "%s sets up in its printed hex (%s), not in a set-up area", C.name(u), u.hex)
  end
  local hex = a.hex
  if type(hex) ~= "string" or not kessel.hex.valid(hex) then
    return C.reason("5.1", "`%s` is not a hex of the map", tostring(hex))
  end
  if not C.contains(kessel.map.area(area) or {}, hex) then
    return C.reason("5.1", "%s is not in %s's set-up area %s", hex, C.name(u), area)
  end
  if hex == u.hex then return C.reason("5.1", "%s is already in %s", C.name(u), hex) end
  local after = {}
  for _, x in ipairs(kessel.units.at(hex)) do
    if x.side ~= u.side then return C.reason("5.1", "%s holds enemy units", hex) end
    after[#after + 1] = x
  end
  after[#after + 1] = u
  local ok, over = ST.limit_ok(u.side, after)
  if not ok then return C.reason("7.1", "%s in %s: %s", C.name(u), hex, over.message) end
end

kessel.action{
  kind = "setup_place", rule = "5.1",
  description = "Soviet set-up: put a unit of a multi-hex set-up area in another hex of it: setup_place{unit=id, hex=label}",
  validate = C.sided(SU.place_reasons),
  apply = function(a)
    local u = kessel.units.get(a.unit)
    kessel.emit.place(u.id, a.hex)
    kessel.emit.note("5.1", string.format("set-up: %s placed in %s (from %s, area %s)", C.name(u), a.hex, u.hex, SU.area_of(u)))
    -- supply for movement is judged at the start of the Movement Phase [11.3], which the set-up
    -- precedes: judge it again on the new arrangement (a unit placed into or out of its leader's
    -- radius [11.2])
    require("rules.supply").mark(C.SOVIET)
  end,
  enumerate = C.sided_list(function(side)
    local out = {}
    if side and side ~= C.SOVIET then return out end
    if not SU.window() or kessel.game.var("pending") then return out end
    for _, u in ipairs(C.units_of(C.SOVIET)) do
      local area = SU.area_of(u)
      if area then
        for _, h in ipairs(kessel.map.area(area) or {}) do
          local a = { kind = "setup_place", unit = u.id, hex = h }
          if not SU.place_reasons(a) then out[#out + 1] = a end
        end
      end
    end
    return out
  end),
}

return SU
