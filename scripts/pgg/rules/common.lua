-- Shared vocabulary of the PGG rules: sides, unit classes, stacks, phases, reasons.
-- Every other rules module builds on these; nothing here is a rule case by itself.

local C = {}

C.SOVIET, C.GERMAN = "soviet", "german"

function C.other(side) return side == C.SOVIET and C.GERMAN or C.SOVIET end

-- The current step of the sequence of play {id, name, side, rule, index}.
function C.step() return kessel.game.step() end
function C.phasing() return kessel.game.step().side end
function C.step_is(a, b, c, ...)
  local id = kessel.game.step().id
  if id == nil then return false end
  -- (asked in every enumeration and validation: the usual one to three ids without a loop)
  if id == a or id == b or id == c then return true end
  for i = 1, select("#", ...) do
    if id == select(i, ...) then return true end
  end
  return false
end
function C.in_movement_phase()
  return C.step_is("soviet_movement", "german_movement", "german_mech_movement")
end
function C.in_combat_phase() return C.step_is("soviet_combat", "german_combat") end

function C.option(id) return kessel.game.option(id) end

-- The game-turn from which no reinforcement enters [14.3] and the Soviet places no interdiction
-- marker [13.4]: the printed 12 (the campaign's last), or the scenario's `closing_turn`.
function C.closing_turn() return kessel.scenario.var("closing_turn") end
function C.closing(turn) return (turn or kessel.game.turn()) >= C.closing_turn() end

-- A reason table, as validators return and the engine reports: message text and rule case.
function C.reason(rule, fmt, ...)
  return { rule = rule, message = select("#", ...) > 0 and string.format(fmt, ...) or fmt }
end

-- The shape of an action's fields, checked before anything reads them. Actions come from
-- players, scripts and saved games, so a malformed one is refused naming the field, never an
-- error inside the rules. `fields` maps a field name to "ids" (a list of unit ids; `one` lets a
-- single id stand for the list), "hexes" (a list of hexes of this map), "hex" (one hex of this
-- map), "string", "number" or "boolean"; an absent field is left to the validator. A unit named
-- twice in an "ids" list is refused unless the field says `repeats` (a loss names a unit once a
-- step): every action reads such a list as a set of units, and a unit counted twice would pay its
-- MP twice or add its strength twice. Returns a reason or nil.
local SCALAR = { string = "text (one name)", number = "a number", boolean = "true or false" }
function C.shape_reason(a, rule, fields)
  for _, f in ipairs(fields) do
    local v = a[f.name]
    if v ~= nil then
      if SCALAR[f.kind] then
        if type(v) ~= f.kind or (f.kind == "number" and v ~= v) then
          return C.reason(rule, "`%s` is %s, not a %s", f.name, SCALAR[f.kind], type(v))
        end
      elseif f.kind == "hex" then
        if type(v) ~= "string" then
          return C.reason(rule, "`%s` is one hex (%s=\"0101\"), not a %s", f.name, f.name, type(v))
        end
        if not kessel.hex.valid(v) then
          return C.reason(rule, "`%s`, `%s`, is not a hex of this map", f.name, v)
        end
      elseif f.one and type(v) == "string" then
        -- one id for the list
      elseif type(v) ~= "table" then
        return C.reason(rule, "`%s` is a list (%s={...}), not a %s", f.name, f.name, type(v))
      else
        local seen = {}
        for i, x in ipairs(v) do
          if type(x) ~= "string" then
            return C.reason(rule, "`%s` item %d is a %s, not a %s", f.name, i, type(x),
              f.kind == "hexes" and "hex" or "unit id")
          end
          if f.kind == "hexes" and not kessel.hex.valid(x) then
            return C.reason(rule, "`%s` item %d, `%s`, is not a hex of this map", f.name, i, x)
          end
          if f.kind == "ids" and not f.repeats then
            if seen[x] then return C.reason(rule, "`%s` names %s twice (items %d and %d)", f.name, x, seen[x], i) end
            seen[x] = i
          end
        end
      end
    end
  end
end

-- Who acts -----------------------------------------------------------------------------------
-- The side whose decision it is now: the side a pending decision names (a retreat path is the
-- opponent's [9.72], a loss the owner's [9.6], an advance the victor's [9.8], the excess after a
-- retreat its chooser [7]), the German while he places his initial air markers [13.2] (inside
-- the Soviet Movement Phase of turn 1, once the Soviet set-up [5.1] is over), else the phasing
-- player [4]. The `deciding_side` query answers the same for the engine.
function C.deciding_side()
  local p = kessel.game.var("pending")
  if p and p.side then return p.side end
  if require("rules.movement").initial_air_pending() and not require("rules.setup").open() then return C.GERMAN end
  return C.phasing()
end

-- Why `a` may not be taken by the side that sent it, or nil. Only the side whose decision it is
-- acts [4]: the engine records and passes the sender (`a.side`), the rules refuse the others.
local SIDE_NAMES = { soviet = "Soviet", german = "German" }
function C.side_name(side) return SIDE_NAMES[side] or tostring(side) end
local side_name = C.side_name

function C.actor_reason(a)
  local by = a.side
  if by == nil then return nil end
  local d = C.deciding_side()
  if d == nil or by == d then return nil end
  local dn, bn = side_name(d), side_name(by)
  local p = kessel.game.var("pending")
  if p and p.side then
    return C.reason(p.rule or "4", "the %s decides now, not the %s: %s", dn, bn, p.prompt or p.kind or "?")
  end
  if by == C.GERMAN and require("rules.movement").initial_air_pending() and require("rules.setup").open() then
    return C.reason("13.2", "the German places his initial air markers after the Soviet set-up (the Soviet ends it: end_setup)")
  end
  if d ~= C.phasing() then
    return C.reason("13.2", "the %s places his initial air markers now; the %s waits (end_air_placement ends them)", dn, bn)
  end
  return C.reason("4", "it is the %s player's %s: the %s may not act in it", dn, C.step().name or C.step().id, bn)
end

-- A validator that first refuses every action once the game is over (after turn 12 [15]) and any
-- side but the deciding one [4], then runs `validate`.
function C.sided(validate)
  return function(a)
    if kessel.game.finished() then
      return C.reason("15", "the game is over: it ended with game-turn %d", kessel.game.turn())
    end
    local why = C.actor_reason(a)
    if why then return why end
    return validate(a)
  end
end

-- An enumerator that lists nothing once the game is over [15] or for a side whose decision it is
-- not [4] (`side` nil: every side), so `kessel.legal(side)` offers only what `side` may take.
function C.sided_list(enumerate)
  return function(side)
    if kessel.game.finished() then return {} end
    if side ~= nil and side ~= C.deciding_side() then return {} end
    return enumerate(side)
  end
end

-- Unit classification ---------------------------------------------------------------------------
-- Unit types are declarations: they never change while a ruleset is loaded, so each is read once.
local utypes = {}
function C.utype(u)
  local t = utypes[u.type]
  if t == nil then
    t = kessel.game.unit_type(u.type) or {}
    utypes[u.type] = t
  end
  return t
end
function C.class(u) return C.utype(u).class end
-- (asked for every unit in every enumeration: kept per type without a call to C.utype)
local leader_types = {}
function C.is_leader(u)
  local v = leader_types[u.type]
  if v == nil then v = C.utype(u).leader == true; leader_types[u.type] = v end
  return v
end
function C.is_combat_unit(u)
  local v = leader_types[u.type]
  if v == nil then v = C.utype(u).leader == true; leader_types[u.type] = v end
  return not v
end
function C.is_mech(u) return C.utype(u).mech == true end
function C.on_map(u) return u.location == "map" end
function C.disrupted(u) return u.flags.disrupted == true end
function C.rating(u) return (u.attrs and u.attrs.rating) or 0 end

-- Where a unit off the map is, in words for reasons that name it: "waiting to enter",
-- "eliminated", "removed from play".
local OFF_MAP = { pending = "waiting to enter", eliminated = "eliminated", removed = "removed from play" }
function C.off_map_words(u) return OFF_MAP[u.location] or tostring(u.location) end

-- "3/4 Pz" style name for messages: the counter's name and formation. An untried division
-- [12] with no printed name is named by what its back shows, "rifle (face down, 24 Army)": its
-- scenario id tells one division from another, which the German may not know.
function C.name(u)
  if u.hidden and (u.name == nil or u.name == "" or u.name == u.id) then
    local f = (u.formation and u.formation ~= "") and (", " .. u.formation) or ""
    return tostring(u.type):gsub("_", " ") .. " (face down" .. f .. ")"
  end
  if u.formation and u.formation ~= "" and u.name ~= u.formation then
    return u.name .. " (" .. u.formation .. ")"
  end
  return u.name
end

-- A unit's name and, when it is on the map, its hex, for refusals a GM checks against the board:
-- "8 Rifle (16 Army) in 2216".
function C.name_at(u)
  if u.location == "map" and u.hex then return C.name(u) .. " in " .. u.hex end
  return C.name(u)
end

-- Names of a group of units for messages: "8 Rifle, 9 Rifle".
function C.names(units)
  local t = {}
  for _, u in ipairs(units) do t[#t + 1] = C.name(u) end
  return table.concat(t, ", ")
end

-- Stacks ----------------------------------------------------------------------------------------
function C.units_at(hex) return kessel.units.at(hex) end
function C.side_at(hex)
  local us = kessel.units.at(hex)
  return us[1] and us[1].side or nil
end
function C.enemy_at(hex, side)
  local s = C.side_at(hex)
  return s ~= nil and s ~= side
end
function C.friendly_at(hex, side) return C.side_at(hex) == side end

-- Units of a side on the map.
function C.units_of(side) return kessel.units.all{ side = side, location = "map" } end

-- Hexes holding units of `side`, as a hexset.
function C.occupied(side) return kessel.hexset(kessel.units.occupied(side)) end

-- Ids of a list of units.
function C.ids(units)
  local out = {}
  for i, u in ipairs(units) do out[i] = u.id end
  return out
end

function C.contains(list, x)
  for _, v in ipairs(list) do if v == x then return true end end
  return false
end

-- Added by the movement side -------------------------------------------------------------------

-- Printed movement allowance of a unit. A face-down (untried) counter without faces shows only
-- its kind on the back [12] [10.2]; units given without faces move by their type's declared
-- allowance (init.lua).
function C.base_ma(u)
  return u.movement or C.utype(u).movement or 0
end

-- A unit able to attack: a combat unit, not disrupted, not known to have a zero attack strength
-- (an untried counter might attack until revealed) [8] [12].
function C.attack_capable(u)
  if C.is_leader(u) or C.disrupted(u) then return false end
  if u.hidden then return true end
  -- the 1-1-6 that counts as the second 0-1-6 (option two_zero_one_rifles) only defends [12.3]
  if u.flags and u.flags.no_attack then return false end
  return (u.attack or 0) > 0
end

-- The pending decision (a table with kind, side, prompt, rule) as a refusal reason, or nil.
function C.pending_reason()
  local p = kessel.game.var("pending")
  if p then
    return C.reason(p.rule or "4", "a decision is waiting: %s", p.prompt or p.kind or "?")
  end
end

-- Values derived from the map alone ---------------------------------------------------------------
--
-- The PGG map does not change during a game, but a test file builds one map after another, of the
-- same size or not, and the engine names no map (kessel.game.revision() changes at every event,
-- far more often than the map). The map changes with the whole state (a set-up, a loaded save),
-- which kessel.units.changed_since reports by answering nil (an undo and a refused action rolled
-- back too, which costs a rebuild, never a stale read), or by an event of the three kinds that
-- change it in play (kessel.emit.terrain, .hexside, .tag: none in the PGG rules, but a variant's
-- rule may), whose hooks start afresh too. C.per_map(key, fn) works a value out once per map on
-- that ground; C.map_epoch() counts the maps seen, for a cache kept elsewhere.
local map_kept, map_rev, map_epoch = {}, nil, 0
local function map_changed() map_kept, map_epoch = {}, map_epoch + 1 end
local function map_current()
  local r = kessel.game.revision()
  if r == map_rev then return end
  if map_rev == nil or kessel.units.changed_since(map_rev) == nil then map_changed() end
  map_rev = r
end
for _, kind in ipairs({ "terrain_set", "hexside_set", "hex_tagged" }) do
  kessel.on("event:" .. kind, map_changed)
end
function C.per_map(key, fn)
  map_current()
  local v = map_kept[key]
  if v == nil then
    v = fn()
    map_kept[key] = v
  end
  return v
end
function C.map_epoch()
  map_current()
  return map_epoch
end

-- The column number of a hex (01 = west edge). (Kept per label: a hot read.)
function C.column(hex)
  local columns = C.per_map("columns", function() return {} end)
  local v = columns[hex]
  if v == nil then v = kessel.map.column(hex); columns[hex] = v end
  return v
end

-- Markers of a kind (and side) placed on the map, as hex -> list of marker ids.
function C.markers_on_map(kind, side)
  local out = {}
  for _, m in ipairs(kessel.markers.all{ kind = kind, side = side, placed = true }) do
    out[m.hex] = out[m.hex] or {}
    table.insert(out[m.hex], m.id)
  end
  return out
end

-- Hexes as a list of keys of a hex -> value table.
function C.keys(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = k end
  table.sort(out)
  return out
end

-- MP as people write them: 3, 1.5.
function C.mp(x)
  if x == math.floor(x) then return string.format("%d", x) end
  return string.format("%g", x)
end

-- Static terrain lists of the map (labels): lake and swamp hexes.
function C.terrain_lists()
  return C.per_map("terrain_lists", function()
    local lake, swamp = {}, {}
    for _, h in ipairs(kessel.map.hexes()) do
      local tt = kessel.map.terrain(h)
      if tt == "lake" then lake[#lake + 1] = h elseif tt == "swamp" then swamp[#swamp + 1] = h end
    end
    return { lake = lake, swamp = swamp }
  end)
end

-- A fact of the scenario ([vars], or the default scenario_vars.lua declares); in a position set up
-- inline, which has no scenario, the game variable of the same name when one is set, so a test can
-- give a scenario's facts.
function C.scenario_param(key)
  if kessel.scenario.name() == nil then
    local v = kessel.game.var(key)
    if v ~= nil then return v end
  end
  return kessel.scenario.var(key)
end

-- The map edges a side's supply runs to: the German's [11.1] (and the line that holds a city [15]),
-- the Soviet leaders' [11.2]. The campaign's west and east edges, or the scenario's
-- `german_supply_edges` and `soviet_supply_edges` (a cut of the front supplied from the north).
C.EDGE_NAMES = { "north", "south", "east", "west" }
function C.supply_edges(side)
  local edges = C.scenario_param(side .. "_supply_edges")
  local out = {}
  for i, e in ipairs(edges) do out[i] = tostring(e) end
  return out
end

-- The hexes of those edges (labels), kept per map and list; an edge name the map does not know is
-- left out here (`check` refuses it: C.supply_edge_problems).
function C.supply_edge_hexes(side)
  local edges = C.supply_edges(side)
  return C.per_map("supply_edges:" .. table.concat(edges, ","), function()
    local known = {}
    for _, e in ipairs(edges) do
      for _, n in ipairs(C.EDGE_NAMES) do if e == n then known[#known + 1] = e end end
    end
    local out = {}
    for _, h in ipairs(kessel.map.hexes()) do
      for _, e in ipairs(known) do
        if kessel.map.on_edge(h, e) then out[#out + 1] = h; break end
      end
    end
    return out
  end)
end

-- "the west edge", "the north or west edge": the side's supply edges in a message.
function C.edge_text(side)
  local edges = C.supply_edges(side)
  if #edges == 0 then return "no map edge" end
  return "the " .. table.concat(edges, " or ") .. " edge"
end

-- [11.1] [11.2] Supply edges a scenario names that no map has (`nort`), or none at all for the
-- Soviet, whose every line runs to an edge (the German may have none when a road_supply_source
-- tag supplies him), as `check` problems at the variable's line.
function C.supply_edge_problems()
  local problems = {}
  for _, side in ipairs({ C.GERMAN, C.SOVIET }) do
    local key = side .. "_supply_edges"
    local edges = C.supply_edges(side)
    for i, e in ipairs(edges) do
      local ok = false
      for _, n in ipairs(C.EDGE_NAMES) do if e == n then ok = true end end
      if not ok then
        problems[#problems + 1] = { var = key, message = string.format(
          "%s item %d, `%s`, is no map edge: the edges are north, south, east and west [%s]",
          key, i, tostring(e), side == C.GERMAN and "11.1" or "11.2") }
      end
    end
    if #edges == 0 and (side == C.SOVIET or #kessel.map.tagged("road_supply_source") == 0) then
      problems[#problems + 1] = { var = key, message = side == C.SOVIET
        and string.format("%s is empty: a Soviet leader's line of supply runs to a map edge, so every Soviet unit would be out of supply [11.2]", key)
        or string.format("%s is empty and the map tags no road_supply_source hex: every German unit would be out of supply [11.1]", key) }
    end
  end
  return problems
end

-- Derived values kept for one state ------------------------------------------------------------
--
-- The engine bumps kessel.game.revision() at every event, undo, set-up, reload and option change,
-- so a value the rules work out from the state (a side's supply network, the reasons a phase may
-- not end) is the same for as long as the revision is: C.per_revision(key, fn) works it out once
-- per revision. Validation right after enumeration, and every unit judged in one combat, then share
-- one evaluation. The value is shared: callers only read it.
local derived, derived_revision = {}, nil
function C.per_revision(key, fn)
  local r = kessel.game.revision()
  if r ~= derived_revision then derived, derived_revision = {}, r end
  local v = derived[key]
  if v == nil then
    v = fn()
    derived[key] = v
  end
  return v
end

-- Every unit on the map now. (The engine keeps its reads per state revision, so asking again
-- costs little; the list is shared: read it, never change it.)
function C.map_units() return kessel.units.all{ location = "map" } end

-- Same action? (kind, units in order, path, target; what the enumerators fill in)
function C.same_action(a, b)
  if a.kind ~= b.kind or a.target ~= b.target or a.hex ~= b.hex then return false end
  local au, bu = a.units or {}, b.units or {}
  if #au ~= #bu then return false end
  for i = 1, #au do if au[i] ~= bu[i] then return false end end
  local ap, bp = a.path or {}, b.path or {}
  if #ap ~= #bp then return false end
  for i = 1, #ap do if ap[i] ~= bp[i] then return false end end
  return true
end

return C
