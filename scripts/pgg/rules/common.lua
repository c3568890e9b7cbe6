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
local function side_name(side) return SIDE_NAMES[side] or tostring(side) end

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

-- The column number of a hex (01 = west edge).
-- (Kept per label on a full-size map: the grid does not change during a game.)
local columns, columns_key = {}, nil
function C.column(hex)
  local c, r = kessel.map.size()
  if c * r < 1000 then return kessel.map.column(hex) end
  local key = c .. "x" .. r
  if columns_key ~= key then columns, columns_key = {}, key end
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

-- Static terrain lists of the map (labels): lake and swamp hexes, west and east edge hexes. The
-- map does not change during a game: on a full-size map they are read once and kept; the small
-- inline maps of tests are read every time, as each test may draw its own.
local terrain_lists = {}
function C.terrain_lists()
  local c, r = kessel.map.size()
  local key = c * r >= 1000 and (c .. "x" .. r) or nil
  local t = terrain_lists
  if key == nil or t.key ~= key then
    local lake, swamp, west, east = {}, {}, {}, {}
    for _, h in ipairs(kessel.map.hexes()) do
      local tt = kessel.map.terrain(h)
      if tt == "lake" then lake[#lake + 1] = h elseif tt == "swamp" then swamp[#swamp + 1] = h end
      if kessel.map.on_edge(h, "west") then west[#west + 1] = h end
      if kessel.map.on_edge(h, "east") then east[#east + 1] = h end
    end
    t = { key = key, lake = lake, swamp = swamp, west = west, east = east }
    terrain_lists = t
  end
  return t
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
