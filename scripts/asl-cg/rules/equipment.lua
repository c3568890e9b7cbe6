-- RePh steps 9.607 Equipment Possession and Hidden Fortifications, 9.608 Prisoners (PB), and RB
-- 11.607 Clearing the Map, 11.608 Prisoners.
local C = require("rules.common")
local S = require("rules.sequence")
local A = require("rules.areas")
local X = require("rules.escape")
local Q = {}

kessel.constant("conscript", { german = "4-3-6", british = "4-4-7", russian = "4-2-6" })

local function unpossessed_equipment()
  local out = {}
  for _, u in ipairs(C.on_map()) do
    -- a vehicle's mounted Weapon is part of it, no piece of its own
    if (u.type == "sw" and not u.vars.possessed_by and not u.vars.mounted_on) or u.type == "gun"
      or (C.is_vehicle(u) and not C.is_wreck(u) and (u.vars.abandoned or (u.vars.immobile and not C.has_functioning_ma(u))
        or (u.vars.reph and u.vars.reph.bypass))) then
      out[#out + 1] = u
    end
  end
  return out
end

-- [9.6071] Equipment in a Setup Area is Retained by the side Controlling it, Captured if it was
-- the enemy's; [9.6072] elsewhere it stays where it is, unpossessed.
function Q.possession()
  local st = A.stored()
  for _, w in ipairs(unpossessed_equipment()) do
    local owner
    for _, s in ipairs(C.sides()) do
      if A.area_at(s, w.hex, C.level(w)) then owner = s end
    end
    if owner and owner ~= w.side then
      local captured = C.change_hands(w, owner)
      if C.is_vehicle(w) then C.capture_mounted(w, owner) end
      C.note("9.6071", w.id .. (captured and " is Captured and Retained by the " or " is Retained again by its own side, the ") .. owner)
      if C.is_vehicle(w) and w.vars.immobile and (not C.has_functioning_ma(w) or (w.vars.reph and w.vars.reph.bypass))
        and not w.vars.abandoned and not w.vars.unarmed and not w.vars.crewless then
        C.note("9.6071", w.id .. "'s Inherent crew is Captured too")
        -- an armor leader in it is with its crew and shares its fate (as in an Escape [9.606]):
        -- he is Captured with the crew (our reading; no Guard takes him into 9.608, so he is
        -- Eliminated). Before, he stayed on the map in the enemy's vehicle, his side's.
        for _, l in ipairs(kessel.units.all{ type = "armor_leader" }) do
          if C.crewing(l) == w.id and l.side ~= owner then
            kessel.emit.unit_var(l.id, "in_vehicle", nil)
            C.eliminate(l.id, "9.6071", "armor leader in " .. w.id .. ", Captured with its Inherent crew")
          end
        end
        kessel.emit.unit_var(w.id, "abandoned", true)
      end
    elseif owner then
      C.note("9.6071", w.id .. " is Retained by the " .. owner .. " in its Setup Area")
    elseif st then
      C.note("9.6072", w.id .. " stays in " .. w.hex .. " unpossessed")
    end
  end
end

-- [11.607 EXC] is a Gun or AFV in a Fortified Building Location or a Pillbox? Its own mark
-- (`fortified`), or its Location's marker: a `pillbox` in its hex, or a `fortified_building`
-- marker (or a Fortification whose value says `fortified_building = true`) at its level. Before,
-- only the unit's mark counted: a Gun in a hex holding a pillbox marker was cleared to the box.
function Q.fortified(u)
  if u.vars.fortified then return true end
  if u.location ~= "map" or not u.hex then return false end
  for _, m in ipairs(kessel.markers.at(u.hex)) do
    if m.hex == u.hex then
      local v = type(m.value) == "table" and m.value or {}
      if m.kind == "pillbox" then return true end
      if (m.kind == "fortified_building" or v.fortified_building == true) and (v.level or 0) == C.level(u) then return true end
    end
  end
  return false
end

-- [9.6073] still-hidden Fortifications in the opponent's Setup Area are placed on the map (a
-- minefield as a Known minefield, its strength kept); each Fortification is Controlled by the
-- side Controlling its Location (value.controlled_by)
function Q.hidden_fortifications(case)
  for _, m in ipairs(kessel.markers.all{ placed = true }) do
    local v = type(m.value) == "table" and m.value or nil
    -- a Fortification by its kind (a trench, a pillbox, wire ...) or its value's flag: before, only
    -- the flag and mines counted, so a hidden trench or pillbox in the enemy's area stayed hidden
    if v and C.is_fortification(m) then
      local nv = C.copy(v)
      local enemy = m.side and C.other(m.side)
      if v.hidden and enemy and (A.area_at(enemy, m.hex, 0) or (not C.pb() and A.controller(m.hex, 0) == enemy)) then
        nv.hidden = nil
        if m.kind == "ap_mine" or m.kind == "at_mine" then nv.known = true end
        -- a Known minefield shows its presence, not its type or strength: the note tells every
        -- side, the marker (kind and strength) stays hidden from the other side
        if nv.known then
          C.note(case, "a minefield (marker " .. m.id .. ") in " .. m.hex .. " is revealed as a Known minefield (type and strength kept secret)")
        else
          C.note(case, m.kind .. " in " .. m.hex .. " is revealed")
        end
      end
      local ctrl = A.controller(m.hex, 0)
      if C.pb() then
        for _, s in ipairs(C.sides()) do if A.area_at(s, m.hex, 0) then ctrl = s end end
      end
      nv.controlled_by = ctrl
      kessel.emit.marker_value(m.id, nv)
      if v.hidden and not nv.hidden and not nv.known then C.reveal_marker(m) end
    end
  end
