-- RePh step 9.604 (PB) / 11.604 (RB): Encirclement, Minefields, Bog and Shock.
local C = require("rules.common")
local S = require("rules.sequence")
local E = {}

kessel.scenario_var{ id = "bog_table", type = "table", default = { free = 6, immobilize = 12 },
  description = "Bog Removal DR (D8.3, not in the text): unbogged on a Final DR <= free, Immobilized on an Original DR >= immobilize [9.6043]" }
kessel.scenario_var{ id = "shock_table", type = "table", default = { recover = 3, eliminate = 6 },
  description = "Shock/UK recuperation dr (C7.42, not in the text): removed on dr <= recover, Eliminated on dr >= eliminate [9.6044]" }

-- A Task Check: Final DR <= morale passes. `plus` is the TC's own DRM (1 for a 1TC). A wounded
-- SMC's morale is one lower (A17.2, chapter A data outside the text, as its leadership DRM is one
-- worse in C.leadership): the printed morale was read, so a wounded 8-1 passed a 1TC [9.6041] or a
-- minefield NTC [9.6042] [11.6041] [11.6042] on an 8.
function E.task_check(u, plus, purpose, case, what)
  local morale = u.face and u.face.morale
  if not morale then return true end
  if u.vars.wounded and C.is_smc(u) then morale = morale - 1 end
  local roll, a, b = C.DR(purpose)
  local m = C.mods()
  m.add(plus, plus == 1 and "1TC" or "TC")
  m.add(C.leader_drm(u), "leader")
  local drm = m.drm
  local final = roll + drm
  local pass = final <= morale
  C.record("task_check", case, { unit = u.id, check = what, dice = { a, b }, drm = drm, final = final, morale = morale,
    passed = pass })
  C.note(case, string.format("%s takes a %s: DR %d%+d = %d vs morale %d: %s%s", u.id, what, roll, drm, final, morale,
    pass and "passes" or "fails", m.text()))
  return pass
end

-- [9.6041] prisoners of an Eliminated Guard are claimed by a friendly unit in that Location, or
-- are Rearmed and take the dropped Equipment; otherwise the Equipment is left unpossessed
function E.release_guarded(guard, case)
  local claimer
  for _, o in ipairs(C.same_location(guard)) do
    if o.id ~= guard.id and o.side == guard.side and C.is_personnel(o) and o.location == "map"
      and not o.vars.prisoner_of and kessel.units.get(o.id).location == "map" then
      claimer = claimer or o
    end
  end
  local rearmed
  for _, p in ipairs(kessel.units.all{ location = "map" }) do
    if p.vars.guarded_by == guard.id then
      if claimer then
        kessel.emit.unit_var(p.id, "guarded_by", claimer.id)
        C.note(case, p.id .. " is claimed by " .. claimer.id)
      else
        kessel.emit.unit_var(p.id, "guarded_by", nil)
        kessel.emit.unit_var(p.id, "prisoner_of", nil)
        kessel.emit.unit_var(p.id, "unarmed", nil)
        C.note(case, p.id .. " is not claimed and is Rearmed (A20.551)")
        rearmed = rearmed or p
      end
    end
  end
  for _, w in ipairs(C.possessed(guard.id)) do
    if rearmed then
      kessel.emit.unit_var(w.id, "possessed_by", rearmed.id)
      -- the Guard's Equipment in the Rearmed prisoner's hands is its side's, Captured (A20.551)
      local captured = w.side ~= rearmed.side and C.change_hands(w, rearmed.side)
      C.note(case, rearmed.id .. " takes " .. w.id .. " dropped by its Guard" .. (captured and " (Captured)" or ""))
    else
      kessel.emit.unit_var(w.id, "possessed_by", nil)
      C.note(case, w.id .. " is left in " .. guard.hex .. " unpossessed")
    end
  end
end

