-- Red Barricades steps that differ from Pegasus Bridge: 11.605-.606 Perimeter and Isolation (the
-- Perimeter itself is given by the players: kessel.hex.grain could draw it, not done yet), 11.614 Armor
-- Withdrawal, 11.615 Fortification Removal, 11.616 CPP Replenishment, 11.617 ELR, 11.618 Weather.
local C = require("rules.common")
local S = require("rules.sequence")
local A = require("rules.areas")
local RB = {}

kessel.dice_table{ id = "cpp_rb", rule = "11.616", bands = { { -20, "18" }, { 3, "17" }, { 5, "16" }, { 7, "15" }, { 9, "14" },
  { 11, "13" }, { 13, "12" } } }
kessel.dice_table{ id = "weather_rb", rule = "11.618", bands = { { -20, "fog_mist" }, { 3, "overcast" }, { 7, "clear" }, { 10, "clear_gusty" } } }
kessel.dice_table{ id = "ec_rb", rule = "11.618", bands = { { -20, "wet" }, { 2, "moist" }, { 4, "moderate" }, { 6, "dry" } } }
kessel.dice_table{ id = "fort_removal", rule = "11.615", bands = { { -20, "eliminated" }, { 4, "no_effect" } } }

local function hist(side)
  local ok, v = pcall(kessel.tables.cell, "historical_drm", C.var("date") or "", side)
  return ok and v or 0
end
RB.hist = hist

-- what an Isolated Area's type counts [11.606]: an MMC, or a vehicle (a wreck is none, nor is an
-- abandoned vehicle, Equipment of whoever Controls its Location [11.6072]); a unit the enemy holds
-- prisoner is its Guard's, not its side's, and is no SMC that must Escape (9.608/11.608 decide
-- about it). Before, a burnt-out wreck alone made a type C area, Controlled by its old side, and a
-- Russian prisoner beside its German Guard made the area type D.
local function counts_as_mmc(u)
  if u.vars.prisoner_of then return false end
  return C.is_mmc(u) or (C.is_vehicle(u) and not u.vars.wreck and not u.vars.abandoned)
end
local function counts_as_smc(u) return C.is_smc(u) and not u.vars.prisoner_of end
RB.counts_as_mmc = counts_as_mmc

-- a Control marker that marks a Strategic Location [11.6052]: one in a hex tagged `strategic` or
-- holding a Fortification as PB's 9.605 counts one (`A.strategic_fortification`: not a still-hidden
-- one, nor a roadblock on a hexside; the ruleset's reading of the Strategic Locations, which RB
-- defines in 11.2, not in our text), or, with the option `rb_strategic_guns_vehicles`, a Gun or
-- vehicle in its Location as 9.605 counts one (`A.strategic_unit`); or any the players placed, as
-- 11.6052 has them placed in Strategic Locations only; not one the rules made for a type C area's
-- Location [11.6062]
function RB.strategic_control(m)
  for _, tag in ipairs(kessel.map.tags(m.hex)) do if tag == "strategic" then return true end end
  for _, x in ipairs(kessel.markers.at(m.hex)) do
    if x.hex == m.hex and A.strategic_fortification(x) then return true end
  end
  if kessel.game.option("rb_strategic_guns_vehicles") then
    local level = type(m.value) == "table" and m.value.level or 0
    for _, u in ipairs(kessel.units.at(m.hex)) do
      if C.level(u) == level and A.strategic_unit(u) then return true end
    end
  end
  return not (type(m.value) == "table" and m.value.made == "11.6062")
end

