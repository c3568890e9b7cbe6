-- RePh step 9.613 Shift (PB): a group Retained in a Setup Area (or an Entry Area) tries to move to
-- another friendly Setup Area or Eligible Entry Area. `shift{ units = {ids}, to = area }`, where
-- `to` is a Setup Area letter or an Entry Area name.
local C = require("rules.common")
local S = require("rules.sequence")
local A = require("rules.areas")
local X = require("rules.escape")
local T = {}

kessel.dice_table{ id = "shift", rule = "9.613", bands = { { -5, "shifted" }, { 9, "no_shift" }, { 11, "casualties" }, { 12, "eliminated" } } }

local function area_by_id(side, id)
  local st = A.stored()
  for _, area in ipairs(st and st.areas[side] or {}) do if area.id == id then return area end end
  return nil
end

local function is_entry(side, name)
  local names = (C.var("entry_areas", {}) or {})[side] or {}
  return names[name] and kessel.map.area(name) ~= nil
end

-- [9.613] from an Entry Area a group may Shift only to "the next" Eligible Entry Area. The RePh
-- text does not order the Entry Areas (they are the CG's map edges): a scenario lists them in order
-- along the map edge in `entry_order = { side = { names } }`, and the next ones are the neighbours
-- in that list. Without a list every Eligible Entry Area counts as next.
function T.next_entries(side, from)
  local order = (C.var("entry_order", {}) or {})[side]
  local out = {}
  if type(order) ~= "table" or #order == 0 then
    for _, name in ipairs(C.entry_names(side)) do
      if name ~= from and is_entry(side, name) then out[#out + 1] = name end
    end
    return out
  end
  for i, name in ipairs(order) do
    if name == from then
      -- the nearest Eligible neighbour on each side of it in the list
      for _, step in ipairs({ -1, 1 }) do
        local j = i + step
        while order[j] ~= nil and not is_entry(side, order[j]) do j = j + step end
        if order[j] ~= nil then out[#out + 1] = order[j] end
      end
    end
  end
  return out
end

function T.next_entry(side, from, to)
  for _, n in ipairs(T.next_entries(side, from)) do if n == to then return true end end
  return false
end

-- the path for a Shift: Uncontrolled Territory, friendly Setup-Area and Eligible Entry-Area hexes
-- [9.613]; returns the path (hexes) or nil. `opts.fewest_ut`: the path crossing the fewest
-- Uncontrolled-Territory hexes (then the shortest), as the group traces it for the DRM;
-- `opts.road`: only along road hexsides ("that entire path ... on road hexes")
function T.path(side, from_hexes, to_hexes, opts)
  opts = opts or {}
  local st = A.stored()
  local targets, entry = {}, A.entry_hexes(side)
  for _, h in ipairs(to_hexes) do targets[h] = true end
  local step
  if opts.fewest_ut or opts.road then
    step = function(a, b)
      if opts.road and not kessel.map.has_side(a, b, "road") then return nil end
      return (opts.fewest_ut and st.hexes[b] == "ut") and 1001 or 1
    end
  end
  local best, best_cost
  for _, start in ipairs(from_hexes) do
    local t = kessel.paths.trace{ from = start, target = function(h) return targets[h] == true end, step = step,
      passage = function(h)
        if kessel.map.terrain(h) == "water" then return "blocked" end
        if targets[h] or st.hexes[h] == side or st.hexes[h] == "ut" or entry[h] then return nil end
        return "blocked"
      end }
    local cost = t and (step and t.cost or #t.path)
    if t and (best == nil or cost < best_cost) then best, best_cost = t.path, cost; best.start = start end
  end
  return best
end

-- the hexes a Shift path from Setup Area `src` may start from: "any friendly-Controlled hex of
-- that Setup Area" [9.613] — a Strategic Location the side Controls, or a Location it Controls by
-- occupation as 9.605 found it or now (A26); an upper-level area is its one friendly-Controlled
-- Location. Before, every hex of the area was a start (and all of them when none of its
-- Strategic Locations was the side's), for the path and its DRM alike
function T.starts(side, src)
  local st = A.stored()
  local out = {}
  for _, h in ipairs(src.hexes) do
    if src.level or st.ctrl[h] == side or (st.control and st.control[h] == side) or A.controller(h, 0) == side then
      out[#out + 1] = h
    end
  end
  return out
end

-- the Uncontrolled-Territory hexes along a path
local function ut_along(path)
  local st = A.stored()
  local n = 0
  for _, h in ipairs(path) do if st.hexes[h] == "ut" then n = n + 1 end end
  return n
end

local function group_area(units)
  local area
  for _, u in ipairs(units) do
    local a = u.vars.reph and u.vars.reph.area
    if a == nil or (area ~= nil and a ~= area) then return nil end
    area = a
  end
  return area
end

-- why a unit may make no Shift attempt at all (whatever the destination), or nil: a Gun, a unit
-- that is not Personnel or a Mobile vehicle, one Retained in no Setup or Entry Area, one that tried
-- this CG Date, one on a No Move counter [9.613] [9.6058]
function T.shift_barrier(u)
  if u.type == "gun" then return { rule = "9.613", message = "is a Gun: a Gun can not be Shifted" } end
  -- an abandoned vehicle is Equipment, with no crew to drive it (9.6141a may reman it later)
  if not (C.is_personnel(u) or (C.is_vehicle(u) and not u.vars.immobile and not u.vars.abandoned and not C.is_wreck(u))) then
    return { rule = "9.613", message = "is not Personnel or a Mobile vehicle" .. (u.vars.abandoned and " (it is abandoned)" or "") }
  end
  if u.vars.shifted == C.var("date") then return { rule = "9.613", message = "already tried to Shift this CG Date" } end
  -- an OB-given reinforcement sent to an Entry Area "may only enter ... as specified" whenever it
  -- enters [9.6151]: while it waits off-map it Shifts nowhere else (it was allowed to)
  if u.location == "pending" and u.vars.enters_at then
    return { rule = "9.6151", message = "is an OB-given reinforcement: it enters only at Entry Area " .. tostring(u.vars.enters_at) .. ", whenever it enters" }
  end
  if u.vars.fixed then
    return { rule = "9.6058", message = "is on a No Move counter: it begins the Night II CG scenario where it ended Night I" }
  end
  if not (u.vars.reph and u.vars.reph.area) then
    return { rule = "9.613", message = "is Retained in no Setup or Entry Area" }
  end
  return nil
end

function T.validate(a)
  local why = S.only_in("shift", "9.613")
  if why then return why end
  if not C.pb() then return C.refuse("9.613", "Shift is a Pegasus Bridge step") end
  if type(a.units) ~= "table" or #a.units == 0 then
    return C.refuse("9.613", "name the shifting units as a list, and the area they go to: shift{ units = { \"g1\", ... }, to = <a friendly Setup Area or Eligible Entry Area> }"
      .. (a.units ~= nil and (" (units is `" .. tostring(a.units) .. "`)") or ""))
  end
  if a.to == nil then return C.refuse("9.613", "name the area the group Shifts to: shift{ units = { ... }, to = <a friendly Setup Area or Eligible Entry Area> }") end
  local twice = C.repeated(a.units)
  if twice then return C.refuse("9.613", twice .. " is named twice: name each unit of the group once") end
  local units, side = {}, nil
  for _, id in ipairs(a.units) do
    local u = C.unit(id, a.side)
    if not u or (u.location ~= "map" and u.location ~= "pending") then return C.refuse("9.613", C.not_retained(id, u)) end
    local theirs = C.not_owner(a, u, "9.613")
    if theirs then return theirs end
    local why = T.shift_barrier(u)
    if why then return C.refuse(why.rule, id .. " " .. why.message) end
    side = side or u.side
    if u.side ~= side then return C.refuse("9.613", "a group is of one side") end
    units[#units + 1] = u
  end
  local from = group_area(units)
  if not from then return C.refuse("9.613", "a Shifting group is Retained in one Setup or Entry Area") end
  if from == a.to then return C.refuse("9.613", "the group is already in " .. tostring(a.to)) end
  -- all units Shifting from the same area to the same area do so as one group [9.613]
  local went = (C.var("shift_groups", {})[tostring(C.var("date"))] or {})[side .. ":" .. from .. ">" .. tostring(a.to)]
  if went then
    return C.refuse("9.613", "units Shifting from " .. from .. " to " .. tostring(a.to) .. " go as a single group, and one went already this CG Date")
  end
  local dest = area_by_id(side, a.to)
  if dest and dest.isolated then return C.refuse("9.613", "units may not Shift into an Isolated Setup Area") end
  if not dest and not is_entry(side, a.to) then return C.refuse("9.613", tostring(a.to) .. " is no friendly Setup Area or Eligible Entry Area") end
  local src = area_by_id(side, from)
  if not src and not dest and not T.next_entry(side, from, a.to) then
    return C.refuse("9.613", "from Entry Area " .. from .. " a group may Shift only to the next Eligible Entry Area ("
      .. table.concat(T.next_entries(side, from), " or ") .. "), not " .. tostring(a.to))
  end
  if src then
    local starts = T.starts(side, src)
    if #starts == 0 then
      return C.refuse("9.613", "Setup Area " .. from .. " has no friendly-Controlled hex to trace the Shift path from")
    end
    if not T.path(side, starts, dest and dest.hexes or kessel.map.area(a.to)) then
      return C.refuse("9.613", "no path of Uncontrolled-Territory/friendly hexes leads from a friendly-Controlled hex of Setup Area " .. from .. " to " .. a.to)
    end
  end
  local why = X.validate_drop(a, "9.613")
  if why then return why end
  local dropped = X.dropped(a)
  for _, u in ipairs(units) do
    local carried = 0
    for _, w in ipairs(C.possessed(u.id)) do
      -- a Gun (even dm) is not Shifted: it stays behind, so its PP are not carried [9.613]
      if not dropped[w.id] and w.type ~= "gun" then carried = carried + ((w.face and w.face.pp) or 0) end
    end
    if carried > X.portage_limit(u) then
      return C.refuse("9.613", u.id .. " carries " .. carried .. " PP, more than its limit of " .. X.portage_limit(u)
        .. ": drop SW first (shift{ ..., drop = { sw ids } })")
    end
  end
end

-- [9.613] a vehicle Eliminated by "Shifted with Casualties" makes a CS DR for its Inherent crew
-- (Casualty Reduction NA). The CS# is printed on the counter (vehicle var `cs`; chapter D data
-- outside the RePh text): the crew survives on a DR below it. A vehicle with no crew (unarmed,
-- crewless) rolls nothing; one with no `cs` is noted for the GM. Returns the new crew or nil.
function T.crew_survival(v)
  if v.vars.unarmed or v.vars.crewless then return nil end
  local cs = tonumber(v.vars.cs)
  if not cs then
    C.note("9.613", v.id .. " has no CS# (var cs): its crew's CS DR is not made (resolve it off-engine)")
    return nil
  end
  local roll = C.DR("crew_survival")
  if roll >= cs then
    C.note("9.613", string.format("%s's Inherent crew: CS DR %d, not below CS# %d: Eliminated (the CS# and this threshold are chapter D's, outside the RePh text)", v.id, roll, cs))
    return nil
  end
  local id = kessel.emit.create_unit{ side = v.side, type = "crew", faces = { v.vars.crew_face or "2-2-8" }, at = v.hex,
    vars = { from_vehicle = v.id } }
  C.note("9.613", string.format("%s's Inherent crew: CS DR %d < CS# %d: it survives as %s (no Casualty Reduction; the CS# and this threshold are chapter D's, outside the RePh text)", v.id, roll, cs, id))
  return kessel.units.get(id)
end

-- [9.613] [9.62022] [A5.1] where a unit Shifted into a Setup Area is placed (the set-up of one the
-- player leaves alone): its first Location with room for it, over the limit in its first only when
-- none has room, never a water hex (`C.enterable`). Before, every unit went to the area's first
-- hex in map order, the water beside a bridge among them, a whole group in one Location.
local function landing(u, dest)
  local M = require("rules.commencement")
  local first
  for _, h in ipairs(dest.hexes) do
    if C.enterable(h) then
      first = first or h
      if M.stacking_problem(u, h, 0) == nil then return h end
    end
  end
  return first or dest.hexes[1]
end

local function arrive(u, side, to)
  local dest = area_by_id(side, to)
  if dest then
    local here = u.location == "map" and u.hex and A.area_at(side, u.hex, C.level(u))
    local at = (here and here.id == dest.id and not here.level and C.enterable(u.hex)) and u.hex or landing(u, dest)
    if u.location == "pending" then kessel.emit.place(u.id, at)
    elseif u.hex ~= at then kessel.emit.move(u.id, { at }) end
  else
    kessel.emit.withdraw(u.id)
  end
  kessel.emit.unit_var(u.id, "reph", { status = "retained", area = to, why = "9.613" })
  -- its SW; a vehicle's mounted Weapons and the armor leader in it (Retained with it)
  for _, w in ipairs(C.carried(u.id)) do
    if w.type == "armor_leader" then kessel.emit.unit_var(w.id, "reph", { status = "retained", area = to, why = "9.613" }) end
  end
  C.follow(u)
end

function T.apply(a)
  X.apply_drop(a, "9.613")
  local units = {}
  for _, id in ipairs(a.units) do units[#units + 1] = kessel.units.get(id) end
  -- "A Gun can not be Shifted" [9.613] (no dm exception here, unlike 9.606): a Gun a unit of the
  -- group holds stays in its Location, unpossessed, Retained there as every Gun is [9.6055]
  for _, u in ipairs(units) do C.leave_guns(u, "9.613", "a Gun can not be Shifted: %s stays behind") end
  local side, from = units[1].side, group_area(units)
  local date = C.var("date")
  for _, u in ipairs(units) do kessel.emit.unit_var(u.id, "shifted", date) end
  local groups = C.copy(C.var("shift_groups", {}))
  groups[tostring(date)] = groups[tostring(date)] or {}
  groups[tostring(date)][side .. ":" .. from .. ">" .. tostring(a.to)] = true
  kessel.emit.var("shift_groups", groups)
  local src, dest = area_by_id(side, from), area_by_id(side, a.to)
  -- automatic: from a Setup Area to an Entry Area that is part of or adjacent to it
  if src and not dest then
    local touching = false
    local set = {}
    for _, h in ipairs(src.hexes) do set[h] = true end
    for _, h in ipairs(kessel.map.area(a.to)) do
      if set[h] then touching = true end
      for _, n in ipairs(kessel.hex.neighbors(h)) do if set[n] then touching = true end end
    end
    if touching then
      for _, u in ipairs(units) do arrive(u, side, a.to) end
      C.note("9.613", table.concat(a.ids or a.units, ", ") .. " Shift to Entry Area " .. a.to .. " (adjacent: no DR)")
      return
    end
  end
  local drm, mods = 0, {}
  -- the path DRMs count between the current and the new Area, from a Setup Area or from an Entry
  -- Area to a Setup Area; not from one Entry Area to another (the table's double-dagger note)
  local origin = src and T.starts(side, src) or (dest and kessel.map.area(from)) or nil
  if origin then
    -- the path the group traces is of any length: the one with the lowest DRM, an all-road path
    -- (-1) or the one crossing the fewest Uncontrolled-Territory hexes (+1 per five). Before, only
    -- the shortest path was read: a road that was not the shortest way never gave its -1, and a
    -- detour through friendly hexes never spared the UT DRM
    local to_hexes = dest and dest.hexes or kessel.map.area(a.to)
    local any = T.path(side, origin, to_hexes, { fewest_ut = true })
    local road = T.path(side, origin, to_hexes, { road = true, fewest_ut = true })
    local ut = any and ut_along(any) or 0
    local with_road = road and #road > 0 and ut_along(road)
    if with_road and -1 + math.floor(with_road / 5) <= math.floor(ut / 5) then
      drm = drm - 1; mods[#mods + 1] = "-1 path on road hexes"
      ut = with_road
    end
    if ut >= 5 then drm = drm + math.floor(ut / 5); mods[#mods + 1] = "+" .. math.floor(ut / 5) .. " for " .. ut .. " Uncontrolled-Territory hexes" end
  end
  -- a Secret DR [9.613]: the other side sees that it was made, not its value or its result
  local secret = { secret_to = side }
  local roll = C.DR("shift", secret)
  local result = kessel.tables.lookup("shift", roll + drm)
  C.record("shift", "9.613", { units = a.units, from = from, to = a.to, dr = roll, drm = drm, modifiers = mods, result = result }, secret)
  C.note("9.613", string.format("%s group %s attempts to Shift from %s to %s (a Secret DR)", side, table.concat(a.units, ", "), from, a.to))
  C.note("9.613", string.format("%s Shift %s -> %s: DR %d%+d = %d%s: %s", table.concat(a.units, ", "), from, a.to, roll, drm,
    roll + drm, #mods > 0 and (" (" .. table.concat(mods, ", ") .. ")") or "", result), secret)
  if result == "no_shift" then return end
  -- the armor leader in a vehicle of the group shares its crew's fate (as in an Escape [9.606])
  local function leaders_in(v)
    local out = {}
    for _, l in ipairs(kessel.units.all{ type = "armor_leader", side = v.side }) do
      if C.crewing(l) == v.id then out[#out + 1] = l end
    end
    return out
  end
  if result == "eliminated" then
    for _, u in ipairs(units) do
      local inside = C.is_vehicle(u) and leaders_in(u) or {}
      for _, w in ipairs(C.possessed(u.id)) do C.eliminate(w.id, "9.613", "Shift") end
      C.eliminate(u.id, "9.613", "Shift")
      -- "All units, Inherent crews and Equipment Eliminated": the armor leader in it too (he
      -- stayed behind, alone, in the area the group left)
      for _, l in ipairs(inside) do
        kessel.emit.unit_var(l.id, "in_vehicle", nil)
        C.eliminate(l.id, "9.613", "in " .. u.id .. ": all units and Inherent crews are Eliminated")
      end
    end
    return
  end
  for _, u in ipairs(units) do
    if result == "casualties" then
      local r = C.dr("shift_casualty")
      if r >= 4 then
        if C.is_vehicle(u) then
          local inside = leaders_in(u)
          C.eliminate(u.id, "9.613", "Shifted with Casualties, dr " .. r)
          local crew = T.crew_survival(u)
          if crew then arrive(crew, side, a.to) end
          -- the armor leader in it leaves with a surviving crew, else falls with it
          for _, l in ipairs(inside) do
            kessel.emit.unit_var(l.id, "in_vehicle", nil)
            if crew then
              C.note("9.613", l.id .. " (armor leader) leaves " .. u.id .. " with its crew")
              arrive(kessel.units.get(l.id), side, a.to)
            else
              C.eliminate(l.id, "9.613", "in " .. u.id .. ", whose crew is Eliminated")
            end
          end
        else
          -- the text is silent on the SW of a unit Eliminated by Casualty Reduction (a HS): our
          -- reading, as 9.6061's dr <= 3 case, is that it stays, unpossessed, where it was (as
          -- C.eliminate leaves the SW of any unit Eliminated in the RePh)
          C.casualty_reduce(u, "9.613")
        end
      else
        C.note("9.613", string.format("%s: casualty dr %d (< 4): unharmed", u.id, r))
      end
    end
    local now = kessel.units.get(u.id)
    if now.location == "map" or now.location == "pending" then arrive(now, side, a.to) end
  end
  -- [9.6131] a vacated Setup Area stays Controlled by the side that left it
  if src then
    local left = 0
    for _, u in ipairs(C.on_map(side)) do if u.vars.reph and u.vars.reph.area == from then left = left + 1 end end
    if left == 0 then C.note("9.6131", "Setup Area " .. from .. " is vacated and stays " .. side .. "-Controlled") end
  end
end

-- [9.606] [9.613] "Each squad stacked with a leader may freely Deploy" before an Escape or a Shift
-- (RB [11.6063]: one German squad per leader, before an Escape from Isolation):
-- `deploy{ unit = squad }` splits a full squad into two half-squads in its Location (both keep its
-- Setup/Entry Area), so the halves may Escape or Shift apart.
local function same_place(a, b)
  if a.location == "map" and b.location == "map" then return a.hex == b.hex and C.level(a) == C.level(b) end
  if a.location == "pending" and b.location == "pending" then
    return a.vars.reph ~= nil and b.vars.reph ~= nil and a.vars.reph.area == b.vars.reph.area
  end
  return false
end

local function deploy_case()
  local s = S.current()
  if s and s.id == "escape" then return C.pb() and "9.606" or "11.6063" end
  return "9.613"
end

-- the leader a squad Deploys by: PB any leader stacked with it [9.606] [9.613]; RB one German squad
-- per leader, so a leader not yet used this RePh [11.6063]
local function deploy_leader(u)
  for _, o in ipairs(kessel.units.all{ side = u.side, type = "leader" }) do
    if same_place(o, u) and (C.pb() or o.vars.deploy_lent ~= C.var("date")) then return o end
  end
  return nil
end

function T.validate_deploy(a)
  local s = S.current()
  local case = deploy_case()
  if not s or (s.id ~= "shift" and s.id ~= "escape") then
    local why = S.only_in(C.pb() and "shift" or "escape", C.pb() and "9.613" or "11.6063")
    -- PB has two steps for it: name both (the refusal named 9.613 only)
    if why and C.pb() and S.in_refit() and not kessel.game.finished() then
      return C.refuse("9.606", "a squad stacked with a leader freely Deploys in RePh step 9.606 (before an Escape) or 9.613 (before a Shift), not now")
    end
    if why then return why end
  end
  local need = C.missing(a, case, { "unit" }, "deploy{ unit = <a full squad stacked with a leader> }")
  if need then return need end
  local u = C.unit(a.unit, a.side)
  if not u or (u.location ~= "map" and u.location ~= "pending") then return C.refuse(case, C.not_retained(a.unit, u)) end
  local theirs = C.not_owner(a, u, case)
  if theirs then return theirs end
  if not C.pb() and u.side ~= "german" then return C.refuse(case, "only a German squad may freely Deploy before an Escape from Isolation") end
  if u.type ~= "squad" or u.step ~= 0 then return C.refuse(case, a.unit .. " is not a full squad: only a squad Deploys") end
  if not C.squad_data(u.side, C.squad_face(u)) then
    return C.refuse(case, string.format("the half-squads of a %s %s are not in the ruleset's squad data (chapter A): it cannot Deploy here", u.side, tostring(C.squad_face(u))))
  end
  if (case == "9.613" and u.vars.shifted == C.var("date")) or (case ~= "9.613" and u.vars.escape_tried) then
    return C.refuse(case, a.unit .. " Deploys before its attempt, not after")
  end
  -- the free Deploy is part of an attempt: the text gives it among the rules for units attempting
  -- Escape [9.606] [11.6063] or Shift [9.613], so a squad that may make none is refused (our
  -- reading; before, a squad Retained in a friendly Setup Area Deployed in 9.606, and 9.6111
  -- recombined it)
  if case ~= "9.613" and not X.may_escape(u) then
    return C.refuse(case, a.unit .. " may not attempt Escape, so it has no attempt to Deploy for (it is not Isolated, in No Man's Land or in an enemy area)")
  end
  if case == "9.613" then
    local why = T.shift_barrier(u)
    if why then return C.refuse(why.rule, a.unit .. " may not attempt a Shift (" .. why.message .. "), so it has no attempt to Deploy for") end
  end
  if deploy_leader(u) then return nil end
  if not C.pb() then
    for _, o in ipairs(kessel.units.all{ side = u.side, type = "leader" }) do
      if same_place(o, u) then return C.refuse(case, "one German squad per leader may Deploy, and each leader here has had his") end
    end
  end
  return C.refuse(case, a.unit .. " is not stacked with a leader: only a squad stacked with a leader may freely Deploy")
end

function T.apply_deploy(a)
  local u = kessel.units.get(a.unit)
  local case = deploy_case()
  local l = deploy_leader(u)
  if not C.pb() then kessel.emit.unit_var(l.id, "deploy_lent", C.var("date")) end
  kessel.emit.step(u.id, 1)
  local vars = C.copy(u.vars)
  local id = kessel.emit.create_unit{ side = u.side, type = "squad", faces = C.squad_faces(C.squad_face(u), u.side),
    step = 1, at = u.location == "map" and u.hex or nil, vars = vars }
  C.note(case, u.id .. " (stacked with leader " .. l.id .. ") freely Deploys into two half-squads: " .. u.id .. " and " .. id)
end

kessel.action{ kind = "deploy", rule = "9.613", description = "a squad stacked with a leader freely Deploys before a Shift or an Escape (RB: one German squad per leader, 11.6063)",
  validate = T.validate_deploy, apply = T.apply_deploy }

kessel.action{ kind = "shift", rule = "9.613", description = "a group tries to Shift to another Setup or Entry Area",
  validate = T.validate, apply = T.apply }

return T