-- [9.6041] each Encircled unit but a prisoner takes a 1TC; failure Eliminates it. Leaders first,
-- so that a leader who passes lends his DRM to the others.
function E.encirclement(case)
  local list = {}
  for _, u in ipairs(C.on_map()) do
    -- an armor leader in a vehicle is with its crew: he makes no 1TC of his own (below)
    if u.vars.encircled and not u.vars.prisoner_of and C.is_personnel(u) and not C.crewing(u) then list[#list + 1] = u end
  end
  table.sort(list, function(a, b)
    local la, lb = C.is_leader(a) and 0 or 1, C.is_leader(b) and 0 or 1
    if la ~= lb then return la < lb end
    return a.id < b.id
  end)
  for _, u in ipairs(list) do
    u = kessel.units.get(u.id)
    if u.location == "map" and not E.task_check(u, 1, "encirclement", case, "1TC (Encircled)") then
      local where = kessel.units.get(u.id)
      C.eliminate(u.id, case, "failed its Encirclement 1TC", { keep_equipment = true })
      E.release_guarded(where, case)
      if u.side == "british" and u.vars.airborne ~= false and C.pb() then
        C.note(case, u.id .. " is not placed in the Walking Wounded Box")
      end
    end
  end
  -- an Immobile vehicle whose Vulnerable crew is Eliminated is left abandoned
  for _, v in ipairs(C.on_map()) do
    if C.is_vehicle(v) and v.vars.encircled and v.vars.immobile and v.vars.crew_morale then
      -- the armor leader in it lends his DRM to the crew's 1TC and shares its fate (as in an
      -- Escape DR [9.606]; our reading): before, he took a 1TC of his own beside it, and stayed in
      -- the abandoned vehicle when its crew was Eliminated
      local leaders, best = {}, 0
      for _, o in ipairs(kessel.units.all{ type = "armor_leader", side = v.side }) do
        if C.crewing(o) == v.id then
          leaders[#leaders + 1] = o
          if C.leadership(o) < best then best = C.leadership(o) end
        end
      end
      local dr = C.DR("encirclement")
      local final = dr + 1 + best
      local lead = best ~= 0 and string.format("%+d armor leader", best) or ""
      if final > v.vars.crew_morale then
        kessel.emit.unit_var(v.id, "abandoned", true)
        kessel.emit.unit_var(v.id, "crew_morale", nil)
        C.note(case, string.format("%s's Vulnerable crew takes a 1TC: DR %d+1%s = %d vs morale %d: fails; the crew is Eliminated and the vehicle abandoned",
          v.id, dr, lead, final, v.vars.crew_morale))
        for _, l in ipairs(leaders) do
          kessel.emit.unit_var(l.id, "in_vehicle", nil)
          C.eliminate(l.id, case, "in " .. v.id .. ", whose Vulnerable crew is Eliminated")
        end
      else
        C.note(case, string.format("%s's Vulnerable crew takes a 1TC: DR %d+1%s = %d vs morale %d: passes", v.id, dr, lead, final, v.vars.crew_morale))
      end
    end
  end
end

-- [9.6042] Infantry in an A-P minefield hex take a NTC (Casualty Reduction on failure) unless it
-- could leave without a mine attack (unit var `can_exit_clear`: a tactical question, set by the
-- scenario). Mine attacks on vehicles (B28) are not resolved here: a note says so.
function E.minefields(case)
  -- one NTC per unit per minefield hex, however many A-P mine markers it holds
  local seen = {}
  for _, m in ipairs(kessel.markers.all{ kind = "ap_mine", placed = true }) do
    local first = not seen[m.hex]
    seen[m.hex] = true
    for _, u in ipairs(first and kessel.units.at(m.hex) or {}) do
      u = kessel.units.get(u.id)
      -- an armor leader in a vehicle is not Infantry in the hex: he goes with its mine attack
      if u.location == "map" and C.is_personnel(u) and not u.vars.prisoner_of and not C.crewing(u) then
        if u.vars.can_exit_clear then
          C.note(case, u.id .. " could leave " .. m.hex .. " without a mine attack: no NTC")
        elseif not E.task_check(u, 0, "minefield", case, "NTC (A-P minefield)") then
          C.casualty_reduce(u, case)
        end
      end
    end
  end
  local noted = {}
  for _, m in ipairs(kessel.markers.all{ placed = true }) do
    if (m.kind == "ap_mine" or m.kind == "at_mine") and not noted[m.hex] then
      noted[m.hex] = true
      for _, v in ipairs(kessel.units.at(m.hex)) do
        if C.is_vehicle(v) and not v.vars.immobile and not v.vars.abandoned and not C.is_wreck(v) then
          C.note(case, v.id .. " in a minefield: its mine attack (B28.4-.5) is resolved off-engine")
        end
      end
    end
  end
end

-- [9.6043] each bogged vehicle rolls for Bog Removal until unbogged or Immobilized
function E.bog(case, units)
  local t = C.var("bog_table", { free = 6, immobilize = 12 })
  for _, v in ipairs(units or C.on_map()) do
    if C.is_vehicle(v) and v.vars.bogged and not v.vars.abandoned then
      local drm = v.vars.bog_drm or 0
      if v.vars.note_l and v.vars.note_l_claim then drm = drm - v.vars.note_l_claim end
      for attempt = 1, 50 do
        local roll = C.DR("bog")
        local final = roll + drm
        if roll >= t.immobilize then
          kessel.emit.unit_var(v.id, "bogged", nil)
          kessel.emit.unit_var(v.id, "immobile", true)
          C.note(case, string.format("%s Bog Removal attempt %d: DR %d: Immobilized", v.id, attempt, roll))
          break
        elseif final <= t.free then
          kessel.emit.unit_var(v.id, "bogged", nil)
          C.note(case, string.format("%s Bog Removal attempt %d: Final DR %d: unbogged", v.id, attempt, final))
          break
        end
      end
    end
  end
end

-- [9.6044] each Shocked/UK AFV rolls for recuperation until the marker goes or it is Eliminated
function E.shock(case, units)
  local t = C.var("shock_table", { recover = 3, eliminate = 6 })
  for _, v in ipairs(units or C.on_map()) do
    if C.is_vehicle(v) and (v.vars.shock or v.vars.uk) then
      for _ = 1, 50 do
        local roll = C.dr("shock")
        if roll <= t.recover then
          kessel.emit.unit_var(v.id, "shock", nil)
          kessel.emit.unit_var(v.id, "uk", nil)
          C.note(case, v.id .. " recovers from Shock/UK (dr " .. roll .. ")")
          break
        elseif roll >= t.eliminate then
          C.eliminate(v.id, case, "Shock/UK, dr " .. roll, { with_crew = true })
          break
        end
      end
    end
  end
end

S.on_end("encirclement", function()
  local pb = C.pb()
  E.encirclement(pb and "9.6041" or "11.6041")
  E.minefields(pb and "9.6042" or "11.6042")
  if pb then
    E.bog("9.6043")
    E.shock("9.6044")
  end
end)

return E
