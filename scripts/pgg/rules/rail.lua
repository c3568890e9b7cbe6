-- [6.3] Soviet rail movement and [6.37] German rail cuts.
--
-- Rail movement (`rail_move`, Soviet Movement Phase only): a stack in a rail hex moves along
-- railway hexsides up to 30 rail hexes, ending on the railway; terrain is ignored; it may never
-- enter or pass an enemy ZOC or enemy units; a hex with a German air interdiction marker costs 4 rail
-- hexes on top of the hex itself, 5 of the 30 [13.3] (option `rail_air_marker_cost`). Each turn at most 8 combat units may move by rail, a tank or mechanized division
-- counting 3; leaders go free. A unit moving by rail does nothing else that phase (it must not
-- have moved before, and its movement ends); a unit that has only come onto its entry hex (a
-- scheduled reinforcement [14.3], a returning leader [10.4]) has not moved (RL.unmoved). On turns 1-6 columns 01-02 stay closed [6.4]; the
-- 13th and 20th Armies may not use rail on turn 1 [5.2].
--
-- Rail cuts [6.37]: a German unit moving into or through a rail hex may place one of the six rail
-- cut markers there (`rail_cut = hex` on its move). Soviets can't move by rail into or through a
-- cut; a Soviet combat unit entering the hex by normal movement removes it, and the hex is open to
-- rail movement again at once. Option `errata_6_37_repair_next_turn` (SPI's July 1977 errata to
-- 6.37; off in `standard`): rail movement runs over a repaired hex only from the next game-turn
-- (game var `rail_repaired`, hex -> turn of the repair). The German reuses a
-- cut by moving a unit over it: `lift = hex` names a cut on the same move's path, which comes off
-- as the new one goes down (WBC09 #6 says he "does not have to move over old rail breaks to
-- reutilize them", so without it he does). WBC09 #6 (`wbc09_06_rail_break_relocation`): he may
-- lift any of them, wherever it is, and place it where he is moving now; when all six are down he
-- must name one to lift.
local C = require("rules.common")
local Z = require("rules.zoc")
local RL = {}

RL.MAX_HEXES, RL.MAX_UNITS, RL.ARMOUR_COUNTS, RL.AIR_SURCHARGE = 30, 8, 3, 4

-- Rail hexes it costs to enter a hex under a German air marker [13.3]: the hex itself and 4 more
-- (5 of the 30), as "+4" reads beside the "+1 MP" of ordinary movement; option
-- `rail_air_marker_cost = "four_in_all"` keeps the older reading of 4 in all.
function RL.air_cost()
  if C.option("rail_air_marker_cost") == "four_in_all" then return RL.AIR_SURCHARGE end
  return 1 + RL.AIR_SURCHARGE
end

function RL.is_rail(hex) return kessel.map.has_link(hex, "railway") end

-- Rail cut markers on the map: hex -> marker id.
function RL.cuts()
  local out = {}
  for _, m in ipairs(kessel.markers.all{ kind = "rail_cut", placed = true }) do out[m.hex] = m.id end
  return out
end

-- How many of the 8 a unit uses.
function RL.weight(u)
  if C.is_leader(u) then return 0 end
  if C.utype(u).armour then return RL.ARMOUR_COUNTS end
  return 1
end

function RL.used_this_turn()
  local v = kessel.game.var("rail_units")
  if type(v) == "table" and v.turn == kessel.game.turn() then return v.used or 0 end
  return 0
end

-- Rail cuts requested on a German move -----------------------------------------------------------

function RL.check_cut_request(plan, a)
  if not a.rail_cut then return nil end
  local entered = {}
  if plan.entry then entered[#entered + 1] = plan.entry end
  for _, leg in pairs(plan.legs) do
    for _, h in ipairs(leg.path) do entered[#entered + 1] = h end
  end
  return RL.cut_reason(plan.units[1], entered, a)
end

-- Why the cut `a.rail_cut` (and the cut `a.lift` to lift, if any) may not be placed by `mover`
-- (the first unit of the move or overrun), whose units enter `entered` (the hexes of the move, or
-- the overrun hex they enter if they clear it) [6.37] WBC09 #6; nil when it may.
function RL.cut_reason(mover, entered, a)
  local hex = a.rail_cut
  if mover.side ~= C.GERMAN then return C.reason("6.37", "only German units cut railways (%s at %s)", C.name(mover), tostring(hex)) end
  if not C.contains(entered, hex) then return C.reason("6.37", "a rail cut goes in a hex the unit moves into or through; %s is not on its path", hex) end
  if not RL.is_rail(hex) then return C.reason("6.37", "%s is not a rail hex", hex) end
  local cuts = RL.cuts()
  if cuts[hex] then return C.reason("6.37", "%s is already cut", hex) end
  local free = kessel.markers.all{ kind = "rail_cut", placed = false }
  if a.lift then
    local wbc = C.option("wbc09_06_rail_break_relocation")
    if not cuts[a.lift] then return C.reason(wbc and "WBC09 #6" or "6.37", "there is no rail cut in %s to lift", tostring(a.lift)) end
    if not wbc then
      -- standard: a cut is reused by moving over it (WBC09 #6 lifts it from anywhere)
      if not C.contains(entered, a.lift) then
        return C.reason("6.37", "a rail cut is reused by moving a unit over it: %s is not on this move's path (WBC09 #6 lifts any cut)", a.lift)
      end
    end
  elseif #free == 0 then
    if C.option("wbc09_06_rail_break_relocation") then
      return C.reason("WBC09 #6", "all six rail cuts are on the map: name one to lift (lift = hex)")
    end
    return C.reason("6.37", "all six rail cut markers are on the map: no cut at %s", hex)
  end
end

-- A Soviet combat unit `u` has entered `hexes` in its Movement Phase (a move, or the cleared hex
-- of an overrun): the rail cuts there come off [6.37]. Apply stage only.
function RL.repair(u, hexes)
  if u.side ~= C.SOVIET or not C.is_combat_unit(u) then return end
  local cuts = RL.cuts()
  local errata = C.option("errata_6_37_repair_next_turn")
  local repaired = nil
  for _, h in ipairs(hexes) do
    if cuts[h] then
      kessel.emit.marker(cuts[h], nil)
      kessel.emit.note("6.37", C.name(u) .. " repairs the railway at " .. h
        .. (errata and " (errata: rail movement over it from the next game-turn)" or ""))
      cuts[h] = nil
      if errata then
        repaired = repaired or RL.repaired_this_turn()
        repaired[h] = kessel.game.turn()
      end
    end
  end
  if repaired then kessel.emit.var("rail_repaired", repaired) end
end

-- Rail hexes repaired this game-turn (hex -> turn) that rail movement may not use before the next
-- turn: only with the option `errata_6_37_repair_next_turn` [6.37] (errata), else none. Entries
-- of earlier turns are dropped.
function RL.repaired_this_turn()
  local out = {}
  if not C.option("errata_6_37_repair_next_turn") then return out end
  local turn = kessel.game.turn()
  local v = kessel.game.var("rail_repaired")
  if type(v) ~= "table" then return out end
  for h, t in pairs(v) do
    if t == turn then out[h] = t end
  end
  return out
end

-- After a move: German cut placed (or moved); Soviet combat units entering cut hexes repair them.
function RL.after_move(plan, a)
  local side = plan.units[1].side
  if side == C.SOVIET then
    for _, u in ipairs(plan.units) do
      local hexes = { table.unpack(plan.legs[u.id].path) }
      if plan.entry then hexes[#hexes + 1] = plan.entry end
      RL.repair(u, hexes)
    end
  elseif a.rail_cut then
    RL.place_cut(a)
  end
end

-- Puts the cut a German move or overrun asked for (`a.rail_cut`, lifting `a.lift` if named) on
-- the map [6.37] WBC09 #6. Apply stage only; the request was checked by RL.cut_reason.
function RL.place_cut(a)
  local id
  if a.lift then
    id = RL.cuts()[a.lift]
  else
    local free = kessel.markers.all{ kind = "rail_cut", placed = false }[1]
    id = free and free.id
  end
  if not id then return end
  kessel.emit.marker(id, a.rail_cut)
  kessel.emit.note(a.lift and C.option("wbc09_06_rail_break_relocation") and "WBC09 #6" or "6.37", "railway cut at " .. a.rail_cut .. (a.lift and (" (lifted from " .. a.lift .. ")") or ""))
end

-- Rail movement ---------------------------------------------------------------------------------

-- Trace rules for a Soviet rail move: step along railway hexsides (4 for an air marker hex),
-- blocked by enemy units, enemy ZOC, rail cuts and (turns 1-6) columns 01-02.
local function rail_rules()
  local blocked = C.occupied(C.GERMAN):union(Z.enemy_zoc(C.SOVIET))
  for h in pairs(RL.cuts()) do blocked:add(h) end
  for h in pairs(RL.repaired_this_turn()) do blocked:add(h) end
  if kessel.game.turn() <= 6 then
    for _, h in ipairs(require("rules.movement").columns_01_02()) do blocked:add(h) end
  end
  local air = C.markers_on_map("air_interdiction", C.GERMAN)
  local air_cost = RL.air_cost()
  -- one step: for checking a given path hex by hex ...
  local step = function(a, b)
    if not kessel.map.has_side(a, b, "railway") then return nil end
    return air[b] and air_cost or 1
  end
  -- ... and the same as data, for the native searches
  local spec = { hex = true, only_along = { "railway" }, enter_cost = { hexes = C.keys(air), cost = air_cost } }
  return blocked, step, air, spec
end

-- The fields of a rail move (C.shape_reason): a malformed action is refused, naming the field.
local RAIL_FIELDS = { { name = "units", kind = "ids" }, { name = "unit", kind = "string" }, { name = "path", kind = "hexes" } }

-- May `u` still move by rail this phase [6.3]: it has not moved, or it has only come onto the map
-- (a scheduled reinforcement [14.3], a leader back from evacuation [10.4]) and stands on the hex it
-- entered at (unit var `entered_at`) with no more spent than the entry. The sequence of play brings reinforcements in before rail movement
-- [4], so the entry is the unit's arrival, not a move made before riding.
function RL.unmoved(u)
  local M = require("rules.movement")
  if M.spent(u) == 0 then return true end
  local v = u.vars or {}
  if v.entered_turn ~= kessel.game.turn() or v.entered_at == nil or v.entered_at ~= u.hex then return false end
  return M.spent(u) == require("rules.reinforcements").entry_mp(u, u.hex)
end

-- Why a rail move is refused, or nil and the path and its cost in rail hexes.
function RL.plan(a)
  local shape = C.shape_reason(a, "6.3", RAIL_FIELDS)
  if shape then return nil, shape end
  local M = require("rules.movement")
  local pr = C.pending_reason()
  if pr then return nil, pr end
  if not C.step_is("soviet_movement") then return nil, C.reason("6.3", "only the Soviet player moves by rail, in his Movement Phase") end
  local ids = a.units or (a.unit and { a.unit }) or {}
  if #ids == 0 then return nil, C.reason("6.3", "no units to move") end
  local path = a.path or {}
  if #path == 0 then return nil, C.reason("6.3", "no destination given") end
  local units, weight, from = {}, 0, nil
  for _, id in ipairs(ids) do
    local u = kessel.units.get(id)
    if not u or not C.on_map(u) then return nil, C.reason("6.3", "unit `%s` is not on the map", tostring(id)) end
    from = from or u.hex
    if u.hex ~= from then return nil, C.reason("6.3", "%s is not in %s with the rest of the stack", C.name(u), from) end
    local r = M.cannot_move(u)
    if r then return nil, r end
    if M.first_turn_full_ma(u) then return nil, C.reason("5.2", "the 13th and 20th Armies may not use rail movement on the first turn (%s)", C.name_at(u)) end
    local var = M.first_turn_roll_var(u)
    if var and kessel.game.var(var) ~= "move" then
      return nil, C.reason("5.2", "the %s rolled to stand on the first turn: %s may not move by rail", u.formation, C.name_at(u))
    end
    if not RL.unmoved(u) then return nil, C.reason("6.3", "%s has already moved this phase and may not move by rail", C.name_at(u)) end
    weight = weight + RL.weight(u)
    units[#units + 1] = u
  end
  if not RL.is_rail(from) then return nil, C.reason("6.3", "rail movement starts in a rail hex; %s is not one", from) end
  -- [6.37] a cut railway carries no rail movement: a move leaving the cut hex runs over it as much
  -- as one entering it (as the errata's check below reads a repaired hex). A unit may stand in a
  -- cut hex without repairing it: a leader, or a unit that retreated or advanced there.
  if RL.cuts()[from] then
    return nil, C.reason("6.37", "the railway is cut at %s: no rail move starts in a cut hex (%s)", from, C.name_at(units[1]))
  end
  if RL.repaired_this_turn()[from] then
    return nil, C.reason("6.37", "the railway at %s was repaired this game-turn: under the errata to 6.37 rail movement runs over it from the next turn", from)
  end
  if Z.enemy_zoc(C.SOVIET):has(from) then return nil, C.reason("6.3", "rail movement may not start in an enemy ZOC: %s is in %s", from, Z.zone_text(C.SOVIET, from)) end
  local used = RL.used_this_turn()
  if used + weight > RL.MAX_UNITS then
    return nil, C.reason("6.3", "rail capacity: %d of 8 used this turn, this stack needs %d (tank and mechanized divisions count 3)", used, weight)
  end
  local rules = RL.rules()
  local blocked, step, spec = rules.blocked, rules.step_fn, rules.step
  local dest = path[#path]
  -- a rail move that ends where it began would spend the stack's move and the turn's capacity on nothing
  if dest == from then return nil, C.reason("6.3", "a rail move must leave %s: the path ends where it starts", from) end
  local full, cost
  -- a path of one hex names the destination, adjacent or not: the rail route there is the cheapest
  -- one along the railway (it may run round through other hexes), found by the same search, with
  -- the same rules, as the enumerator's (RL.stack_moves), so what is listed is accepted
  if #path == 1 then
    local t = RL.route(from, dest, rules)
    if not t then
      if not RL.is_rail(dest) then return nil, C.reason("6.3", "rail movement ends in a rail hex; %s is not one", dest) end
      local why = RL.why_not(from, dest, blocked, spec)
      return nil, why
    end
    full, cost = t.path, t.cost
  else
    cost, full = 0, path
    local prev = from
    for _, h in ipairs(path) do
      if not kessel.hex.adjacent(prev, h) then return nil, C.reason("6.3", "%s is not adjacent to %s", h, prev) end
      local c = step(prev, h)
      if c == nil then return nil, C.reason("6.3", "no railway between %s and %s", prev, h) end
      if blocked:has(h) then return nil, RL.block_reason(h) end
      cost = cost + c
      prev = h
    end
    if cost > RL.MAX_HEXES then return nil, C.reason("6.3", "the rail move costs %d of 30 rail hexes", cost) end
  end
  return { units = units, path = full, cost = cost, weight = weight, from = from }
end

function RL.block_reason(h)
  if C.enemy_at(h, C.SOVIET) then return C.reason("6.3", "%s holds German units", h) end
  if RL.cuts()[h] then return C.reason("6.37", "the railway is cut at %s", h) end
  if RL.repaired_this_turn()[h] then
    return C.reason("6.37", "the railway at %s was repaired this game-turn: under the errata to 6.37 rail movement runs over it from the next turn", h)
  end
  if Z.enemy_zoc(C.SOVIET):has(h) then return C.reason("6.3", "rail movement may not enter an enemy ZOC: %s is in %s", h, Z.zone_text(C.SOVIET, h)) end
  return C.reason("6.4", "on turns 1-6 no Soviet unit may enter columns 01-02 (%s)", h)
end

-- Explains why `dest` can't be reached by rail: the first blocked hex on the open-rail route, or
-- the distance.
function RL.why_not(from, dest, blocked, step)
  local open = kessel.paths.trace{ from = from, budget = 1e6, step = step, target = { dest } }
  if not open then return C.reason("6.3", "no railway leads from %s to %s", from, dest) end
  for _, h in ipairs(open.path) do
    if blocked:has(h) then return RL.block_reason(h) end
  end
  return C.reason("6.3", "%s is %d rail hexes away (30 at most; a hex under an air interdiction marker counts %d)", dest, open.cost, RL.air_cost())
end

kessel.action{
  kind = "rail_move", rule = "6.3", description = "move a Soviet stack by rail",
  validate = C.sided(function(a)
    local plan, why = RL.plan(a)
    if not plan then return why end
  end),
  apply = function(a)
    local plan = assert(RL.plan(a))
    -- a rail move is another stack's move: it ends the last overrun group's [6.5]
    require("rules.movement").end_overrun_group_unless(plan.units)
    local V = require("rules.victory")
    for _, u in ipairs(plan.units) do
      kessel.emit.move(u.id, plan.path, 0)
      V.passed_path(u.side, plan.path, u)
      kessel.emit.unit_var(u.id, "mp_spent", C.base_ma(u) * 2)
    end
    local used = RL.used_this_turn() + plan.weight
    kessel.emit.var("rail_units", { turn = kessel.game.turn(), used = used })
    kessel.emit.note("6.3", string.format("rail move of %s %s -> %s, %d rail hexes; %d of the turn's %d combat units used (armour counts %d)",
      C.names(plan.units), plan.from, plan.path[#plan.path], plan.cost, used, RL.MAX_UNITS, RL.ARMOUR_COUNTS))
  end,
  enumerate = C.sided_list(function(side)
    local out = {}
    if not C.step_is("soviet_movement") or kessel.game.var("pending") then return out end
    local rules
    return require("ai.narrowing").listed("rail_move", {
      side = C.SOVIET,
      stacks = kessel.units.occupied(C.SOVIET),
      moves = function(hex)
        if not RL.is_rail(hex) then return {} end
        rules = rules or RL.rules()
        return RL.stack_moves(hex, rules)
      end,
    })
  end),
}

-- The trace rules of this moment, shared by every stack (RL.stack_moves) and by RL.plan.
function RL.rules()
  local blocked, step_fn, _, spec = rail_rules()
  return { blocked = blocked, step = spec, step_fn = step_fn, ezoc = Z.enemy_zoc(C.SOVIET) }
end

-- Every rail hex a stack in `from` reaches within the 30 rail hexes, with its cost [6.3].
function RL.reach(from, rules)
  return kessel.paths.reach{ from = from, budget = RL.MAX_HEXES, step = rules.step, passage = { blocked = rules.blocked } }
end

-- The cheapest rail route from `from` to `dest` within the 30 rail hexes ({path, cost}), or nil:
-- the route to a hex RL.reach gives.
function RL.route(from, dest, rules)
  return kessel.paths.trace{ from = from, budget = RL.MAX_HEXES, step = rules.step, passage = { blocked = rules.blocked }, target = { dest } }
end

-- Rail moves of the stack in `hex`: every unit there that may still move by rail, to each rail
-- hex within 30 rail hexes [6.3].
function RL.stack_moves(hex, rules)
  local out = {}
  if not RL.is_rail(hex) then return out end
  local M = require("rules.movement")
  rules = rules or RL.rules()
  local ids = {}
  for _, x in ipairs(kessel.units.at(hex)) do
    if x.side == C.SOVIET and M.cannot_move(x) == nil and RL.unmoved(x) then ids[#ids + 1] = x.id end
  end
  if #ids == 0 or rules.ezoc:has(hex) then return out end
  local reach = RL.reach(hex, rules)
  local first = true
  for _, h in ipairs(C.keys(reach)) do
    if h ~= hex then
      local a = { kind = "rail_move", units = ids, path = { h } }
      -- the unit checks are the same for every destination: validate the first only
      if first and not RL.plan(a) then break end
      first = false
      out[#out + 1] = a
    end
  end
  return out
end

return RL
