-- [14] Reinforcements.
--
-- Scheduled [14.3]: a unit enters in its own player's (first) Movement Phase of its entry turn or
-- any later turn, never earlier, in a hex of its entry area, by a `move` whose path starts in that
-- hex (movement.lua); entering costs the entry hex's terrain, or the road rate where a road runs
-- off the map there [6.7], +1 MP under an enemy interdiction marker [13.3]. Nothing enters on
-- turn 12, the campaign's last (scenario var `closing_turn`, C.closing); `kessel check` refuses a
-- unit scheduled for it.
--
-- Provisional [14.1]: at the start of each Soviet Movement Phase (not on turn 12 [14.3]) one die
-- picks an entrance P1..P6 (scenario var `provisional_entrances`); one untried rifle division
-- enters there, or, if every hex of that entrance is German-occupied or in German ZOC, in the
-- nearest open hex toward the east.
--
-- South-Western Front [14.2] (`swf_call`): from turn 2 the Soviet may call up to 5 rifle divisions
-- a turn, 10 a game, each entering on a south-edge rail hex at or east of entrance Z; the German
-- scores 1 VP for each of the first five and 2 for each of the next five (game vars `swf_count`,
-- `swf_vp`; victory.lua scores them).
--
-- Where the divisions come from: reserve units (Soviet rifle divisions waiting off the map with no
-- entry turn) first, then the dead pile of eliminated rifle divisions (not the revealed 0-0-6
-- duds, which were removed into their own pile [12.3] [12.4]). Under WBC09 #14
-- (`wbc09_14_rifle_recycling_delay`) the dead pile opens only once no original division is left
-- to arrive, and a division returns no earlier than two turns after it died (unit var
-- `elim_turn`, stamped at the end of the phase it died in).
local C = require("rules.common")
local Z = require("rules.zoc")
local R = {}

-- A scenario variable; its default is declared in scenario_vars.lua.
local svar = kessel.scenario.var

-- Campaign-wide mechanics a scenario switches on in its [vars] (`provisional_reinforcements`,
-- `south_western_front`): off unless it does, so a small scenario on a cut of the map gets neither
-- [14.1] nor [14.2] by accident. Inline positions (tests, scripts: no scenario) have every
-- mechanic, unless a game variable of the same name says false.
function R.mechanic_on(key)
  if kessel.scenario.name() ~= nil then return kessel.scenario.var(key) == true end
  return kessel.game.var(key) ~= false
end

-- [14.3] Units scheduled for the closing turn or later, which would wait off the map the whole
-- game, as `check` problems.
function R.never_entering()
  local out = {}
  for _, u in ipairs(kessel.units.all{ location = "pending" }) do
    if u.enter_turn and C.closing(u.enter_turn) then
      out[#out + 1] = { unit = u.id, message = string.format(
        "%s is to enter on turn %d, but nothing enters from turn %d on [14.3] (scenario var closing_turn): it would never come on",
        u.id, u.enter_turn, C.closing_turn()) }
    end
  end
  return out
end

-- A switched-on mechanic whose entry areas the map lacks is a set-up error, not a silent no-op
-- (each at the line of the scenario variable that names the area).
kessel.on("check", function()
  local out = {}
  if kessel.scenario.name() == nil then return out end
  if R.mechanic_on("provisional_reinforcements") then
    for _, id in ipairs(svar("provisional_entrances")) do
      if kessel.map.area(id) == nil then
        out[#out + 1] = { var = "provisional_entrances", message = string.format(
          "provisional_reinforcements is on [14.1] but the map has no entry area %s (provisional_entrances)", id) }
      end
    end
  end
  if R.mechanic_on("south_western_front") and kessel.map.area(svar("swf_area")) == nil then
    out[#out + 1] = { var = "swf_area", message = string.format(
      "south_western_front is on [14.2] but the map has no entry area %s (swf_area)", svar("swf_area")) }
  end
  for _, p in ipairs(R.never_entering()) do out[#out + 1] = p end
  -- [14.2] the German VP of each call: whole numbers from 0 to 1000 (Lua integers wrap past 2^63:
  -- a huge entry made the German total the lowest there is)
  for i, v in ipairs(svar("swf_vp")) do
    if math.type(v) ~= "integer" or v < 0 or v > 1000 then
      out[#out + 1] = { var = "swf_vp", message = string.format(
        "swf_vp entry %d is %s: the German VP for a South-Western Front division is a whole number from 0 to 1000 [14.2]", i, tostring(v)) }
    end
  end
  return out
