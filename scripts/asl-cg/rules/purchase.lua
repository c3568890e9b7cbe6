-- RePh steps 9.616 CPP Replenishment, 9.617 Purchasing RG, 9.618 RG Strength, Weapons and
-- Leaders, 9.619 Purchasing Fortifications (PB); and the casualty count every Elimination feeds.
local C = require("rules.common")
local S = require("rules.sequence")
local A = require("rules.areas")
local N = require("rules.reinforcements")
local P = {}

-- what the German keeps to himself [9.617] [9.6183]
local GERMAN_SECRET = { secret_to = "german" }

-- Casualty VP (A26.2, outside the text: data) per counter
kessel.constant("cvp", { squad = 2, hs = 1, crew = 1, leader = 1, armor_leader = 1, hero = 1, vehicle = 3, gun = 1, sw = 0 })

-- every Elimination during the RePh is counted, however it happened (an event hook) [11.6031] [11.616]
-- the Casualty VP a counter is worth (a half-squad counts as such)
function P.cvp(u)
  local t = kessel.game.constant("cvp")
  -- a wreck was lost already: Eliminating it (a rubbled building [9.6095]) is no new casualty
  if C.is_wreck(u) then return 0 end
  return (u.type == "squad" and u.step == 1) and t.hs or (t[u.type] or 0)
end

kessel.on("event:eliminated", function(e)
  if not kessel.game.var("scenario_ended") then return end
  local u = kessel.units.get(e.unit)
  local v = P.cvp(u)
  if v > 0 then C.set_in("reph_cvp_lost", u.side, C.get_in("reph_cvp_lost", u.side, 0) + v) end
end)

-- [9.616] German CPP replenished = CPP Base # [9.6161] + CG Scenario Loss Points [9.6162]
function P.pb_cpp()
  local date = C.var("date")
  local ok, base = pcall(kessel.tables.cell, "cpp_base", date, "german")
  -- the chart's "None" (Night II, Night III, Dusk): no Base #, 0 to the sum
  local none = not (ok and base)
  base = ok and base or 0
  local g, b = C.get_in("cvp_lost", "german", 0), C.get_in("cvp_lost", "british", 0)
  local loss, why = 0, nil
  local list = kessel.game.constant("pb_dates")
  local idx = {}
  for i, d in ipairs(list) do idx[d] = i end
  if (idx[date] or 0) < idx.day_i then
    why = "Loss Points are unavailable before the Day I RePh"
  elseif g >= 2 * b and g >= b + 8 then
    loss = C.dr("cpp_loss")
    why = string.format("German CVP %d >= 2 x %d and >= %d + 8: dr %d", g, b, b, loss)
  else
    why = string.format("German CVP %d vs British %d: no Loss Points", g, b)
  end
  local before = C.cpp("german")
  C.set_cpp("german", before + base + loss)
  -- the CPP left from earlier dates are the German's secret [9.617], so the total is too: the record
  -- and the sum are shown to the German only; the Base # and the Loss Points are public
  C.record("cpp", "9.616", { date = date, base = base, loss_points = loss, before = before, after = before + base + loss }, GERMAN_SECRET)
  C.note("9.6161", "CPP Base # for " .. tostring(date) .. ": " .. (none and "None (0)" or tostring(base)))
  C.note("9.6162", why)
  C.note("9.616", string.format("German CPP replenished: %d + %d = %d (the total is the German's secret)", base, loss, base + loss))
  C.note("9.616", string.format("German CPP %d + %d + %d = %d", before, base, loss, before + base + loss), GERMAN_SECRET)
end

S.on_end("cpp", function()
  if C.pb() then P.pb_cpp() else require("rules.rb").cpp() end
end)

-- RG chart row, from the PB chart; RB's RG chart (11.619) is not in our text, so RB has none
function P.rg(id)
  if C.pb() then
    local ok, name = pcall(kessel.tables.cell, "rg_chart", id, "name")
    if not ok then return nil end
    local row = { id = id }
    for _, col in ipairs({ "name", "kind", "full", "depleted", "cost", "date_max", "cg_max", "notes" }) do
      row[col] = kessel.tables.cell("rg_chart", id, col)
    end
    return row
  end
  return nil
