-- RePh step 9.605: Setup Area Determination (PB). Strategic Locations and their Control, No Man's
-- Land [9.6051], Setup Areas within two hexes of friendly-Controlled Strategic Locations, Isolation
-- [9.6052] [9.6057], Uncontrolled Territory [9.6053], surrounded hexes [9.6054], and what happens
-- to each unit not in a friendly Setup Area (the 9.6056 chart).
--
-- Map data: Strategic Locations are hexes tagged `strategic` (the module's Strategic Locations are
-- defined in 9.2, not in the text), plus hexes with an entrenchment/fortification marker, a
-- functioning Gun or a manned Immobile vehicle with functioning MA. Control: a `control` marker
-- (value { level = n }, default ground level) or, failing one, the only side with Personnel there.
-- Eligible Entry Areas: the var `entry_areas` = { side = { area_name = true } } naming map areas.
local C = require("rules.common")
local S = require("rules.sequence")
local A = {}

-- whether Fortification marker m makes its Location a Strategic Location, in both CGs [9.605]
-- [11.6051]: the map marking's "F" is any Fortification, and our text counts minefields and wire
-- among them (9.6073's "each such minefield" of the hidden Fortifications; 11.615's non-mine
-- Fortifications beside mines, wire and Entrenchments), so a Location with a minefield or wire is
-- one as a pillbox or an Entrenchment is. A roadblock, on a hexside, is in no one Location. A
-- still-hidden one is not yet: 9.602 and 11.602 alike let still-hidden Fortifications stay hidden
-- (PB placing only the hidden Entrenchments on the map), which a Setup Area drawn around one, or
-- a Control marker kept for it, would give away (our reading). RB's Strategic Locations are
-- defined in its 11.2, outside our text: for RB this is the ruleset's reading of the Fortification
-- kind, and PB's functioning Gun and manned Immobile vehicle ("G", "V" [9.605]) are not read into
-- it. Before, RB's 11.6062 kept a Control marker for a still-hidden minefield and for a
-- roadblock's first hex.
function A.strategic_fortification(m)
  return C.is_fortification(m) and not C.is_hidden_marker(m) and m.other == nil
end

-- Strategic Locations: { ["hex@level"] = { hex, level } }
function A.strategic()
  local out = {}
  local function add(hex, level) out[hex .. "@" .. (level or 0)] = { hex = hex, level = level or 0 } end
  for _, h in ipairs(kessel.map.tagged("strategic")) do add(h, 0) end
  for _, m in ipairs(kessel.markers.all{ placed = true }) do
    if m.kind == "control" then add(m.hex, type(m.value) == "table" and m.value.level or 0) end
    if A.strategic_fortification(m) then add(m.hex, 0) end
  end
  for _, u in ipairs(C.on_map()) do
    if A.strategic_unit(u) then add(u.hex, C.level(u)) end
  end
  return out
end

-- [9.605] the map marking's "G" and "V": a functioning Gun, a manned Immobile vehicle with
-- functioning MA make their Location a Strategic Location in PB. RB's Strategic Locations are
-- defined in its 11.2, outside our text: whether these make one there too is the option
-- `rb_strategic_guns_vehicles` (off by default: RB reads only the map's `strategic` tags and the
-- Fortifications, `RB.strategic_control`).
kessel.option{ id = "rb_strategic_guns_vehicles", type = "bool", default = false, rule = "11.6052",
  description = "RB: a functioning Gun or a manned Immobile vehicle with functioning MA makes a Strategic Location, as PB's 9.605 G and V (RB's 11.2 is not in our text)" }
function A.strategic_unit(u)
  if u.location ~= "map" then return false end
  return (u.type == "gun" and not u.vars.malfunctioned and not u.vars.eliminated_ma)
    or (C.is_vehicle(u) and u.vars.immobile and not u.vars.abandoned and not C.is_wreck(u) and C.has_functioning_ma(u)) or false
end