end)

-- Entry cost of a hex from off the map [6.7]: its terrain cost for the unit's class, or the road
-- rate when the unit comes in along a road, i.e. the hex is where a road runs off the map (a road
-- that ends in a hex of the map's edge: R.road_off_map). The rates are those of the chart (and of
-- init.lua's kessel.movement): terrain clear 1, forest 1 for infantry and leaders and 2 for the
-- rest, swamp 2, lake closed; road 1 for infantry and cavalry, 1/2 for motorized units and leaders
-- (who move as motorized on roads [10.2]).
local TERRAIN = {
  clear = function() return 1 end,
  forest = function(class) return (class == "infantry" or class == "leader") and 1 or 2 end,
  swamp = function() return 2 end,
}
local ROAD = { infantry = 1, cavalry = 1, motorized = 0.5, leader = 0.5 }

-- True if a road runs off the map at `hex`: the hex lies on an edge of the map and a road ends in
-- it (exactly one of its hexsides carries a road, so the road's other end is beyond the edge).
-- A road that only passes through an edge hex (two road hexsides on the map) is not taken to
-- leave the map there.
function R.road_off_map(hex)
  if not kessel.map.has_link(hex, "road") then return false end
  local edge = false
  for _, e in ipairs{ "north", "south", "west", "east" } do
    if kessel.map.on_edge(hex, e) then edge = true end
  end
  if not edge then return false end
  local sides = 0
  for _, n in ipairs(kessel.hex.neighbors(hex)) do
    if kessel.map.has_side(hex, n, "road") then sides = sides + 1 end
  end
  return sides == 1
end

function R.entry_cost(u, hex)
  local f = TERRAIN[kessel.map.terrain(hex) or "clear"]
  if not f then return nil end
  local class = C.class(u)
  if ROAD[class] and R.road_off_map(hex) then return ROAD[class] end
  return f(class)
end

local function entry_phase(side)
  return (side == C.SOVIET and C.step_is("soviet_movement")) or (side == C.GERMAN and C.step_is("german_movement"))
end

-- The evacuation [10.4] of a leader waiting off the map to come back (game var `evacuations`,
-- leaders.lua), or nil. He comes back by himself, at the start of a Soviet Movement Phase; never by
-- a `move`, even when he first came as a scheduled reinforcement whose turn has come.
function R.evacuee(u)
  for _, e in ipairs(kessel.game.var("evacuations") or {}) do
    if e.id == u.id and not e.back then return e end
  end
  return nil
end

-- Checks that `units` (pending) are due to enter now, whatever the hex: their turn has
-- come, they share one entry area, it is their player's (initial) Movement Phase and not turn 12
-- [14.3]. Returns true or nil, reason.
function R.entry_due(units)
  local turn = kessel.game.turn()
  local area = units[1].enter_area
  for _, u in ipairs(units) do
    local evac = R.evacuee(u)
    if evac then
      return nil, C.reason("10.4", "%s was evacuated on turn %d: he comes back by himself at the start of a Soviet Movement Phase, from turn %d",
        C.name(u), evac.turn, evac.returns)
    end
    if u.enter_turn == nil then
      return nil, C.reason("14", "%s has no scheduled entry (it comes only as a provisional or South-Western Front division)", C.name(u))
    end
    if u.enter_turn > turn then
      return nil, C.reason("14.3", "%s enters on turn %d, not earlier", C.name(u), u.enter_turn)
    end
    if u.enter_area ~= area then
      return nil, C.reason("14.3", "units entering together must share an entry area (%s enters in %s, %s in %s)",
        C.name(units[1]), tostring(area), C.name(u), tostring(u.enter_area))
    end
  end
  if C.closing(turn) then return nil, C.reason("14.3", "no reinforcements enter on turn %d (%s)", turn, C.name(units[1])) end
  if not entry_phase(units[1].side) then
    return nil, C.reason("14.3", "reinforcements enter in their player's (initial) Movement Phase (%s)", C.name(units[1]))
  end
  return true
end

-- Checks that `units` (pending) may enter at `hex` now; returns hex or nil, reason.
function R.entry_check(units, hex)
  local due, why = R.entry_due(units)
  if not due then return nil, why end
  local area = units[1].enter_area
  local hexes = kessel.map.area(area) or {}
  if #hexes == 0 then
    -- (a position set up inline on a map without the unit's area: say so, not "not in ... ()")
    return nil, C.reason("14.3", "%s enters in area %s, which this map does not have", C.name(units[1]), tostring(area))
  end
  if not C.contains(hexes, hex) then
    return nil, C.reason("14.3", "%s is not in entry area %s (%s)", tostring(hex), area, table.concat(hexes, ", "))
  end
  if C.enemy_at(hex, units[1].side) then return nil, C.reason("6.1", "entry hex %s holds enemy units", hex) end
  return hex
end

-- Entry moves for the AI: for each due group (same area), up to 3 combat units (+ a leader) per
-- action, one action per hex of the area.
function R.entry_moves(side)
  local out = {}
  local turn = kessel.game.turn()
  if not entry_phase(side) or C.closing(turn) then return out end
  local M = require("rules.movement")
  local groups, order = {}, {}
  for _, u in ipairs(kessel.units.all{ side = side, location = "pending" }) do
    if u.enter_turn and u.enter_turn <= turn and not R.evacuee(u) and M.cannot_move(u, true) == nil then
      if not groups[u.enter_area] then groups[u.enter_area] = { combat = {}, leaders = {} }; order[#order + 1] = u.enter_area end
      local g = groups[u.enter_area]
      table.insert(C.is_leader(u) and g.leaders or g.combat, u.id)
    end
  end
  for _, area in ipairs(order) do
    local g = groups[area]
    local ids = {}
    for i = 1, math.min(3, #g.combat) do ids[#ids + 1] = g.combat[i] end
    if #g.leaders > 0 and (side == C.SOVIET or #ids == 0) then ids[#ids + 1] = g.leaders[1] end
    for _, h in ipairs(kessel.map.area(area) or {}) do
      if not C.enemy_at(h, side) then out[#out + 1] = { kind = "move", units = ids, path = { h } } end
    end
  end
  return out
end

-- The division pool ----------------------------------------------------------------------------

-- WBC09 #14: is an original rifle division still to come? The destroyed ones may come back "on
-- the turn that the last of the original rifle divisions arrive": a scheduled division whose turn
-- has come (this turn, or an earlier one if the Soviet delays it [14.3]) has arrived for this
-- purpose, even before it moves on; one due on a later turn, or a reserve division (provisional or
-- South-Western Front, no turn of its own), has not.
local function originals_left()
  local turn = kessel.game.turn()
  for _, u in ipairs(kessel.units.all{ side = C.SOVIET, type = "rifle", location = "pending" }) do
    if u.enter_turn == nil or u.enter_turn > turn then return true end
  end
  return false
end

-- Rifle divisions that can be brought in now: reserve first, then the dead pile. `formation`
-- (optional) names whose reserve it is: the campaign keeps separate reserves for the provisional
-- divisions and the South-Western Front (scenario vars `provisional_formation`, `swf_formation`);
-- a reserve unit with no formation serves either.
function R.available_rifles(formation)
  local reserve = {}
  for _, u in ipairs(kessel.units.all{ side = C.SOVIET, type = "rifle", location = "pending" }) do
    if u.enter_turn == nil and (formation == nil or u.formation == nil or u.formation == ""
        or u.formation == formation) then
      reserve[#reserve + 1] = u
    end
  end
  if #reserve > 0 then return reserve end
  local wbc = C.option("wbc09_14_rifle_recycling_delay")
  if wbc and originals_left() then return {} end
  local dead, turn = {}, kessel.game.turn()
  -- a dead counter whose values a reveal has drawn is back in play on that unit [12.4]: it is
  -- not in the pile to come back a second time
  local drawn = {}
  for _, id in ipairs(kessel.game.var("dead_faces_used") or {}) do drawn[id] = true end
  for _, u in ipairs(kessel.units.all{ side = C.SOVIET, type = "rifle", location = "eliminated" }) do
    local died = u.vars.elim_turn
    -- a revealed 0-0-6 was removed, not killed [12.3]: it is in the dud pile and never comes back
    local dud = not u.hidden and (u.attack or 0) == 0 and (u.defence or 0) == 0
    if not dud and not drawn[u.id] and (not wbc or (died ~= nil and died <= turn - 2)) then dead[#dead + 1] = u end
  end
  -- WBC09 #14: the divisions the Soviet selected come first, in his order
  local first = require("rules.untried").selected(dead)
  if first then
    local rest = { first }
    for _, u in ipairs(dead) do if u ~= first then rest[#rest + 1] = u end end
    dead = rest
  end
  return dead
end

-- The fields of a selection (C.shape_reason): a malformed action is refused, naming the field.
local SELECT_FIELDS = { { name = "units", kind = "ids" } }

-- WBC09 #14: "the Soviet player selects" the destroyed rifle divisions that return. A standing
-- order, `select_returning{units={ids}}`: the dead divisions he wants back, first wanted first.
-- Every division that comes back from the dead pile is the first of his list that may (dead two
-- turns before it entered, not drawn again already): a face-down reinforcement revealed once the
-- counter mix is used up (untried.lua U.reveal), a provisional or South-Western Front division
-- taken from the pile (R.available_rifles). A division he has not named is drawn at random, as in
-- the standard game. The order may be given again at any time in his Movement Phase; it is not
-- offered among the legal actions (a preference, not a move of the game).
local function select_reasons(a)
  local shape = C.shape_reason(a, "WBC09 #14", SELECT_FIELDS)
  if shape then return shape end
  if not C.option("wbc09_14_rifle_recycling_delay") then
    return C.reason("WBC09 #14", "the Soviet selects returning divisions only under WBC09 #14 (option wbc09_14_rifle_recycling_delay); in the standard game they are drawn at random [12.4]")
  end
  local pr = C.pending_reason()
  if pr then return pr end
  if not C.step_is("soviet_movement") then
    return C.reason("WBC09 #14", "the Soviet selects his returning divisions in his Movement Phase, when reinforcements enter")
  end
  if type(a.units) ~= "table" or #a.units == 0 then
    return C.reason("WBC09 #14", "name the destroyed rifle divisions to bring back, first wanted first (units={ids})")
  end
  local seen = {}
  for _, id in ipairs(a.units) do
    local u = kessel.units.get(id)
    if not u or u.side ~= C.SOVIET or u.type ~= "rifle" or u.location ~= "eliminated" then
      return C.reason("WBC09 #14", "%s is not a destroyed Soviet rifle division", tostring(id))
    end
    if not u.hidden and (u.attack or 0) == 0 and (u.defence or 0) == 0 then
      return C.reason("12.4", "%s is a 0-0 counter removed on reveal: it is in the second dead pile and never returns", C.name(u))
    end
    if seen[id] then return C.reason("WBC09 #14", "%s is named twice", C.name(u)) end
    seen[id] = true
  end
end

kessel.action{
  kind = "select_returning", rule = "WBC09 #14",
  description = "WBC09 #14: the destroyed rifle divisions the Soviet wants back, first wanted first: select_returning{units={ids}}",
  validate = C.sided(select_reasons),
  apply = function(a)
    kessel.emit.var("returning_order", { table.unpack(a.units) })
    local names = {}
    for i, id in ipairs(a.units) do
      local u = kessel.units.get(id)
      names[i] = u and C.name(u) or id
    end
    kessel.emit.note("WBC09 #14", "the Soviet's returning divisions, first wanted first: " .. table.concat(names, ", "))
  end,
  enumerate = function() return {} end,
}

local function M_spent(u) return ((u.vars and u.vars.mp_spent) or 0) end

-- Open for a Soviet entry: not German-occupied, not in German ZOC, and a hex a rifle division may
-- enter at all (not a lake [6.7]).
local function open_hex(h, gzoc)
  return not C.enemy_at(h, C.SOVIET) and not gzoc:has(h)
    and TERRAIN[kessel.map.terrain(h) or "clear"] ~= nil
end

-- The provisional entrance hex for entrance `area`, or the nearest open hex toward the east [14.1].
function R.provisional_hex(area)
  local hexes = kessel.map.area(area) or {}
  local gzoc = Z.zoc_of(C.GERMAN)
  for _, h in ipairs(hexes) do if open_hex(h, gzoc) then return h end end
  if #hexes == 0 then return nil end
  local east = 0
  for _, h in ipairs(hexes) do east = math.max(east, C.column(h)) end
  local edges = {}
  for _, e in ipairs({ "north", "south", "east", "west" }) do
    if kessel.map.on_edge(hexes[1], e) then edges[#edges + 1] = e end
  end
  local best, bd = nil, math.huge
  for _, h in ipairs(kessel.map.hexes()) do
    if C.column(h) > east and open_hex(h, gzoc) then
      local on = #edges == 0
      for _, e in ipairs(edges) do if kessel.map.on_edge(h, e) then on = true end end
      if on then
        local d = kessel.hex.distance(hexes[#hexes], h)
        if d < bd then best, bd = h, d end
      end
    end
  end
  return best
end

-- What entering `hex` from off the map costs `u` in MP: the hex's terrain or road rate [6.7], +1 under an
-- enemy interdiction marker [13.3]; nil for a hex it may not enter. Paid by every unit that moves
-- onto the map: a scheduled unit's first step (movement.lua M.plan) and an evacuated leader coming
-- back [10.4]; not by the divisions placed by the provisional roll or a South-Western Front call
-- (bring_in).
function R.entry_mp(u, hex)
  local c = R.entry_cost(u, hex)
  if c == nil then return nil end
  if require("rules.movement").side_base(u.side, true).marked:has(hex) then c = c + 1 end
  return c
end

-- Brings in `u` at `hex` (inside an apply or hook): a provisional division [14.1] or a South-Western
-- Front division [14.2] is placed on its entry hex with its whole MA, free to move on or, from a
-- railway hex, to move by rail [6.3]. Reading (the reference is silent on what appearing costs): the
-- South-Western Front's entry hexes are railway hexes, which matters only if the divisions may ride
-- on from there; a provisional division is placed where the die puts it in the same way. Scheduled
-- reinforcements instead move onto the map from their area and pay the entry hex (M.plan, R.entry_mp).
local function bring_in(u, hex, rule, why)
  -- [12.4] a division back from the dead pile comes back face down in the standard game: its
  -- counter rejoins the unknowns (its pool), and the German learns its values only when it is
  -- revealed again. Under WBC09 #14 the Soviet selects it among the divisions both players saw
  -- die, so it comes back face up. (A test position's unit with no pool has nowhere to hide.)
  if u.location == "eliminated" and u.pool and not u.hidden
      and not C.option("wbc09_14_rifle_recycling_delay") then
    kessel.emit.conceal(u.id)
    -- what it was is forgotten with its values: the second 0-1-6's restriction [12.3] too
    if u.flags.no_attack then kessel.emit.flag(u.id, "no_attack", false) end
    if kessel.game.var("second_zero_one") == u.id then kessel.emit.var("second_zero_one", nil) end
  end
  kessel.emit.place(u.id, hex)
  kessel.emit.unit_var(u.id, "entered_turn", kessel.game.turn())
  kessel.emit.unit_var(u.id, "mp_spent", 0)
  kessel.emit.note(rule, string.format("%s enters at %s (%s; placed with its whole MA)", C.name(u), hex, why))
  -- [6.37] a Soviet combat unit entering a cut rail hex repairs it, as a scheduled arrival moving
  -- onto the map does (movement.lua, rail.lua RL.after_move): the division enters its hex too
  require("rules.rail").repair(u, { hex })
  -- [15] and it has been in the hex: a city there is the Soviet's, even if it moves on this phase
  require("rules.victory").passed(hex, u.side, u)
  -- [6.22] placed in an enemy ZOC (a South-Western Front hex may be in one), it has entered it
  require("rules.movement").note_zoc_stops({ u.id })
end

-- The provisional roll [14.1] (inside an apply or hook).
function R.provisional()
  if not R.mechanic_on("provisional_reinforcements") then return end
  local list = svar("provisional_entrances")
  local r = kessel.dice.roll("provisional reinforcement entrance [14.1]")
  local area = list[r]
  kessel.emit.var("provisional_last", { turn = kessel.game.turn(), roll = r, area = area })
  local pool = R.available_rifles(svar("provisional_formation"))
  if #pool == 0 then
    kessel.emit.note("14.1", "provisional roll " .. r .. ": no rifle division is available")
    return
  end
  local hex = area and R.provisional_hex(area)
  if not hex then
    kessel.emit.note("14.1", "provisional roll " .. r .. ": no open hex at or east of entrance " .. tostring(area))
    return
  end
  -- what the arrival will change in its hex, kept so that place_provisional can give the default
  -- hex back as it was [14.1] (a city's owner [15], a rail cut and the errata's repair record [6.37])
  local undo = { owner = (kessel.game.var("city_owner") or {})[hex], cut = require("rules.rail").cuts()[hex],
    repaired = kessel.game.var("rail_repaired") }
  bring_in(pool[1], hex, "14.1", "provisional reinforcement, roll " .. r .. ", entrance " .. area)
  -- [6.5] [10.35] the division appears before anything moves, so it begins the phase where it is
  -- placed: which of the hexes it may be put on (this one and the entrance's, place_provisional)
  -- are inside a working leader's radius now, at the start of the phase, for overrun.lua
  local command, commanded = require("rules.leaders").command_hexes(), {}
  local candidates = { hex }
  for _, h in ipairs(kessel.map.area(area) or {}) do candidates[#candidates + 1] = h end
  for _, h in ipairs(candidates) do
    if command[h] and not C.contains(commanded, h) then commanded[#commanded + 1] = h end
  end
  kessel.emit.var("provisional_last", { turn = kessel.game.turn(), roll = r, area = area, unit = pool[1].id,
    hex = hex, commanded = commanded, undo = undo })
end

-- [6.5] The hex where this turn's provisional division `u` appeared (after any place_provisional),
-- and whether it was inside a working leader's radius at the start of the phase; nil when `u` is
-- not the division that appeared this turn.
function R.provisional_start(u)
  local last = kessel.game.var("provisional_last")
  if not last or last.unit ~= u.id or last.turn ~= kessel.game.turn() or not last.hex then return nil end
  return last.hex, C.contains(last.commanded or {}, last.hex)
end

-- The fields of a placement (C.shape_reason): a malformed action is refused, naming the field.
local PROVISIONAL_FIELDS = { { name = "hex", kind = "hex" } }

-- [14.1] The die picks the entrance; where in it the division appears is the Soviet's choice. An
-- entrance of several hexes (the campaign's P1, the north-edge area V, nine hexes) gets the
-- division on its first open hex, and until the division has moved the Soviet may put it on any
-- other open hex of the entrance (`place_provisional{hex=}`): not German-occupied, not in German
-- ZOC, not a lake. A blocked entrance has no open hex: the division stays where the search east
-- put it.
--
-- What holds for every hex: the division that may be placed now and its entrance's record, or nil
-- and why not (the enumeration asks once, not once per hex).
local function provisional_placeable()
  local pr = C.pending_reason()
  if pr then return nil, pr end
  if not C.step_is("soviet_movement") then
    return nil, C.reason("14.1", "the provisional division is placed in the Soviet Movement Phase")
  end
  local last = kessel.game.var("provisional_last")
  local u = last and last.unit and last.turn == kessel.game.turn() and kessel.units.get(last.unit)
  if not u or not C.on_map(u) then
    return nil, C.reason("14.1", "no provisional division has entered this turn")
  end
  if M_spent(u) > 0 then
    return nil, C.reason("14.1", "%s has moved: it may no longer be placed elsewhere in entrance %s", C.name(u), last.area)
  end
  -- where in the entrance the division appears is one choice: once made, it stands (placing it
  -- again and again was a move that changed nothing, and a computer or random player could
  -- repeat it for ever)
  if last.placed then
    return nil, C.reason("14.1", "%s was already placed at %s: where it appears in entrance %s is chosen once", C.name(u), u.hex, last.area)
  end
  return u, last
end

function R.place_provisional_reasons(a)
  local shape = C.shape_reason(a, "14.1", PROVISIONAL_FIELDS)
  if shape then return shape end
  local u, last = provisional_placeable()
  if not u then return last end
  return R.provisional_hex_reason(u, last, a.hex)
end

-- Why the placeable division `u` (entrance `last.area`) may not be put on `hex`, or nil.
function R.provisional_hex_reason(u, last, hex)
  local hexes = kessel.map.area(last.area) or {}
  if type(hex) ~= "string" or not C.contains(hexes, hex) then
    return C.reason("14.1", "%s is not a hex of entrance %s (%s)", tostring(hex), last.area, table.concat(hexes, ", "))
  end
  if hex == u.hex then return C.reason("14.1", "%s is already in %s", C.name(u), hex) end
  if not open_hex(hex, Z.zoc_of(C.GERMAN)) then
    return C.reason("14.1", "%s is not open for %s: German-occupied, in German ZOC or a lake", hex, C.name(u))
  end
end

kessel.action{
  kind = "place_provisional", rule = "14.1",
  description = "put the provisional division that entered this turn on another open hex of its entrance, before it moves",
  validate = C.sided(R.place_provisional_reasons),
  apply = function(a)
    local last = kessel.game.var("provisional_last")
    local u = kessel.units.get(last.unit)
    -- the first hex was the engine's default, not where the division appears: it gets back what
    -- the arrival changed there (a city's owner [15], a rail cut [6.37]), and the hex chosen gets
    -- the arrival's effects instead
    local undo, old = last.undo, u.hex
    if undo then
      local owner = kessel.game.var("city_owner") or {}
      if owner[old] ~= undo.owner then
        owner[old] = undo.owner
        kessel.emit.var("city_owner", owner)
      end
      if undo.cut and not require("rules.rail").cuts()[old] then
        kessel.emit.marker(undo.cut, old)
        kessel.emit.var("rail_repaired", undo.repaired)
        kessel.emit.note("6.37", string.format("the railway cut at %s stays: %s does not appear there", old, C.name(u)))
      end
    end
    kessel.emit.place(u.id, a.hex)
    require("rules.rail").repair(u, { a.hex })
    require("rules.victory").passed(a.hex, u.side, u)
    local placed = { placed = true }
    for k, v in pairs(last) do placed[k] = v end
    placed.hex = a.hex   -- where it begins the phase [6.5]
    kessel.emit.var("provisional_last", placed)
    kessel.emit.note("14.1", string.format("%s is placed at %s instead of %s (entrance %s)", C.name(u), a.hex, u.hex, last.area))
  end,
  enumerate = C.sided_list(function(side)
    local out = {}
    if side ~= nil and side ~= C.SOVIET then return out end
    local u, last = provisional_placeable()
    if not u then return out end
    for _, h in ipairs(kessel.map.area(last.area) or {}) do
      if R.provisional_hex_reason(u, last, h) == nil then out[#out + 1] = { kind = "place_provisional", hex = h } end
    end
    return out
  end),
}

-- The provisional roll comes in the Soviet Movement Phase [14.1], once a turn; on turn 1 after
-- the Soviet set-up and the German's initial air markers, which come before turn 1 [13.2] (so the
-- German does not see the entrance before he places them). Apply stage (a hook or an action).
-- Nothing enters on turn 12 [14.3], and the provisional division is a reinforcement like the
-- scheduled and South-Western Front ones: no roll then.
function R.provisional_if_due()
  if not C.step_is("soviet_movement") then return end
  local last = kessel.game.var("provisional_last")
  if last and last.turn == kessel.game.turn() then return end
  if require("rules.movement").initial_air_pending() then return end
  if C.closing() then
    if R.mechanic_on("provisional_reinforcements") then
      kessel.emit.var("provisional_last", { turn = kessel.game.turn() })
      kessel.emit.note("14.3", string.format("no provisional reinforcement roll on turn %d: nothing enters then", kessel.game.turn()))
    end
    return
  end
  R.provisional()
end
kessel.on("step_start", R.provisional_if_due)
kessel.on("setup", R.provisional_if_due)

-- Stamp the turn units die (for the recycling delay).
kessel.on("step_end", function()
  for _, u in ipairs(kessel.units.all{ side = C.SOVIET, location = "eliminated" }) do
    if u.vars.elim_turn == nil then kessel.emit.unit_var(u.id, "elim_turn", kessel.game.turn()) end
  end
end)

-- The South-Western Front [14.2] ----------------------------------------------------------------

-- (kept per map and entry area)
function R.swf_hexes()
  local area = tostring(svar("swf_area"))
  return C.per_map("swf_hexes:" .. area, R.find_swf_hexes)
end

function R.find_swf_hexes()
  local z = (kessel.map.area(svar("swf_area")) or {})[1]
  local min_col = z and C.column(z) or 1
  local out = {}
  for _, h in ipairs(kessel.map.hexes()) do
    if kessel.map.on_edge(h, "south") and C.column(h) >= min_col and kessel.map.has_link(h, "railway") then
      out[#out + 1] = h
    end
  end
  return out
end

local function swf_this_turn()
  local v = kessel.game.var("swf_turn")
  if type(v) == "table" and v.turn == kessel.game.turn() then return v.n or 0 end
  return 0
end

-- The checks of a call that do not depend on the entry hex (nil when it may be made now).
function R.swf_closed()
  if not R.mechanic_on("south_western_front") then
    return C.reason("14.2", "this scenario has no South-Western Front calls (scenario var south_western_front)")
  end
  local pr = C.pending_reason()
  if pr then return pr end
  if not C.step_is("soviet_movement") then return C.reason("14.2", "South-Western Front divisions are called in the Soviet Movement Phase") end
  local turn = kessel.game.turn()
  if turn < svar("swf_first_turn") then return C.reason("14.2", "the South-Western Front sends divisions from turn %d", svar("swf_first_turn")) end
  if C.closing(turn) then return C.reason("14.3", "no reinforcements enter on turn %d", turn) end
  if swf_this_turn() >= svar("swf_max_per_turn") then return C.reason("14.2", "at most %d South-Western Front divisions a turn", svar("swf_max_per_turn")) end
  local total = kessel.game.var("swf_count") or 0
  if total >= svar("swf_max_total") then return C.reason("14.2", "all %d South-Western Front divisions have been called", svar("swf_max_total")) end
end

-- The fields of a call (C.shape_reason): a malformed action is refused, naming the field.
local SWF_FIELDS = { { name = "hex", kind = "hex" } }

function R.swf_check(a)
  local shape = C.shape_reason(a, "14.2", SWF_FIELDS)
  if shape then return nil, shape end
  local closed = R.swf_closed()
  if closed then return nil, closed end
  if not a.hex or not C.contains(R.swf_hexes(), a.hex) then
    return nil, C.reason("14.2", "South-Western Front divisions enter on a south-edge rail hex at or east of entrance %s", svar("swf_area"))
  end
  if C.enemy_at(a.hex, C.SOVIET) then return nil, C.reason("6.1", "%s holds German units", a.hex) end
  local pool = R.available_rifles(svar("swf_formation"))
  if #pool == 0 then return nil, C.reason("14.2", "no rifle division is available") end
  return pool[1]
end

kessel.action{
  kind = "swf_call", rule = "14.2", description = "call a South-Western Front rifle division (German VP)",
  validate = C.sided(function(a)
    local u, why = R.swf_check(a)
    if not u then return why end
  end),
  apply = function(a)
    local u = assert(R.swf_check(a))
    local n = (kessel.game.var("swf_count") or 0) + 1
    -- the scenario's list, as the final score counts it (victory.lua V.swf_vp)
    local V = require("rules.victory")
    local vp = V.swf_vp(n) - V.swf_vp(n - 1)
    kessel.emit.var("swf_count", n)
    kessel.emit.var("swf_vp", (kessel.game.var("swf_vp") or 0) + vp)
    kessel.emit.var("swf_turn", { turn = kessel.game.turn(), n = swf_this_turn() + 1 })
    bring_in(u, a.hex, "14.2", string.format("South-Western Front division no. %d: German +%d VP", n, vp))
  end,
  enumerate = C.sided_list(function(side)
    local out = {}
    if side ~= nil and side ~= C.SOVIET then return out end
    -- the same checks as R.swf_check, the hex-independent ones once
    if R.swf_closed() then return out end
    if #R.available_rifles(svar("swf_formation")) == 0 then return out end
    for _, h in ipairs(R.swf_hexes()) do
      if not C.enemy_at(h, C.SOVIET) then out[#out + 1] = { kind = "swf_call", hex = h } end
    end
    return out
  end),
}

return R
