-- RePh step 9.615 OB-Given Reinforcements (PB), and making new counters for them and for RG.
local C = require("rules.common")
local S = require("rules.sequence")
local A = require("rules.areas")
local N = {}

-- Portage points and repair numbers of SW (printed on the counters, not in the text: data)
kessel.constant("sw_data", { LMG = { pp = 1, repair = 2 }, MMG = { pp = 4, repair = 2 }, HMG = { pp = 5, repair = 3 },
  LtMTR = { pp = 1, repair = 2 }, ["51 MTR"] = { pp = 1, repair = 2 }, PIAT = { pp = 1, repair = 2 },
  FT = { pp = 1, repair = 2 }, DC = { pp = 1, repair = 0 }, ["dm HMG"] = { pp = 5, repair = 3 }, ["dm MMG"] = { pp = 4, repair = 2 } })
-- the squad a lone HS belongs to, per side (a 2-4-8 is half of a British 4-5-8, a German 4-6-8)
kessel.constant("hs_parent", { british = { ["2-4-8"] = "4-5-8", ["3-4-8"] = "6-4-8", ["2-4-7"] = "4-5-7" },
  german = { ["2-4-8"] = "4-6-8", ["2-4-7"] = "4-6-7", ["2-3-7"] = "4-4-7", ["2-2-6"] = "4-3-6" },
  russian = { ["2-3-7"] = "4-4-7", ["2-2-7"] = "5-2-7", ["2-2-6"] = "4-2-6" } })

-- creates one counter; `kind` is squad, hs, crew, leader, armor_leader, hero, sw, gun or vehicle
function N.create(side, kind, what, opts)
  opts = opts or {}
  local spec = { side = side, at = opts.at, vars = C.copy(opts.vars or {}) }
  if kind == "squad" or kind == "hs" then
    local squad = what
    if kind == "hs" then squad = kessel.game.constant("hs_parent")[side][what] or error("no squad is known for the HS " .. what) end
    spec.type, spec.faces = "squad", C.squad_faces(squad, side)
    spec.step = kind == "hs" and 1 or 0
    spec.vars.squad_face = spec.faces[1]
  elseif kind == "crew" or kind == "hero" then
    spec.type, spec.faces = kind, { what }
  elseif kind == "leader" or kind == "armor_leader" then
    spec.type, spec.faces = kind, { C.leader_face(what) }
  elseif kind == "sw" then
    local d = kessel.game.constant("sw_data")[what] or { pp = 1, repair = 2 }
    spec.type, spec.faces = "sw", { { weapon = what, pp = d.pp, repair = d.repair } }
  elseif kind == "gun" then
    spec.type, spec.faces = "gun", { { weapon = what } }
  else
    spec.type, spec.faces = "vehicle", { { name = what } }
  end
  return kessel.emit.create_unit(spec)
end