-- the units in the Locations of listed Isolated Area i (its hexes at its levels [11.6057])
local function units_in(areas, i)
  local out = {}
  for _, h in ipairs(areas[i].hexes or {}) do
    for _, u in ipairs(kessel.units.at(h)) do
      if C.rb_area_holds(areas, i, h, C.level(u)) then out[#out + 1] = u end
    end
  end
  return out
end
-- the Control markers in the Locations of listed Isolated Area i
local function control_markers_in(areas, i)
  local out = {}
  for _, h in ipairs(areas[i].hexes or {}) do
    for _, m in ipairs(kessel.markers.at(h)) do
      local level = type(m.value) == "table" and m.value.level or 0
      if m.kind == "control" and m.hex == h and C.rb_area_holds(areas, i, h, level) then out[#out + 1] = m end
    end
  end
  return out
end
-- the Location levels of listed Isolated Area i in one of its hexes: its `levels`, else the ground
-- level (where the rules record a Location's Control they make; 11.6062)
local function area_levels(area)
  return type(area.levels) == "table" and area.levels or { 0 }
end

-- [11.606] type of listed Isolated Area i (given by the players' Perimeters: var `isolated_areas`)
function RB.area_type(areas, i)
  local mmc = {}
  local smc = false
  for _, u in ipairs(units_in(areas, i)) do
    if counts_as_mmc(u) then mmc[u.side] = true elseif counts_as_smc(u) then smc = true end
  end
  local n = 0
  for _ in pairs(mmc) do n = n + 1 end
  if n == 2 then return "D" elseif n == 1 then return "C" elseif smc then return "B" end
  return "A"
end

-- the one side in the set `sides`, or nil (none, or both)
local function sole(sides)
  local list = C.sorted_keys(sides)
  if #list == 1 then return list[1] end
  return nil
end

-- [11.6062 EXC] the one side Controlling every Controlled Location ADJACENT to a type A or B
-- Pocket (No Man's Land, nobody's, ignored), or nil: none is Controlled, or both sides Control
-- some. Ground-level Locations of the hexes next to the area's (Control as A.controller reads it:
-- occupation, else a Control marker).
-- A non-ground-level Pocket [11.6057] reads the building Locations ADJACENT to its own: in its
-- hexes the level below its lowest and the one above its highest, and its levels in the hexes of
-- the same building next to its own (our reading of ADJACENT inside a building).
function RB.pocket_neighbours_controller(hexes, levels)
  local inside = {}
  for _, h in ipairs(hexes) do inside[h] = true end
  local sides, seen = {}, {}
  if type(levels) == "table" and #levels > 0 then
    local lo, hi = math.huge, -math.huge
    for _, l in ipairs(levels) do lo = math.min(lo, l); hi = math.max(hi, l) end
    for _, h in ipairs(hexes) do
      for _, l in ipairs({ lo - 1, hi + 1 }) do
        local c = A.controller(h, l)
        if c then sides[c] = true end
      end
      local place = kessel.map.place(h)
      local building = {}
      for _, b in ipairs(place and place.kind == "building" and place.hexes or {}) do building[b] = true end
      for _, n in ipairs(kessel.hex.neighbors(h)) do
        if building[n] and not inside[n] and not seen[n] then
          seen[n] = true
          for _, l in ipairs(levels) do
            local c = A.controller(n, l)
            if c then sides[c] = true end
          end
        end
      end
    end
    return sole(sides)
  end
  for _, h in ipairs(hexes) do
    for _, n in ipairs(kessel.hex.neighbors(h)) do
      if not inside[n] and not seen[n] then
        seen[n] = true
        local c = A.controller(n, 0)
        if c then sides[c] = true end
      end
    end
  end
  return sole(sides)
end

-- [11.6062 EXC] a type A or B Pocket all of whose Controlled neighbours one side Controls is no
-- Isolated Area: its Locations become non-Isolated and that side's. Its units lose the Isolation
-- (and a type B area's Escape) 11.606 gave them; the other side's Control markers in it go and the
-- side gains one where it did not Control; the area keeps its place in `isolated_areas` with no
-- hexes (every reader then finds none), `released` naming the side, `released_hexes` the hexes.
-- The enemy Front Line Locations that delineated the Pocket are no longer Perimeter Locations for
-- that side: the Perimeter is the players' (noted).
local function release_pocket(areas, i, side, case)
  local area = areas[i]
  local enemy = {}
  local members = units_in(areas, i)
  local markers = control_markers_in(areas, i)
  for _, u in ipairs(members) do
    if u.side == side then
      if u.vars.isolated_day == C.var("date") or u.vars.isolated then
        kessel.emit.unit_var(u.id, "isolated", nil)
        kessel.emit.unit_var(u.id, "isolated_day", nil)
      end
      if u.vars.must_escape then kessel.emit.unit_var(u.id, "must_escape", nil) end
      if u.vars.ammo_shortage_day == C.var("date") then
        kessel.emit.unit_var(u.id, "ammo_shortage", nil)
        kessel.emit.unit_var(u.id, "ammo_shortage_day", nil)
      end
    elseif counts_as_smc(u) then
      -- an enemy SMC in ground that passed to the other side: Isolated and must Escape, as an
      -- enemy SMC in a type C area [11.6061] (our reading: the exception says nothing of them)
      kessel.emit.unit_var(u.id, "isolated", true)
      kessel.emit.unit_var(u.id, "isolated_day", C.var("date"))
      kessel.emit.unit_var(u.id, "must_escape", true)
      enemy[#enemy + 1] = u.id
    end
  end
  -- one Control marker a Location, the side's: the other side's go, the side's own (a Strategic
  -- Location's) is kept and marked released, else the rules make one
  for _, h in ipairs(area.hexes) do
    for _, level in ipairs(area_levels(area)) do
      local own
      for _, m in ipairs(markers) do
        if m.hex == h and (type(m.value) == "table" and m.value.level or 0) == level then
          if m.side == side and not own then own = m else kessel.emit.marker(m.id) end
        end
      end
      if own then
        local v = type(own.value) == "table" and C.copy(own.value) or {}
        v.released = C.var("date")
        kessel.emit.marker_value(own.id, v)
      else
        kessel.emit.create_marker{ kind = "control", side = side, hex = h, value = { level = level, made = "11.6062", released = C.var("date") } }
      end
    end
  end
  C.note(case or "11.6062", string.format("Isolated Area %d (%s): type %s Pocket whose Controlled adjacent Locations are all the %s's: "
    .. "its Locations become non-Isolated and pass to the %s's Control (the %s Front Line Locations that delineated it are no longer "
    .. "Perimeter Locations: the players redraw that Perimeter) [11.6062]", i, C.rb_area_text(area), area.type,
    side, side, side))
  if #enemy > 0 then
    C.note("11.6061", string.format("Isolated Area %d: the %s SMC in it, now in %s-Controlled ground, must attempt to Escape: %s (our reading)",
      i, C.other(side), side, table.concat(enemy, ", ")))
  end
  area.released = side
  area.released_hexes = area.hexes
  area.hexes = {}
end

-- the effects of one Isolated Area's type on its units and hex Control [11.6061] [11.6062]; run
-- again for an area whose type an Escape changed [11.6065]
function RB.apply_area(areas, i, case)
  do
    local area = areas[i]
    local t = RB.area_type(areas, i)
    area.type = t
    -- [11.6062 EXC] a type A or B Pocket (every listed area is one, unless the players mark it
    -- `pocket = false`) surrounded by one side's Controlled Locations is not Isolated at all; it
    -- became No Man's Land whatever surrounded it
    local neighbour = (t == "A" or t == "B") and area.pocket ~= false and #area.hexes > 0
      and RB.pocket_neighbours_controller(area.hexes, area.levels) or nil
    if neighbour then return release_pocket(areas, i, neighbour, case) end
    local occupier
    local short, escape, lifted = {}, {}, {}
    local members = units_in(areas, i)
    do
      for _, u in ipairs(members) do
        kessel.emit.unit_var(u.id, "isolated", true)
        kessel.emit.unit_var(u.id, "isolated_day", C.var("date"))
        if counts_as_mmc(u) then occupier = u.side end
        if t == "B" and counts_as_smc(u) then kessel.emit.unit_var(u.id, "must_escape", true); escape[#escape + 1] = u.id end
        if (t == "C" or t == "D") then
          -- marked as this Day's only when it had no Shortage already (one of its own stays)
          if not u.vars.ammo_shortage then kessel.emit.unit_var(u.id, "ammo_shortage_day", C.var("date")) end
          kessel.emit.unit_var(u.id, "ammo_shortage", true)
          short[#short + 1] = u.id
        elseif u.vars.ammo_shortage_day == C.var("date") then
          -- [11.6065] an Escape made the area type A or B: the Ammunition Shortage this RePh's type
          -- C/D gave it is taken off again (it stayed on the SMC left behind)
          kessel.emit.unit_var(u.id, "ammo_shortage", nil)
          kessel.emit.unit_var(u.id, "ammo_shortage_day", nil)
          lifted[#lifted + 1] = u.id
        end
      end
    end
    if t == "C" then
      for _, u in ipairs(members) do
        if counts_as_smc(u) and u.side ~= occupier then kessel.emit.unit_var(u.id, "must_escape", true); escape[#escape + 1] = u.id end
      end
    end
    -- [11.6062] a type A or B area becomes No Man's Land; but "A Strategic Location can never be a
    -- No Man's Land Location, as one side will always Control it" [11.6051]: each Strategic
    -- Location of it keeps its Control (its Control marker), the rest lose theirs. Before, every
    -- Control marker of the area was removed, a Strategic Location's too, so it became No Man's
    -- Land and nobody's.
    local kept = {}
    for _, m in ipairs(control_markers_in(areas, i)) do
      if (t == "A" or t == "B") and RB.strategic_control(m) then
        kept[#kept + 1] = m.hex .. " (" .. m.side .. ")"
      elseif (t == "A" or t == "B") or (t == "C" and m.side ~= occupier) then
        kessel.emit.marker(m.id)
      end
    end
    if t == "C" then
      for _, h in ipairs(area.hexes) do
        for _, level in ipairs(area_levels(area)) do
          if A.controller(h, level) ~= occupier then
            -- the Control of every Location of the area, recorded as a marker: one the rules make
            -- (not a Strategic Location's own, 11.6052), so a later type A/B removes it again
            kessel.emit.create_marker{ kind = "control", side = occupier, hex = h, value = { level = level, made = "11.6062" } }
          end
        end
      end
    end
    C.note(case or "11.606", string.format("Isolated Area %d (%s): type %s%s", i, C.rb_area_text(area), t,
      (t == "A" or t == "B") and ", becomes No Man's Land [11.6062]" or (t == "C" and (", Controlled by the " .. occupier .. " [11.6062]") or "")))
    if #kept > 0 then
      C.note("11.6051", string.format("Isolated Area %d: a Strategic Location is never No Man's Land, and keeps its Control: %s", i, table.concat(kept, ", ")))
    end
    -- what 11.6061 does to its units, for a GM to check
    if #escape > 0 then C.note("11.6061", string.format("Isolated Area %d (type %s): %s must attempt to Escape", i, t, table.concat(escape, ", "))) end
    if #short > 0 then C.note("11.6061", string.format("Isolated Area %d (type %s): Ammunition Shortage next scenario for %s", i, t, table.concat(short, ", "))) end
    if #lifted > 0 then C.note("11.6065", string.format("Isolated Area %d is now type %s: no Ammunition Shortage for %s", i, t, table.concat(lifted, ", "))) end
  end
end

-- [11.6059] "Each friendly SMC that is still outside of the friendly Perimeter Area is
-- Eliminated". The Perimeter Areas are the players' (11.6053-.6058: only their Isolated Areas are
-- given), so which SMC lie outside their side's is the players' to say: either player declares
-- one with `smc_outside_perimeter{ unit }` in RePh step 11.605, and it is Eliminated as the step
-- ends, before 11.606 is applied. A unit in a listed Isolated Area is inside a Perimeter Area (a
-- Pocket is part of one [11.6056]; an enemy SMC in a type B/C area Escapes [11.6061]); an armor
-- leader in a vehicle shares its fate (D3.4); a prisoner is its Guard's. Before, 11.6059 was not
-- applied at all.
function RB.validate_outside(a)
  local why = S.only_in("perimeter", "11.6059")
  if why then return why end
  local need = C.missing(a, "11.6059", { "unit" }, "smc_outside_perimeter{ unit = <a SMC of either side outside its side's Perimeter Area> }")
  if need then return need end
  local u = C.unit(a.unit, a.side)
  if not u or u.location ~= "map" then return C.refuse("11.6059", tostring(a.unit) .. " is no unit on the map") end
  if not C.is_smc(u) then return C.refuse("11.6059", u.id .. " is no SMC: an MMC outside its Perimeter Area is in a Pocket [11.6056]") end
  if u.vars.prisoner_of then return C.refuse("11.6059", u.id .. " is a prisoner: 11.608 decides about it") end
  if C.crewing(u) then return C.refuse("11.6059", u.id .. " is an armor leader in his vehicle: he shares its fate") end
  local i = C.rb_area_at(u.hex, C.level(u))
  if i then
    return C.refuse("11.6059", string.format("%s is in Isolated Area %d (%s), part of a Perimeter Area: 11.6061 decides about its SMC", u.id, i, u.hex))
  end
  if u.vars.outside_perimeter == C.var("date") then return C.refuse("11.6059", u.id .. " is declared outside its Perimeter Area already") end
end

kessel.action{
  kind = "smc_outside_perimeter", rule = "11.6059",
  description = "declare a SMC outside its side's Perimeter Area: it is Eliminated as step 11.605 ends",
  validate = function(a) return RB.validate_outside(a) end,
  apply = function(a)
    kessel.emit.unit_var(a.unit, "outside_perimeter", C.var("date"))
    C.note("11.6059", a.unit .. " is outside the " .. kessel.units.get(a.unit).side .. " Perimeter Area: Eliminated as this step ends")
  end,
  enumerate = function()
    local out = {}
    if C.pb() then return out end
    local s = S.current()
    if not s or s.id ~= "perimeter" or not S.in_refit() or kessel.game.finished() then return out end
    for _, u in ipairs(C.on_map()) do
      if RB.validate_outside({ unit = u.id }) == nil then out[#out + 1] = { kind = "smc_outside_perimeter", unit = u.id } end
    end
    return out
  end,
}

S.on_end("perimeter", function()
  -- [11.6059] the SMC the players declared outside their Perimeter Area are Eliminated first
  for _, u in ipairs(C.on_map()) do
    if u.vars.outside_perimeter == C.var("date") then
      C.eliminate(u.id, "11.6059", "a SMC outside its side's Perimeter Area")
    end
  end
  -- the Isolation an earlier CG Day's Perimeters gave (`isolated_day`) is decided anew: taken off
  -- here, put back by this Day's Isolated Areas (one the players marked on a unit, with no day,
  -- stays) [11.605] [11.606]
  for _, u in ipairs(kessel.units.all()) do
    local day = u.vars.isolated_day
    if day ~= nil and day ~= C.var("date") and u.location ~= "eliminated" and u.location ~= "removed" then
      kessel.emit.unit_var(u.id, "isolated_day", nil)
      if u.vars.isolated then
        kessel.emit.unit_var(u.id, "isolated", nil)
        C.note("11.605", u.id .. " was Isolated on " .. tostring(day) .. ": its Isolation is determined anew")
      end
    end
  end
  A.flip_stale_control_markers("11.6052")
  local areas = C.copy(C.var("isolated_areas", {}))
  C.note("11.605", "Perimeters (11.6053-.6058) are drawn by the players; the Isolated Areas they give are read from `isolated_areas`")
  for i in ipairs(areas) do RB.apply_area(areas, i) end
  kessel.emit.var("isolated_areas", areas)
end)

-- [11.6065] after an Escape from Isolated Area i: if its type changed, its effects apply again
function RB.after_escape(i)
  local areas = C.copy(C.var("isolated_areas", {}))
  local area = areas[i]
  if not area then return end
  local t = RB.area_type(areas, i)
  if t == area.type then return end
  C.note("11.6065", string.format("an Escape changes Isolated Area %d from type %s to type %s", i, tostring(area.type), t))
  RB.apply_area(areas, i, "11.6065")
  kessel.emit.var("isolated_areas", areas)
end

-- [11.6143] an Isolated Mobile AFV of a platoon forced to Withdraw was spared and marked
-- (`withdraw_pending`) by an earlier RePh's 11.614. At the end of the scenario it then played, one
-- no longer Isolated is Eliminated: "it is not Retained for the next scenario unless still
-- Isolated" — judged once this RePh's Isolation is settled (11.605-.6065), so one that Escaped
-- goes too. One still Isolated stays on the map, marked. Before, the mark was set and never read:
-- the AFV came back to play.
function RB.withdrawn_at_scenario_end()
  for _, v in ipairs(kessel.units.all{ type = "vehicle" }) do
    if v.vars.withdraw_pending and (v.location == "map" or v.location == "pending") then
      if v.location == "map" and v.vars.isolated then
        C.note("11.6143", v.id .. " (of a Withdrawn platoon) is still Isolated: it is Retained")
      else
        kessel.emit.unit_var(v.id, "withdraw_pending", nil)
        C.eliminate(v.id, "11.6143", "of a Withdrawn platoon, no longer Isolated at the end of its scenario", { with_crew = true })
      end
    end
  end
end

-- [11.6141] [11.6142] armor withdrawal
kessel.dice_table{ id = "afv_withdrawal", rule = "11.6142", bands = { { -20, "retained" }, { 6, "withdrawn" } } }
S.on_end("armor_withdrawal", function()
  for _, v in ipairs(kessel.units.all{ type = "vehicle" }) do
    if (v.location == "map" or v.location == "pending") and v.vars.recall and not v.vars.immobile then
      if v.vars.isolated then
        -- it keeps its Recall and suffers Ammunition Shortage as well [11.6141] [11.6061]
        kessel.emit.unit_var(v.id, "ammo_shortage", true)
        C.note("11.6141", v.id .. " is Isolated: it begins the next scenario under Recall, with Ammunition Shortage")
      else C.eliminate(v.id, "11.6141", "Mobile and under Recall", { with_crew = true }) end
    end
  end
  -- a platoon is a side's (a German and a Russian "1" are two), and rolls only when some of it is
  -- not Isolated ("each friendly ... non-Isolated ... AFV Pltn (or part thereof)")
  -- a platoon rolls when it "has had >= one AFV of its Pltn on the map in at least one CG
  -- scenario": a platoon's mark, carried by any AFV of it (`platoon_on_map`), one Eliminated or
  -- wrecked too. Before, each AFV had to carry the mark itself, so one kept off the map while its
  -- platoon-mates fought made no dr and survived its platoon's Withdrawal
  local fought = {}
  for _, v in ipairs(kessel.units.all{ type = "vehicle" }) do
    if v.vars.platoon and v.vars.platoon_on_map then
      fought[(v.vars.original_side or v.side) .. ":" .. tostring(v.vars.platoon)] = true
    end
  end
  local platoons = {}
  for _, v in ipairs(kessel.units.all{ type = "vehicle" }) do
    local p = v.vars.platoon
    if p and (v.location == "map" or v.location == "pending") and fought[(v.vars.original_side or v.side) .. ":" .. tostring(p)]
      and not v.vars.spw and not C.is_wreck(v) then
      -- a Captured AFV is part of its own (the enemy's) platoon, rolled for by its captor
      local origin = v.vars.captured and v.vars.original_side or v.side
      local key = v.side .. ":" .. origin .. ":" .. tostring(p)
      platoons[key] = platoons[key] or { side = v.side, origin = origin, name = p, units = {} }
      table.insert(platoons[key].units, v)
      -- the dr is for the non-Isolated, non-Dug-In part of the platoon; a Withdrawal then takes
      -- "each remaining non-Isolated AFV" of it, a Dug-In one too (before, a Dug-In AFV was no
      -- part of its platoon: it survived its platoon's Withdrawal)
      if not v.vars.isolated and not v.vars.dug_in then platoons[key].free = true end
    end
  end
  for _, key in ipairs(C.sorted_keys(platoons)) do
    local side, p = platoons[key].side, platoons[key].name
    -- the name a GM reads: "1", or "1 (Captured german)" for the captured part of an enemy platoon
    local pname = tostring(p) .. (platoons[key].origin ~= side and (" (Captured " .. platoons[key].origin .. ")") or "")
    if not platoons[key].free then
      local all_isolated = true
      for _, v in ipairs(platoons[key].units) do if not v.vars.isolated then all_isolated = false end end
      C.note("11.6142", string.format("the %s Platoon %s is all %s: no withdrawal dr", side, pname,
        all_isolated and "Isolated" or "Isolated or Dug-In"))
      goto next_platoon
    end
    local rec = C.var("win_loss", {})[side] or {}
    local wins, losses, completed = tonumber(rec.wins) or 0, tonumber(rec.losses) or 0, tonumber(rec.completed) or 0
    -- a ratio of no wins to no losses (a record left unfilled) is no ratio at or below 1:2
    local drm = (completed >= 2 and losses > 0 and wins * 2 <= losses) and -1 or 0
    -- a Secret dr [11.6142]: the other side reads that it was made, and sees a Withdrawal by its effect
    local secret = { secret_to = side }
    local roll = kessel.dice.roll("afv_withdrawal", 6, secret)
    local r = kessel.tables.lookup("afv_withdrawal", roll + drm)
    C.note("11.6142", string.format("%s makes the Secret withdrawal dr for Platoon %s", side, pname))
    C.note("11.6142", string.format("Platoon %s withdrawal dr %d%+d: %s%s", pname, roll, drm, r,
      drm ~= 0 and string.format(" (-1 the %s win:loss ratio %d:%d is 1:2 or worse, %d CG scenarios completed)", side, wins, losses, completed) or ""), secret)
    if r == "withdrawn" then
      for _, v in ipairs(platoons[key].units) do
        if v.vars.isolated and not v.vars.immobile then
          kessel.emit.unit_var(v.id, "withdraw_pending", true)
          C.note("11.6143", v.id .. " is Isolated: it rolls for Recall each RPh of the next scenario")
        elseif not v.vars.isolated then
          -- an armor leader of another platoon in it goes with it, as under Recall (D3.4)
          C.eliminate(v.id, "11.6142", "platoon Withdrawn", { with_crew = true })
        end
      end
      -- the armor leaders that entered with that platoon (of its own side: not the captor's) go
      -- with the Withdrawal; one inside an Isolated AFV that 11.6143 keeps from being Withdrawn
      -- stays in it (he shares his AFV's fate, D3.4): the Withdrawal does not reach into an
      -- Isolated Area, and the AFV he commands remains in play (he was Eliminated out of it)
      for _, l in ipairs(kessel.units.all{ type = "armor_leader", side = platoons[key].origin }) do
        if l.vars.platoon == p and l.location ~= "eliminated" and l.location ~= "removed" then
          local v = C.crewing(l) and kessel.units.get(C.crewing(l))
          if v and v.vars.isolated then
            C.note("11.6143", l.id .. " (armor leader of Platoon " .. pname .. ") is in the Isolated " .. v.id
              .. ", which is not Withdrawn: he stays with it")
          else
            C.eliminate(l.id, "11.6142", "platoon Withdrawn")
          end
        end
      end
    end
    ::next_platoon::
  end
end)

-- [11.615] one removal attempt per item per Location
local function front(hex)
  for _, t in ipairs(kessel.map.tags(hex)) do if t == "front_line" then return true end end
  return false
end
function RB.validate_removal(a)
  local why = S.only_in("fort_removal", "11.615")
  if why then return why end
  local need = C.missing(a, "11.615", { "marker" }, "remove_fortification{ marker = <the id of a Known wire, mine, Entrenchment or roadblock marker> }")
  if need then return need end
  if type(a.marker) ~= "number" then
    return C.refuse("11.615", "marker is a marker's id, a number (marker = 0), not `" .. tostring(a.marker) .. "`")
  end
  local m
  for _, x in ipairs(kessel.markers.all{ placed = true }) do if x.id == a.marker then m = x end end
  -- a marker hidden from the acting side is no marker to it: the words an unknown id gets (it was
  -- told "only Known Fortifications are removed", which said a hidden Fortification was there)
  if m and a.side then
    for _, s in ipairs(kessel.markers.hidden_from(m.id)) do if s == a.side then m = nil; break end end
  end
  if not m then return C.refuse("11.615", "no such Fortification on the map") end
  -- wire, mines, every Entrenchment "(including an A-T Ditch)" — a trench too — and a roadblock
  local kinds = { wire = true, ap_mine = true, at_mine = true, roadblock = true }
  for k in pairs(C.ENTRENCHMENT) do kinds[k] = true end
  if not kinds[m.kind] then return C.refuse("11.615", m.kind .. " is not removed in this step") end
  if type(m.value) == "table" and m.value.hidden then return C.refuse("11.615", "only Known Fortifications are removed") end
  -- all mines of a Location are one item ("all mines are considered the same type"): one attempt
  -- at any of them is the attempt for all of them
  local function is_mine(x) return x.kind == "ap_mine" or x.kind == "at_mine" end
  -- "per each such Location per completion of this RePh step": the mark holds the CG Day of the
  -- attempt, so a later RePh (a campaign carries the markers) may try again; it was a plain
  -- `true`, and every later RePh refused the item as tried
  local function tried(x) return type(x.value) == "table" and x.value.removal_tried ~= nil and x.value.removal_tried == C.var("date") end
  if tried(m) then return C.refuse("11.615", "one attempt per item per Location") end
  if is_mine(m) then
    for _, x in ipairs(kessel.markers.at(m.hex)) do
      if x.hex == m.hex and is_mine(x) and tried(x) then
        return C.refuse("11.615", "one attempt per item per Location: the mines in " .. m.hex .. " were rolled for already")
      end
    end
  end
  if m.kind == "roadblock" then
    if A.controller(m.hex, 0) ~= a.side or A.controller(m.other, 0) ~= a.side then
      return C.refuse("11.615", "a roadblock is removed by the side Controlling both its Locations")
    end
  elseif A.controller(m.hex, 0) ~= a.side then
    return C.refuse("11.615", "only in a friendly-Controlled Location")
  end
  for _, u in ipairs(kessel.units.at(m.hex)) do if u.vars.isolated then return C.refuse("11.615", "not in an Isolated Location") end end
  -- a Location of an Isolated Area of the Perimeters is Isolated, occupied or not [11.606] (the
  -- Fortification's ground-level Location: an upper-level Pocket there is another [11.6057])
  local iso_i = C.rb_area_at(m.hex, 0)
  if iso_i then return C.refuse("11.615", m.hex .. " lies in Isolated Area " .. iso_i .. ": not in an Isolated Location") end
  if not is_mine(m) then
    for _, x in ipairs(kessel.markers.at(m.hex)) do
      if x.kind == "ap_mine" and x.hex == m.hex then return C.refuse("11.615", "A-P mines must be Cleared from the Location first") end
    end
  end
  return nil, m
end

kessel.action{
  kind = "remove_fortification", rule = "11.615", description = "roll to Eliminate a Known wire/minefield/Entrenchment/roadblock",
  validate = function(a) return (RB.validate_removal(a)) end,
  apply = function(a)
    local _, m = RB.validate_removal(a)
    local drm, why = 0, {}
    if m.kind == "roadblock" then
      if front(m.hex) or front(m.other) then drm = drm + 2; why[#why + 1] = "+2 along a Front Line hexside" else
        -- either hex of the roadblock's hexside may be the one ADJACENT to a Front Line Location
        for _, h in ipairs({ m.hex, m.other }) do
          for _, n in ipairs(kessel.hex.neighbors(h)) do if front(n) then drm = 1 end end
        end
        if drm == 1 then why[#why + 1] = "+1 along a hexside of a hex ADJACENT to a Front Line Location" end
      end
    elseif front(m.hex) then drm = drm + 2; why[#why + 1] = "+2 in a Front Line Location"
    else
      for _, n in ipairs(kessel.hex.neighbors(m.hex)) do if front(n) then drm = 1 end end
      if drm == 1 then why[#why + 1] = "+1 ADJACENT to a Front Line Location" end
    end
    local eng = 0
    for _, u in ipairs(kessel.units.all{ side = a.side, type = "squad" }) do
      if (u.location == "map" or u.location == "pending") and not u.vars.isolated and u.step == 0
        and C.assault_engineer(u) then eng = eng + 1 end
    end
    if eng >= 3 then drm = drm - 1; why[#why + 1] = "-1 three or more non-Isolated Assault Engineer squads (" .. C.assault_engineer_basis(a.side) .. ")" end
    local roll = C.dr("fort_removal")
    local r = kessel.tables.lookup("fort_removal", roll + drm)
    C.note("11.615", string.format("%s in %s: removal dr %d%+d: %s%s", m.kind, m.hex, roll, drm, r,
      #why > 0 and (" (" .. table.concat(why, ", ") .. ")") or ""))
    if r == "eliminated" then
      for _, x in ipairs(kessel.markers.at(m.hex)) do
        if x.id == m.id or ((m.kind == "ap_mine" or m.kind == "at_mine") and (x.kind == "ap_mine" or x.kind == "at_mine") and x.hex == m.hex) then
          kessel.emit.marker(x.id)
        end
      end
    else
      for _, x in ipairs(kessel.markers.at(m.hex)) do
        local same = x.id == m.id or ((m.kind == "ap_mine" or m.kind == "at_mine") and (x.kind == "ap_mine" or x.kind == "at_mine") and x.hex == m.hex)
        if same then
          local v = type(x.value) == "table" and C.copy(x.value) or { value = x.value }
          v.removal_tried = C.var("date")
          kessel.emit.marker_value(x.id, v)
        end
      end
    end
    if roll == 6 then
      -- an Assault Engineer if possible, else an elite MMC, else a First Line MMC, "etc.": the
      -- next class down (a squad's class is how many Battle Hardenings it is from elite, from the
      -- `squads` data; one the data do not know comes last), the first by id within a class
      local CLASS = { [0] = "an Assault Engineer", "an elite MMC", "a First Line MMC", "a Second Line MMC", "a Green MMC", "a Conscript MMC" }
      local function class(u)
        local f = C.squad_face(u)
        if C.assault_engineer(u) then return 0 end
        for n = 1, 5 do
          local d = C.squad_data(u.side, f)
          if not d then break end
          if d.elite then return n end
          f = d.hardens_to
        end
        return 9
      end
      local pick
      for _, u in ipairs(kessel.units.all{ side = a.side, type = "squad" }) do
        if (u.location == "map" or u.location == "pending") and not u.vars.isolated then
          local score = class(u)
          if not pick or score < pick.score then pick = { u = u, score = score } end
        end
      end
      if pick then
        C.note("11.615", string.format("Original dr 6: %s, %s, suffers Casualty Reduction", pick.u.id, CLASS[pick.score] or "an MMC of no known class"))
        C.casualty_reduce(pick.u, "11.615")
      end
    end
  end,
}

-- [11.616] CPP Replenishment: a secret DR per side
function RB.cpp()
  for _, side in ipairs(C.sides()) do
    local drm, mods = 0, {}
    local function add_mod(d, why) if d ~= 0 then drm = drm + d; mods[#mods + 1] = string.format("%+d %s", d, why) end end
    -- "-y As per CG scenario Balance provision (11.32)": the var is that DRM as the provision gives
    -- it (-1 for a -1 DRM), as its name and `kessel info` say; it was negated, so a -1 balance DRM
    -- raised the Final DR by one
    local bal = C.var("balance_drm", {})[side] or 0
    add_mod(bal, "CG balance (11.32)")
    add_mod(hist(side), "Historical DRM for " .. tostring(C.var("date")) .. " (11.6161)")
    if C.get_in("attack_chit", side) then add_mod(1, "Attack chit") end
    local cvp = C.get_in("cvp_lost", side, 0) + C.get_in("reph_cvp_lost", side, 0)
    add_mod(-math.floor(cvp / 20), cvp .. " CVP suffered")
    -- a Secret DR [11.616]: its value, record and note are the side's own, and so is the total
    -- it gives (`cpp_<side>`, secret to the side: C.set_cpp), which would tell its band
    local secret = { secret_to = side }
    local roll = C.DR("cpp", secret)
    local add = tonumber(kessel.tables.lookup("cpp_rb", roll + drm))
    local start = C.cpp(side)
    C.set_cpp(side, start + add)
    C.record("cpp", "11.616", { side = side, dr = roll, drm = drm, cvp = cvp, historical = hist(side), repl = add, start = start, total = start + add }, secret)
    C.note("11.616", side .. " makes its Secret CPP Replenishment DR")
    C.note("11.6162", string.format("%s CPP: DR %d%+d = %d%s: +%d; Start %d, Total %d", side, roll, drm, roll + drm,
      #mods > 0 and (" (" .. table.concat(mods, ", ") .. ")") or "", add, start, start + add), secret)
  end
end

-- [11.617] ELR Loss/Gain
S.on_end("elr", function()
  -- the Germans are taken to have chosen the Attack chit for a CG Initial Scenario [11.617]: the
  -- just-completed scenario was one if the scenario says so (`initial_scenario`) or it was fought
  -- on the first RB date (17 Oct, CG I's Initial Scenario)
  local initial = C.var("initial_scenario") == true or C.var("previous_date") == kessel.game.constant("rb_days")[1]
  for _, side in ipairs(C.sides()) do
    local drm, mods = 0, {}
    local function add_mod(d, why) if d ~= 0 then drm = drm + d; mods[#mods + 1] = string.format("%+d %s", d, why) end end
    add_mod(hist(side), "Historical DRM for " .. tostring(C.var("date")) .. " (11.6161)")
    if C.var("scenario_winner") == side then add_mod(-1, "won the scenario") end
    add_mod(-2 * C.get_in("idle_days", side, 0), "Idle days")
    local bought = C.var("bought_previous_day", {})[side] or {}
    add_mod(-2 * (bought.elite_coys or 0), "elite Coys bought")
    add_mod(-(bought.first_line or 0), "first-line Infantry Coys bought")
    -- "-1 per friendly first-line-Infantry-Coy/AFV-Pltn [EXC: SPW Pltn]": an AFV Pltn bought counts
    -- as a first-line Coy does (`afv_pltns`, SPW Pltns left out by the players; before, the record
    -- had no place for them and the DRM was lost)
    add_mod(-(bought.afv_pltns or 0), "AFV Pltns bought (not SPW)")
    if C.get_in("attack_chit", side) then
      add_mod(1, "Attack chit")
    elseif side == "german" and initial then
      add_mod(1, "Attack chit, assumed for the Initial Scenario")
    end
    -- +2 per scenario completed since the CG start or the last Idle Day: the players' count
    -- (`scenarios_since_idle`, the scenario just completed included) if given, else the count the
    -- last RePh used (`elr_scenarios`, carried by a campaign) plus this one, else 1: the scenario
    -- just completed is always one
    -- An Idle Day since the last-completed scenario (`idle_days` > 0: this pass of 11.612-.617
    -- follows a CG Day with no scenario [11.6121]) starts the count again: no scenario has been
    -- completed since it, and of the two counts the side may choose (since the CG start or since
    -- the last Idle Day, footnote 34) that one is never the worse, a lower Final DR never costing
    -- ELR. Before, the count went on from the last RePh, +1 for a scenario not played, so an
    -- Idle Day took -2 and then gave +2 (or more) back.
    local n, how = C.get_in("scenarios_since_idle", side), "given"
    if n == 0 and C.get_in("idle_days", side, 0) > 0 then how = "none since the last Idle Day" end
    if n == nil and C.get_in("idle_days", side, 0) > 0 then
      n, how = 0, "none since the last Idle Day"
    elseif n == nil then
      local prev = C.get_in("elr_scenarios", side)
      n, how = prev and prev + 1 or 1, prev and "counted" or "the scenario just completed"
    end
    C.set_in("elr_scenarios", side, n)
    add_mod(2 * n, string.format("%d scenario(s) completed since the CG start or an Idle Day (%s)", n, how))
    local roll = C.DR("elr")
    -- a side's ELR is the players' record (CG Roster); none recorded: 3, and the note says so
    local elr = C.get_in("elr", side)
    local assumed = elr == nil
    if assumed then elr = 3 end
    local new = elr
    -- "increases by one, to a maximum of 4" / "decreases by one, to a minimum of 0": a gain never
    -- lowers an ELR already above 4 (an ELR 5 went to 4 on a gain), a loss never raises one below 0
    if roll + drm <= 2 then new = math.max(elr, math.min(4, elr + 1)) elseif roll + drm >= 13 then new = math.min(elr, math.max(0, elr - 1)) end
    C.set_in("elr", side, new)
    C.note("11.617", string.format("%s ELR DR %d%+d = %d%s: ELR %d -> %d%s", side, roll, drm, roll + drm,
      #mods > 0 and (" (" .. table.concat(mods, ", ") .. ")") or "", elr, new,
      (roll + drm <= 2 and new == elr) and " (a gain, but the ELR is at its maximum of 4 or above)" or
      (roll + drm >= 13 and new == elr) and " (a loss, but the ELR is at its minimum of 0)" or ""))
    if assumed then C.note("11.617", "no ELR is recorded for the " .. side .. " (scenario var `elr`): 3 was taken") end
  end
end)

-- [11.618] weather and EC, rolled by the Russian side
S.on_end("weather", function()
  local prev, prev_ec = C.var("weather"), C.var("ec")
  local roll = C.DR("weather")
  local wm = C.mods()
  if prev == "overcast" then wm.add(-1, "the previous CG Day was Overcast") end
  local wdrm = wm.drm
  local w = kessel.tables.lookup("weather_rb", roll + wdrm)
  local m = C.mods()
  if prev == "overcast" then m.add(-3, "previous Day Overcast") end
  if prev == "fog_mist" then m.add(-1, "previous Day Fog/Mist") end
  if tostring(C.var("date", "")):match("nov$") then m.add(-1, "November") end
  if prev_ec == "dry" then m.add(1, "previous Day Dry EC") end
  local drm = m.drm
  local r2 = C.dr("ec")
  local ec = kessel.tables.lookup("ec_rb", r2 + drm)
  kessel.emit.var("weather", w)
  kessel.emit.var("ec", ec)
  C.record("weather", "11.618", { date = C.var("date"), dr = roll, drm = wdrm, weather = w, ec_dr = r2, ec_drm = drm, ec = ec })
  C.note("11.618", string.format("weather DR %d%+d = %d: %s%s; EC dr %d%+d = %d: %s%s", roll, wdrm, roll + wdrm, w, wm.text(),
    r2, drm, r2 + drm, ec, m.text()))
end)

-- [11.619]-[11.625] are the players' (not in our text): ending this step says a CG scenario was
-- generated for the new CG Day, and the RePh is over
S.on_end("scenario_generation", function()
  C.note("11.619", "RePh steps 11.619-11.625 (purchases, initiative, scenario generation, setup) are played by the players"
    .. " (not in our text): a CG scenario is generated for " .. tostring(C.var("date")) .. "; the RePh is over")
end)

-- [11.6121] "Should no scenario be generated (RePh step 11.623) players return to this step and
-- repeat RePh steps 11.612-.623 until one is": an Idle Day. Declared once the players have played
-- 11.619-.623 for the CG Day (the last step, above); the phase goes back to 11.612, which starts
-- the next CG Day, and every step from there is made again: SAN and Booby Traps, repairs, the
-- withdrawal dr, Fortification removal (a new attempt per item: the CG Day is new), a CPP
-- Replenishment DR, an ELR DR, the weather. What those steps read of "the previous CG Day" is now
-- the Idle Day's, when no scenario was fought:
--   * no CVP were suffered on it [11.616] (the scenario's `cvp_lost`, and the RePh Eliminations
--     counted into the CPP DR the pass before, `reph_cvp_lost`, are not counted again: our reading
--     of "since the last scenario during the current CG Day's RePh");
--   * no side won "yesterday's CG scenario" [11.617], and it was no Initial Scenario (the German's
--     assumed Attack chit [11.617] is the Initial Scenario's);
--   * the Attack chit [11.616] [11.617] and the RG bought [11.617] on the Idle Day are what the
--     players give (`attack_chit`, `bought`: their 11.619-.623, not in our text), none if not given;
--   * one more Idle Day since the last-completed scenario for each side (-2 ELR DRM), and no
--     scenario completed since it (the +2 count starts again [11.617] footnote 34).
-- PB has no Idle Day: each passage of 9.612 is the start of a new CG Date, and 9.6121 gives no
-- repeat of the steps.
function RB.validate_idle_day(a)
  local outsider = S.outsider(a, "11.6121")
  if outsider then return outsider end
  if C.pb() then
    return C.refuse("9.6121", "Pegasus Bridge has no Idle Day: each passage of 9.612 starts a new CG Date, and its RePh is not repeated")
  end
  local why = S.only_in("scenario_generation", "11.6121")
  if why then return why end
  local sides = C.sides()
  local function is_side(k) return k == sides[1] or k == sides[2] end
  if a.attack_chit ~= nil then
    if type(a.attack_chit) ~= "table" then return C.refuse("11.616", "attack_chit is a table of sides: { german = true }") end
    for k, v in pairs(a.attack_chit) do
      if not is_side(k) then return C.refuse("11.616", "attack_chit names `" .. tostring(k) .. "`, not a side of the RB campaign game") end
      if type(v) ~= "boolean" then return C.refuse("11.616", "attack_chit: the " .. k .. " value is true or false, not `" .. tostring(v) .. "`") end
    end
  end
  if a.bought ~= nil then
    if type(a.bought) ~= "table" then return C.refuse("11.617", "bought is a table of sides: { german = { first_line = 1 } }") end
    local fields = { elite_coys = true, first_line = true, afv_pltns = true }
    for k, v in pairs(a.bought) do
      if not is_side(k) then return C.refuse("11.617", "bought names `" .. tostring(k) .. "`, not a side of the RB campaign game") end
      if type(v) ~= "table" then return C.refuse("11.617", "bought: the " .. k .. " entry is a table (elite_coys, first_line, afv_pltns)") end
      for f, n in pairs(v) do
        if not fields[f] then return C.refuse("11.617", "bought: `" .. tostring(f) .. "` is not counted (the fields: afv_pltns, elite_coys, first_line)") end
        if type(n) ~= "number" or n ~= n or n < 0 or n ~= math.floor(n) or n > 100 then
          return C.refuse("11.617", "bought: the " .. k .. " " .. f .. " is a whole number, 0 or more, not `" .. tostring(n) .. "`")
        end
      end
    end
  end
end

kessel.action{
  kind = "idle_day", rule = "11.6121",
  description = "no CG scenario was generated (11.623): an Idle Day; RePh steps 11.612-11.623 are played again for a new CG Day",
  validate = function(a) return RB.validate_idle_day(a) end,
  apply = function(a)
    local day = C.var("date")
    local sides = C.sides()
    local idle = {}
    for _, side in ipairs(sides) do idle[side] = C.get_in("idle_days", side, 0) + 1 end
    kessel.emit.var("idle_days", idle)
    kessel.emit.var("cvp_lost", { [sides[1]] = 0, [sides[2]] = 0 })
    if kessel.game.var("reph_cvp_lost") ~= nil then kessel.emit.var("reph_cvp_lost", nil) end
    kessel.emit.var("scenario_winner", "none")
    kessel.emit.var("initial_scenario", false)
    local chits = {}
    for _, side in ipairs(sides) do chits[side] = (a.attack_chit or {})[side] == true end
    kessel.emit.var("attack_chit", chits)
    kessel.emit.var("bought_previous_day", C.copy(a.bought or {}))
    -- the players' own count of scenarios since an Idle Day starts again from this one
    if C.var("scenarios_since_idle") ~= nil then kessel.emit.var("scenarios_since_idle", { [sides[1]] = 0, [sides[2]] = 0 }) end
    C.record("idle_day", "11.6121", { date = day, idle_days = idle, attack_chit = chits, bought = a.bought or {} })
    C.note("11.6121", string.format("no CG scenario is generated for %s: an Idle Day (%s); RePh steps 11.612-11.623 are played again",
      tostring(day), (function()
        local t = {}
        for _, side in ipairs(sides) do t[#t + 1] = string.format("%s %d since the last scenario", side, idle[side]) end
        return table.concat(t, ", ")
      end)()))
    C.note("11.616", "the previous CG Day (" .. tostring(day) .. ") had no scenario: no CVP suffered on it, no winner; Attack chit: "
      .. (function()
        local t = {}
        for _, side in ipairs(sides) do if chits[side] then t[#t + 1] = side end end
        return #t > 0 and table.concat(t, ", ") or "none"
      end)())
    kessel.emit.clock(kessel.game.turn(), S.index("date_san"))
  end,
  enumerate = function(side)
    local s = S.current()
    if C.pb() or not s or s.id ~= "scenario_generation" or kessel.game.finished() then return {} end
    return { { kind = "idle_day", side = side or C.sides()[1] } }
  end,
}

return RB
