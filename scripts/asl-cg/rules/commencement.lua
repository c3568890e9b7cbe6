-- RePh step 9.620 Scenario Commencement (PB): who sets up and moves first [9.62023]; Isolated
-- units set up first and suffer Ammunition Shortage [9.62021]; the others after [9.62022].
local C = require("rules.common")
local S = require("rules.sequence")
local A = require("rules.areas")
local P = require("rules.purchase")
local M = {}

-- [9.6202] The new Fortifications a side bought in 9.619 are set up now, with its units: in a
-- Location of a Setup Area of its side [9.62022] (an Isolated one's first [9.62021]), never mines in
-- an Isolated Location [9.619] note f, the hex going on the CG Roster [9.62022]. 9.619 records the
-- type (and a mine's strength) of each purchase; its Location is chosen here, unless the purchase
-- named it (`buy_fortification{ hex = }`). Before, nothing placed a Fortification bought: mines
-- and foxholes bought without a hex (as the computer player bought them) never came into play,
-- and note f was never checked for them.

-- a purchase's placed count of a foxhole is one counter each; a mine purchase is its factors
local function is_mine(item) return item == "ap_mine" or item == "at_mine" end
-- a value as a refusal shows it: a table is "a table", not its address
local function shown(v) if type(v) == "table" then return "a table" end return tostring(v) end
-- a Location as notes and refusals name it: "D8", "D8 level 1"
local function location_text(hex, level)
  if (level or 0) == 0 then return tostring(hex) end
  return string.format("%s level %d", tostring(hex), level)
end

-- the side's purchases of this CG Date that set up in a Location and have none yet, by item:
-- { item = { count = n, entries = { index, ... } } }
function M.unplaced(side)
  local out, date = {}, C.var("date")
  for i, f in ipairs(C.fortifications(side)) do
    if f.date == date and P.SET_UP[f.item] and f.hex == nil then
      local t = out[f.item] or { count = 0, entries = {} }
      t.count = t.count + (f.count or 1)
      t.entries[#t.entries + 1] = i
      out[f.item] = t
    end
  end
  return out
end

-- what a turn check derives from the state, kept for the state's revision (a list of choices is
-- validated one by one at one revision: each re-read the areas and every unit, and a whole RePh
-- played in one call ran past its time)
local memo, memo_at = {}, nil
local function remember(key, fn)
  local rev = kessel.game.revision()
  if memo_at ~= rev then memo, memo_at = {}, rev end
  if memo[key] == nil then memo[key] = { fn() } end
  return table.unpack(memo[key])
end

-- the ground-level Locations where the side may set up an item, in map order: those
-- `P.location_problem` passes, found from one read of the Setup Areas (a read per hex ran past the
-- time a call is given), and whether each is an Isolated one
function M.locations(side, item)
  return remember("locations/" .. tostring(side) .. "/" .. tostring(item), function() return M.find_locations(side, item) end)
end

function M.find_locations(side, item)
  local st = A.stored()
  local area_of
  if st then
    area_of = {}
    for _, area in ipairs(st.areas[side] or {}) do
      if not area.level then
        for _, h in ipairs(area.hexes) do if area_of[h] == nil then area_of[h] = area end end
      end
    end
  end
  -- a Location holding an Isolated unit is an Isolated one (`P.isolated_location`)
  local held = {}
  for _, u in ipairs(C.on_map()) do if u.vars.isolated and u.hex then held[u.hex] = true end end
  local out, isolated = {}, {}
  for _, h in ipairs(kessel.map.hexes()) do
    local area = area_of and area_of[h]
    local ok = area_of == nil or area ~= nil
    local iso = held[h] == true or (area ~= nil and area.isolated == true)
    if ok and is_mine(item) and iso then ok = false end
    if ok and not C.enterable(h) then ok = false end
    if ok then out[#out + 1] = h; isolated[h] = iso end
  end
  return out, isolated
end

-- [9.62021] [9.62022] The order of the set-up: the side that sets up first [9.62023] sets up
-- what goes into Isolated Locations, then the other side does; then the first side sets up the
-- remainder, then the other side. Each side's new Fortifications go with its units in these
-- turns, and its Retained units are set up in their Setup Areas (`set_up_retained`: a unit left
-- alone stays where 9.605-9.613 left it, a Location of that area; a HIP unit is set up hidden
-- [9.619] note b). A turn in which its side has nothing to set up is passed over; one in which it
-- has ends with `finish_setup` (or once nothing is left to it). Before, either side could set up
-- anything at any time of the step.
function M.turns()
  local o = M.order(C.var("date"))
  local first = (o and o.sets_up_first) or C.sides()[1]
  local second = C.other(first)
  return { { side = first, isolated = true }, { side = second, isolated = true },
    { side = first, isolated = false }, { side = second, isolated = false } }
end

local function turn_text(t)
  return string.format("the %s setting up its %s", t.side, t.isolated and "Isolated Locations [9.62021]" or "non-Isolated Locations [9.62022]")
end

-- which kinds of Location the side has to set up in: { iso = true/false, open = true/false } (an
-- Isolated one, a non-Isolated one), from one read of its Setup Areas and the Isolated units
-- (M.locations gives the Locations themselves; this is asked at every turn check, so it reads
-- only the side's areas)
function M.kinds(side)
  local held = {}
  for _, u in ipairs(C.on_map()) do if u.vars.isolated and u.hex then held[u.hex] = true end end
  local st = A.stored()
  local out = { iso = false, open = false }
  if not st then
    out.iso = next(held) ~= nil
    out.open = true
    return out
  end
  for _, area in ipairs(st.areas[side] or {}) do
    if not area.level then
      for _, h in ipairs(area.hexes) do
        if area.isolated or held[h] then out.iso = true else out.open = true end
      end
    end
  end
  return out
end

-- what the side could set up in a turn of this class: Fortifications with a Location of it (mines
-- never an Isolated one), RG counters waiting for their Setup Area, and HIP it bought for a unit
-- in one
function M.work(side, isolated)
  local todo = M.unplaced(side)
  if next(todo) ~= nil then
    local k = M.kinds(side)
    for item in pairs(todo) do
      if isolated and k.iso and not is_mine(item) then return true end
      if not isolated and k.open then return true end
    end
  end
  if not isolated and #M.rg_waiting(side) > 0 then return true end
  local st = A.stored()
  for _, u in ipairs(C.on_map(side)) do
    local why, area = M.retained_barrier(u, st)
    if not why and M.could_move(u, area) and M.location_class(u, area) == isolated then return true end
  end
  local hip = M.hip_left(side)
  if next(hip) ~= nil then
    for _, u in ipairs(C.on_map(side)) do
      local item = M.hip_item(u)
      if (u.vars.isolated == true) == isolated and item and (hip[item] or 0) > 0
        and #kessel.units.hidden_from(u.id) == 0 then return true end
    end
  end
  return false
end

-- the turn now (nil once every turn is over): the var `setup_turn` counts the turns ended by
-- `finish_setup`; a turn with nothing to do is passed over
function M.turn()
  if (S.current() or {}).id ~= "commencement" then return nil end
  return remember("turn", M.find_turn)
end

function M.find_turn()
  local turns = M.turns()
  local i = (kessel.game.var("setup_turn") or 0) + 1
  while i <= #turns do
    if M.work(turns[i].side, turns[i].isolated) then
      local t = turns[i]
      t.index = i
      return t
    end
    i = i + 1
  end
  return nil
end

-- refusal when the side may not set up in a Location of this class now
function M.turn_problem(side, isolated, what)
  local t = M.turn()
  if t and t.side == side and t.isolated == isolated then return nil end
  local date = tostring(C.var("date"))
  if not t then
    return C.refuse("9.62022", "every set-up turn of 9.620 is over")
  end
  if t.side ~= side then
    return C.refuse(t.isolated and "9.62021" or "9.62022", string.format("%s: it is %s (%s sets up first on %s [9.62023])",
      what, turn_text(t), M.turns()[1].side, date))
  end
  if t.isolated then
    return C.refuse("9.62021", string.format("%s is not in an Isolated Location: the Isolated ones are set up first, by each side in turn; "
      .. "finish_setup{} ends your Isolated set-up", what))
  end
  return C.refuse("9.62021", string.format("%s is in an Isolated Location: those were set up first, before the non-Isolated ones [9.62022]", what))
end

local USAGE = "set_up_fortification{ item = <a Fortification bought on this CG Date>, hex = <a Location of your Setup Area>, count = <how many (foxholes) or factors (mines); all a mine purchase has, 1 foxhole, if left out>, level = <0, the ground-level Location, if left out> }"

function M.validate_set_up(a)
  local why = S.only_in("commencement", "9.62022")
  if why then return why end
  local side = a.side
  if side ~= C.sides()[1] and side ~= C.sides()[2] then
    return C.refuse("9.62022", "side is " .. C.sides()[1] .. " or " .. C.sides()[2] .. ": each side sets up its own Fortifications")
  end
  local need = C.missing(a, "9.62022", { "item", "hex" }, USAGE)
  if need then return need end
  if not P.SET_UP[a.item] then
    return C.refuse("9.62022", "`" .. shown(a.item) .. "` is not set up in a Location (those that are: "
      .. table.concat(C.sorted_keys(P.SET_UP), ", ") .. "; HIP goes with its units, a \"?\" is not sold)")
  end
  if type(a.hex) ~= "string" or not kessel.hex.valid(a.hex) then
    return C.refuse("9.62022", "`" .. shown(a.hex) .. "` is not a hex of this map")
  end
  local left = (M.unplaced(side)[a.item] or { count = 0 }).count
  if left == 0 then
    return C.refuse("9.62022", "the " .. side .. " has no " .. a.item .. " bought on this CG Date left to set up")
  end
  local lp = P.level_problem(a.item, a.level, "9.62022")
  if lp then return lp end
  local n = a.count
  if n == nil then n = is_mine(a.item) and left or 1 end
  if type(n) ~= "number" or n ~= math.floor(n) or n < 1 or n > left then
    return C.refuse("9.62022", string.format("count is a whole number from 1 to %d (the %s left to set up), not %s", left, a.item, shown(a.count)))
  end
  why = P.location_problem(side, a.item, a.hex, 0)
  if why then return why end
  why = M.turn_problem(side, P.isolated_location(side, a.hex, 0), a.hex)
  if why then return why end
  return nil, n
end

-- takes n of the item's unplaced purchases for the hex, splitting a purchase when it has more
local function assign(side, item, hex, n)
  local list = C.copy(C.fortifications(side))
  local out = {}
  for _, i in ipairs(M.unplaced(side)[item].entries) do
    if n == 0 then break end
    local f = list[i]
    local have = f.count or 1
    local take = math.min(n, have)
    if take == have then
      f.hex = hex
    else
      local part = C.copy(f)
      part.count, part.hex = take, hex
      part.cost = f.cost and f.cost * take / have
      f.count = have - take
      f.cost = f.cost and f.cost - part.cost
      out[#out + 1] = part
    end
    n = n - take
  end
  for _, f in ipairs(out) do list[#list + 1] = f end
  return list
end

kessel.action{
  kind = "set_up_fortification", rule = "9.62022",
  description = "set up a Fortification bought in 9.619 in a Location of your Setup Area",
  -- where a side puts its mines is its secret (they are hidden once placed); the foxholes show when
  -- they are placed, at the end of the step
  secret = true,
  validate = function(a) return (M.validate_set_up(a)) end,
  apply = function(a)
    local _, n = M.validate_set_up(a)
    kessel.emit.var("fortifications_" .. a.side, assign(a.side, a.item, a.hex, n), { secret_to = a.side })
    C.note("9.62022", string.format("%s sets up %s x%d in %s", a.side, a.item, n, a.hex), { secret_to = a.side })
  end,
  -- each Location a side may use, those nearest the enemy first for mines, and for foxholes those
  -- holding its squads and the fewest foxholes first (the computer player takes the first)
  enumerate = function(side)
    local s = S.current()
    if not s or s.id ~= "commencement" or kessel.game.finished() then return {} end
    local out = {}
    local t = M.turn()
    if not t or (side and side ~= t.side) then return {} end
    for _, sd in ipairs({ t.side }) do
      local todo = M.unplaced(sd)
      for _, item in ipairs(C.sorted_keys(todo)) do
        local scored = {}
        local enemy, own, holes = {}, {}, {}
        for _, u in ipairs(C.on_map()) do
          if u.hex and u.side == C.other(sd) then enemy[#enemy + 1] = u.hex end
          if u.hex and u.side == sd and u.type == "squad" then own[u.hex] = true end
        end
        -- the foxholes there already, on the map or set up in this step, so that they spread
        for _, m in ipairs(kessel.markers.all{ kind = "foxhole", placed = true }) do holes[m.hex] = (holes[m.hex] or 0) + 1 end
        for _, f in ipairs(C.fortifications(sd)) do
          if P.SET_UP[f.item] == "foxhole" and f.hex and not f.placed then holes[f.hex] = (holes[f.hex] or 0) + (f.count or 1) end
        end
        local hexes, iso = M.locations(sd, item)
        for _, h in ipairs(hexes) do
          if iso[h] == t.isolated then
            local score
            if is_mine(item) then
              score = 99
              for _, e in ipairs(enemy) do score = math.min(score, kessel.hex.distance(h, e)) end
            else
              score = 2 * (holes[h] or 0) + (own[h] and 0 or 1)
            end
            scored[#scored + 1] = { h = h, score = score }
          end
        end
        table.sort(scored, function(x, y) if x.score ~= y.score then return x.score < y.score end return x.h < y.h end)
        for _, c in ipairs(scored) do out[#out + 1] = { kind = "set_up_fortification", side = sd, item = item, hex = c.h } end
      end
    end
    return out
  end,
}

-- [9.62021] [9.62022] the side whose turn it is ends it (what it has left of this kind it no
-- longer sets up here; a Fortification whose only Locations are of this kind must be set up first)
local function validate_finish(a)
  local why = S.only_in("commencement", "9.62021")
  if why then return why end
  local t = M.turn()
  if not t then return C.refuse("9.62022", "every set-up turn of 9.620 is over: end_step ends the step") end
  if a.side and a.side ~= t.side then
    return C.refuse(t.isolated and "9.62021" or "9.62022", "it is " .. turn_text(t) .. ", not the " .. a.side)
  end
  for item in pairs(M.unplaced(t.side)) do
    local hexes, iso = M.locations(t.side, item)
    local other = false
    for _, h in ipairs(hexes) do if iso[h] ~= t.isolated then other = true end end
    if #hexes > 0 and not other then
      return C.refuse(t.isolated and "9.62021" or "9.62022", string.format("the %s has %s left to set up, and its only Locations are %s ones: set it up now",
        t.side, item, t.isolated and "Isolated" or "non-Isolated"))
    end
  end
  local fix = {}
  for _, o in ipairs(M.overstacked(t.side)) do
    if M.relief(o, t.side, t.isolated) then fix[#fix + 1] = o.text end
  end
  if #fix > 0 then
    return C.refuse(t.isolated and "9.62021" or "9.62022", string.format("the %s has a Location over the stacking limit (A5.1: no set-up exceeds it): %s; "
      .. "set_up_retained a unit of it to a Location with room first", t.side, table.concat(fix, "; ")))
  end
  return nil
end

kessel.action{
  kind = "finish_setup", rule = "9.62021",
  description = "end your set-up turn of 9.620 (your Isolated Locations [9.62021], or the rest [9.62022])",
  validate = function(a) return validate_finish(a) end,
  apply = function(a)
    local t = M.turn()
    -- what no unit of the side can relieve stays over the limit, said once, at the side's last turn
    if not t.isolated then
      for _, o in ipairs(M.overstacked(t.side)) do
        C.note("9.62022", o.text .. " stays over the stacking limit: no unit of it may be set up in a Location with room (A5.1)")
      end
    end
    kessel.emit.var("setup_turn", t.index)
    C.note(t.isolated and "9.62021" or "9.62022", "the " .. t.side .. " has set up its " .. (t.isolated and "Isolated" or "non-Isolated") .. " Locations")
  end,
  enumerate = function(side)
    local t = M.turn()
    if not t or (side and side ~= t.side) or validate_finish({ side = t.side }) then return {} end
    return { { kind = "finish_setup", side = t.side } }
  end,
}

-- [9.6178] [9.62022] An RG is recorded for "a friendly, non-Isolated Setup Area or Eligible Entry
-- Area": one recorded for a Setup Area sets up there now, with the side's other non-Isolated
-- units ("in eligible Locations of the Setup Area each is Retained in"). Before, its counters
-- waited off the map for good: nothing set them up, and only an Entry Area let them in.
-- The side's RG counters waiting off the map for a Setup Area: { unit, area }
function M.rg_waiting(side)
  local out = {}
  local rec = kessel.game.var("rg_record") or {}
  if next(rec) == nil then return out end
  for _, u in ipairs(kessel.units.all{ side = side, location = "pending" }) do
    local r = u.vars.rg and rec[u.vars.rg]
    -- this CG Date's RG: the Setup Area IDs are this RePh's [9.605]
    if r and r.area and r.date == C.var("date") then out[#out + 1] = { unit = u, area = r.area } end
  end
  table.sort(out, function(x, y) return x.unit.id < y.unit.id end)
  return out
end

local function area_hexes(side, id)
  local st = A.stored()
  for _, area in ipairs(st and st.areas[side] or {}) do
    if area.id == id then return area.hexes, area.isolated, area.level or 0 end
  end
  return nil
end

M.water_problem = P.water_problem

local UNIT_USAGE = "set_up_unit{ unit = <an RG counter waiting for its Setup Area>, hex = <a Location of that Setup Area> }"
function M.validate_set_up_unit(a)
  local why = S.only_in("commencement", "9.62022")
  if why then return why end
  local need = C.missing(a, "9.62022", { "unit", "hex" }, UNIT_USAGE)
  if need then return need end
  local u = C.unit(a.unit, a.side)
  local waiting
  for _, w in ipairs(u and M.rg_waiting(u.side) or {}) do if w.unit.id == u.id then waiting = w end end
  if not waiting then return C.refuse("9.62022", tostring(a.unit) .. " is no RG counter waiting to set up in the Setup Area recorded for it (9.6178)") end
  why = C.not_owner(a, u, "9.62022")
  if why then return why end
  -- an RG recorded for an upper-level Setup Area (9.605 EX's first level of Z15) sets up in its one
  -- Location, at that level (it waited off the map for good, and the step with it: `area_hexes`
  -- knew ground-level areas only)
  local hexes, _, level = area_hexes(u.side, waiting.area)
  if not hexes then return C.refuse("9.6178", string.format("%s's RG is recorded for Setup Area %s, which the %s no longer has", u.id, waiting.area, u.side)) end
  local inside = false
  for _, h in ipairs(hexes) do if h == a.hex then inside = true end end
  if not inside then
    return C.refuse("9.62022", string.format("%s is not in Setup Area %s, which %s's RG is recorded for (9.6178)", tostring(a.hex), waiting.area, u.id))
  end
  why = M.water_problem(a.hex)
  if why then return why end
  -- [9.6183] a leader the RG received sets up with a unit of his RG
  if C.is_leader(u) then
    why = M.rg_leader_problem(u, a.hex, level)
    if why then return why end
  end
  why = M.turn_problem(u.side, false, u.id)
  if why then return why end
  why = M.stacking_problem(u, a.hex, level)
  if why and M.room_in(u, hexes, level) then return why end
  return nil
end

-- [A5.1] [9.6178] whether some Location of the hexes (at `level`, the ground level if nil) has
-- room for the unit. An RG counter whose recorded Setup Area has none sets up over the limit
-- (noted): the step waits for every RG counter, so one kept off the map would hold the RePh for
-- good, and our text gives an RG recorded for a Setup Area no other way in (our reading).
function M.room_in(u, hexes, level)
  for _, h in ipairs(hexes or {}) do
    if C.enterable(h) and M.stacking_problem(u, h, level or 0) == nil then return true end
  end
  return false
end

kessel.action{
  kind = "set_up_unit", rule = "9.62022",
  description = "set up an RG counter in the Setup Area recorded for its RG (9.6178)",
  validate = function(a) return (M.validate_set_up_unit(a)) end,
  apply = function(a)
    local u = kessel.units.get(a.unit)
    local rec = (kessel.game.var("rg_record") or {})[u.vars.rg] or {}
    local _, _, level = area_hexes(u.side, rec.area)
    level = level or 0
    local over = M.stacking_problem(u, a.hex, level)
    kessel.emit.place(a.unit, a.hex)
    if level ~= 0 then kessel.emit.unit_var(a.unit, "level", level) end
    C.note("9.62022", a.unit .. " (RG) sets up in " .. location_text(a.hex, level)
      .. (over and " over the stacking limit: no Location of its Setup Area has room for it (A5.1)" or ""))
  end,
  -- the area's first Location holding a unit of the RG (so a leader finds one), else its first,
  -- passing over those the unit would overstack [A5.1]
  enumerate = function(side)
    local t = M.turn()
    if not t or t.isolated or (side and side ~= t.side) then return {} end
    local out = {}
    for _, w in ipairs(M.rg_waiting(t.side)) do
      local hexes, _, level = area_hexes(t.side, w.area)
      hexes = hexes or {}
      local with, rest = {}, {}
      for _, h in ipairs(hexes) do
        local has = false
        for _, o in ipairs(kessel.units.at(h)) do
          if o.vars.rg == w.unit.vars.rg and not C.is_leader(o) and o.type ~= "sw" and C.level(o) == (level or 0) then has = true end
        end
        if has then with[#with + 1] = h else rest[#rest + 1] = h end
      end
      for _, h in ipairs(rest) do with[#with + 1] = h end
      for _, h in ipairs(with) do
        local a = { kind = "set_up_unit", side = t.side, unit = w.unit.id, hex = h }
        if M.validate_set_up_unit(a) == nil then out[#out + 1] = a; break end
      end
    end
    return out
  end,
}

-- [9.62021] [9.62022] The side's Retained units (and the Equipment they hold) are set up "in
-- eligible Locations of the Setup Area each is Retained in", an Isolated one's only in its current
-- Setup Area, in the side's turn for that class of Location; an Immobile vehicle stays in its
-- Location (EXC, 9.6071), and so does a unit on a No Move counter [9.6058]. A unit left alone is
-- set up where 9.605-9.613 left it, a Location of its area. A Location is a hex and a level: an
-- upper building level is a Location of its own (9.605 EX's first level of Z15, 9.6057), so a unit
-- may set up in one of a building hex of its area (`level`), unless that Location forms a Setup
-- Area apart (the other side's, or another of its own: `A.area_at`); a unit Retained in such an
-- upper-level area has that one Location. No Location is set up over the stacking limit [A5.1]
-- (`M.stacking_problem`). A unit already set up hidden stays (it was set up). Before, the set-up
-- always went to the ground level (a `level` sent was passed over in silence, and a unit upstairs
-- was brought down), with no stacking check, and a unit Retained in an upper-level area was told
-- it was Retained in no Setup Area. Not listed among the choices but at ground level (a unit by
-- every Location of its area is a long list, and staying is a set-up too).

-- the Setup Area a unit on the map is Retained in (nil: none it may be set up in), an upper-level
-- one among them; `st`, the stored 9.605 areas, when the caller has read them already (each read
-- copies them all)
function M.retained_area(u, st)
  local r = u.vars.reph
  if u.location ~= "map" or type(r) ~= "table" or (r.status ~= "retained" and r.status ~= "isolated") or r.area == nil then return nil end
  st = st or A.stored()
  for _, area in ipairs(st and st.areas[u.side] or {}) do
    if area.id == r.area then return area end
  end
  return nil
end

-- is the Location (hex, level) one of the side's Setup Area `area`?
function M.area_holds(side, area, hex, level)
  if area.level then return hex == area.hexes[1] and level == area.level end
  local at = A.area_at(side, hex, level)
  return at ~= nil and not at.level and at.id == area.id
end

-- is a Location the unit may set up in one that exists for it? A level is a whole number; an upper
-- level only in a building hex, and only for Infantry and its SW (a vehicle or a Gun sets up at
-- ground level: our reading, the text names Infantry/Weapon in upper levels, 9.6057); no Cellar in
-- PB (a Cellar is a Location only where a CG's SSR makes one, B23.41, outside our text; PB's text
-- names none, RB's 11.6057 names RB Cellars, but RB's set-up, 11.620 on, is not in our text). How
-- many levels a building has is not on our map: any upper level of a building hex is taken.
function M.level_problem(u, hex, level)
  if level == nil or level == 0 then return nil end
  if type(level) ~= "number" or level ~= math.floor(level) or level > 100 then
    return C.refuse("9.62022", "level is a Location level, a whole number up to 100 (0, the ground level, if left out), not " .. shown(level))
  end
  if level < 0 then
    return C.refuse("9.62022", string.format("%s has no Cellar: PB's text names none (a Cellar is a Location only where a CG's SSR makes one)", hex))
  end
  if not C.is_building(hex) then
    return C.refuse("9.62022", string.format("%s is no building hex: its only Location is at ground level, not level %d", hex, level))
  end
  if not (C.is_personnel(u) or u.type == "sw") then
    return C.refuse("9.62022", string.format("%s is a %s: it sets up at ground level, not level %d (upper levels hold Infantry and its Weapons, 9.6057)",
      u.id, u.type, level))
  end
  return nil
end

-- [A5.1] would the unit set up in (hex, level) overstack it? Its side's Personnel there (not the
-- unit itself, a vehicle's crew or a prisoner) with the unit, against the `stacking_limit` data: a
-- refusal naming the count, else nil. A Location overstacked already refuses only what adds to it.
-- `counted`, the side's { hs, smc } there when a listing has counted them (the unit not among them)
-- what a unit adds to a Location's stack [A5.1]: "smc", a number of HS-equivalents, or "none"
function M.stack_size(u)
  if not C.is_personnel(u) or C.crewing(u) then return "none" end
  if C.is_smc(u) then return "smc" end
  return tostring(C.hs_equiv(u))
end

function M.stacking_problem(u, hex, level, counted)
  if not C.is_personnel(u) or C.crewing(u) then return nil end
  local limit = kessel.game.constant("stacking_limit")
  local hs, smc
  if counted then hs, smc = counted[1], counted[2] else hs, smc = C.stack_count(u.side, hex, level, u.id) end
  if C.is_smc(u) then
    smc = smc + 1
    if smc > limit.smc then
      return C.refuse("9.62022", string.format("%s would hold %d SMC of the %s, over the stacking limit of %d SMC a Location (A5.1: no set-up exceeds it)",
        location_text(hex, level), smc, u.side, limit.smc))
    end
  else
    hs = hs + C.hs_equiv(u)
    if hs > 2 * limit.squads then
      return C.refuse("9.62022", string.format("%s would hold %s squad-equivalents of the %s, over the stacking limit of %d squads a Location (A5.1: no set-up exceeds it)",
        location_text(hex, level), hs % 2 == 0 and tostring(hs // 2) or string.format("%.1f", hs / 2), u.side, limit.squads))
    end
  end
  return nil
end

-- why a unit sets up hidden already and stays: set up with HIP bought in 9.619 (note b), or hidden
-- by the scenario (its `hidden`: PB's hidden units are placed on the map in 9.602, so one still
-- hidden here is the scenario's own; not HIP the side bought)
function M.hidden_problem(u)
  if #kessel.units.hidden_from(u.id) == 0 then return nil end
  for _, f in ipairs(C.fortifications(u.side)) do
    for _, id in ipairs(type(f.units) == "table" and f.units or {}) do
      if id == u.id then return C.refuse("9.619", u.id .. " is set up hidden with HIP already (note b): it stays where it set up") end
    end
  end
  return C.refuse("9.62022", u.id .. " is hidden by the scenario (its `hidden`), not with HIP bought in 9.619: it stays where the scenario set it up")
end

-- why a unit on the map may not be set up elsewhere in 9.620 (a refusal), else nil and its area
-- (`st` as for `M.retained_area`)
function M.retained_barrier(u, st)
  if u.vars.prisoner_of then return C.refuse("9.62022", u.id .. " is held prisoner: its Guard's side decides where it is") end
  if C.crewing(u) then return C.refuse("9.62022", u.id .. " is in vehicle " .. tostring(C.crewing(u)) .. ": it sets up with it") end
  if u.vars.possessed_by then
    return C.refuse("9.62022", string.format("%s is held by %s: it sets up with it", u.id, tostring(u.vars.possessed_by)))
  end
  if C.is_vehicle(u) and u.vars.immobile then
    return C.refuse("9.62022", u.id .. " is an Immobile vehicle: it remains in its current Location (EXC, 9.6071)")
  end
  if u.vars.fixed then return C.refuse("9.6058", u.id .. " is on a No Move counter: it begins the CG scenario where it is") end
  local area = M.retained_area(u, st)
  if area then
    local hidden = M.hidden_problem(u)
    if hidden then return hidden end
  end
  if not area then
    local r = u.vars.reph
    return C.refuse("9.62022", string.format("%s is Retained in no Setup Area of the %s it can be set up in (%s)", u.id, u.side,
      type(r) == "table" and ("status " .. tostring(r.status) .. (r.area and (", area " .. tostring(r.area)) or "")) or "not classified in 9.605"))
  end
  return nil, area
end
-- whether the unit sets up in the Isolated turn: its area is Isolated, or it is itself [9.62021]
function M.location_class(u, area) return area.isolated == true or u.vars.isolated == true end

-- [9.6152] Note 1 and Note 3, [9.6102]: what this RePh gives the British on the map — the
-- reinforcements of Night II, Night III and Dawn, the Walking Wounded MMC — may go to whichever
-- non-Isolated British Setup Area the British choose, Dawn's Guns to such an area's hexes numbered
-- 20 or more only. The ruleset places them in the first such area (`A.british_arrival`, Note 3's
-- first hex numbered 20 or more), marking the unit's `reph.any_area` (the case) and, for a Gun,
-- `reph.hex_min`; in 9.620 each may be set up in a Location of any non-Isolated Setup Area of its
-- side, the Gun in a hex numbered 20 or more only. Before, each was held to the area the ruleset
-- had picked, like any unit Retained there, and a Gun could be set up in a hex numbered below 20.
-- The non-Isolated Setup Area of the side a free-set-up unit may go to at (hex, level), or nil.
function M.free_area(u, hex, level)
  local r = u.vars.reph
  if type(r) ~= "table" or not r.any_area then return nil end
  local at = A.area_at(u.side, hex, level)
  if at and not at.isolated and M.area_holds(u.side, at, hex, level) then return at end
  return nil
end

-- the ground-level hexes a Retained unit may set up in: its area's, or every non-Isolated
-- ground-level area's of its side for a unit free to choose (above), in the areas' order
function M.setup_hexes(u, area)
  local r = u.vars.reph
  if type(r) ~= "table" or not r.any_area then return area.hexes end
  return remember("open_hexes/" .. u.side, function()
    local out, st = {}, A.stored()
    for _, a in ipairs(st and st.areas[u.side] or {}) do
      if not a.isolated and not a.level then for _, h in ipairs(a.hexes) do out[#out + 1] = h end end
    end
    return out
  end)
end

-- whether the unit has another Location of its area to go to (a turn for its side): another hex,
-- or the ground level of its own when it is upstairs
function M.could_move(u, area) return not area.level and (#M.setup_hexes(u, area) > 1 or C.level(u) ~= 0) end

-- [9.6183] A leader an RG received sets up (or enters) with a unit of his own RG in the first CG
-- scenario he takes part in, the one after its purchase: one set up with his RG in its Setup
-- Area (9.6178, `set_up_unit`) stays with a unit of it when set up again — he goes only to a
-- Location holding one, and the last unit of his RG in his Location does not leave him. Before,
-- `set_up_unit` held him to his RG and `set_up_retained` then took him (or it) anywhere in the area.
-- the non-leader, non-SW units of RG `rg` in a Location, but `except`
local function rg_mates(rg, hex, level, except)
  local n = 0
  for _, o in ipairs(kessel.units.at(hex)) do
    if o.id ~= except and o.vars.rg == rg and not C.is_leader(o) and o.type ~= "sw" and C.level(o) == level then n = n + 1 end
  end
  return n
end

function M.rg_leader_problem(u, hex, level)
  local rg = u.vars.rg
  local rec = rg ~= nil and (kessel.game.var("rg_record") or {})[rg] or nil
  if type(rec) ~= "table" or rec.date ~= C.var("date") or u.type == "sw" then return nil end
  if C.is_leader(u) then
    if rg_mates(rg, hex, level) == 0 then
      return C.refuse("9.6183", string.format("%s sets up with a unit of his RG: none is in %s", u.id, location_text(hex, level)))
    end
    return nil
  end
  if rg_mates(rg, u.hex, C.level(u), u.id) > 0 then return nil end
  for _, o in ipairs(kessel.units.at(u.hex)) do
    if C.is_leader(o) and o.vars.rg == rg and C.level(o) == C.level(u) then
      return C.refuse("9.6183", string.format("%s is the last unit of its RG (%s) with %s, who sets up with a unit of his RG: set him up with another first",
        u.id, tostring(rec.id), o.id))
    end
  end
  return nil
end

local RETAINED_USAGE = "set_up_retained{ unit = <a Retained unit of yours on the map>, hex = <another Location of the Setup Area it is Retained in>, level = <0, the ground level, if left out> }"
function M.validate_set_up_retained(a)
  local why = S.only_in("commencement", "9.62022")
  if why then return why end
  local need = C.missing(a, "9.62022", { "unit", "hex" }, RETAINED_USAGE)
  if need then return need end
  local u = C.unit(a.unit, a.side)
  if not u or u.location ~= "map" then return C.refuse("9.62022", tostring(a.unit) .. " is no unit of yours on the map") end
  why = C.not_owner(a, u, "9.62022")
  if why then return why end
  if type(a.hex) ~= "string" or not kessel.hex.valid(a.hex) then
    return C.refuse("9.62022", "`" .. shown(a.hex) .. "` is not a hex of this map")
  end
  local area
  why, area = M.retained_barrier(u)
  if why then return why end
  why = M.retained_to_problem(u, area, a.hex, a.level)
  if why then return why end
  why = M.turn_problem(u.side, M.location_class(u, area), u.id)
  if why then return why end
  return M.stacking_problem(u, a.hex, a.level or 0)
end

-- what bars unit `u`, Retained in `area` and free of `M.retained_barrier`, from the Location
-- (hex, level) of the set-up, short of the turn and the stacking limit (nil: nothing): the part of
-- `M.validate_set_up_retained` that depends on the Location, so that a listing checks the rest
-- once a unit
function M.retained_to_problem(u, area, hex, lvl)
  local why = M.level_problem(u, hex, lvl)
  if why then return why end
  local level = lvl or 0
  if not M.area_holds(u.side, area, hex, level) and not M.free_area(u, hex, level) then
    if u.vars.reph.any_area then
      return C.refuse(u.vars.reph.any_area, string.format("%s is in no non-Isolated %s Setup Area, where %s may set up (%s)",
        location_text(hex, level), u.side, u.id, u.vars.reph.any_area == "9.6102" and "9.6102" or "9.6152 Note 1"))
    end
    return C.refuse(M.location_class(u, area) and "9.62021" or "9.62022",
      string.format("%s is not in Setup Area %s, which %s is Retained in", location_text(hex, level), tostring(area.id), u.id))
  end
  why = M.water_problem(hex)
  if why then return why end
  local min = u.vars.reph.hex_min
  if min and C.hex_number(hex) < min then
    return C.refuse("9.6152", string.format("Note 3: %s, a Gun, sets up in a hex numbered %d or more, not in %s", u.id, min, hex))
  end
  if hex == u.hex and level == C.level(u) then return C.refuse("9.62022", u.id .. " is in " .. location_text(hex, level) .. " already") end
  return M.rg_leader_problem(u, hex, level)
end

kessel.action{
  kind = "set_up_retained", rule = "9.62022",
  description = "set up a Retained unit in another Location of the Setup Area it is Retained in",
  validate = function(a) return (M.validate_set_up_retained(a)) end,
  apply = function(a)
    local u = kessel.units.get(a.unit)
    local from = location_text(u.hex, C.level(u))
    local level = a.level or 0
    -- one free to set up in any non-Isolated area (9.6152 Note 1) is Retained in the one it goes to
    local area = M.retained_area(u)
    if not M.area_holds(u.side, area, a.hex, level) then
      local to = M.free_area(u, a.hex, level)
      local r = C.copy(u.vars.reph)
      r.area = to.id
      kessel.emit.unit_var(u.id, "reph", r)
      u = kessel.units.get(a.unit)
    end
    kessel.emit.move(u.id, { a.hex })
    C.follow(u)
    -- the unit and what it holds are at the Location's level (none kept at ground level)
    for _, x in ipairs({ u, table.unpack(C.carried(u.id)) }) do
      if C.level(x) ~= level then kessel.emit.unit_var(x.id, "level", level ~= 0 and level or nil) end
    end
    C.note(M.location_class(u, M.retained_area(u)) and "9.62021" or "9.62022",
      string.format("%s sets up in %s (from %s), in Setup Area %s", u.id, location_text(a.hex, level), from, tostring(u.vars.reph.area)))
  end,
  -- every ground-level Location of its Setup Area each Retained unit of the side in its set-up
  -- turn may go to, so a player (the editor's choices, a unit's marked hexes) can set it up there:
  -- what `M.validate_set_up_retained` passes, its checks of the step, the turn and the unit made
  -- once a unit and the side's stack in a Location counted once (each choice re-made them all:
  -- a listing of a thousand choices took most of a random player's time)
  enumerate = function(side)
    local t = M.turn()
    if not t or (side and side ~= t.side) then return {} end
    if S.only_in("commencement", "9.62022") then return {} end
    local out, counts, st = {}, {}, A.stored()
    for _, u in ipairs(kessel.units.all{ side = t.side }) do
      if u.location == "map" then
        local why, area = M.retained_barrier(u, st)
        if not why and not M.turn_problem(u.side, M.location_class(u, area), u.id) then
          local size = M.stack_size(u)
          for _, h in ipairs(M.setup_hexes(u, area)) do
            if not M.retained_to_problem(u, area, h, 0) then
              -- the unit is not in the ground-level Location of h (refused above as "already")
              -- units of one size fare alike in a Location (the refusal names no unit)
              local key = h .. "/" .. size
              local fits = counts[key]
              if fits == nil then
                local c = counts[h]
                if not c then c = { C.stack_count(t.side, h, 0) }; counts[h] = c end
                fits = M.stacking_problem(u, h, 0, c) == nil
                counts[key] = fits
              end
              if fits then out[#out + 1] = { kind = "set_up_retained", side = t.side, unit = u.id, hex = h } end
            end
          end
        end
      end
    end
    return out
  end,
}

-- [A5.1] [9.62022] A side sets up in eligible Locations of its areas, and no set-up exceeds the stacking
-- limit: the single set-up moves and the ruleset's own placements keep within it, but a Location
-- may come to 9.620 over it (the scenario ended so, or the ruleset placed a unit where no Location
-- had room). A side's set-up turn does not end while a unit of such a Location, of the kind the
-- limit is exceeded in (a SMC for the SMC limit, else a squad-sized unit), may be set up in that
-- turn in a ground-level Location with room (`set_up_retained`, which takes none over the limit,
-- so each such move lowers the excess and the turn always comes to an end). One that no unit can
-- relieve so stays over the limit, noted when the side's last turn ends (our reading: the text
-- gives no other remedy, and a set-up that can never end would hold the RePh for good). Before,
-- `finish_setup` ended the turn whatever stood over the limit.
-- The side's Locations over the limit, by hex and level: { hex, level, squads, smc, text }
function M.overstacked(side)
  return remember("overstacked/" .. side, function()
    local limit = kessel.game.constant("stacking_limit")
    local seen, out = {}, {}
    for _, u in ipairs(C.on_map(side)) do
      local key = u.hex and (u.hex .. "/" .. C.level(u))
      if key and not seen[key] then
        seen[key] = true
        local hs, smc = C.stack_count(side, u.hex, C.level(u))
        local squads, smcs = hs > 2 * limit.squads, smc > limit.smc
        if squads or smcs then
          local what = {}
          if squads then what[#what + 1] = string.format("%s squad-equivalents (the limit %d)", hs % 2 == 0 and tostring(hs // 2) or string.format("%.1f", hs / 2), limit.squads) end
          if smcs then what[#what + 1] = string.format("%d SMC (the limit %d)", smc, limit.smc) end
          out[#out + 1] = { hex = u.hex, level = C.level(u), squads = squads, smc = smcs,
            text = location_text(u.hex, C.level(u)) .. " holds " .. table.concat(what, " and ") }
        end
      end
    end
    table.sort(out, function(x, y) if x.hex ~= y.hex then return x.hex < y.hex end return x.level < y.level end)
    return out
  end)
end

-- does the unit count toward what Location `o` (of M.overstacked) exceeds?
local function adds_to(u, o)
  if not C.is_personnel(u) or C.crewing(u) or u.vars.prisoner_of then return false end
  if C.is_smc(u) then return o.smc end
  return o.squads
end

-- the first `set_up_retained` of the side's turn that takes a unit out of overstacked Location `o`
-- to a ground-level Location with room, or nil
function M.relief(o, side, isolated)
  for _, u in ipairs(kessel.units.at(o.hex)) do
    if u.side == side and C.level(u) == o.level and adds_to(u, o) then
      local why, area = M.retained_barrier(u)
      if not why and M.location_class(u, area) == isolated then
        for _, h in ipairs(M.setup_hexes(u, area)) do
          local a = { kind = "set_up_retained", side = side, unit = u.id, hex = h }
          if M.validate_set_up_retained(a) == nil then return a end
        end
      end
    end
  end
  return nil
end

-- does a `set_up_retained` take a unit out of a Location over the limit (M.overstacked)?
function M.relieves(a)
  local u = kessel.units.get(a.unit)
  if not u or not u.hex then return false end
  for _, o in ipairs(M.overstacked(u.side)) do
    if o.hex == u.hex and o.level == C.level(u) and adds_to(u, o) then return true end
  end
  return false
end

-- [9.619] notes b, c, h: HIP is bought per counter, the cost by its size (a 5/8" counter, a
-- squad, a HS, a SMC), and used in 9.620 by a unit of that size set up hidden: the item a unit
-- takes (nil: none sets up HIP). A crew is HS-sized; a Gun or a vehicle is a 5/8" counter.
function M.hip_item(u)
  if u.type == "squad" then return u.step == 0 and "hip_squad" or "hip_hs" end
  if u.type == "crew" then return "hip_hs" end
  if C.is_smc(u) then return "hip_smc" end
  if u.type == "gun" or (C.is_vehicle(u) and not C.is_wreck(u)) then return "hip_counter" end
  return nil
end

-- the HIP the side bought on this CG Date and has not used yet, by item
function M.hip_left(side)
  local out, date = {}, C.var("date")
  for _, f in ipairs(C.fortifications(side)) do
    if f.date == date and tostring(f.item):match("^hip_") then
      out[f.item] = (out[f.item] or 0) + (f.count or 1) - (f.used or 0)
    end
  end
  for k, n in pairs(out) do if n <= 0 then out[k] = nil end end
  return out
end

-- [9.619] note b's "50* MTR": the text names the German RG's light mortar so (the 9.6182 EX calls
-- the LT.MTR column's weapon a "50* MTR"): the ruleset's `LtMTR`. Whether the British 51 MTR (the
-- 2-in.) is one the text does not say: the option `hip_mortar_51mm`, off by default (the text's
-- own weapon only). Nor does it say whether that mortar sets up beside the SW the unit takes up to
-- its IPC or only instead of them ("... up to the legal IPC ... or one 50* MTR SW per MMC"): the
-- option `hip_mortar_beyond_ipc`, on by default (beside them, beyond the IPC).
kessel.option{ id = "hip_mortar_51mm", type = "bool", default = false, rule = "9.619",
  description = "HIP note b: a British 51 MTR sets up hidden as the note's one 50* MTR per MMC (the text names the German 50mm only)" }
kessel.option{ id = "hip_mortar_beyond_ipc", type = "bool", default = true, rule = "9.619",
  description = "HIP note b: the one 50* MTR per MMC sets up hidden beside the SW taken up to the IPC (off: only instead of them)" }
function M.hip_mortar(w)
  if w.type ~= "sw" or type(w.face) ~= "table" then return false end
  if w.face.weapon == "LtMTR" then return true end
  return w.face.weapon == "51 MTR" and kessel.game.option("hip_mortar_51mm") == true
end
-- the options' reading, for the note of a set-up that took a mortar by it
local function mortar_reading()
  return string.format("note b's 50* MTR read as %s, %s the SW up to the IPC (options hip_mortar_51mm, hip_mortar_beyond_ipc)",
    kessel.game.option("hip_mortar_51mm") and "the German LtMTR or the British 51 MTR" or "the German LtMTR",
    kessel.game.option("hip_mortar_beyond_ipc") and "beside" or "instead of")
end

-- the SW that set up hidden with a HIP unit [9.619] note b: up to its IPC, to which the leaders
-- of its side in its Location lend their spare IPC when it is an MMC ("leaders may lend their IPC
-- to a MMC"; a leader lends to one MMC a CG Date: var `hip_ipc_lent`), or one 50* MTR per MMC
-- (`M.hip_mortar`, beside those or instead of them by the option); the rest sets up in sight, in
-- the Location. Returns the leaders that lent too, and the mortar taken beyond the IPC (or nil).
local function hidden_with(u)
  local ipc = kessel.game.constant("ipc")
  local cap = C.is_smc(u) and ipc.smc or ((u.type == "crew" or C.is_hs(u)) and ipc.hs or ipc.squad)
  if not C.is_personnel(u) then cap = 0 end
  local lenders = {}
  local function pp_of(list)
    local n = 0
    for _, w in ipairs(list) do n = n + ((w.face and w.face.pp) or 0) end
    return n
  end
  if C.is_mmc(u) then
    for _, o in ipairs(C.same_location(u)) do
      if C.is_leader(o) and o.side == u.side and not o.vars.prisoner_of and o.vars.hip_ipc_lent ~= C.var("date") then
        local spare = ipc.smc - pp_of(C.possessed(o.id))
        if spare > 0 and not o.vars.wounded then cap = cap + spare; lenders[#lenders + 1] = o.id end
      end
    end
  end
  local with, left, mortar = {}, {}, nil
  local held = C.possessed(u.id)
  table.sort(held, function(x, y) return x.id < y.id end)
  for _, w in ipairs(held) do
    local pp = (w.face and w.face.pp) or 0
    if w.type == "sw" and pp <= cap then
      with[#with + 1] = w.id; cap = cap - pp
    elseif mortar == nil and C.is_mmc(u) and M.hip_mortar(w) then
      mortar = w.id
    else
      left[#left + 1] = w.id
    end
  end
  -- the one 50* MTR beyond the IPC: beside the SW taken, or (option off) only as the unit's one SW
  if mortar and (kessel.game.option("hip_mortar_beyond_ipc") or #with == 0) then
    with[#with + 1] = mortar
  elseif mortar then
    left[#left + 1] = mortar; mortar = nil
  end
  return with, left, lenders, mortar
end

local HIP_USAGE = "set_up_hip{ unit = <a unit of yours on the map, for which you bought HIP on this CG Date> }"
function M.validate_hip(a)
  local why = S.only_in("commencement", "9.619")
  if why then return why end
  local need = C.missing(a, "9.619", { "unit" }, HIP_USAGE)
  if need then return need end
  local u = C.unit(a.unit, a.side)
  if not u then return C.refuse("9.619", tostring(a.unit) .. " is no unit in play") end
  if u.location ~= "map" then return C.refuse("9.619", u.id .. " is not on the map: HIP is a set-up on the map (note b)") end
  why = C.not_owner(a, u, "9.619")
  if why then return why end
  if u.vars.prisoner_of then return C.refuse("9.619", u.id .. " is held prisoner") end
  local item = M.hip_item(u)
  if not item then return C.refuse("9.619", u.id .. " is no counter, squad, HS or SMC that HIP is bought for (note b): a SW sets up hidden with its HIP unit") end
  if #kessel.units.hidden_from(u.id) > 0 then return C.refuse("9.619", u.id .. " is hidden already") end
  if u.side == "german" and C.var("date") == "dusk" then return C.refuse("9.619", "no German unit uses HIP in the Dusk CG scenario (note h)") end
  if (M.hip_left(u.side)[item] or 0) == 0 then
    return C.refuse("9.619", string.format("the %s has no %s bought on this CG Date left for %s", u.side, item, u.id))
  end
  return M.turn_problem(u.side, u.vars.isolated == true, u.id)
end

kessel.action{
  kind = "set_up_hip", rule = "9.619",
  description = "set up a unit hidden with HIP bought in 9.619 (note b), with the SW it may take along",
  -- which unit is hidden is its owner's secret
  secret = true,
  validate = function(a) return (M.validate_hip(a)) end,
  apply = function(a)
    local u = kessel.units.get(a.unit)
    local item = M.hip_item(u)
    local list = C.copy(C.fortifications(u.side))
    local date = C.var("date")
    for _, f in ipairs(list) do
      if f.date == date and f.item == item and (f.used or 0) < (f.count or 1) then
        f.used = (f.used or 0) + 1
        f.units = f.units or {}
        f.units[#f.units + 1] = u.id
        break
      end
    end
    kessel.emit.var("fortifications_" .. u.side, list, { secret_to = u.side })
    local with, left, lenders, mortar = hidden_with(u)
    for _, id in ipairs(lenders) do kessel.emit.unit_var(id, "hip_ipc_lent", date) end
    kessel.emit.hide(u.id)
    kessel.emit.unit_var(u.id, "hidden", true)
    for _, id in ipairs(with) do
      kessel.emit.hide(id)
      kessel.emit.unit_var(id, "hidden", true)
    end
    -- a SW beyond what sets up hidden with it sets up in sight, on its own: still possessed, it
    -- would name the hidden unit in every view
    for _, id in ipairs(left) do kessel.emit.unit_var(id, "possessed_by", nil) end
    C.note("9.619", string.format("%s sets up HIP in %s (%s)%s%s%s%s", u.id, u.hex, item,
      #with > 0 and (", with " .. table.concat(with, ", ")) or "",
      #lenders > 0 and (" (IPC lent by " .. table.concat(lenders, ", ") .. ")") or "",
      mortar and ("; " .. mortar .. " beyond its IPC as its one 50* MTR (" .. mortar_reading() .. ")") or "",
      #left > 0 and ("; " .. table.concat(left, ", ") .. " beyond its IPC set up in sight, unpossessed (note b)") or ""), { secret_to = u.side })
  end,
  enumerate = function(side)
    local t = M.turn()
    if not t or (side and side ~= t.side) then return {} end
    local out = {}
    -- a side with no HIP left has none to use (validate_hip refuses each unit so, one read of its
    -- purchases a unit)
    if next(M.hip_left(t.side)) == nil then return out end
    for _, u in ipairs(C.on_map(t.side)) do
      local a = { kind = "set_up_hip", side = t.side, unit = u.id }
      if M.validate_hip(a) == nil then out[#out + 1] = a end
    end
    return out
  end,
}

-- the step ends once each side has set up every new Fortification that has a Location to go to;
-- the sender is told what is its own to set up, and of the other side only that it is not done
S.block("commencement", function(a)
  local turns = M.turns()
  for _, side in ipairs({ turns[1].side, turns[2].side }) do
    local todo = M.unplaced(side)
    local items = {}
    for _, item in ipairs(C.sorted_keys(todo)) do
      if #M.locations(side, item) > 0 then items[#items + 1] = item .. " x" .. todo[item].count end
    end
    local waiting = M.rg_waiting(side)
    if #waiting > 0 then
      local ids = {}
      for _, w in ipairs(waiting) do ids[#ids + 1] = w.unit.id end
      if a and a.side and a.side ~= side then
        return C.refuse("9.62022", "the " .. side .. " has not finished setting up its units")
      end
      return C.refuse("9.62022", "the " .. side .. " sets up its RG in the Setup Area recorded for it before the step ends: "
        .. table.concat(ids, ", ") .. " (" .. UNIT_USAGE .. ")")
    end
    if #items > 0 then
      if a and a.side and a.side ~= side then
        return C.refuse("9.62022", "the " .. side .. " has not finished setting up its new Fortifications")
      end
      return C.refuse("9.62022", "the " .. side .. " sets up its new Fortifications before the step ends: "
        .. table.concat(items, ", ") .. " (" .. USAGE .. ")")
    end
  end
  -- "Once the side setting up first has completed its setup, the other side follows" [9.62022]:
  -- the step does not end in a side's set-up turn (its Retained units, its HIP), which
  -- `finish_setup` ends. Before, either side's end_step ended the step there, and the other side
  -- never had its turn.
  local t = M.turn()
  if t then
    return C.refuse(t.isolated and "9.62021" or "9.62022", "it is " .. turn_text(t)
      .. ": finish_setup{} ends that turn, and the step ends once every set-up turn of 9.620 is over")
  end
end)

-- each new Fortification with a Location becomes its marker: a foxhole in the open, a minefield
-- hidden from the other side [9.602] [9.6073], its strength the factors bought; one left with no
-- Location to go to (every Location of the side's areas barred) is not set up, and its owner told
local SIZE = { foxhole_3s = "3S", foxhole_2s = "2S", foxhole_1s = "1S" }
-- A Location has one minefield of each type: 9.619 records a purchase's type and strength,
-- 9.6073 marks "each such minefield" with one counter that hides its strength/type, and 11.615
-- takes "all mines" of a Location as one item. So factors laid where the side already has mines of
-- that type add to that minefield's strength (our reading of how they combine). Before, each
-- set-up made a marker of its own: two A-P minefields in one hex, each with its own strength (and
-- two markers for 9.6073 to reveal). A minefield another side laid stays its own.
function M.minefield_at(side, kind, hex)
  for _, m in ipairs(kessel.markers.at(hex)) do
    local owner = m.side or (type(m.value) == "table" and m.value.owner)
    if m.kind == kind and m.hex == hex and m.other == nil and type(m.value) == "table" and owner == side then return m end
  end
  return nil
end
function M.place_new(side, date)
  local list = C.copy(C.fortifications(side))
  local changed = false
  for _, f in ipairs(list) do
    if f.date == date and P.SET_UP[f.item] and not f.placed then
      if f.hex then
        local ids = {}
        if is_mine(f.item) then
          local into = M.minefield_at(side, f.item, f.hex)
          if into then
            local v = C.copy(into.value)
            v.strength = (v.strength or 0) + (f.count or 1)
            kessel.emit.marker_value(into.id, v)
            ids[1] = into.id
            C.note("9.62022", string.format("%s x%d added to the %s minefield (marker %d) in %s: strength %d",
              f.item, f.count or 1, side, into.id, f.hex, v.strength), { secret_to = side })
          else
            ids[1] = kessel.emit.create_marker{ kind = f.item, side = side, hex = f.hex,
              value = { owner = side, strength = f.count or 1, hidden = true }, hidden_from = true }
          end
        else
          for _ = 1, f.count or 1 do
            ids[#ids + 1] = kessel.emit.create_marker{ kind = "foxhole", side = side, hex = f.hex,
              value = { owner = side, size = SIZE[f.item] } }
          end
          C.note("9.62022", string.format("%s %s foxhole x%d set up in %s", side, SIZE[f.item], f.count or 1, f.hex))
        end
        f.placed, f.markers = true, ids
        C.record("fortification_setup", "9.62022", { side = side, item = f.item, count = f.count or 1, hex = f.hex, markers = ids },
          { secret_to = side })
      else
        C.note("9.62022", string.format("%s x%d has no Location of the %s Setup Areas to set up in: not set up", f.item, f.count or 1, side),
          { secret_to = side })
        f.placed = false
      end
      changed = true
    end
  end
  if changed then kessel.emit.var("fortifications_" .. side, list, { secret_to = side }) end
end

function M.order(date)
  local ok, first = pcall(kessel.tables.cell, "setup_move", date or "", "sets_up_first")
  if not ok then return nil end
  return { sets_up_first = first, moves_first = kessel.tables.cell("setup_move", date, "moves_first") }
end

S.on_end("commencement", function()
  local date = C.var("date")
  local o = M.order(date)
  if o then
    kessel.emit.var("sets_up_first", o.sets_up_first)
    kessel.emit.var("moves_first", o.moves_first)
    C.note("9.62023", string.format("%s: the %s set up first; the %s move first", date, o.sets_up_first, o.moves_first))
  end
  -- "Each unit/Equipment piece set up in an Isolated Location": a Weapon too (one held by an
  -- Isolated unit, mounted on an Isolated vehicle, or lying in an Isolated Setup Area: C.weapon_isolated)
  local isolated = {}
  for _, u in ipairs(C.on_map()) do
    local weapon = u.type == "sw" or u.type == "gun" or C.vehicular(u)
    if u.vars.isolated or (weapon and C.weapon_isolated(u)) then
      isolated[#isolated + 1] = u.id
      kessel.emit.unit_var(u.id, "ammo_shortage", true)
    end
  end
  C.record("commencement", "9.620", { date = date, sets_up_first = o and o.sets_up_first, moves_first = o and o.moves_first,
    isolated = isolated })
  -- each side's new Fortifications set up [9.62021] [9.62022], and its own record of them (9.619's
  -- secret), with their Locations
  for _, side in ipairs(C.sides()) do
    M.place_new(side, date)
    local bought = {}
    for _, f in ipairs(C.fortifications(side)) do if f.date == date then bought[#bought + 1] = f end end
    if #bought > 0 then C.record("fortifications", "9.62022", { side = side, date = date, bought = bought }, { secret_to = side }) end
  end
  if #isolated > 0 then
    C.note("9.62021", "Isolated units set up first in their Setup Area, with Ammunition Shortage (A19.131): " .. table.concat(isolated, ", "))
  end
  C.note("9.6201", "a PB CG scenario has no Victory Conditions of its own")
  -- the set-up turns are this step's: the next 9.620 starts again with the first
  if kessel.game.var("setup_turn") ~= nil then kessel.emit.var("setup_turn", nil) end
  -- an Initial Scenario's "!" steps are done: the next RePh is a whole one
  if kessel.game.var("initial_reph") ~= nil then kessel.emit.var("initial_reph", nil) end
end)

return M