end

-- [9.6071] an unpossessed SW or Gun in a Setup Area "may be automatically repossessed ... by
-- Personnel Retained in that Setup Area": the owner's choice, `repossess{ unit = weapon, by =
-- personnel }` during 9.607, carried out as the step ends, once Equipment has been Retained (or
-- Captured) by the side holding the area. Whether that use is Non-Qualified (A21.13: the repair
-- DRM) stays the weapon's `nonqualified` mark, chapter A being outside the text.
local function repossess_problem(a)
  local case = "9.6071"
  if not C.pb() then
    return C.refuse(case, "repossessing Equipment in a Setup Area is a Pegasus Bridge rule (in RB it is Retained in the box by the side Controlling its Location, 11.6072)")
  end
  local why = S.only_in("equipment", case)
  if why then return why end
  local need = C.missing(a, case, { "unit", "by" }, "repossess{ unit = <an unpossessed SW or Gun>, by = <a Personnel unit Retained in that Setup Area> }")
  if need then return need end
  local w = C.unit(a.unit, a.side)
  if not w or (w.type ~= "sw" and w.type ~= "gun") or w.location ~= "map" or w.vars.possessed_by or w.vars.mounted_on then
    return C.refuse(case, tostring(a.unit) .. " is no unpossessed SW or Gun on the map")
  end
  local by = C.unit(a.by, a.side)
  if not by or by.location ~= "map" or not C.is_personnel(by) or by.vars.prisoner_of then
    return C.refuse(case, tostring(a.by) .. " is no Personnel unit on the map")
  end
  local theirs = C.not_owner(a, by, case)
  if theirs then return theirs end
  local r = by.vars.reph
  if not r or (r.status ~= "retained" and r.status ~= "isolated") or not r.area then
    return C.refuse(case, by.id .. " is Retained in no Setup Area")
  end
  local area = A.area_at(by.side, w.hex, C.level(w))
  if not area or area.id ~= r.area then
    return C.refuse(case, w.id .. " is not in Setup Area " .. r.area .. ", where " .. by.id .. " is Retained")
  end
  if w.vars.repossess_by then return C.refuse(case, w.id .. " is already taken by " .. w.vars.repossess_by) end
end
kessel.action{
  kind = "repossess", rule = "9.6071", description = "Personnel Retained in a Setup Area repossess an unpossessed SW or Gun there",
  validate = function(a) return repossess_problem(a) end,
  apply = function(a)
    kessel.emit.unit_var(a.unit, "repossess_by", a.by)
    C.note("9.6071", a.by .. " will repossess " .. a.unit .. " as 9.607 ends")
  end,
  enumerate = function(side)
    local out = {}
    -- out of 9.607 every pair is refused (repossess_problem): none is tried, as each listing of
    -- another step tried every weapon with every unit
    if not C.pb() or S.only_in("equipment", "9.6071") then return out end
    for _, w in ipairs(C.on_map()) do
      if (w.type == "sw" or w.type == "gun") and not w.vars.possessed_by and not w.vars.mounted_on and not w.vars.repossess_by then
        for _, s in ipairs(side and { side } or C.sides()) do
          for _, p in ipairs(C.on_map(s)) do
            local a = { kind = "repossess", side = s, unit = w.id, by = p.id }
            if repossess_problem(a) == nil then out[#out + 1] = a; break end
          end
        end
      end
    end
    return out
  end,
}
local function repossessions()
  for _, w in ipairs(kessel.units.all()) do
    local by = w.vars.repossess_by and kessel.units.get(w.vars.repossess_by)
    if w.vars.repossess_by then
      kessel.emit.unit_var(w.id, "repossess_by", nil)
      if by and by.location == "map" and w.location == "map" and by.side == w.side and not w.vars.possessed_by then
        kessel.emit.unit_var(w.id, "possessed_by", by.id)
        C.note("9.6071", w.id .. " is repossessed by " .. by.id)
      end
    end
  end
end

S.on_end("equipment", function()
  if C.pb() then
    Q.possession()
    repossessions()
    Q.hidden_fortifications("9.6073")
    return
  end
  -- [11.607] non-Isolated units/Equipment leave friendly-Controlled Locations for the Retained box
  -- [EXC: Gun/AFV in a Fortified Building Location or Pillbox, Immobile vehicles]; [11.6071]
  -- Isolated ones stay; [11.6072] Equipment is Retained by the side Controlling its Location.
  -- Clearing a Location does not change its Control: the Control each occupied Location has now is
  -- kept for the rest of the RePh (`A.controller` reads it for an emptied Location)
  local snap = {}
  for _, u in ipairs(C.on_map()) do
    local key = u.hex .. "@" .. tostring(C.level(u))
    if snap[key] == nil then snap[key] = A.controller(u.hex, C.level(u)) or false end
  end
  local kept = {}
  for k, s in pairs(snap) do if s then kept[k] = s end end
  kessel.emit.var("control_at_clearing", kept)
  for _, u in ipairs(C.on_map()) do
    -- a hidden Set DC waits for 11.6073 [11.6072 EXC]
    local set_dc = u.vars.set_dc and u.vars.hidden
    -- a vehicle's mounted Weapons, and the armor leader in it, go (or stay) with it
    if not u.vars.possessed_by and not u.vars.passenger_of and not set_dc and not u.vars.mounted_on
      and not C.crewing(u) and not C.is_wreck(u) then
      -- an Isolated unit or piece of Equipment stays where it is [11.6071]; loose Equipment there is
      -- "Equipment left on-map" all the same, Retained by the side Controlling its Location
      -- [11.6072] (an unpossessed German SW in a Russian type C area stayed German)
      local stays = u.vars.isolated or (C.is_vehicle(u) and u.vars.immobile) or ((u.type == "gun" or C.is_vehicle(u)) and Q.fortified(u))
      local ctrl = A.controller(u.hex, C.level(u))
      -- [11.6072] what is removed, and the Equipment left on the map (an abandoned vehicle that
      -- stays: a manned one is no loose Equipment), is Retained by the side Controlling its Location
      local equipment = u.type == "sw" or u.type == "gun" or (C.is_vehicle(u) and (not stays or u.vars.abandoned))
      -- [11.607] only friendly-Controlled Locations are cleared, and No Man's Land is nobody's
      -- [11.6059]: Equipment in a hex the players record as No Man's Land, or in a type A or B
      -- Isolated Area [11.6062], stays where it is, and no side Retains it [11.6072]. Before, it
      -- went to its owner's Retained box, or stayed its owner's. (An un-Controlled Location
      -- outside that record is taken to be its owner's, as the Perimeters are not drawn here:
      -- our reading.)
      local nobodys = A.rb_unretained(u)
      if nobodys then
        stays = true
        C.note("11.6072", u.id .. " is in No Man's Land (" .. u.hex .. "): no side Controls its Location, so it is not cleared and no side Retains it; it stays there unpossessed [11.607] [11.6059]")
      end
      ctrl = ctrl or u.side
      if equipment and not nobodys and ctrl ~= u.side then
        local captured = C.change_hands(u, ctrl)
        if C.is_vehicle(u) then C.capture_mounted(u, ctrl) end
        C.note("11.6072", u.id .. " is Retained " .. (captured and "(Captured) " or "again by its own side, ") .. "by the " .. ctrl .. (stays and " where it stands" or ""))
      end
      if not stays then
        -- a Gun it holds in a Fortified Building Location or Pillbox is left on the map [11.607 EXC]:
        -- the possessor goes to the box without it
        for _, w in ipairs(C.possessed(u.id)) do
          if w.type == "gun" and Q.fortified(w) then
            kessel.emit.unit_var(w.id, "possessed_by", nil)
            C.note("11.607", w.id .. " is a Gun in a Fortified Building Location or Pillbox: it is left on the map; "
              .. u.id .. " leaves it unpossessed in " .. tostring(w.hex))
          end
        end
        local with = C.possessed(u.id)
        kessel.emit.withdraw(u.id)
        C.follow(u)
        kessel.emit.unit_var(u.id, "reph", { status = "retained", area = "retained_box", why = "11.607" })
        for _, w in ipairs(with) do kessel.emit.unit_var(w.id, "reph", { status = "retained", area = "retained_box", why = "11.607" }) end
        for _, l in ipairs(kessel.units.all{ type = "armor_leader" }) do
          if C.crewing(l) == u.id then kessel.emit.unit_var(l.id, "reph", { status = "retained", area = "retained_box", why = "11.607" }) end
        end
      end
    end
  end
  C.note("11.607", "the map is cleared of non-Isolated units; Isolated ones stay in place [11.6071]")
  Q.hidden_fortifications("11.6073")
  -- [11.6073] a hidden Set DC in a friendly-Controlled Location stays hidden (the default) or, when
  -- its owner chose `retain_set_dc` in this step, is "removed" and Retained; in an enemy-Controlled
  -- Location it is Eliminated. Where a hidden DC stays is its owner's secret.
  for _, u in ipairs(C.on_map()) do
    if u.vars.set_dc and u.vars.hidden then
      local ctrl = A.controller(u.hex, C.level(u))
      if ctrl and ctrl ~= u.side then
        C.eliminate(u.id, "11.6073", "a hidden Set DC in an enemy-Controlled Location")
      elseif u.vars.retain_set_dc then
        kessel.emit.withdraw(u.id)
        for _, k in ipairs({ "set_dc", "hidden", "retain_set_dc" }) do kessel.emit.unit_var(u.id, k, nil) end
        kessel.emit.unit_var(u.id, "reph", { status = "retained", area = "retained_box", why = "11.6073" })
        C.note("11.6073", u.id .. " (a hidden Set DC in a friendly-Controlled Location) is removed and Retained (DC in the Retained box)",
          { secret_to = u.side })
      else
        C.conceal(u)
        C.note("11.6073", u.id .. " (Set DC) in " .. u.hex .. " stays hidden in a friendly-Controlled Location", { secret_to = u.side })
      end
    end
  end
end)

-- [11.6073] the owner of a friendly-Set hidden Set DC in a friendly-Controlled Location may have it
-- "removed" and Retained instead of leaving it hidden: `retain_set_dc{ unit = dc }` during RePh
-- step 11.607, carried out as the step ends. A secret action: the other side sees only its kind.
kessel.action{
  kind = "retain_set_dc", rule = "11.6073", secret = true,
  description = "remove a hidden Set DC from a friendly-Controlled Location and Retain it",
  validate = function(a)
    if C.pb() then return C.refuse("11.6073", "removing a hidden Set DC is a Red Barricades rule") end
    local why = S.only_in("equipment", "11.6073")
    if why then return why end
    local need = C.missing(a, "11.6073", { "unit" }, "retain_set_dc{ unit = <a hidden Set DC in a friendly-Controlled Location> }")
    if need then return need end
    local u = C.unit(a.unit, a.side)
    if not u or u.location ~= "map" or not (u.vars.set_dc and u.vars.hidden) then
      return C.refuse("11.6073", tostring(a.unit) .. " is no hidden Set DC on the map")
    end
    if a.side and a.side ~= u.side then return C.refuse("11.6073", "only its owner (" .. u.side .. ") decides about " .. u.id) end
    local ctrl = A.controller(u.hex, C.level(u))
    if ctrl and ctrl ~= u.side then
      return C.refuse("11.6073", u.id .. " is in an enemy-Controlled Location: it is Eliminated, not Retained")
    end
  end,
  apply = function(a)
    local u = kessel.units.get(a.unit)
    kessel.emit.unit_var(u.id, "retain_set_dc", true, { secret_to = u.side })
    C.note("11.6073", u.id .. " will be removed and Retained as 11.607 ends", { secret_to = u.side })
  end,
}

-- [9.608] [11.608] Prisoners: Eliminated if their Guard is not Isolated; an Isolated Guard keeps,
-- transfers, frees (or in RB executes) them.
local function freed(p, case)
  kessel.emit.unit_var(p.id, "prisoner_of", nil)
  kessel.emit.unit_var(p.id, "guarded_by", nil)
  if C.is_mmc(p) then
    local face = kessel.game.constant("conscript")[p.side]
    local faces = C.squad_faces(face, p.side)
    local hs = p.step == 1 or p.type == "crew"
    if p.type == "squad" then
      kessel.emit.change_unit(p.id, { faces = faces })
      kessel.emit.unit_var(p.id, "squad_face", face)
    elseif p.type == "crew" then
      -- a crew is an MMC of half-squad size: "of the same size" is a Green/Conscript half-squad
      -- (our reading; there is no Conscript crew). Before, the note said it was Replaced and the
      -- crew stayed a crew
      kessel.emit.change_unit(p.id, { type = "squad", faces = faces, step = 1 })
      kessel.emit.unit_var(p.id, "squad_face", face)
    end
    C.note(case, p.id .. " is freed and Replaced by a " .. face .. (hs and " half-squad" or "") .. (C.pb() and " (Green/Conscript)" or " (Conscript)"))
  else
    C.note(case, p.id .. " is freed")
  end
  kessel.emit.unit_var(p.id, "unarmed", nil)
  if C.pb() then
    kessel.emit.unit_var(p.id, "reph", { status = "retained" })
    X.relocate(kessel.units.get(p.id), case, { shortest = true })
  else
    -- "automatically Retained by the side friendly to it" [11.608]: to the Retained box, so no
    -- longer Isolated and without Ammunition Shortage, as an escapee [11.6064] (it kept the
    -- Isolation and the Ammunition Shortage of its Guard's area, and an "isolated" status)
    kessel.emit.withdraw(p.id)
    kessel.emit.unit_var(p.id, "reph", { status = "retained", area = "retained_box", why = case })
    for _, k in ipairs({ "isolated", "ammo_shortage", "must_escape" }) do
      if p.vars[k] ~= nil then kessel.emit.unit_var(p.id, k, nil) end
    end
    C.note(case, p.id .. " is Retained by the " .. p.side .. ", in the Retained box")
  end
end

kessel.action{
  kind = "prisoner", rule = "9.608", description = "an Isolated Guard frees, transfers (or in RB executes) a prisoner",
  validate = function(a)
    local case = C.pb() and "9.608" or "11.608"
    local why = S.only_in("prisoners", case)
    if why then return why end
    local need = C.missing(a, case, { "unit", "choice" }, "prisoner{ unit = <a prisoner of an Isolated Guard>, choice = \"free\" or \"transfer\" (with to = <another friendly unit in its Isolated Area>)"
      .. (C.pb() and "" or " or \"execute\"") .. " }")
    if need then return need end
    local p = C.unit(a.unit, a.side)
    if not p or not p.vars.guarded_by then return C.refuse(case, "that unit is not a prisoner") end
    local g = kessel.units.get(p.vars.guarded_by)
    if not g or not g.vars.isolated then return C.refuse(case, "only an Isolated Guard decides about its prisoners") end
    local theirs = C.not_owner(a, g, case)
    if theirs then return theirs end
    if a.choice == "execute" and C.pb() then return C.refuse("9.608", "prisoners are not executed in PB") end
    if a.choice == "transfer" then
      if a.to == nil then
        return C.refuse(case, "name `to`: the friendly unit able to Guard, in the same Isolated Area as " .. g.id .. ", that takes the prisoner (prisoner{ unit = \"" .. p.id .. "\", choice = \"transfer\", to = ... })")
      end
      local t = C.unit(a.to, a.side)
      if not t or t.id == g.id or t.side ~= g.side or not C.is_personnel(t) or t.location ~= "map"
        or C.isolated_area(t) ~= C.isolated_area(g) then
        return C.refuse(case, "a prisoner goes to another friendly unit able to Guard, in the same Isolated Area as " .. g.id)
      end
    elseif a.choice ~= "free" and a.choice ~= "execute" then
      -- PB has no execution [9.608]: its refusal names the two choices there are
      return C.refuse(case, "choice is free or transfer" .. (C.pb() and "" or " or execute") .. ", not `" .. tostring(a.choice) .. "`")
    end
  end,
  apply = function(a)
    local case = C.pb() and "9.608" or "11.608"
    local p = kessel.units.get(a.unit)
    if a.choice == "free" then freed(p, case)
    elseif a.choice == "transfer" then
      kessel.emit.unit_var(p.id, "guarded_by", a.to)
      -- the new Guard may stand elsewhere in the Isolated Area: the prisoner goes to him (he stayed
      -- in the old Guard's hex, Guarded from afar)
      local guard = kessel.units.get(a.to)
      C.follow(guard)
      if C.level(p) ~= C.level(guard) then kessel.emit.unit_var(p.id, "level", C.level(guard) ~= 0 and C.level(guard) or nil) end
      C.note(case, p.id .. " is transferred to " .. a.to)
    else
      C.eliminate(p.id, case, "executed")
      kessel.emit.var("massacre", true)
      C.note("11.608", "Massacre (A20.4) is in effect next CG scenario")
    end
  end,
}

S.on_end("prisoners", function()
  local case = C.pb() and "9.608" or "11.608"
  for _, p in ipairs(kessel.units.all()) do
    if p.vars.guarded_by and p.location ~= "eliminated" then
      local g = kessel.units.get(p.vars.guarded_by)
      if not g or g.location ~= "map" or not g.vars.isolated then
        C.eliminate(p.id, case, "prisoner of a non-Isolated Guard")
      else
        C.note(case, p.id .. " stays the prisoner of the Isolated " .. g.id)
      end
    end
  end
end)

return Q
