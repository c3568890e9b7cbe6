-- RePh step 9.606 (PB) Escape, and 11.6063-.6064 (RB) Escape from Isolation.
-- A player escapes a stack with `escape{ units = { ids }, drop = { sw ids } }`; at `end_step`
-- every unit that must escape and did not try escapes alone. Then Encircled markers go [9.6062].
local C = require("rules.common")
local S = require("rules.sequence")
local A = require("rules.areas")
local X = {}

kessel.dice_table{ id = "escape_pb_infantry", rule = "9.606", bands = { { 2, "escapes" }, { 9, "replaced" },
  { 10, "reduced" }, { 11, "replaced_reduced" }, { 12, "eliminated" } } }
kessel.dice_table{ id = "escape_pb_vehicle", rule = "9.606", bands = { { 2, "escapes" }, { 9, "abandoned_crew_escapes" },
  { 10, "eliminated_crew_escapes" }, { 11, "abandoned_crew_eliminated" }, { 12, "eliminated_crew_eliminated" } } }
kessel.dice_table{ id = "escape_rb_infantry", rule = "11.6063", bands = { { 2, "escapes" }, { 9, "replaced" },
  { 10, "reduced" }, { 11, "replaced_reduced" }, { 12, "eliminated" } } }
kessel.dice_table{ id = "escape_rb_afv", rule = "11.6063", bands = { { 2, "escapes" }, { 10, "abandoned_crew_escapes" },
  { 11, "abandoned_crew_eliminated" }, { 12, "eliminated_crew_eliminated" } } }

local function may_escape(u)
  -- a Personnel or vehicle unit [9.606] [11.6063]: a SW or Gun is Equipment, going (or not) with its
  -- possessor
  if not (C.is_personnel(u) or C.is_vehicle(u)) or C.is_wreck(u) then return false end
  if u.vars.prisoner_of then return false end   -- a prisoner's fate is 9.608's [11.608]
  if C.crewing(u) then return false end         -- an armor leader escapes in his vehicle's DR
  -- PB: a Personnel or Mobile-vehicle unit [9.606]; an Immobile or abandoned vehicle in an
  -- Isolated area stays (the chart: Retained by the Controlling side). RB's 11.6063 says "any
  -- unit in an Isolated Location", but an Escape relocates the unit [11.6064] and 11.607 leaves
  -- every Immobile vehicle on the map, where it is: our reading is that an Immobile (or abandoned)
  -- AFV stays in RB too, as a SW does (before, an Immobile AFV was offered and allowed an Escape,
  -- and left for the Retained box)
  if C.is_vehicle(u) and (u.vars.immobile or u.vars.abandoned) then return false end
  if C.pb() then
    local r = u.vars.reph
    return r and (r.status == "must_escape" or r.status == "isolated")
  end
  return u.vars.isolated == true
end
local function must_escape(u)
  if C.crewing(u) then return false end
  if C.pb() then return u.vars.reph and u.vars.reph.status == "must_escape" end
  return u.vars.must_escape == true
end
X.may_escape, X.must_escape = may_escape, must_escape