-- who Controls a Location: its Control marker, else the only side with Personnel in it
-- the only side occupying a Location (nil when none, or both)
-- A vehicle in Bypass skirts the hex's building/woods Location: it does not dispute the Control of
-- units inside it; alone in the hex, it holds it (the chart makes a crewed Immobile one with MA a
-- Strategic Location of its own)
function A.occupier(hex, level)
  local function count(with_bypass)
    local sides, n, last = {}, 0, nil
    for _, u in ipairs(kessel.units.at(hex)) do
      if C.level(u) == level and (C.is_personnel(u) or C.is_vehicle(u) or u.type == "gun") and not u.vars.prisoner_of
        and not u.vars.abandoned and not C.is_wreck(u) and (with_bypass or not (C.is_vehicle(u) and u.vars.bypass)) then
        if not sides[u.side] then sides[u.side] = true; n = n + 1; last = u.side end
      end
    end
    return last, n
  end
  local last, n = count(false)
  if n == 0 then last, n = count(true) end
  return n == 1 and last or nil, n
end

-- who Controls a Location: the only side occupying it (a Control marker of the other side is one
-- that "must be removed (or flipped over)" [9.605] [11.6052]), else its Control marker (an empty
-- or a disputed Location)
function A.controller(hex, level)
  -- [11.6062 EXC] a released Pocket's Locations are its neighbours' side's for the rest of this
  -- RePh, whoever's SMC stands in them (the marker holds the CG Day: the next scenario's occupation
  -- counts again)
  if not C.pb() then
    for _, m in ipairs(kessel.markers.at(hex)) do
      if m.kind == "control" and m.hex == hex and type(m.value) == "table" and m.value.released ~= nil
        and m.value.released == C.var("date") and (m.value.level or 0) == (level or 0) then
        return m.side
      end
    end
  end
  local last, n = A.occupier(hex, level)
  if last then return last end
  for _, m in ipairs(kessel.markers.at(hex)) do
    if m.kind == "control" and m.hex == hex then
      local l = type(m.value) == "table" and m.value.level or 0
      if l == level then return m.side end
    end
  end
  -- RB: 11.607 clears the map of non-Isolated units, which leaves their Locations' Control as it
  -- was (the Perimeter gives it, 11.6059): the Control by occupation found just before the
  -- clearing (var `control_at_clearing`, written in 11.607 of this RePh) still holds for an empty
  -- Location [11.6072] [11.6073] [11.615]
  if n == 0 and not C.pb() then
    local snap = kessel.game.var("control_at_clearing")
    if type(snap) == "table" and snap[hex .. "@" .. tostring(level or 0)] then return snap[hex .. "@" .. tostring(level or 0)] end
  end
  return nil
end

local function entry_hexes(side)
  local set = {}
  for _, name in ipairs(C.entry_names(side)) do
    for _, h in ipairs(kessel.map.area(name) or {}) do set[h] = name end
  end
  return set
end
A.entry_hexes = entry_hexes

local function gliders()
  local out = {}
  for _, m in ipairs(kessel.markers.all{ kind = "glider", placed = true }) do
    if not (type(m.value) == "table" and m.value.wrecked) then out[m.hex] = true end
  end
  return out
end