-- [A5.1] [9.6152] Note 1 [9.6102] Where a Personnel counter the RePh gives the British on the map
-- is placed: its hex if that has room, else the first ground-level Location with room of its Setup
-- Area, then of the side's other non-Isolated Setup Areas (where Note 1 lets it set up); with room
-- nowhere, its hex, over the limit. No set-up exceeds the stacking limit (the `stacking_limit`
-- data, as `M.stacking_problem` reads it for every set-up of 9.620), and the ruleset's placement is
-- the set-up of a unit the player leaves alone. Before, every counter of a date went to one hex:
-- Night III's eighteen squads and six leaders stood in one Location. Moves the unit there
-- (Retained in the area it goes to) and returns whether it is over the limit. A water hex is no
-- Location for any of them (`C.enterable`).
function N.place_with_room(id, area_id)
  local u = kessel.units.get(id)
  if not (u and u.hex) then return false end
  -- Equipment has no stacking limit here; it only keeps out of the water
  if not C.is_personnel(u) and C.enterable(u.hex) then return false end
  local M = require("rules.commencement")
  local st = A.stored()
  local order = { { hex = u.hex, area = area_id } }
  local areas = {}
  for _, a in ipairs(st and st.areas[u.side] or {}) do
    if not a.isolated and not a.level then
      if a.id == area_id then table.insert(areas, 1, a) else areas[#areas + 1] = a end
    end
  end
  for _, a in ipairs(areas) do
    for _, h in ipairs(a.hexes) do order[#order + 1] = { hex = h, area = a.id } end
  end
  for _, o in ipairs(order) do
    if C.enterable(o.hex) and M.stacking_problem(u, o.hex, 0) == nil then
      if o.hex ~= u.hex then kessel.emit.move(u.id, { o.hex }) end
      if o.area ~= area_id then
        local r = C.copy(u.vars.reph or {})
        r.area = o.area
        kessel.emit.unit_var(u.id, "reph", r)
      end
      return false
    end
  end
  return true
end

-- the Setup/Entry Area reinforcements arrive in: an Entry Area named by the table, else the first
-- non-Isolated British Setup Area (Note 1), else Z28 (Note 1)
local function arrival(entry)
  if entry and entry ~= "note" then return { entry = entry } end
  return A.british_arrival()
end

-- [9.6152] Note 3 (Dawn): the Guns set up in a non-Isolated British Setup Area, in a hex numbered
-- 20 or more (the number of a letters-numbered hex: `Z28` is 28); with no such hex, Z28 becomes an
-- Eligible Entry Area and the Guns are Manhandled on from there
local hex_number = C.hex_number
local function gun_arrival()
  local st = A.stored()
  for _, area in ipairs(st and st.areas.british or {}) do
    if not area.isolated and not area.level then
      for _, h in ipairs(area.hexes) do
        if hex_number(h) >= 20 and C.enterable(h) then return { area = area.id, hex = h } end
      end
    end
  end
  return { entry = "Z28", manhandled = true }
end

S.on_end("reinforcements", function()
  if C.pb() and C.var("previous_date") == "day_ii" then
    -- [9.6153] after Day II the British remove non-crew, non-airborne MMC and their SW/SMC. The
    -- players "note which SW/SMC are not part of a British Airborne formation": each unit goes by
    -- its own mark, `airborne = false` (the ruleset marks the reinforcements not under Note 4; a
    -- scenario's own British, the CG's Airborne OB, need no mark). A SW's mark is its own, not its
    -- holder's: that is why the text has the SW noted. Before, a SW went with whoever held it, so
    -- an Airborne LMG held by a commando left with him and a commando's LMG held by a para stayed
    local function airborne_unit(x) return x.vars.airborne ~= false end
    local gone = {}
    for _, u in ipairs(kessel.units.all{ side = "british" }) do
      if (u.location == "map" or u.location == "pending") and not airborne_unit(u) and u.type ~= "crew"
        and (C.is_mmc(u) or C.is_smc(u) or u.type == "sw") and not u.vars.ox_bucks then
        kessel.emit.remove(u.id)
        gone[u.id] = true
        C.note("9.6153", u.id .. " (not Airborne) is withdrawn and not Retained")
      end
    end
    -- an Airborne SW its withdrawn holder carried stays, unpossessed, where he was
    for _, w in ipairs(kessel.units.all{ side = "british", type = "sw" }) do
      if not gone[w.id] and gone[w.vars.possessed_by or ""] then
        kessel.emit.unit_var(w.id, "possessed_by", nil)
        C.note("9.6153", w.id .. " (Airborne) stays, unpossessed" .. (w.hex and (" in " .. w.hex) or "")
          .. ": " .. w.vars.possessed_by .. " is withdrawn without it")
      end
    end
  end
  local date = C.var("date")
  local ok, row = pcall(kessel.tables.cell, "pb_reinforcements", date, "units")
  if not ok or row == nil then return end
  if C.var("cg") == "II" and (date == "night_ii" or date == "night_iii" or date == "dawn") then
    C.note("9.6152", "Note 2: no reinforcements on " .. date .. " in CG II")
    return
  end
  local where = arrival(kessel.tables.cell("pb_reinforcements", date, "entry"))
  local made, over = {}, {}
  local guns = date == "dawn" and gun_arrival() or nil
  for _, r in ipairs(row) do
    for _ = 1, r.n do
      -- Note 4 (Night II, Night III, Dawn): the non-crew MMC are Airborne, and the leaders and SW
      -- that come with them are of that Airborne formation (9.6153 must tell them apart)
      local note4 = date == "night_ii" or date == "night_iii" or date == "dawn"
      -- every other MMC, leader and SW is marked as not Airborne [9.6153]
      local airborne
      if r.kind ~= "crew" and r.kind ~= "gun" and r.kind ~= "vehicle" then airborne = note4 end
      local at = where
      -- the Guns' crews go with them: Note 1 lets them set up in any non-Isolated British Setup
      -- Area, and Guns that must be Manhandled onto the map from Z28 need their crews there (they
      -- were put with the squads, away from the Guns)
      if (r.kind == "gun" or r.kind == "crew") and date == "dawn" then at = guns end
      -- one sent to an Entry Area "may only enter ... as specified", whenever it enters [9.6151]:
      -- `enters_at` (no Shift elsewhere while it waits off-map [9.613])
      -- one placed in a Setup Area (Note 1, Note 3) may be set up in 9.620 in any non-Isolated British
      -- Setup Area, a Gun in a hex numbered 20 or more (`any_area`, `hex_min`: M.free_area)
      local id = N.create("british", r.kind, r.what, { at = at.hex,
        vars = { reph = { status = "retained", area = at.area or at.entry, why = at == guns and "9.6152" or "9.6151",
          any_area = at.area and "9.6152" or nil, hex_min = (r.kind == "gun" and at.area and at == guns) and 20 or nil }, airborne = airborne,
          ox_bucks = (date == "night_ii") or nil, enters_at = at.entry } })
      made[#made + 1] = id
      if at.area and N.place_with_room(id, at.area) then over[#over + 1] = id end
    end
  end
  local fpp = kessel.tables.cell("pb_reinforcements", date, "fpp") or 0
  C.set_fpp("british", C.fpp("british") + fpp)
  C.record("reinforcements", "9.6152", { date = date, units = made, fpp = fpp, area = where.area or where.entry,
    guns = guns and (guns.area or guns.entry) or nil })
  if #made == 0 then
    -- a date whose row gives FPP only ("N/A" Entry Area: Day I, Day III)
    C.note("9.6152", "no British reinforcement units for " .. date .. "; " .. fpp .. " FPP")
  else
    C.note("9.6152", #made .. " British reinforcement counters and " .. fpp .. " FPP for " .. date .. " in " .. (where.area and ("Setup Area " .. where.area) or ("Entry Area " .. where.entry))
      .. (where.note1 and " (Note 1: no non-Isolated British Setup Area to set up in, so hex Z28 is an Eligible Entry Hex: they wait off-map to enter there)" or ""))
  end
  if #over > 0 then
    C.note("9.6152", string.format("%d of them (%s) are placed in %s over the stacking limit: no Location of a non-Isolated British Setup Area has room for them (A5.1)",
      #over, table.concat(over, ", "), kessel.units.get(over[1]).hex))
  end
  if guns then
    C.note("9.6152", guns.area and string.format("Note 3: the Guns set up in Setup Area %s, in %s (a hex numbered 20 or more)", guns.area, guns.hex)
      or "Note 3: no non-Isolated British Setup Area has a hex numbered 20 or more: Z28 is an Eligible Entry Area and the Guns are Manhandled onto the map from it")
  end
end)

return N