end

function P.entry_cost(arrow)
  local t = C.var("entry_costs", {})
  if next(t) == nil then t = kessel.game.constant("pb_entry_costs") end
  return t[arrow]
end

-- the RG Purchase Record [9.6178]: the game's, else the scenario's (an Initial Scenario's OB gives
-- its RG there, `given = true`, I1-I3 with their strength)
local function purchases() return C.var("rg_record", {}) or {} end

function P.counts(id)
  local date, this, total = C.var("date"), 0, 0
  for _, r in ipairs(purchases()) do
    if r.id == id and not r.given then
      total = total + 1
      if r.date == date then this = this + 1 end
    end
  end
  return this, total
end

-- [9.617] validity of one RG purchase
function P.validate_rg(a)
  local why = S.only_in("rg_purchase", "9.617")
  if why then return why end
  if a.side and a.side ~= "german" then return C.refuse("9.617", "the German purchases RG, not the " .. a.side) end
  local date = C.var("date")
  if tostring(date):match("^night") then return C.refuse("9.617", "no RG are purchased during the three Night CG Dates") end
  local need = C.missing(a, "9.6171", { "rg" }, "buy_rg{ rg = <an RG ID of the chart>, entry = <a German Entry Arrow> or area = <a German Setup Area> }")
  if need then return need end
  local rg = P.rg(a.rg or "")
  if not rg then
    -- the IDs the chart has, so a GM who typed a wrong one can see what to type
    local ids = { "I4", "I5", "V1", "V2", "V3", "V4", "V5", "V6", "V7", "V8", "V9", "V10", "V11", "M1" }
    return C.refuse("9.6171", "no RG `" .. tostring(a.rg) .. "` on the RG chart (IDs that may be bought: "
      .. table.concat(ids, ", ") .. ")")
  end
  if rg.cost == nil then return C.refuse("9.6177", rg.id .. " (" .. rg.name .. ") cannot be purchased: it is on-map for an Initial Scenario (note a)") end
  local cost = rg.cost
  if rg.kind ~= "M" then
    if a.entry then
      local extra = P.entry_cost(a.entry)
      if extra == nil then
        local t = C.var("entry_costs", {})
        if next(t) == nil then t = kessel.game.constant("pb_entry_costs") end
        return C.refuse("9.61741", "`" .. tostring(a.entry) .. "` is not a German Entry Arrow (the Arrows: " .. table.concat(C.sorted_keys(t), ", ") .. ")")
      end
      local names = (C.var("entry_areas", {}) or {}).german or {}
      if next(names) ~= nil and not names[a.entry] then return C.refuse("9.6178", "Entry Area " .. a.entry .. " is not Eligible") end
      cost = cost + extra
    elseif a.area then
      local found
      local st = A.stored()
      for _, area in ipairs(st and st.areas.german or {}) do if area.id == a.area and not area.isolated then found = area end end
      if not found then return C.refuse("9.6178", "an RG is recorded for a friendly, non-Isolated Setup Area or an Eligible Entry Area") end
      -- an upper-level Setup Area (9.605 EX's first level of Z15) is one building Location, where a
      -- vehicle does not set up (our reading, as for every set-up of 9.620: `M.level_problem`); one
      -- recorded there waited off the map for good, and 9.620 with it
      if found.level and rg.kind == "V" then
        return C.refuse("9.6178", string.format("Setup Area %s is the upper-level Location %s level %d: the vehicles of %s (%s) set up at ground level",
          found.id, tostring(found.hexes[1]), found.level, rg.id, rg.name))
      end
    else
      return C.refuse("9.6178", "record a Setup Area (area =) or an Entry Arrow (entry =) for the RG")
    end
  end
  local this, total = P.counts(rg.id)
  if this >= rg.date_max then return C.refuse("9.6175", string.format("%s: at most %d per CG Date (%d bought)", rg.name, rg.date_max, this)) end
  if total >= rg.cg_max then return C.refuse("9.6176", string.format("%s: at most %d in the CG (%d bought)", rg.name, rg.cg_max, total)) end
  local cpp = C.cpp("german")
  if cost > cpp then return C.refuse("9.6174", string.format("%s costs %d CPP; %d left", rg.name, cost, cpp)) end
  return nil, cost
end

-- [9.617] the German allots CPP secretly: what is bought, spent and left is his secret (the
-- action's parameters, the CPP, the RG record and its notes are shown to the German side only)
kessel.action{
  kind = "buy_rg", rule = "9.617", description = "the German spends CPP on a Reinforcement Group",
  secret = true,
  validate = function(a) return (P.validate_rg(a)) end,
  apply = function(a)
    local _, cost = P.validate_rg(a)
    local rg = P.rg(a.rg)
    local cpp = C.cpp("german")
    C.set_cpp("german", cpp - cost)
    local rec = C.copy(purchases())
    local _, total = P.counts(rg.id)
    rec[#rec + 1] = { date = C.var("date"), id = rg.id, name = rg.name, cost = cost, entry = a.entry, area = a.area,
      purchased = total + 1, remaining = rg.cg_max - total - 1 }
    kessel.emit.var("rg_record", rec, GERMAN_SECRET)
    -- every purchase writes the German FPP (unchanged but for an M1), so the British, who see
    -- that a secret variable changed, cannot tell an M1 from another RG [9.617]
    C.set_fpp("german", C.fpp("german") + (rg.kind == "M" and 15 or 0))
    C.record("rg_purchase", "9.617", rec[#rec], GERMAN_SECRET)
    C.note("9.6178", string.format("%s %s bought for %d CPP (%d left); #P %d, #R %d", rg.id, rg.name, cost, cpp - cost,
      total + 1, rg.cg_max - total - 1), GERMAN_SECRET)
  end,
  enumerate = function(side)
    local s = S.current()
    if not s or s.id ~= "rg_purchase" or (side and side ~= "german") then return {} end
    local out = {}
    local arrows = C.entry_names("german")
    for _, id in ipairs({ "I4", "I5", "V1", "V2", "V3", "V4", "V5", "V6", "V7", "V8", "V9", "V10", "V11", "M1" }) do
      for _, arrow in ipairs(arrows) do
        local a = { kind = "buy_rg", side = "german", rg = id, entry = arrow }
        if P.validate_rg(a) == nil then out[#out + 1] = a end
      end
    end
    return out
  end,
}

S.on_end("rg_purchase", function()
  local spent = 0
  for _, r in ipairs(purchases()) do if r.date == C.var("date") and not r.given then spent = spent + (r.cost or 0) end end
  C.note("9.617", string.format("CPP spent %d, left %d", spent, C.cpp("german")), GERMAN_SECRET)
end)

-- [9.618] strength, SW and leaders of each RG bought (or given) this date, and its counters
local LEADER_DRM = { I1 = 2, I2 = 1, I5 = -1, V3 = -1 }

function P.sw_allotment(rec, rg, full)
  local got = {}
  local ok = pcall(kessel.tables.cell, "sw_chart", rg.id, "LMG")
  if not ok then return got end
  for _, weapon in ipairs({ "HMG", "MMG", "LMG", "LtMTR" }) do
    local cell = kessel.tables.cell("sw_chart", rg.id, weapon)
    local n = 0
    if type(cell) == "number" then
      if full then
        n = cell
        C.note("9.6182", string.format("%s %s: %d received (Full: a number not in parentheses)", rec.id, weapon, cell), GERMAN_SECRET)
      else
        for _ = 1, cell do
          local roll = C.dr("rg_sw", GERMAN_SECRET)
          if roll <= 4 then n = n + 1 end
          C.note("9.6182", string.format("%s %s: dr %d (<= 4 needed, Depleted): %s", rec.id, weapon, roll,
            roll <= 4 and "received" or "not received"), GERMAN_SECRET)
        end
      end
    elseif type(cell) == "table" then
      local roll = C.dr("rg_sw", GERMAN_SECRET)
      local hit = full and roll <= cell.p or (not full and roll < cell.p)
      if hit then n = 1 end
      C.note("9.6182", string.format("%s %s: dr %d (%s %d needed, a number in parentheses): %s", rec.id, weapon, roll,
        full and "<=" or "<", cell.p, hit and "received" or "not received"), GERMAN_SECRET)
    end
    if n > 0 then got[weapon] = n end
  end
  return got
end

function P.resolve_rg(rec, index)
  local rg = P.rg(rec.id)
  if not rg or rg.kind == "M" then return rec end
  rec = C.copy(rec)
  local full = true
  if rg.id ~= "I1" and rg.id ~= "I2" and rg.id ~= "I3" then
    local roll = C.DR("rg_strength", GERMAN_SECRET)
    full = kessel.tables.lookup("rg_strength", roll) == "full"
    C.note("9.6181", string.format("%s strength DR %d: %s (Full on a Final DR <= 9)", rec.id, roll,
      full and "Full" or "Depleted"), GERMAN_SECRET)
  else
    full = rec.strength ~= "D"
  end
  rec.strength = full and "F" or "D"
  local vars = { rg = index, reph = { status = "retained", area = rec.area or rec.entry, why = "9.6178" } }
  local units = {}
  for _, u in ipairs(full and rg.full or rg.depleted) do
    for _ = 1, u.n do
      units[#units + 1] = N.create("german", rg.kind == "V" and "vehicle" or "squad", u.face, { vars = vars })
    end
  end
  rec.units = units
  rec.made = {}   -- its SW and leaders
  if rg.kind == "I" then
    rec.sw = P.sw_allotment(rec, rg, full)
    for _, w in ipairs(C.sorted_keys(rec.sw)) do
      for _ = 1, rec.sw[w] do rec.made[#rec.made + 1] = N.create("german", "sw", w, { vars = vars }) end
    end
  end
  if (rg.kind == "I" or rg.kind == "V") and rg.id ~= "V10" and rg.id ~= "V11" then
    local tries = (rg.id == "I3" or rg.id == "I5") and 2 or 1
    rec.leaders = {}
    for _ = 1, tries do
      local m = C.mods()
      m.add(LEADER_DRM[rg.id] or 0, rg.name)
      if not full then m.add(1, "Depleted RG") end
      local drm = m.drm
      -- [9.6183] a Secret DR
      local roll = C.DR("rg_leader", GERMAN_SECRET)
      local column = rg.kind == "I" and "leader_personnel" or "leader_armor"
      local result = kessel.tables.lookup(column, roll + drm)
      C.note("9.6183", string.format("%s leader DR %d%+d = %d (%s column): %s%s", rec.id, roll, drm, roll + drm,
        rg.kind == "I" and "Personnel" or "Armor", result, m.text()), GERMAN_SECRET)
      if result ~= "none" then
        for label in result:gmatch("[^,]+") do
          rec.made[#rec.made + 1] = N.create("german", rg.kind == "I" and "leader" or "armor_leader", label, { vars = vars })
          rec.leaders[#rec.leaders + 1] = label
        end
      end
    end
  end
  -- the RG bought are the German's secret [9.617]: its counters wait off the map hidden from the
  -- other side until they enter or set up (the `event:placed` hook below shows them)
  for _, id in ipairs(P.rg_units(rec)) do kessel.emit.hide(id) end   -- from every side but the German
  C.record("rg_strength", "9.618", rec, GERMAN_SECRET)
  return rec
end

-- every counter an RG record made (squads or vehicles, SW, leaders), by id
function P.rg_units(rec)
  local out = {}
  for _, id in ipairs(rec.units or {}) do out[#out + 1] = id end
  for _, id in ipairs(rec.made or {}) do out[#out + 1] = id end
  return out
end

-- an RG counter placed on the map (entering, set up) is seen by all [9.617]
kessel.on("event:placed", function(e)
  local u = kessel.units.get(e.unit)
  if u and u.vars.rg and #kessel.units.hidden_from(u.id) > 0 then kessel.emit.show(u.id) end
end)

-- each RG of this CG Date whose counters are not made yet: bought, or given by the Initial
-- Scenario's OB (I1-I3 come with their strength: no Strength DR, but SW and leaders as any) [9.6181]
S.on_end("rg_strength", function()
  local rec = C.copy(purchases())
  for i, r in ipairs(rec) do
    if r.date == C.var("date") and r.units == nil then rec[i] = P.resolve_rg(r, i) end
  end
  if #rec > 0 or kessel.game.var("rg_record") ~= nil then kessel.emit.var("rg_record", rec, GERMAN_SECRET) end
end)

-- [9.619] Fortifications bought with FPP; what is left is forfeit at the end of the step
-- The items that 9.6202 sets up in a Location, with the marker each becomes: the foxholes and the
-- minefields. HIP goes with the units that use it, a "?" is not sold (`P.validate_fort`), and the
-- SAN and Starshell Increases are no counter.
P.SET_UP = { foxhole_3s = "foxhole", foxhole_2s = "foxhole", foxhole_1s = "foxhole", ap_mine = "ap_mine", at_mine = "at_mine" }

-- [9.619] [9.62022] What each item set up in a Location carries: a foxhole its size (the item:
-- 3S/2S/1S, the squads it holds), a minefield its type (the item: A-P or A-T) and its factors (the
-- count), and the Location: its hex, at ground level. An Entrenchment is dug and mines are laid in
-- the ground (B27, B28, outside our text: our reading), so no upper-level or Cellar Location takes
-- one. The PB purchase table has no trench, pillbox (nor its Covered Arc) or wire, and the RB
-- purchase (11.621) is not in our text, so no item here needs more. Before, `buy_fortification`
-- took a `level`, checked the Setup Area at that level and dropped it from the record, so a foxhole
-- bought for the British first level of a hex whose ground level is the German's (the 9.605 EX's
-- Z15) was set up at that ground level, in the German Setup Area.
function P.level_problem(item, level, case)
  if level == nil then return nil end
  if type(level) ~= "number" or level ~= math.floor(level) or level < -1 or level > 100 then
    return C.refuse(case, "level is a Location level, a whole number from -1 (got " .. tostring(level) .. ")")
  end
  if P.SET_UP[item] and level ~= 0 then
    return C.refuse(case, string.format("%s is set up in a ground-level Location (level 0), not at level %d: "
      .. "an Entrenchment is dug and mines are laid in the ground", item, level))
  end
  return nil
end

-- Can the side set up a new Fortification of this item in the Location? [9.62021] [9.62022] it sets
-- up in a Setup Area of its side (one in the enemy's area or in No Man's Land was accepted), an
-- Isolated Setup Area's Locations being Isolated ones; note f: no mines in an Isolated Location —
-- one of an Isolated Setup Area [9.6052], occupied or not, or one holding an Isolated unit (an
-- upper-level Location [9.6057]). Before 9.605 has been played (the "!" steps before a CG Initial
-- Scenario [9.6]) there are no Setup Areas to hold it to.
-- Is the Location an Isolated one for the side? A Location of an Isolated Setup Area [9.6052],
-- occupied or not, or one holding an Isolated unit (an upper-level Location [9.6057]); 9.62021
-- sets these up first and note f bars mines from them
function P.isolated_location(side, hex, level)
  local area = A.area_at(side, hex, level)
  if area ~= nil and area.isolated == true then return true end
  for _, u in ipairs(kessel.units.at(hex)) do
    if u.vars.isolated then return true end
  end
  return false
end

-- [9.62022] a water hex of a Setup Area is no eligible Location: nothing sets up there (`C.enterable`)
function P.water_problem(hex)
  if C.enterable(hex) then return nil end
  return C.refuse("9.62022", tostring(hex) .. " is water: no unit or Fortification sets up there (not an Enterable Location)")
end

function P.location_problem(side, item, hex, level)
  local wet = P.water_problem(hex)
  if wet then return wet end
  if A.stored() and not A.area_at(side, hex, level) then
    return C.refuse("9.62022", hex .. " is in no " .. side .. " Setup Area: a new Fortification sets up in its side's Setup Area")
  end
  if item == "ap_mine" or item == "at_mine" then
    if P.isolated_location(side, hex, level) then
      return C.refuse("9.619", hex .. " is an Isolated Location: mines may not be set up there (note f)")
    end
  end
  return nil
end

-- Why a purchase item the table lists is not sold, or an old name is none (nil: it is sold). The
-- table prices a "?" (item `question_mark`) and 9.602 takes "?" off the map at the next RePh, but
-- our text never says what one buys in the set-up of 9.620: which unit or stack it conceals, in
-- what terrain, seen how by the other side (concealment is A12, outside our text). Refused, so no
-- FPP is spent on a counter nothing places, at purchase and in a scenario's record alike. Its old
-- name `dummy` (the text's Dummy is a Dummy stack or cloaking counter, 9.602) is refused naming
-- the new one, in both CGs' records. Before, a record of `dummy` passed the check.
function P.item_problem(item)
  if item == "dummy" then
    return "`dummy` is no longer an item: the text's \"?\" is item `question_mark` (a Dummy in the text is a Dummy stack or cloaking counter, 9.602)"
  end
  if item == "question_mark" then
    return "a \"?\" (item question_mark) is priced at 1 FPP, but our text does not say what it does in the "
      .. "set-up of 9.620 (which unit or stack it conceals, and where: A12 is outside our text); it is not sold"
  end
  return nil
end

-- the `item` names of the purchase table (word table `fortification_costs`)
P.FORT_ITEMS = { "foxhole_3s", "foxhole_2s", "foxhole_1s", "ap_mine", "at_mine", "question_mark", "hip_squad", "hip_hs", "hip_smc",
  "hip_counter", "san_increase", "starshell_increase" }
function P.validate_fort(a)
  local why = S.only_in("fortifications", "9.619")
  if why then return why end
  local side = a.side
  if side ~= "german" and side ~= "british" then return C.refuse("9.619", "side is german or british") end
  local need = C.missing(a, "9.619", { "item" }, "buy_fortification{ item = <an item of the purchase table>, count = <how many, 1 if left out>, hex = <where, for a Fortification set up in a Setup Area> }")
  if need then return need end
  -- the "?" is named as the text names it, `question_mark`; `dummy`, its old name, is refused
  -- naming the new one (a Dummy in the text is a Dummy stack or cloaking counter [9.602], not this)
  local why_not = P.item_problem(a.item)
  if why_not then return C.refuse("9.619", why_not) end
  local ok, cost = pcall(kessel.tables.cell, "fortification_costs", a.item or "", "cost")
  if not ok then
    return C.refuse("9.619", "no Fortification `" .. tostring(a.item) .. "` on the purchase table (items: "
      .. table.concat(P.FORT_ITEMS, ", ") .. ")")
  end
  local n = a.count or 1
  if type(n) ~= "number" or n < 1 or n ~= math.floor(n) then
    return C.refuse("9.619", "count is a whole number of items, 1 or more (got " .. tostring(a.count) .. ")")
  end
  if a.item == "san_increase" and n > 1 then return C.refuse("9.619", "one SAN Increase per RePh (note e): count 1") end
  if a.hex ~= nil and (type(a.hex) ~= "string" or not kessel.hex.valid(a.hex)) then
    return C.refuse("9.619", "`" .. tostring(a.hex) .. "` is not a hex of this map")
  end
  local lp = P.level_problem(a.item, a.level, "9.619")
  if lp then return lp end
  cost = cost * n
  if kessel.tables.cell("fortification_costs", a.item, "british_only") and side ~= "british" then
    return C.refuse("9.619", "mines are bought by the British only")
  end
  -- note g: the Starshell Increase is a -1 to the British leaders' Starshell dr; a German purchase
  -- would only help the British (our reading: the British buy it)
  if a.item == "starshell_increase" and side ~= "british" then
    return C.refuse("9.619", "the Starshell Increase modifies British leaders' Starshell dr (note g): the British buy it")
  end
  if a.item == "san_increase" then
    for _, f in ipairs(C.fortifications(side)) do
      if f.item == "san_increase" and f.date == C.var("date") then
        return C.refuse("9.619", "one SAN Increase per RePh (note e)")
      end
    end
  end
  -- a hex given with the purchase is where 9.6202 sets it up: checked now as it will be then
  if a.hex and a.item ~= "san_increase" and a.item ~= "starshell_increase" then
    local why = P.location_problem(side, a.item, a.hex, a.level or 0)
    if why then return why end
  end
  if a.item:match("^hip") then
    if side == "german" and C.var("date") == "dusk" then return C.refuse("9.619", "no German HIP in the Dusk CG scenario (note h)") end
    if not tostring(C.var("date")):match("^night") then
      local squads, hip = 0, n
      -- note c counts the side's Retained Infantry squads (a HS is no squad; the RG and
      -- reinforcements of this RePh are counted: "not only purchased"); a squad held prisoner by
      -- the enemy is not Retained by its side (it was counted)
      for _, u in ipairs(kessel.units.all{ side = side, type = "squad" }) do
        if (u.location == "map" or u.location == "pending") and u.step == 0 and not u.vars.prisoner_of then squads = squads + 1 end
      end
      for _, f in ipairs(C.fortifications(side)) do
        if f.item == "hip_squad" and f.date == C.var("date") then hip = hip + (f.count or 1) end
      end
      -- FRU: Fractions Rounded Up (11 squads allow 2)
      local limit = math.ceil(squads / 10)
      if a.item == "hip_squad" and hip > limit then
        return C.refuse("9.619", string.format("HIP for at most 10%% (FRU) of %d Retained squads in daytime: %d (note c)", squads, limit))
      end
    end
  end
  local fpp = C.fpp(side)
  if cost > fpp then return C.refuse("9.619", string.format("%s costs %s FPP; %s left", a.item, C.num(cost), C.num(fpp))) end
  return nil, cost
end

-- A secret action: the other side sees that a purchase was made, not what (nor the FPP left);
-- the SAN and Starshell Increases show by their effect (the SAN, `starshell_drm`)
kessel.action{
  kind = "buy_fortification", rule = "9.619", description = "spend FPP on a Fortification (or SAN/Starshell increase)",
  secret = true,
  validate = function(a) return (P.validate_fort(a)) end,
  apply = function(a)
    local _, cost = P.validate_fort(a)
    local secret = { secret_to = a.side }
    C.set_fpp(a.side, C.fpp(a.side) - cost)
    local list = C.copy(C.fortifications(a.side))
    list[#list + 1] = { side = a.side, item = a.item, count = a.count or 1, hex = a.hex, cost = cost, date = C.var("date") }
    kessel.emit.var("fortifications_" .. a.side, list, secret)
    if a.item == "san_increase" then C.set_in("san", a.side, C.get_in("san", a.side, 0) + 1) end
    if a.item == "starshell_increase" then kessel.emit.var("starshell_drm", P.starshell_drm()) end
    C.note("9.619", string.format("%s buys %s x%d for %s FPP (%s left)", a.side, a.item, a.count or 1, C.num(cost), C.num(C.fpp(a.side))), secret)
  end,
  enumerate = function(side)
    local s = S.current()
    if not s or s.id ~= "fortifications" then return {} end
    local out = {}
    for _, sd in ipairs(side and { side } or C.sides()) do
      for _, item in ipairs({ "foxhole_1s", "ap_mine" }) do
        local a = { kind = "buy_fortification", side = sd, item = item }
        if P.validate_fort(a) == nil then out[#out + 1] = a end
      end
    end
    return out
  end,
}

-- [9.619] note g: each Starshell Increase bought this RePh is a -1 drm to the British leaders'
-- Starshell dr for the next CG scenario (no note limits them to one, as note e does the SAN
-- Increase); one bought in an earlier RePh is spent
function P.starshell_drm()
  local n = 0
  for _, f in ipairs(C.fortifications("british")) do
    if f.item == "starshell_increase" and f.date == C.var("date") then n = n + (f.count or 1) end
  end
  return n > 0 and -n or nil
end

S.on_end("fortifications", function()
  if kessel.game.var("starshell_drm") ~= P.starshell_drm() then
    kessel.emit.var("starshell_drm", P.starshell_drm())
    C.note("9.619", "the Starshell Increase of the last CG scenario is spent (note g)")
  end
  for _, side in ipairs(C.sides()) do
    local left = C.fpp(side)
    if left > 0 then C.note("9.619", side .. " forfeits " .. C.num(left) .. " unspent FPP", { secret_to = side }) end
    if left ~= 0 or kessel.game.var("fpp_" .. side) ~= nil then C.set_fpp(side, 0) end
  end
end)

return P