-- Computes the Setup Areas. Returns { hexes = { [hex] = "german"|"british"|"nml"|"ut" },
-- areas = { side = { { id, hexes, isolated, level? } } }, ctrl = { [hex] = side } }.
function A.compute()
  local sides = C.sides()
  local strat = A.strategic()
  local ctrl, upper = {}, {}
  for _, key in ipairs(C.sorted_keys(strat)) do
    local l = strat[key]
    local s = A.controller(l.hex, l.level)
    if s then
      if l.level == 0 or ctrl[l.hex] == nil then
        if l.level > 0 and A.controller(l.hex, 0) and A.controller(l.hex, 0) ~= s then
          upper[#upper + 1] = { hex = l.hex, level = l.level, side = s }
        else
          ctrl[l.hex] = ctrl[l.hex] or s
        end
      elseif ctrl[l.hex] ~= s then
        upper[#upper + 1] = { hex = l.hex, level = l.level, side = s }
      end
    end
  end
  local strategic_hex = {}
  for _, l in pairs(strat) do strategic_hex[l.hex] = true end
  local near = {}
  for _, s in ipairs(sides) do near[s] = {} end
  for _, h in ipairs(C.sorted_keys(ctrl)) do
    for _, n in ipairs(kessel.hex.range(h, 2)) do near[ctrl[h]][n] = true end
  end
  local cls = {}
  local a, b = sides[1], sides[2]
  for _, h in ipairs(kessel.map.hexes()) do
    if ctrl[h] then cls[h] = ctrl[h]
    elseif strategic_hex[h] then cls[h] = "ut"
    elseif near[a][h] and near[b][h] then cls[h] = "nml"
    elseif near[a][h] then cls[h] = a
    elseif near[b][h] then cls[h] = b
    else cls[h] = "ut" end
  end
  -- [9.6054] Uncontrolled Territory and unoccupied Strategic Locations enclosed by one side's area
  for _, s in ipairs(sides) do
    local walls = {}
    for _, h in ipairs(kessel.map.hexes()) do if cls[h] == s then walls[#walls + 1] = h end end
    local inside = kessel.map.enclosed(walls)
    for _, region in ipairs(kessel.map.regions(inside)) do
      local pure = true
      for _, h in ipairs(region) do
        if cls[h] == C.other(s) and not (strategic_hex[h] and #kessel.units.at(h) == 0) or cls[h] == "nml" then
          pure = false
        end
      end
      if pure then
        for _, h in ipairs(region) do
          if cls[h] == "ut" or (strategic_hex[h] and #kessel.units.at(h) == 0 and cls[h] ~= s) then
            cls[h] = s
            C.note("9.6054", h .. " is enclosed by the " .. s .. " Setup Area and joins it")
          end
        end
      end
    end
  end
  -- areas: connected regions of each side's hexes, lettered in map order; upper-level Locations
  -- Controlled by the other side than the ground form their own one-Location areas [9.605 EX]
  local areas = {}
  for _, s in ipairs(sides) do
    local hexes = {}
    for _, h in ipairs(kessel.map.hexes()) do if cls[h] == s then hexes[#hexes + 1] = h end end
    areas[s] = {}
    for i, region in ipairs(kessel.map.regions(hexes)) do
      areas[s][i] = { id = string.char(64 + i), hexes = region }
    end
  end
  for _, up in ipairs(upper) do
    local list = areas[up.side]
    list[#list + 1] = { id = string.char(64 + #list + 1), hexes = { up.hex }, level = up.level }
  end
  -- [9.6052] Isolation: no path of Enterable Uncontrolled-Territory/friendly hexes to an Eligible
  -- Entry Area or (British) a landed, un-wrecked glider
  for _, s in ipairs(sides) do
    local targets = entry_hexes(s)
    if s == "british" then for h in pairs(gliders()) do targets[h] = "glider" end end
    for _, area in ipairs(areas[s]) do
      if area.level then
        area.isolated = not A.upper_path(area, cls, areas[s])
      else
        local open = function(h)
          if kessel.map.terrain(h) == "water" then return "blocked" end
          if cls[h] == s or cls[h] == "ut" then return nil end
          return "blocked"
        end
        local reached = kessel.paths.reach{ from = area.hexes, passage = open }
        area.isolated = true
        for _, h in ipairs(C.sorted_keys(targets)) do
          if reached[h] then area.isolated = false; area.reaches = targets[h]; break end
        end
      end
    end
  end
  -- the ground-level Control of every occupied Location as 9.605 finds it: a Location vacated later
  -- in this RePh (an Escape, an evacuated leader, a Shift) keeps it [9.6131] (A26.11)
  local held = {}
  for _, u in ipairs(C.on_map()) do
    if C.level(u) == 0 and held[u.hex] == nil then held[u.hex] = A.controller(u.hex, 0) or false end
  end
  local control = {}
  for h, s in pairs(held) do if s then control[h] = s end end
  return { hexes = cls, areas = areas, ctrl = ctrl, control = control }
end

-- [9.6057] an upper-level Location is not Isolated if its building has a friendly-Controlled,
-- non-Blazing ground-level Location in a non-Isolated friendly area (the path through the
-- building is taken as existing when the Locations between are friendly: a simplification)
function A.upper_path(area, cls, side_areas)
  local hex = area.hexes[1]
  local place = kessel.map.place(hex)
  local hexes = place and place.hexes or { hex }
  local owner = A.controller(hex, area.level)
  for _, h in ipairs(hexes) do
    if cls[h] == owner and A.controller(h, 0) == owner and not A.blazing(h) then
      for _, other in ipairs(side_areas) do
        if other ~= area and not other.level and not other.isolated then
          for _, oh in ipairs(other.hexes) do if oh == h then return true end end
        end
      end
    end
  end
  return false
end

function A.blazing(hex)
  for _, m in ipairs(kessel.markers.at(hex)) do
    if m.kind == "blaze" or m.kind == "flame" then return true end
  end
  return false
end

-- [11.607] [11.6072] RB: is `u` loose Equipment (a SW, a Gun, an abandoned vehicle) in No Man's
-- Land — a hex the players record as such [11.6051], or a Location of a type A or B Isolated Area
-- [11.6062] — whose Location no side Controls [11.6059]? Such Equipment is not cleared and no side
-- Retains it: it stays on the map unpossessed
function A.rb_unretained(u)
  if C.pb() or u.location ~= "map" or u.vars.possessed_by or u.vars.mounted_on then return false end
  if not (u.type == "sw" or u.type == "gun" or (C.is_vehicle(u) and not C.is_wreck(u) and u.vars.abandoned)) then return false end
  local _, area = C.rb_area_at(u.hex, C.level(u))
  local nml = C.rb_no_mans_land(u.hex) or (area ~= nil and (area.type == "A" or area.type == "B"))
  return nml and A.controller(u.hex, C.level(u)) == nil
end

-- the stored result of 9.605 (it does not change until the next scenario [9.605]), read once a
-- state revision and shared by every reader: never change it (copy it first). Each read of the
-- var copied every area and hex class, read a few times a choice by the set-up turn checks, the
-- Shift and the computer player: a third of a Refit Phase's script time.
local stored, stored_at = nil, nil
function A.stored()
  local rev = kessel.game.revision()
  if stored_at ~= rev then stored, stored_at = kessel.game.var("setup_areas"), rev end
  return stored
end

-- where the British set up what the RePh gives them on-map: the first non-Isolated ground-level
-- British Setup Area, else (none there to set up in) off-map to enter at hex Z28, which 9.6152
-- Note 1 makes an Eligible Entry Hex then. Returns { area, hex } or { entry = "Z28", note1 = true }
function A.british_arrival()
  local st = A.stored()
  for _, area in ipairs(st and st.areas.british or {}) do
    if not area.isolated and not area.level then return { area = area.id, hex = area.hexes[1] } end
  end
  return { entry = "Z28", note1 = true }
end

-- who Controls a ground-level Location after 9.605: its Control marker or sole occupant, else, when
-- it is empty now, the side that Controlled it as 9.605 found it (a vacated Location stays the
-- vacating side's [9.6131]); returns the side and whether it came from 9.605's record
function A.controller_since_9605(hex)
  local now = A.controller(hex, 0)
  if now then return now, false end
  local st = A.stored()
  local was = st and st.control and st.control[hex]
  return was, was ~= nil
end

-- each side's ground-level areas by hex, the first in the side's order holding it, built once a
-- read of the stored areas (a set-up listing asks for every hex of every unit's area; each ask
-- walked every hex of the side's areas)
local index, index_of = nil, nil
local function ground_index(st)
  if index_of ~= st then
    index, index_of = {}, st
    setmetatable(index, { __index = function(t, side)
      local by = {}
      local areas = st.areas[side] or {}
      for i = #areas, 1, -1 do
        local area = areas[i]
        if not area.level then for _, h in ipairs(area.hexes) do by[h] = area end end
      end
      t[side] = by
      return by
    end })
  end
  return index
end

-- the area a Location lies in for a side, or nil. An upper-level Location that forms its own
-- area belongs to that area only.
function A.area_at(side, hex, level)
  local st = A.stored()
  if not st then return nil end
  level = level or 0
  if level > 0 then
    for _, s in ipairs(C.sides()) do
      for _, area in ipairs(st.areas[s] or {}) do
        if area.level == level and area.hexes[1] == hex then return s == side and area or nil end
      end
    end
  end
  return ground_index(st)[side or ""][hex]
end

function A.class_at(hex) local st = A.stored(); return st and st.hexes[hex] end

-- [9.6053] the nearest friendly Setup Area or Eligible Entry Area along Uncontrolled Territory
function A.retreat_target(u, st)
  local targets = {}
  for _, area in ipairs(st.areas[u.side] or {}) do
    if not area.level then for _, h in ipairs(area.hexes) do targets[h] = { area = area.id } end end
  end
  for h, name in pairs(entry_hexes(u.side)) do
    if st.hexes[h] == "ut" or st.hexes[h] == u.side then targets[h] = targets[h] or { entry = name } end
  end
  local t = kessel.paths.trace{ from = u.hex, target = function(h) return targets[h] ~= nil end,
    passage = function(h)
      if kessel.map.terrain(h) == "water" then return "blocked" end
      if targets[h] or st.hexes[h] == "ut" then return nil end
      return "blocked"
    end }
  if not t then return nil end
  local dest = #t.path > 0 and t.path[#t.path] or u.hex
  return targets[dest], dest, #t.path
end

-- a unit that must Escape is Isolated when no path of Enterable Uncontrolled-Territory/friendly
-- hexes leads to a non-Isolated friendly Setup Area or Eligible Entry Area (the 9.6061 EX gives an
-- Isolated squad in No Man's Land its +2); `through` when a path exists only through enemy hexes
function A.escape_isolation(u, st)
  local targets = {}
  for _, area in ipairs(st.areas[u.side] or {}) do
    if not area.level and not area.isolated then for _, h in ipairs(area.hexes) do targets[h] = true end end
  end
  for h in pairs(entry_hexes(u.side)) do targets[h] = true end
  local function go(enemy_ok)
    return kessel.paths.trace{ from = u.hex, target = function(h) return targets[h] == true end,
      passage = function(h)
        if kessel.map.terrain(h) == "water" then return "blocked" end
        local c = st.hexes[h]
        if targets[h] or c == "ut" or c == u.side or (enemy_ok and (c == C.other(u.side) or c == "nml")) then return nil end
        return "blocked"
      end }
  end
  if go(false) then return false, false end
  if go(true) then return false, st.hexes[u.hex] ~= C.other(u.side) end
  return true, false
end

-- classify every unit as the 9.6056 chart says; sets vars.reph = { status, area, why }
function A.classify(st)
  A.classified = {}
  for _, u in ipairs(C.on_map()) do
    u = kessel.units.get(u.id)
    if not C.crewing(u) and not A.classified[u.id] then A.classify_unit(u, st) end
  end
  -- an armor leader in a vehicle shares its fate [9.606]: its status, and its Isolation
  for _, u in ipairs(C.on_map()) do
    local vid = C.crewing(u)
    if vid then
      local v = kessel.units.get(vid)
      kessel.emit.unit_var(u.id, "reph", C.copy(v.vars.reph or { status = "retained" }))
      if v.vars.isolated then kessel.emit.unit_var(u.id, "isolated", true) end
    end
  end
end

-- the Inherent crew of a vehicle abandoned in No Man's Land/Uncontrolled Territory leaves it as a
-- crew counter, then is classified as Personnel [9.6051] [9.6053] (an unarmed truck has none)
local function crew_leaves(v, st, case)
  if v.vars.unarmed or v.vars.crewless then return end
  -- an armor leader in it leaves with the crew, and is classed as Personnel himself
  for _, l in ipairs(kessel.units.all{ type = "armor_leader", side = v.side }) do
    if C.crewing(l) == v.id then
      kessel.emit.unit_var(l.id, "in_vehicle", nil)
      A.classify_unit(kessel.units.get(l.id), st)
    end
  end
  local id = kessel.emit.create_unit{ side = v.side, type = "crew", faces = { v.vars.crew_face or "2-2-8" }, at = v.hex,
    vars = { from_vehicle = v.id, level = v.vars.level } }
  C.note(case, v.id .. " is abandoned; its crew leaves it as " .. id)
  A.classify_unit(kessel.units.get(id), st)
end

-- a British unit 9.6153 will withdraw in this RePh: the scenario just played was Day II (9.612 has
-- not yet changed the date at 9.605), and it is a non-crew MMC or an SMC marked `airborne = false`
function A.withdrawn_after_day_ii(u)
  if not C.pb() or u.side ~= "british" or C.var("date") ~= "day_ii" then return false end
  if u.vars.airborne ~= false or u.vars.ox_bucks or u.type == "crew" then return false end
  return C.is_mmc(u) or C.is_smc(u)
end

function A.classify_unit(u, st)
  if A.classified then A.classified[u.id] = true end
  -- a wreck stays where it is, no side's unit or Equipment (it made an Escape DR, let a crew out
  -- and was Captured)
  if C.is_wreck(u) then
    kessel.emit.unit_var(u.id, "reph", { status = "wreck", why = "9.6056", class = st.hexes[u.hex] })
    return
  end
  -- a prisoner's fate is 9.608's: whatever an earlier RePh recorded of it is replaced
  if u.vars.prisoner_of and C.is_personnel(u) then
    kessel.emit.unit_var(u.id, "reph", { status = "prisoner", why = "9.608", class = st.hexes[u.hex] })
    return
  end
  do
    -- an abandoned vehicle is Equipment, not a Mobile vehicle: it never Escapes (the chart)
    local mobile = C.is_personnel(u) or (C.is_vehicle(u) and not u.vars.immobile and not u.vars.abandoned)
    if (mobile or u.type == "gun" or C.is_vehicle(u)) and not u.vars.prisoner_of and not u.vars.possessed_by then
      local cls = st.hexes[u.hex]
      local mine = A.area_at(u.side, u.hex, C.level(u))
      local status, why
      if mine and mine.isolated then status, why = "isolated", "9.6052"
      elseif mine then status, why = "retained", "9.6055"
      elseif not mobile then
        if C.is_vehicle(u) and u.vars.bypass and C.has_functioning_ma(u) and not u.vars.abandoned
          and st.ctrl and st.ctrl[u.hex] == C.other(u.side) then
          -- the chart: a crewed Immobile vehicle with functioning MA "in Bypass of an enemy-Controlled
          -- Strategic Location" is Captured (or Eliminated) by the enemy in 9.6071 (it stayed in
          -- place, its side's; a vehicle in Bypass does not occupy the building Location it skirts)
          status, why = "enemy_area", "9.6071"
          kessel.emit.unit_var(u.id, "reph", { status = status, why = why, class = cls, bypass = true })
          C.note(why, u.id .. " (Immobile, in Bypass of the " .. C.other(u.side) .. "-Controlled Strategic Location " .. u.hex
            .. "): the " .. C.other(u.side) .. " takes it in 9.6071")
          return
        elseif u.type == "gun" or (C.is_vehicle(u) and C.has_functioning_ma(u) and not u.vars.abandoned) then
          status, why = "in_place", "9.6056"
        elseif cls == "nml" or cls == "ut" then
          local manned = not u.vars.abandoned
          kessel.emit.unit_var(u.id, "abandoned", true)
          status, why = "abandoned", cls == "nml" and "9.6051" or "9.6053"
          if not manned then why = "9.6072" end
          kessel.emit.unit_var(u.id, "reph", { status = status, why = why, class = cls })
          if manned and not u.vars.unarmed and not u.vars.crewless then crew_leaves(u, st, why)
          elseif manned then C.note(why, u.id .. " (Immobile, no MA) is abandoned; it has no crew, and is left in place unpossessed [9.6072]")
          else C.note(why, u.id .. " (abandoned) is left in place unpossessed") end
          return
        else
          status, why = "enemy_area", "9.6071"
        end
      elseif cls == "nml" then status, why = "must_escape", "9.6051"
      elseif cls == "ut" then
        local target, dest = A.retreat_target(u, st)
        if target then
          -- the unit "and its portaged/possessed/towed Equipment" are Retained there
          if target.entry then
            kessel.emit.withdraw(u.id)
            C.follow(u)
            mine = { id = target.entry }
          else
            if dest ~= u.hex then
              kessel.emit.move(u.id, { dest })
              C.follow(u)
            end
            mine = { id = target.area }
            for _, area in ipairs(st.areas[u.side] or {}) do
              if area.id == target.area and not area.level then mine = area end
            end
          end
          -- "Retained into the nearest ... friendly Setup Area (even if Isolated)": then it is
          -- Isolated there [9.6052] (it may Escape [9.606], sets up with Ammunition Shortage [9.62021])
          status, why = mine.isolated and "isolated" or "retained", "9.6053"
          C.note("9.6053", u.id .. " in Uncontrolled Territory is Retained into " .. (target.entry and "Entry Area " or "Setup Area ") .. mine.id
            .. (mine.isolated and ", which is Isolated: so is it" or ""))
        else
          status, why = "must_escape", "9.6053"
        end
      else
        status, why = "must_escape", "9.6056"
      end
      -- [9.6056] EXC: the chart is not for the British non-Airborne units that 9.6153 withdraws
      -- after the Day II CG scenario (non-crew MMC and the SMC not of an Airborne formation): they
      -- make no Escape and wait where they are to be removed
      if status ~= "retained" and A.withdrawn_after_day_ii(u) then
        C.note("9.6056", u.id .. " is a British non-Airborne unit: the chart does not apply to it (EXC); it is withdrawn in 9.6153")
        kessel.emit.unit_var(u.id, "reph", { status = "to_withdraw", area = mine and mine.id or nil, why = "9.6153", class = cls })
        return
      end
      local iso, through
      if status == "must_escape" then iso, through = A.escape_isolation(u, st) end
      if iso then kessel.emit.unit_var(u.id, "isolated", true) end
      -- what the 9.6056 chart gives each unit not simply Retained, for a GM to check
      local where = ({ nml = "in No Man's Land", ut = "in Uncontrolled Territory with no path to a friendly area" })[cls]
        or ("in the " .. tostring(cls) .. " Setup Area")
      if status == "must_escape" then
        C.note(why, u.id .. " is " .. where .. ": it must attempt Escape (9.606)" .. (iso and ", Isolated (+2)" or ""))
      elseif status == "isolated" and why == "9.6052" and not mobile then
        -- only a Personnel or Mobile-vehicle unit may attempt Escape [9.606]; the chart Retains
        -- Isolated Equipment (an Immobile or abandoned vehicle, a Gun) for the Controlling side
        C.note(why, u.id .. " (" .. u.type .. ", not Mobile) is Isolated in Setup Area " .. tostring(mine and mine.id) .. ": it stays, Retained there (9.6071)")
      elseif status == "isolated" and why == "9.6052" then
        C.note(why, u.id .. " is Isolated in Setup Area " .. tostring(mine and mine.id) .. ": it may attempt Escape or stay (9.606)")
      elseif status == "in_place" or status == "enemy_area" then
        C.note(why, u.id .. " (" .. u.type .. ") is " .. where .. ": " .. (status == "in_place" and "it stays in place" or "the side Controlling the area takes it in 9.6071"))
      end
      kessel.emit.unit_var(u.id, "reph", { status = status, area = mine and mine.id or nil, why = why, class = cls,
        through_enemy = through })
      if status == "isolated" then kessel.emit.unit_var(u.id, "isolated", true) end
    end
  end
end

-- [9.605] each RePh decides Isolation anew: the Isolated mark and the Ammunition Shortage of the
-- last CG scenario [9.62021] (a campaign carries both with the units) are taken off first, and put
-- back on what is Isolated now [9.6052] [9.62021] [9.6141c]
local function clear_last_isolation()
  local cleared = {}
  for _, u in ipairs(kessel.units.all()) do
    if u.location ~= "eliminated" and u.location ~= "removed" and (u.vars.isolated or u.vars.ammo_shortage) then
      if u.vars.isolated then kessel.emit.unit_var(u.id, "isolated", nil) end
      if u.vars.ammo_shortage then kessel.emit.unit_var(u.id, "ammo_shortage", nil) end
      cleared[#cleared + 1] = u.id
    end
  end
  if #cleared > 0 then
    C.note("9.605", "Isolation is determined anew: the last CG scenario's Isolated and Ammunition Shortage marks are taken off "
      .. table.concat(cleared, ", "))
  end
end

-- [9.605] [11.6052] a Control marker of a side that lost the Location (the other side holds it
-- alone) "must be removed (or flipped over)": it is flipped, and noted
function A.flip_stale_control_markers(case)
  for _, m in ipairs(kessel.markers.all{ kind = "control", placed = true }) do
    local level = type(m.value) == "table" and m.value.level or 0
    local holder = A.occupier(m.hex, level)
    if holder and holder ~= m.side then
      kessel.emit.marker(m.id)
      -- flipped, it keeps what else it says (a marker the rules made for a type C area [11.6062])
      local value = type(m.value) == "table" and C.copy(m.value) or { level = level }
      kessel.emit.create_marker{ kind = "control", side = holder, hex = m.hex, value = value }
      C.note(case, string.format("%s%s: the %s Control marker is flipped: the %s hold it alone", m.hex,
        level > 0 and (" (level " .. level .. ")") or "", m.side, holder))
    end
  end
end

S.on_end("setup_areas", function()
  clear_last_isolation()
  A.flip_stale_control_markers("9.605")
  local st = A.compute()
  kessel.emit.var("setup_areas", st)
  -- [9.605] [9.6131] each side marks the Strategic Locations (the map's) it Controls by occupation
  -- alone with a Control marker, so the Control outlives the units: a Location its last units
  -- leave by an Escape or a Shift stays its side's [9.6131], into the next CG scenario and its RePh
  local marked = {}
  for _, h in ipairs(kessel.map.tagged("strategic")) do
    local holder = A.occupier(h, 0)
    local has = false
    for _, m in ipairs(kessel.markers.at(h)) do
      if m.kind == "control" and m.hex == h and (type(m.value) ~= "table" or (m.value.level or 0) == 0) then has = true end
    end
    if holder and not has then
      kessel.emit.create_marker{ kind = "control", side = holder, hex = h, value = { level = 0 } }
      marked[#marked + 1] = h .. " (" .. holder .. ")"
    end
  end
  if #marked > 0 then C.note("9.605", "Control markers placed in the Strategic Locations held by occupation: " .. table.concat(marked, ", ")) end
  local summary = {}
  for _, s in ipairs(C.sides()) do
    for _, area in ipairs(st.areas[s]) do
      summary[#summary + 1] = { side = s, id = area.id, hexes = #area.hexes, isolated = area.isolated, level = area.level }
      C.note("9.605", string.format("%s Setup Area %s: %d hex(es)%s%s", s, area.id, #area.hexes,
        area.level and (" (level " .. area.level .. " of " .. area.hexes[1] .. ")") or "", area.isolated and ", Isolated [9.6052]" or ""))
    end
  end
  local nml = {}
  for _, h in ipairs(kessel.map.hexes()) do if st.hexes[h] == "nml" then nml[#nml + 1] = h end end
  C.record("setup_areas", "9.605", { areas = summary, no_mans_land = nml })
  A.classify(st)
  -- [9.6058] No Move: before Night II, German units on No Move stay where they are (the mark is
  -- this RePh's: an earlier one's is taken off first)
  for _, u in ipairs(kessel.units.all()) do
    if u.vars.fixed ~= nil then kessel.emit.unit_var(u.id, "fixed", nil) end
  end
  if C.upcoming_date() == "night_ii" then
    for _, u in ipairs(C.on_map("german")) do
      if u.vars.no_move then
        local free = false
        for _, t in ipairs(kessel.map.tags(u.hex)) do if t == "free_movement" then free = true end end
        if not free then
          kessel.emit.unit_var(u.id, "fixed", true)
          C.note("9.6058", u.id .. " is on a No Move counter and sets up where it is for Night II")
        end
      end
    end
  end
end)

return A