-- [9.606 EXC] [A5.1] An Isolated unit may stay where it is, but each Isolated unit of an
-- Overstacked Location must attempt Escape, or be moved freely to another Location of the same
-- Isolated Setup Area, until the Location is no longer Overstacked (PB only: RB's 11.6063 has no
-- such exception, and its set-up, 11.6242, is not in our text). Overstacked is over the side's
-- stacking limit (`C.stack_count`, the `stacking_limit` data, as 9.62022's set-up counts it); a
-- vehicle is not counted, and a Personnel unit alone is what may leave. Before, an Isolated unit
-- Overstacked where the CG scenario ended stayed there.

-- the Location a unit is in as notes and refusals name it
local function location_text(hex, level)
  if (level or 0) == 0 then return tostring(hex) end
  return string.format("%s level %d", tostring(hex), level)
end

-- is the unit an Isolated Personnel unit of an Overstacked Location (the exception's case)? The
-- count is of its side's Personnel in its Location.
function X.overstacked(u)
  if not C.pb() or u.location ~= "map" or not C.is_personnel(u) or C.crewing(u) or u.vars.prisoner_of then return false end
  local r = u.vars.reph
  if not (type(r) == "table" and r.status == "isolated") then return false end
  return C.over_limit(C.stack_count(u.side, u.hex, C.level(u))) ~= nil
end

local MOVE_USAGE = "move_overstacked{ unit = <an Isolated unit of an Overstacked Location>, hex = <another Location of its Isolated Setup Area>, level = <0, the ground level, if left out> }"
function X.validate_move(a)
  local why = S.only_in("escape", "9.606")
  if why then return why end
  if not C.pb() then
    return C.refuse("11.6063", "RB's Escape from Isolation has no Overstacked exception: an Isolated unit stays or attempts Escape (escape{ units })")
  end
  local need = C.missing(a, "9.606", { "unit", "hex" }, MOVE_USAGE)
  if need then return need end
  local u = C.unit(a.unit, a.side)
  if not u or u.location ~= "map" then return C.refuse("9.606", tostring(a.unit) .. " is no unit of yours on the map") end
  why = C.not_owner(a, u, "9.606")
  if why then return why end
  if u.vars.escape_tried then return C.refuse("9.606", u.id .. " has already attempted Escape") end
  if not X.overstacked(u) then
    return C.refuse("9.606", string.format("%s is not an Isolated unit of an Overstacked Location (%s): only such a unit is moved in 9.606 (EXC); another stays or attempts Escape",
      u.id, location_text(u.hex, C.level(u))))
  end
  if type(a.hex) ~= "string" or not kessel.hex.valid(a.hex) then
    return C.refuse("9.606", "`" .. tostring(a.hex) .. "` is not a hex of this map")
  end
  -- the Location rules of 9.62022's set-up (the same Setup Area, a level that exists, no
  -- stacking over the limit), read where they live
  local M = require("rules.commencement")
  local area = M.retained_area(u)
  if not area then return C.refuse("9.606", u.id .. " is Retained in no Setup Area it can be moved in") end
  why = M.level_problem(u, a.hex, a.level)
  if why then return why end
  local level = a.level or 0
  if not M.area_holds(u.side, area, a.hex, level) then
    return C.refuse("9.606", string.format("%s is not in Isolated Setup Area %s, which %s is in: it may be moved within that area only (EXC)",
      location_text(a.hex, level), tostring(area.id), u.id))
  end
  if a.hex == u.hex and level == C.level(u) then return C.refuse("9.606", u.id .. " is in " .. location_text(a.hex, level) .. " already") end
  return M.stacking_problem(u, a.hex, level)
end

function X.move(u, hex, level, how)
  local from = location_text(u.hex, C.level(u))
  if hex ~= u.hex then kessel.emit.move(u.id, { hex }) end
  C.follow(u)
  for _, x in ipairs({ u, table.unpack(C.carried(u.id)) }) do
    if C.level(x) ~= level then kessel.emit.unit_var(x.id, "level", level ~= 0 and level or nil) end
  end
  C.note("9.606", string.format("%s %s from %s, Overstacked, to %s, in its Isolated Setup Area %s (EXC)", u.id, how,
    from, location_text(hex, level), tostring(u.vars.reph.area)))
end

-- the Locations of its Isolated Setup Area an Overstacked unit may be moved to now, ground
-- level (an upper building level may be named: `level`)
local function move_targets(u)
  local M = require("rules.commencement")
  local area = M.retained_area(u)
  local out = {}
  for _, h in ipairs(area and area.hexes or {}) do
    local a = { kind = "move_overstacked", side = u.side, unit = u.id, hex = h, level = area.level }
    if X.validate_move(a) == nil then out[#out + 1] = a end
  end
  return out
end

kessel.action{
  kind = "move_overstacked", rule = "9.606",
  description = "move an Isolated unit of an Overstacked Location to another Location of its Isolated Setup Area (9.606 EXC)",
  validate = function(a) return (X.validate_move(a)) end,
  apply = function(a) X.move(kessel.units.get(a.unit), a.hex, a.level or 0, "is moved freely") end,
  enumerate = function(side)
    local s = S.current()
    if not C.pb() or not s or s.id ~= "escape" then return {} end
    local out = {}
    for _, u in ipairs(C.on_map(side)) do
      if X.overstacked(u) and not u.vars.escape_tried then
        for _, a in ipairs(move_targets(u)) do out[#out + 1] = a end
      end
    end
    return out
  end,
}

-- [9.606 EXC] at the end of the step, each Overstacked Location of Isolated units is brought to the
-- limit: the ruleset picks for the owner, the last unit of the kind over the limit (SMC or not) by
-- id first, moved to the first Location of its area with room, else attempting Escape alone
local function clear_overstacked()
  local function pick()
    local best
    for _, u in ipairs(C.on_map()) do
      u = kessel.units.get(u.id)
      if X.overstacked(u) and not u.vars.escape_tried then
        local over = C.over_limit(C.stack_count(u.side, u.hex, C.level(u)))
        if (over == "smc") == C.is_smc(u) and (over ~= "squads" or C.hs_equiv(u) > 0) then
          if best == nil or u.id > best.id then best = u end
        end
      end
    end
    return best
  end
  local u = pick()
  while u do
    local to = move_targets(u)[1]
    if to then X.move(u, to.hex, to.level or 0, "is moved")
    else
      C.note("9.606", string.format("%s is Isolated in %s, Overstacked, with no Location of its Isolated Setup Area to be moved to: it must attempt Escape (EXC)",
        u.id, location_text(u.hex, C.level(u))))
      X.resolve({ u.id }, "9.606")
    end
    u = pick()
  end
end

local function pp_carried(u)
  local pp = 0
  for _, w in ipairs(C.possessed(u.id)) do pp = pp + ((w.face and w.face.pp) or 0) end
  return pp
end
local function ipc(u)
  local t = kessel.game.constant("ipc")
  if C.is_smc(u) then return t.smc end
  if u.type == "crew" or C.is_hs(u) then return t.hs end
  return t.squad
end
-- portage limits while escaping or shifting [9.606] [9.613]
function X.portage_limit(u)
  if C.is_smc(u) then return u.vars.wounded and 0 or 2 end
  return u.vars.ww and 3 or 5
end

-- [9.606] [9.613] [11.6063] "Prior to its possessor's Escape [Shift] attempt, each SW/Gun may
-- (must, if the unit exceeds its allowed portage limit) be dropped": `drop = { ids }` names SW (or
-- a dm Gun) held by the units of the attempt; each is left unpossessed where it is
function X.validate_drop(a, case)
  if a.drop == nil then return nil end
  if type(a.drop) ~= "table" then return C.refuse(case, "drop is a list of the SW ids the units let go before the attempt") end
  if C.repeated(a.drop) then return C.refuse(case, C.repeated(a.drop) .. " is named twice in drop") end
  local mine = {}
  for _, id in ipairs(a.units or {}) do if type(id) == "string" then mine[id] = true end end
  for _, id in ipairs(a.drop) do
    local w = C.unit(id, a.side)
    if not w or (w.type ~= "sw" and w.type ~= "gun") or not mine[w.vars.possessed_by or ""] then
      return C.refuse(case, "`" .. tostring(id) .. "` is no SW or Gun held by the units making the attempt")
    end
  end
end
function X.apply_drop(a, case)
  for _, id in ipairs(a.drop or {}) do
    local w = kessel.units.get(id)
    kessel.emit.unit_var(id, "possessed_by", nil)
    C.note(case, w.vars.possessed_by .. " drops " .. id .. " before its attempt: it is left unpossessed"
      .. (w.hex and (" in " .. w.hex) or " where it is"))
  end
end
function X.dropped(a)
  local out = {}
  for _, id in ipairs(type(a.drop) == "table" and a.drop or {}) do out[id] = true end
  return out
end

-- distance from a hex to the nearest hex of a friendly Setup Area (non-Isolated)
local function distance_to_friendly(side, hex)
  local st = A.stored()
  local best
  for _, area in ipairs(st and st.areas[side] or {}) do
    if not area.level and not area.isolated then
      for _, h in ipairs(area.hexes) do
        local d = kessel.hex.distance(hex, h)
        if best == nil or d < best then best = d end
      end
    end
  end
  return best
end

-- RB: distance from a hex to the nearest friendly-Controlled hex (ground level) that is in no
-- listed Isolated Area [11.6063], and that hex; nil when there is none within two hexes
local function nearest_friendly_hex(side, from, level)
  -- from an upper-level (or Cellar) Pocket [11.6057] the ground-level Location of its own hex is
  -- ADJACENT to it: friendly-Controlled and in no listed Isolated Area, it is the nearest (our
  -- reading: "adjacent to" that Location's hex)
  if (level or 0) ~= 0 and not C.rb_area_at(from, 0) and A.controller(from, 0) == side then
    return 1, from .. " ground level"
  end
  local best, where
  for _, h in ipairs(kessel.hex.range(from, 2)) do
    -- its ground-level Location in no listed Isolated Area (an upper-level Pocket there leaves the
    -- ground level non-Isolated [11.6057])
    if h ~= from and kessel.hex.valid(h) and not C.rb_area_at(h, 0) and A.controller(h, 0) == side then
      local d = kessel.hex.distance(from, h)
      if best == nil or d < best or (d == best and h < where) then best, where = d, h end
    end
  end
  return best, where
end

-- the DRM of one Escape DR for a stack [9.606] [11.6063]; returns total and the list of reasons
function X.drm(units)
  local mods, total = {}, 0
  local function add(n, case, why) total = total + n; mods[#mods + 1] = { drm = n, rule = case, why = why } end
  local first = units[1]
  local vehicle = C.is_vehicle(first)
  local smc_alone = #units == 1 and C.is_smc(first)
  if C.pb() then
    if smc_alone and not first.vars.wounded then add(-1, "9.606", "lone, unwounded SMC") end
    if vehicle and first.vars.ct then add(-1, "9.606", "CT AFV") end
    if tostring(C.var("date", "")):match("^night") then add(-1, "9.606", "Night CG Date") end
    local d = distance_to_friendly(first.side, first.hex)
    if d == 1 then add(-2, "9.606", "adjacent to a friendly Setup Area")
    elseif d == 2 then add(-1, "9.606", "two hexes from a friendly Setup Area") end
  else
    if first.side == "russian" and not vehicle then add(-1, "11.6063", "Russian") end
    if smc_alone then add(-1, "11.6063", "lone surviving SMC") end
    -- the players' count (var `friendly_distance`) when given, else the nearest hex the side
    -- Controls (its units alone, or its Control marker) outside every listed Isolated Area: before,
    -- without the var these DRM were silently left out
    local near = C.var("friendly_distance", {})[first.id]
    local at = ""
    if near == nil then
      local d, h = nearest_friendly_hex(first.side, first.hex, C.level(first))
      if d then near, at = d, " (" .. h .. ")" end
    end
    if near and near <= 2 then add(-1, "11.6063", "<= 2 hexes from a friendly-Controlled non-Isolated hex" .. at) end
    if near and near <= 1 then add(-1, "11.6063", "adjacent to a friendly-Controlled non-Isolated hex" .. at) end
  end
  if not smc_alone then
    -- "+x (Armor-)Leader/Hero DRM": the best leader of the stack lends his DRM as printed, whatever
    -- its sign (a 6+1 gives +1: it was left out, only a DRM below 0 counting)
    local best
    local who
    for _, u in ipairs(units) do
      if u.type == "leader" or u.type == "armor_leader" or u.type == "hero" then
        local d = C.leadership(u)
        if best == nil or d < best then best, who = d, u end
      end
    end
    for _, o in ipairs(vehicle and kessel.units.at(first.hex) or {}) do
      if o.type == "armor_leader" and o.vars.in_vehicle == first.id and (best == nil or C.leadership(o) < best) then best, who = C.leadership(o), o end
    end
    if best ~= nil and best ~= 0 then
      add(best, C.pb() and "9.606" or "11.6063", (who.type == "hero" and "Hero DRM" or "leader DRM")
        .. (who.vars.wounded and " (wounded: one worse)" or ""))
    end
  end
  if not vehicle then
    local hs = 0
    for _, u in ipairs(units) do hs = hs + C.hs_equiv(u) end
    if hs > 1 then add(hs - 1, C.pb() and "9.606" or "11.6063", "HS-equivalents > one HS using the same DR") end
    -- the unit with most excess PP sets the DRM; "a stacked leader may combine to increase a MMC's
    -- IPC": each leader of the stack lends his spare IPC to one MMC, the most burdened first
    local over, spare = {}, {}
    for _, u in ipairs(units) do
      local e = pp_carried(u) - ipc(u)
      if C.is_mmc(u) then over[#over + 1] = { u = u, e = e }
      elseif C.is_leader(u) or u.type == "hero" then
        if e < 0 then spare[#spare + 1] = -e end
        if e > 0 then over[#over + 1] = { u = u, e = e } end
      end
    end
    table.sort(over, function(x, y) if x.e ~= y.e then return x.e > y.e end return x.u.id < y.u.id end)
    table.sort(spare, function(x, y) return x > y end)
    local lent, k = 0, 1
    for _, o in ipairs(over) do
      if C.is_mmc(o.u) and o.e > 0 and spare[k] then o.e = o.e - spare[k]; lent = lent + 1; k = k + 1 end
    end
    local excess = 0
    for _, o in ipairs(over) do if o.e > excess then excess = o.e end end
    if excess > 0 then add(excess, C.pb() and "9.606" or "11.6063", "PP carried > IPC" .. (lent > 0 and " (a leader's IPC combined)" or "")) end
    local enc = false
    for _, u in ipairs(units) do enc = enc or u.vars.encircled == true end
    if enc then add(2, C.pb() and "9.606" or "11.6063", "Encircled") end
  end
  if C.pb() then
    local st = A.stored()
    local cls = st and st.hexes[first.hex]
    if cls == C.other(first.side) then add(1, "9.606", "in an enemy Setup Area")
    elseif first.vars.reph and first.vars.reph.through_enemy then add(1, "9.606", "path through an enemy Setup Area") end
    local weak = false
    for _, u in ipairs(units) do weak = weak or u.vars.unarmed or u.vars.wounded or u.vars.ww or (vehicle and u.vars.unarmed) end
    if weak then add(1, "9.606", "unarmed, Wounded or Walking Wounded") end
    if vehicle and first.vars.captured then add(1, "9.606", "Captured vehicle") end
    if vehicle and first.vars.stun then add(1, "9.606", "stunned") end
    local iso = false
    for _, u in ipairs(units) do iso = iso or u.vars.isolated == true end
    if iso then add(2, "9.606", "Isolated") end
  elseif vehicle and first.vars.captured then
    add(2, "11.6063", "Captured AFV")
  end
  return total, mods
end

-- [9.6061] an escaped unit goes to the nearest friendly Setup Area or Eligible Entry Area, through
-- as few enemy Setup-Area hexes as possible (No Man's Land is crossed too: a reading, see docs).
-- `opts.shortest`: a freed prisoner [9.608] goes by the shortest path of contiguous, Enterable
-- Locations, enemy Setup-Area Locations counting as any other
function X.relocate(u, case, opts)
  local shortest = opts and opts.shortest
  if not C.pb() then
    -- [11.6064] Retained in the box: no longer Isolated, no Ammunition Shortage [11.6061 EXC]; the
    -- area it left is judged again [11.6065]
    local from = C.rb_area_at(u.hex, C.level(u))
    kessel.emit.withdraw(u.id)
    kessel.emit.unit_var(u.id, "reph", { status = "retained", area = "retained_box", why = case })
    for _, k in ipairs({ "isolated", "ammo_shortage", "ammo_shortage_day", "must_escape" }) do kessel.emit.unit_var(u.id, k, nil) end
    for _, w in ipairs(C.possessed(u.id)) do
      for _, k in ipairs({ "isolated", "ammo_shortage", "ammo_shortage_day" }) do kessel.emit.unit_var(w.id, k, nil) end
    end
    C.follow(u)
    C.note("11.6064", u.id .. " escapes: Retained (Retained box), no longer Isolated")
    if from and X.batch then X.batch[from] = true
    elseif from then require("rules.rb").after_escape(from) end
    return
  end
  -- no Setup Areas determined (9.605 not played): only the Entry Areas are there to reach
  local st = A.stored() or { areas = {}, hexes = {} }
  local targets = {}
  for _, area in ipairs(st.areas[u.side] or {}) do
    if not area.level and not area.isolated then for _, h in ipairs(area.hexes) do targets[h] = { area = area.id } end end
  end
  for h, name in pairs(A.entry_hexes(u.side)) do targets[h] = targets[h] or { entry = name } end
  local function trace(goals)
    return kessel.paths.trace{ from = u.hex, target = function(h) return goals[h] ~= nil end,
      step = function(_, to)
        if kessel.map.terrain(to) == "water" then return nil end
        if shortest then return 1 end
        if goals[to] or st.hexes[to] == "ut" or st.hexes[to] == "nml" then return 1 end
        if st.hexes[to] == C.other(u.side) then return 1000 end
        return nil
      end }
  end
  local t = trace(targets)
  -- an Isolated friendly Setup Area is a friendly Setup Area too: when no other can be reached,
  -- the unit is Retained into the nearest Isolated one (not its own), and is Isolated there
  if not t then
    targets = {}
    for _, area in ipairs(st.areas[u.side] or {}) do
      local own = false
      for _, h in ipairs(area.hexes) do if h == u.hex then own = true end end
      if not area.level and area.isolated and not own then for _, h in ipairs(area.hexes) do targets[h] = { area = area.id, isolated = true } end end
    end
    t = trace(targets)
  end
  local where, isolated
  if t then
    local dest = #t.path > 0 and t.path[#t.path] or u.hex
    local target = targets[dest]
    if target.entry then kessel.emit.withdraw(u.id)
    elseif dest ~= u.hex then kessel.emit.move(u.id, { dest }) end
    kessel.emit.unit_var(u.id, "level", 0)
    isolated = target.isolated
    where = target.entry and ("Entry Area " .. target.entry) or ("Setup Area " .. target.area)
      .. (isolated and ", which is Isolated (no other friendly area or Eligible Entry Area can be reached): so is it" or "")
    kessel.emit.unit_var(u.id, "reph", { status = isolated and "isolated" or "retained", area = target.entry or target.area, why = "9.6061" })
  else
    where = "nowhere (no friendly Setup Area or Eligible Entry Area can be reached: it stays)"
    kessel.emit.unit_var(u.id, "reph", { status = "retained", why = "9.6061" })
  end
  kessel.emit.unit_var(u.id, "isolated", isolated or nil)
  C.follow(u)
  if shortest then C.note(case, u.id .. " is Retained into the nearest friendly area: " .. where)
  else C.note("9.6061", u.id .. " escapes to " .. where) end
end

local function random_pick(units, case)
  if #units == 1 then return units[1] end
  local best, best_roll
  for _, u in ipairs(units) do
    local r = C.dr("random_selection")
    if best_roll == nil or r > best_roll then best, best_roll = u, r end
  end
  C.note(case, "Random Selection picks " .. best.id)
  return best
end

local function new_crew(v, case)
  local face = v.vars.crew_face or "2-2-8"
  local id = kessel.emit.create_unit{ side = v.side, type = "crew", faces = { face }, at = v.hex,
    vars = { from_vehicle = v.id } }
  C.note(case, v.id .. "'s crew leaves it as " .. id)
  return kessel.units.get(id)
end

-- resolves one Escape DR for a stack (all in one Location) or one vehicle
local resolve_stack
function X.resolve(ids, case)
  if C.pb() then return resolve_stack(ids, case) end
  -- RB [11.6065]: the Isolated Area the stack leaves is judged again once the whole DR is
  -- resolved, not after each unit of the stack (one DR moves them together: a squad and its
  -- leader escaping made their area type B for a moment, with its notes and effects), and also
  -- when the attempt Eliminated the units instead (the area's type is by the units still in it;
  -- our reading: 11.6065 names an Escape, but a type C area whose only MMC died escaping would
  -- otherwise stay its dead occupier's)
  X.batch = {}
  for _, id in ipairs(ids) do
    local u = kessel.units.get(id)
    local i = u and u.hex and C.rb_area_at(u.hex, C.level(u))
    if i then X.batch[i] = true end
  end
  local ok, result = pcall(resolve_stack, ids, case)
  local areas = X.batch
  X.batch = nil
  if not ok then error(result, 0) end
  local list = {}
  for i in pairs(areas) do list[#list + 1] = i end
  table.sort(list)
  for _, i in ipairs(list) do require("rules.rb").after_escape(i) end
  return result
end
resolve_stack = function(ids, case)
  local units = {}
  for _, id in ipairs(ids) do units[#units + 1] = kessel.units.get(id) end
  for _, u in ipairs(units) do kessel.emit.unit_var(u.id, "escape_tried", true) end
  -- a non-dm Gun never escapes [9.606] [11.6063]: it stays, unpossessed; then drop what a unit
  -- may not portage [9.606] (a dm Gun is portaged by its PP)
  for _, u in ipairs(units) do
    C.leave_guns(u, case, "%s is a Gun that is not dm: it can never Escape", { keep_dm = true })
  end
  -- the portage limits are PB's [9.606]; RB sets none, the excess PP costing +1 each in the DRM
  -- [11.6063] (a squad escaping with 6 PP had its LMG taken from it in RB too)
  for _, u in ipairs(C.pb() and units or {}) do
    local carried, limit = 0, X.portage_limit(u)
    for _, w in ipairs(C.possessed(u.id)) do
      local pp = (w.face and w.face.pp) or 0
      if carried + pp > limit then
        kessel.emit.unit_var(w.id, "possessed_by", nil)
        C.note(case, u.id .. " drops " .. w.id .. " (over its portage limit)")
      else
        carried = carried + pp
      end
    end
  end
  units = {}
  for _, id in ipairs(ids) do units[#units + 1] = kessel.units.get(id) end
  local drm, mods = X.drm(units)
  local roll, a, b = C.DR("escape")
  local final = roll + drm
  local vehicle = C.is_vehicle(units[1])
  local tbl = C.pb() and (vehicle and "escape_pb_vehicle" or "escape_pb_infantry")
    or (vehicle and "escape_rb_afv" or "escape_rb_infantry")
  local result = kessel.tables.lookup(tbl, final)
  if roll == 2 and not vehicle then result = "escapes" end
  C.record("escape", case, { units = ids, dice = { a, b }, drm = drm, modifiers = mods, final = final, result = result })
  -- the note names every modifier with its case, so a GM can check the sum
  local why = {}
  for _, m in ipairs(mods) do why[#why + 1] = string.format("%+d %s", m.drm, m.why) end
  C.note(case, string.format("%s: Escape DR %d%+d = %d%s: %s", table.concat(ids, ", "), roll, drm, final,
    #why > 0 and (" (" .. table.concat(why, ", ") .. ")") or "", result))
  if roll == 2 and not vehicle then
    local u = random_pick(units, case)
    kessel.emit.unit_var(u.id, "heat_of_battle", true)
    C.note(case, u.id .. ": Original 2, Heat of Battle (A15: only Hero creation or Battle Hardening keep it; resolve off-engine)")
  end
  if vehicle then
    local v = units[1]
    -- an armor leader in it goes with it, or leaves with its crew, or falls with its crew
    local leaders = {}
    for _, o in ipairs(kessel.units.all{ type = "armor_leader", side = v.side }) do
      if C.crewing(o) == v.id then leaders[#leaders + 1] = o end
    end
    if result == "escapes" then
      X.relocate(v, case)
      for _, l in ipairs(leaders) do kessel.emit.unit_var(l.id, "reph", C.copy(kessel.units.get(v.id).vars.reph)) end
      return result
    end
    for _, l in ipairs(leaders) do kessel.emit.unit_var(l.id, "in_vehicle", nil) end
    if result:match("crew_escapes") then
      for _, l in ipairs(leaders) do
        C.note(case, l.id .. " (armor leader) leaves " .. v.id .. " with its crew")
        X.relocate(kessel.units.get(l.id), case)
      end
    else
      for _, l in ipairs(leaders) do C.eliminate(l.id, case, "in " .. v.id .. ", whose crew is Eliminated") end
    end
    local crew
    if result:match("crew_escapes") and not v.vars.unarmed and not v.vars.crewless then crew = new_crew(v, case) end
    if result:match("^abandoned") then
      kessel.emit.unit_var(v.id, "abandoned", true)
      kessel.emit.unit_var(v.id, "reph", { status = "abandoned", why = case })
      C.note(case, v.id .. " is left Abandoned in " .. v.hex)
    else
      C.eliminate(v.id, case, "Escape")
    end
    if crew then X.relocate(crew, case) end
    return result
  end
  -- [9.6061] the Equipment a unit Eliminated by its Escape attempt took along is Eliminated on a
  -- dr >= 4, else left unpossessed in its last Location (whatever result Eliminated the unit)
  local function equipment_of_eliminated(u, weapons)
    for _, w in ipairs(weapons) do
      local r = C.dr("escape_equipment")
      if r >= 4 then C.eliminate(w.id, case, "taken along by an Eliminated escapee, dr " .. r .. " >= 4 [9.6061]")
      else
        kessel.emit.unit_var(w.id, "possessed_by", nil)
        C.note(case, w.id .. " is left unpossessed in " .. u.hex .. " (dr " .. r .. " <= 3 [9.6061])")
      end
    end
  end
  local held = {}
  for _, u in ipairs(units) do held[u.id] = C.possessed(u.id) end
  if result == "eliminated" then
    for _, u in ipairs(units) do
      C.eliminate(u.id, case, "Escape", { keep_equipment = true })
      -- PB: a Final DR >= 12 Eliminates "all units and Equipment" (the table's own words), so no
      -- 9.6061 dr is made for that Equipment; the dr is for Equipment of a unit another result
      -- Eliminated (footnote 2, a Casualty Reduced HS). RB's table says only "Eliminated": the
      -- 9.6061 dr (our reading, the RB text being silent). Before, PB rolled the dr here too.
      if C.pb() then
        for _, w in ipairs(held[u.id]) do
          C.eliminate(w.id, case, "taken along by " .. u.id .. ": a Final DR >= 12 Eliminates all units and Equipment")
        end
      else
        equipment_of_eliminated(u, held[u.id])
      end
    end
    return result
  end
  if result == "replaced" or result == "replaced_reduced" then
    -- footnote 2: a crew, or a unit that would become Disrupted (one with no lower quality to be
    -- Replaced by: a Conscript, a Green squad of a side without Conscripts), is Eliminated instead
    -- Replacement is an MMC's (an SMC has no lower quality and is never Disrupted): Random
    -- Selection is among the stack's MMC, and an SMC alone is not Replaced. Before, a lone leader
    -- on a Final 9 was Eliminated as if footnote 2 applied to him.
    local mmc = {}
    for _, x in ipairs(units) do if C.is_mmc(x) then mmc[#mmc + 1] = x end end
    local u = #mmc > 0 and random_pick(mmc, case) or nil
    if not u then
      C.note(case, "no MMC to be Replaced: an SMC is not Replaced (Replacement is an MMC's)")
    elseif u.type == "crew" and C.pb() then C.eliminate(u.id, case, "a crew is Eliminated instead of Replaced, footnote 2", { keep_equipment = true })
    elseif u.type == "crew" then
      -- RB's footnote 2 names no crew (PB's does), and a side's ELR, by which a unit is Replaced,
      -- is that of its non-crew Infantry [11.617]: a crew has no lower quality to take and is no
      -- unit that would become Disrupted, so it Escapes as it is (it was Eliminated, as in PB)
      C.note(case, u.id .. " is a crew: it is not Replaced (RB's footnote 2 Eliminates no crew; ELR is non-crew Infantry's, 11.617)")
    elseif not C.replace(u, case) then
      C.eliminate(u.id, case, "no lower quality to be Replaced by: it would become Disrupted, so it is Eliminated instead, footnote 2", { keep_equipment = true })
    end
  end
  if result == "reduced" or result == "replaced_reduced" then
    local alive = {}
    for _, u in ipairs(units) do if kessel.units.get(u.id).location == "map" then alive[#alive + 1] = kessel.units.get(u.id) end end
    if #alive > 0 then C.casualty_reduce(random_pick(alive, case), case, { keep_equipment = true }) end
  end
  for _, u in ipairs(units) do
    local now = kessel.units.get(u.id)
    if now.location == "eliminated" then equipment_of_eliminated(u, held[u.id]) end
    if now.location == "map" then
      X.relocate(now, case)
      for _, w in ipairs(C.possessed(u.id)) do
        local p = kessel.units.get(u.id)
        if p.location == "map" then kessel.emit.move(w.id, { p.hex }) else kessel.emit.withdraw(w.id) end
      end
    end
  end
  return result
end

kessel.action{
  kind = "escape", rule = "9.606", description = "a stack (or one vehicle) attempts to Escape",
  validate = function(a)
    local case = C.pb() and "9.606" or "11.6063"
    local why = S.only_in("escape", case)
    if why then return why end
    if type(a.units) ~= "table" or #a.units == 0 then
      return C.refuse(case, "name the escaping units as a list: escape{ units = { \"g1\", ... } } (a stack, or one vehicle)"
        .. (a.units ~= nil and (" (units is `" .. tostring(a.units) .. "`)") or ""))
    end
    local twice = C.repeated(a.units)
    if twice then return C.refuse(case, twice .. " is named twice: name each unit of the stack once") end
    local first
    for _, id in ipairs(a.units) do
      local u = C.unit(id, a.side)
      if not u or u.location ~= "map" then return C.refuse(case, tostring(id) .. " is not on the map") end
      local theirs = C.not_owner(a, u, case)
      if theirs then return theirs end
      if u.type == "gun" then return C.refuse(case, "a Gun can never Escape") end
      if u.type == "sw" then return C.refuse(case, id .. " is a SW: it goes with the unit that holds it, or is dropped (drop = { ids })") end
      if u.vars.prisoner_of then return C.refuse(case, id .. " is a prisoner: it does not Escape (RePh step " .. (C.pb() and "9.608" or "11.608") .. " decides about it)") end
      if C.is_wreck(u) then return C.refuse(case, id .. " is a wreck: it does not Escape") end
      if C.is_vehicle(u) and (u.vars.immobile or u.vars.abandoned) then
        return C.refuse(case, id .. " is " .. (u.vars.abandoned and "abandoned" or "Immobile") .. ": only a Personnel or Mobile-vehicle unit attempts Escape"
          .. (C.pb() and "" or " (an Immobile vehicle stays on the map, 11.607)"))
      end
      if not may_escape(u) then return C.refuse(case, id .. " may not attempt Escape (it is not Isolated, in No Man's Land or in an enemy area)") end
      if u.vars.escape_tried then return C.refuse(case, id .. " has already attempted Escape") end
      if u.type == "gun" then return C.refuse(case, "a Gun can never Escape") end
      first = first or u
      if u.hex ~= first.hex or C.level(u) ~= C.level(first) or u.side ~= first.side then
        return C.refuse(case, "a stack that escapes together is in one Location")
      end
      if C.is_vehicle(u) and #a.units > 1 then return C.refuse(case, "a vehicle makes its own Escape DR") end
    end
    return X.validate_drop(a, case)
  end,
  apply = function(a)
    X.apply_drop(a, C.pb() and "9.606" or "11.6063")
    -- [9.6131] the friendly (Isolated) Setup Area an Escape leaves empty stays its side's
    local first = kessel.units.get(a.units[1])
    local from = C.pb() and first.vars.reph and first.vars.reph.status == "isolated" and first.vars.reph.area
    X.resolve(a.units, C.pb() and "9.606" or "11.6063")
    if from then
      for _, u in ipairs(C.on_map(first.side)) do
        if u.vars.reph and u.vars.reph.area == from and (C.is_personnel(u) or C.is_vehicle(u)) then return end
      end
      C.note("9.6131", "Setup Area " .. from .. " is vacated and stays " .. first.side .. "-Controlled")
    end
  end,
  enumerate = function(side)
    local s = S.current()
    if not s or s.id ~= "escape" then return {} end
    local out = {}
    for _, u in ipairs(C.on_map(side)) do
      if may_escape(u) and not u.vars.escape_tried and u.type ~= "gun" then
        -- an Isolated unit of an Overstacked Location must leave it, by Escape or a move [9.606 EXC]
        out[#out + 1] = { kind = "escape", side = u.side, units = { u.id }, must = must_escape(u) or nil,
          overstacked = X.overstacked(u) and location_text(u.hex, C.level(u)) or nil }
      end
    end
    return out
  end,
}

S.on_end("escape", function()
  local case = C.pb() and "9.606" or "11.6063"
  if C.pb() then clear_overstacked() end
  for _, u in ipairs(C.on_map()) do
    u = kessel.units.get(u.id)
    if u.location == "map" and must_escape(u) and not u.vars.escape_tried and u.type ~= "gun" then
      X.resolve({ u.id }, case)
    end
  end
  for _, u in ipairs(kessel.units.all()) do
    if u.vars.encircled then kessel.emit.unit_var(u.id, "encircled", nil) end
    if u.vars.escape_tried then kessel.emit.unit_var(u.id, "escape_tried", nil) end
  end
  C.note(C.pb() and "9.6062" or "11.6064", "all Encircled markers are removed")
  if not C.pb() then require("rules.rb").withdrawn_at_scenario_end() end
end)

return X
