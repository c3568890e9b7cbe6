-- RePh steps 9.610 Wounded Leaders and Walking Wounded, 9.611 Recombining and Battle Hardening
-- (PB); 11.610 Wounded Leaders and 11.611 Battle Hardening and Promotion (RB).
local C = require("rules.common")
local S = require("rules.sequence")
local A = require("rules.areas")
local H = {}

kessel.dice_table{ id = "wounded_pb", rule = "9.6101", bands = { { -5, "unwounded" }, { 2, "wounded" }, { 5, "eliminated" } } }
kessel.dice_table{ id = "wounded_rb", rule = "11.610", bands = { { -5, "wounded" }, { 3, "eliminated" } } }
kessel.dice_table{ id = "mmc_hardening_rb", rule = "11.6112", bands = { { -20, "5" }, { 0, "4" }, { 1, "3" }, { 2, "2" }, { 4, "1" }, { 6, "0" } } }
kessel.dice_table{ id = "leader_hardening_german", rule = "11.6113", bands = { { -20, "10-2" }, { 3, "9-2" }, { 4, "9-1" },
  { 5, "8-1" }, { 6, "8-0" }, { 8, "7-0" }, { 10, "6+1" } } }
kessel.dice_table{ id = "leader_hardening_russian", rule = "11.6113", bands = { { -20, "10-2" }, { 3, "9-2" }, { 4, "9-1" },
  { 5, "9-0" }, { 6, "8-1" }, { 7, "8-0" }, { 9, "7-0" }, { 11, "6+1" } } }

-- a unit its side Retains: in play, and not held prisoner by the enemy (a prisoner an Isolated
-- Guard kept in 9.608 is the Guard's: no wound dr for its side in PB, no Battle Hardening, no count
-- in the leader ratio [9.6101] [9.6112] [9.6113] [11.6112]-[11.6114]; before, a heroic leader held
-- prisoner Battle Hardened and a wounded one rolled)
local function retained(u) return (u.location == "map" or u.location == "pending") and not u.vars.prisoner_of end
local function retained_units(filter)
  local out = {}
  for _, u in ipairs(kessel.units.all(filter)) do if retained(u) then out[#out + 1] = u end end
  return out
end
local function area_of(u)
  return (u.vars.reph and u.vars.reph.area) or u.setup_area or u.enter_area or "none"
end
local rb_isolated_area = C.isolated_area
-- where a Hero's Battle Hardening must stay: his Setup/Entry Area [9.6112]; his Isolated Area, if
-- he is in one [11.6112] (a non-Isolated RB Hero may harden any MMC: "if applicable", a reading)
local function hero_area(u)
  if C.pb() then return area_of(u) end
  return rb_isolated_area(u)
end
H.area_of = area_of

-- [9.6101] [11.610] a dr per wounded Retained leader
local function wounded_leaders(case)
  -- PB: "each currently wounded Retained leader" [9.6101]; RB: "each currently Wounded leader"
  -- [11.610], a prisoner too (the RB text does not say Retained: read as written)
  local list = retained_units{}
  if not C.pb() then
    list = {}
    for _, u in ipairs(kessel.units.all{}) do if u.location == "map" or u.location == "pending" then list[#list + 1] = u end end
  end
  for _, l in ipairs(list) do
    -- an armor leader is a leader as well ("each currently wounded leader")
    if C.is_leader(l) and l.vars.wounded then
      local m = C.mods()
      if l.vars.isolated then m.add(1, "Isolated") end
      if C.pb() and l.vars.heroic then m.add(-1, "Heroic") end
      if C.pb() and l.side == "british" then m.add(-1, "British") end
      local drm = m.drm
      local roll = C.dr("wounded")
      local result = kessel.tables.lookup(C.pb() and "wounded_pb" or "wounded_rb", roll + drm)
      C.record("wounded", case, { unit = l.id, dr = roll, drm = drm, result = result })
      C.note(case, string.format("%s (wounded): dr %d%+d: %s%s", l.id, roll, drm, result, m.text()))
      if result == "unwounded" then kessel.emit.unit_var(l.id, "wounded", nil)
      elseif result == "eliminated" then C.eliminate(l.id, case, l.vars.isolated and "died of wounds" or "evacuated") end
    end
  end
end

-- [9.6102] the Walking Wounded MMC recovered (CG SSR 17: scenario data) go to a non-Isolated
-- British Setup Area; they count as British CVP lost for 9.6162
local function walking_wounded()
  local n = C.var("walking_wounded", 0)
  if n <= 0 then return end
  -- with no non-Isolated British Setup Area to place them in, they wait off-map to enter at Z28,
  -- as the reinforcements of 9.6152 Note 1 do (our reading: 9.6102 names no other place), Retained
  -- in that Entry Area. Before, they were made off-map with no area at all: Retained nowhere, so no
  -- Recombining, Hero's choice or Shift could find them
  local at = A.british_arrival()
  for i = 1, n do
    -- Retained in that Setup Area like its other units (Recombining, a Hero's choice, a Shift)
    local id = kessel.emit.create_unit{ side = "british", type = "squad", faces = C.squad_faces("6-4-8", "british"), at = at.hex,
      vars = { ww = true, squad_face = "6-4-8", airborne = true,
        reph = { status = "retained", area = at.area or at.entry, why = "9.6102", any_area = at.area and "9.6102" or nil } } }
    -- within the stacking limit where a non-Isolated British Setup Area has room [A5.1]
    local over = at.area and require("rules.reinforcements").place_with_room(id, at.area)
    local u = kessel.units.get(id)
    C.note("9.6102", id .. " (Walking Wounded 6-4-8) is recovered" .. (at.hex and (" into " .. u.hex .. " (Setup Area " .. u.vars.reph.area .. ")"
      .. (over and ", over the stacking limit: no non-Isolated British Setup Area has room for it (A5.1)" or ""))
      or " off-map, to enter at Z28 (no non-Isolated British Setup Area to place it in: the Eligible Entry Hex of 9.6152 Note 1, our reading)"))
  end
  C.set_in("cvp_lost", "british", C.get_in("cvp_lost", "british", 0) + 2 * n)
  C.note("9.6102", (2 * n) .. " CVP are added to the British losses for 9.6162")
end

S.on_end("wounded", function()
  wounded_leaders(C.pb() and "9.6101" or "11.610")
  if C.pb() then walking_wounded() end
end)

-- Battle Hardening of one MMC [9.6112] [11.6112]: better faces from the data, or Fanatic if elite.
-- RB: "In all cases, an Elite MMC (deleted by errata) that Battle Hardens becomes Fanatic": with
-- "Elite" deleted, every MMC that Battle Hardens in the RB RePh is Fanatic for the next scenario,
-- a non-elite one after taking its better face (our reading of the errata mark)
function H.harden_mmc(u, case)
  local face = C.squad_face(u) or C.face_label(u)
  local data = C.squad_data(u.side, face) or {}
  local to, elite = data.hardens_to, data.elite
  kessel.emit.unit_var(u.id, "hardened_reph", true)
  if elite or not to then
    kessel.emit.unit_var(u.id, "fanatic_next", true)
    C.note(case, u.id .. " (" .. face .. ") Battle Hardens: Fanatic for the next CG scenario")
    return
  end
  kessel.emit.change_unit(u.id, { faces = C.squad_faces(to, u.side) })
  kessel.emit.unit_var(u.id, "squad_face", to)
  kessel.emit.unit_var(u.id, "battle_hardened", true)
  if C.pb() then
    C.note(case, u.id .. " Battle Hardens from " .. face .. " to " .. to)
  else
    kessel.emit.unit_var(u.id, "fanatic_next", true)
    C.note(case, u.id .. " Battle Hardens from " .. face .. " to " .. to .. " and is Fanatic for the next CG scenario (in all cases: \"Elite\" deleted by errata)")
  end
end

-- candidates for Battle Hardening: Retained non-crew Infantry MMC not yet hardened this RePh,
-- best first (not elite, then a known better face), in id order
function H.candidates(side, area, isolated_area)
  local out = {}
  for _, u in ipairs(retained_units{ side = side, type = "squad" }) do
    if not u.vars.hardened_reph and (area == nil or area_of(u) == area) and not u.vars.prisoner_of
      and (isolated_area == nil or rb_isolated_area(u) == isolated_area) then
      out[#out + 1] = u
    end
  end
  local function score(u)
    local d = C.squad_data(u.side, C.squad_face(u)) or {}
    if d.elite then return 2 end
    return d.hardens_to and 0 or 1
  end
  table.sort(out, function(a, b)
    if score(a) ~= score(b) then return score(a) < score(b) end
    return a.id < b.id
  end)
  return out
end

-- [9.6111] [11.6111] recombining HS
local function mtr_allowance(side)
  local n = 0
  for _, w in ipairs(retained_units{ side = side, type = "sw" }) do
    if w.face and tostring(w.face.weapon):match("MTR") then n = n + 1 end
  end
  return n
end

-- the HS a Recombining removed this step, each to the squad it became (a Hero's choice of either
-- HS is that squad)
H.merged = {}

function H.recombine(case)
  H.merged = {}
  for _, side in ipairs(C.sides()) do
    local groups, keys = {}, {}
    local keep_allowed = C.pb() and mtr_allowance(side) or 0
    for _, u in ipairs(retained_units{ side = side, type = "squad" }) do
      if u.step == 1 and not u.vars.prisoner_of then
        -- RB: an Isolated HS Recombines only with Isolated HS allowed to set up in the same Isolated
        -- Location(s) [11.6111]: those of its listed Isolated Area (C.isolated_area; else its hex)
        local where = C.pb() and area_of(u) or (u.vars.isolated and ("iso:" .. tostring(rb_isolated_area(u))) or "retained")
        local key = where .. "|" .. C.face_label(u) .. "|" .. tostring(u.vars.ww == true)
        if u.vars.keep_hs and keep_allowed > 0 then
          keep_allowed = keep_allowed - 1
          C.note(case, u.id .. " stays a HS (one per MTR Retained)")
        else
          if not groups[key] then groups[key] = {}; keys[#keys + 1] = key end
          table.insert(groups[key], u)
        end
      end
    end
    for _, key in ipairs(keys) do
      local g = groups[key]
      for i = 1, #g - 1, 2 do
        local kept, gone = g[i].id, g[i + 1].id
        kessel.emit.step(kept, 0)
        -- what the removed HS held (its SW, the prisoners it Guards [9.608]) is the squad's, in
        -- the squad's Location: the two HS of one area may stand apart, and the SW stayed behind,
        -- possessed from another hex, and the prisoners Guarded by a unit out of play
        local held = C.carried(gone)
        kessel.emit.remove(gone)
        H.merged[gone] = kept
        for _, w in ipairs(held) do
          if w.vars.possessed_by == gone then kessel.emit.unit_var(w.id, "possessed_by", kept) end
          if w.vars.guarded_by == gone then kessel.emit.unit_var(w.id, "guarded_by", kept) end
        end
        C.follow(g[i])
        local level = C.level(g[i])
        for _, w in ipairs(held) do
          if C.level(w) ~= level then kessel.emit.unit_var(w.id, "level", level ~= 0 and level or nil) end
        end
        C.note(case, g[i].id .. " and " .. g[i + 1].id .. " Recombine into a squad (" .. C.face_label(kessel.units.get(g[i].id)) .. ")")
      end
    end
  end
end

kessel.action{
  kind = "keep_hs", rule = "9.6111", description = "keep a HS apart (one per MTR Retained)",
  validate = function(a)
    -- the MTR exception is PB's [9.6111]; RB's recombining has none [11.6111]
    if not C.pb() then return C.refuse("11.6111", "every same HS type Recombines in RB: no HS is kept apart for a MTR") end
    local why = S.only_in("hardening", "9.6111")
    if why then return why end
    local need = C.missing(a, "9.6111", { "unit" }, "keep_hs{ unit = <a Retained half-squad> }")
    if need then return need end
    local u = C.unit(a.unit, a.side)
    if not u or not C.is_hs(u) then return C.refuse("9.6111", "that is not a half-squad") end
    if not retained(u) then return C.refuse("9.6111", C.not_retained(a.unit, u)) end
    local theirs = C.not_owner(a, u, "9.6111")
    if theirs then return theirs end
    local kept = 0
    for _, o in ipairs(kessel.units.all{ side = u.side }) do if o.vars.keep_hs then kept = kept + 1 end end
    if kept >= mtr_allowance(u.side) then return C.refuse("9.6111", "one HS per MTR Retained: no MTR left to allow it") end
  end,
  apply = function(a) kessel.emit.unit_var(a.unit, "keep_hs", true) end,
}

-- [9.6112] a hero's owner picks the MMC it hardens (else the first candidate is taken)
kessel.action{
  kind = "hero_harden", rule = "9.6112", description = "choose the MMC a Hero's Elimination Battle Hardens",
  validate = function(a)
    local case = C.pb() and "9.6112" or "11.6112"
    local why = S.only_in("hardening", case)
    if why then return why end
    local need = C.missing(a, case, { "hero", "unit" }, "hero_harden{ hero = <the Retained Hero>, unit = <the friendly MMC it Battle Hardens> }")
    if need then return need end
    local h, u = C.unit(a.hero, a.side), C.unit(a.unit, a.side)
    if not h or h.type ~= "hero" or not retained(h) then return C.refuse(case, "no such Retained Hero") end
    local theirs = C.not_owner(a, h, case)
    if theirs then return theirs end
    if not u or u.type ~= "squad" or u.side ~= h.side then return C.refuse(case, "a friendly non-crew MMC is hardened") end
    -- one no longer in play, or held prisoner, was accepted and then passed over at the step's end
    if not retained(u) then return C.refuse(case, a.unit .. " is no MMC the " .. h.side .. " Retains") end
    if u.vars.hardened_reph then return C.refuse(case, "no MMC Battle Hardens more than once per RePh") end
    for _, o in ipairs(retained_units{ type = "hero", side = h.side }) do
      if o.id ~= h.id and o.vars.hardens == u.id then
        return C.refuse(case, "no MMC Battle Hardens more than once per RePh: " .. o.id .. " hardens " .. u.id)
      end
    end
    if C.pb() and area_of(u) ~= area_of(h) then return C.refuse("9.6112", "the MMC must be in the Hero's Setup/Entry Area") end
    if not C.pb() and hero_area(h) and rb_isolated_area(u) ~= hero_area(h) then
      return C.refuse("11.6112", "the Hero is in an Isolated Area: the MMC must be in that same Isolated Area")
    end
  end,
  -- the choice is carried out as the step ends, after Recombining [9.6111] [11.6111]: a HS chosen
  -- that recombines is the squad it becomes
  apply = function(a)
    local case = C.pb() and "9.6112" or "11.6112"
    kessel.emit.unit_var(a.hero, "hardens", a.unit)
    C.note(case, a.hero .. " will Battle Harden " .. a.unit .. " as the step ends (after Recombining, " .. (C.pb() and "9.6111" or "11.6111") .. ")")
  end,
}

function H.heroes(case)
  for _, h in ipairs(retained_units{ type = "hero" }) do
    local cands = H.candidates(h.side, C.pb() and area_of(h) or nil, (not C.pb()) and hero_area(h) or nil)
    -- the owner's choice, if still an MMC the Hero may harden (a recombined HS: the squad it became)
    local chosen = h.vars.hardens and (H.merged[h.vars.hardens] or h.vars.hardens)
    if chosen then
      kessel.emit.unit_var(h.id, "hardens", nil)
      local pick
      for i, u in ipairs(cands) do if u.id == chosen then pick = i end end
      if pick then
        table.insert(cands, 1, table.remove(cands, pick))
      else
        C.note(case, h.id .. "'s choice " .. chosen .. " may no longer Battle Harden: the first candidate is taken")
      end
    end
    if #cands == 0 and C.pb() then
      C.note(case, h.id .. " (Hero) is Retained: no MMC to Battle Harden")
    elseif #cands == 0 then
      -- RB has no exception for a Hero with no MMC to harden, unlike 9.6112 [11.6112]
      C.eliminate(h.id, case, "a Retained Hero; no MMC for him to Battle Harden")
    else
      H.harden_mmc(cands[1], case)
      C.eliminate(h.id, case, "a Retained Hero, Battle Hardening " .. cands[1].id)
    end
  end
end

-- a leader Battle Hardens one grade (9-0 always to 10-0, 8-1 to 9-1 [11.6113])
function H.harden_leader(l, case)
  local label = l.face.label
  if (label == "10-3" or label == "10-0") and l.vars.heroic then
    C.note(case, l.id .. " (" .. label .. ") loses his heroic status with no other effect")
  elseif label == "10-3" or label == "10-0" then
    -- chosen by the DR or as the lowest-grade leader, he has no grade to harden to
    C.note(case, l.id .. " (" .. label .. ") is not Battle Hardened further: no change")
  else
    local to = kessel.game.constant("leader_hardens_to")[label]
    if to then
      kessel.emit.change_unit(l.id, { faces = { C.leader_face(to) } })
      C.note(case, l.id .. " Battle Hardens from " .. label .. " to " .. to)
    else
      -- said, rather than passed over in silence: the GM hardens him by hand (A15.3)
      C.note(case, l.id .. " (" .. tostring(label) .. ") Battle Hardens, but the ruleset's data (leader_hardens_to) know no grade above "
        .. tostring(label) .. ": harden him by hand")
    end
  end
  if l.vars.heroic then kessel.emit.unit_var(l.id, "heroic", nil) end
end

local function heroic_leaders(case)
  for _, l in ipairs(retained_units{ type = "leader" }) do
    if l.vars.heroic then H.harden_leader(l, case) end
  end
end

S.on_end("hardening", function()
  if C.pb() then
    H.recombine("9.6111")
    H.heroes("9.6112")
    heroic_leaders("9.6113")
  else
    H.recombine("11.6111")
    H.heroes("11.6112")
    H.rb_mmc_hardening()
    heroic_leaders("11.6113")
    H.rb_leader_hardening()
  end
  -- both are this RePh's: a HS kept apart for a MTR [9.6111] is chosen again in the next one
  for _, u in ipairs(kessel.units.all()) do
    if u.vars.hardened_reph then kessel.emit.unit_var(u.id, "hardened_reph", nil) end
    if u.vars.keep_hs then kessel.emit.unit_var(u.id, "keep_hs", nil) end
  end
end)

-- [11.6112] one secret DR per side: how many Retained Infantry non-crew MMC Battle Harden
function H.rb_mmc_hardening()
  local winner = C.var("scenario_winner")
  for _, side in ipairs(C.sides()) do
    local drm, mods = 0, {}
    local function add_mod(d, why) if d ~= 0 then drm = drm + d; mods[#mods + 1] = string.format("%+d %s", d, why) end end
    if winner == side then add_mod(-3, "won the scenario") end
    if side == "russian" then add_mod(-1, "Russian") end
    -- CVP amassed by a side are the CVP its enemy lost in the scenario (A26.2): var `cvp_amassed`
    -- when the players give it, else the other side's `cvp_lost`
    local amassed = C.get_in("cvp_amassed", side, nil) or C.get_in("cvp_lost", C.other(side), 0)
    add_mod(-math.floor(amassed / 20), amassed .. " CVP amassed")
    -- a Secret DR: the other side reads that it was made, and sees the hardened MMC themselves
    local secret = { secret_to = side }
    local roll = C.DR("mmc_hardening", secret)
    local n = tonumber(kessel.tables.lookup("mmc_hardening_rb", roll + drm))
    C.record("mmc_hardening", "11.6112", { side = side, dr = roll, drm = drm, count = n }, secret)
    C.note("11.6112", side .. " makes its Secret MMC Battle Hardening DR")
    C.note("11.6112", string.format("%s MMC Battle Hardening DR %d%+d = %d%s: %d MMC", side, roll, drm, roll + drm,
      #mods > 0 and (" (" .. table.concat(mods, ", ") .. ")") or "", n), secret)
    -- the DR gives how many MMC are "eligible"; which ones is the owner's: those he named with
    -- `harden_order` first, in his order (each still one that may harden), then the default order
    local cands = H.candidates(side)
    local wanted = (kessel.game.var("harden_order") or {})[side] or {}
    local picked, seen = {}, {}
    for _, id in ipairs(wanted) do
      local target = H.merged[id] or id
      for _, u in ipairs(cands) do
        if u.id == target and not seen[u.id] then picked[#picked + 1] = u; seen[u.id] = true end
      end
    end
    for _, u in ipairs(cands) do if not seen[u.id] then picked[#picked + 1] = u end end
    for i = 1, math.min(n, #picked) do H.harden_mmc(picked[i], "11.6112") end
  end
  if kessel.game.var("harden_order") ~= nil then kessel.emit.var("harden_order", nil) end
end

-- [11.6112] the owner names the MMC he wants Battle Hardened, best first, before the DR says how
-- many may: `harden_order{ units = { ids } }` in RePh step 11.611 (his Retained Infantry non-crew
-- MMC; a HS that Recombines stands for the squad it becomes). Those the DR allows harden in that
-- order; if he names fewer, the rest are taken in the default order (H.candidates).
kessel.action{
  kind = "harden_order", rule = "11.6112", description = "name, best first, the MMC the RB Battle Hardening DR is to harden",
  validate = function(a)
    if C.pb() then return C.refuse("9.6112", "PB has no Battle Hardening DR: a Hero's Elimination hardens an MMC (hero_harden)") end
    local why = S.only_in("hardening", "11.6112")
    if why then return why end
    local need = C.missing(a, "11.6112", { "units" }, "harden_order{ units = { <the friendly MMC to harden, best first> } }")
    if need then return need end
    if type(a.units) ~= "table" or #a.units == 0 then return C.refuse("11.6112", "units is a list of MMC ids, best first") end
    if C.repeated(a.units) then return C.refuse("11.6112", C.repeated(a.units) .. " is named twice") end
    for _, id in ipairs(a.units) do
      local u = C.unit(id, a.side)
      if not u then return C.refuse("11.6112", tostring(id) .. " is not Retained: no unit of that id is in play") end
      local theirs = C.not_owner(a, u, "11.6112")
      if theirs then return theirs end
      if u.type ~= "squad" then return C.refuse("11.6112", u.id .. " is no Infantry non-crew MMC") end
      local first = C.unit(a.units[1], a.side)
      if u.side ~= first.side then return C.refuse("11.6112", "one side's MMC: " .. u.id .. " is " .. u.side .. ", " .. first.id .. " " .. first.side) end
      if not retained(u) then return C.refuse("11.6112", u.id .. " is no MMC its side Retains") end
      if u.vars.hardened_reph then return C.refuse("11.6112", "no MMC Battle Hardens more than once per RePh: " .. u.id) end
    end
  end,
  apply = function(a)
    local side = kessel.units.get(a.units[1]).side
    local order = C.copy(kessel.game.var("harden_order") or {})
    order[side] = C.copy(a.units)
    kessel.emit.var("harden_order", order)
    C.note("11.6112", side .. " names the MMC to Battle Harden, best first: " .. table.concat(a.units, ", "))
  end,
}

-- [11.6113] one secret DR per side on its column; the leader rolled hardens if Retained, else the
-- lowest-grade Retained unwounded leader. [11.6114] a side that promoted rolls nothing.
function H.rb_leader_hardening()
  local winner = C.var("scenario_winner")
  local order = { "6+1", "7-0", "8-0", "8-1", "9-0", "9-1", "9-2", "10-0", "10-1", "10-2", "10-3" }
  local rank = {}
  for i, l in ipairs(order) do rank[l] = i end
  for _, side in ipairs(C.sides()) do
    if C.get_in("promoted", side) == C.var("date") then
      C.note("11.6114", side .. " promoted out of the ranks: no leader Battle Hardening DR")
    else
      local secret = { secret_to = side }
      local roll = C.DR("leader_hardening", secret)
      C.note("11.6113", side .. " makes its Secret leader Battle Hardening DR")
      local leaders = retained_units{ side = side, type = "leader" }
      local function outcome(drm)
        local want = kessel.tables.lookup("leader_hardening_" .. side, roll + drm)
        local pick
        for _, l in ipairs(leaders) do if l.face.label == want and not pick then pick = l end end
        return want, pick
      end
      -- the winner's -2 may, after the DR, be ignored or taken as -1: the owner's choice (var
      -- `leader_hardening_drm`), by default the one that hardens the best Retained leader rolled
      local drm = 0
      if winner == side then
        local chosen = C.var("leader_hardening_drm", {})[side]
        if chosen == 0 or chosen == -1 or chosen == -2 then drm = chosen
        else
          drm = -2
          local best
          for _, d in ipairs({ -2, -1, 0 }) do
            local _, p = outcome(d)
            if p and (best == nil or (rank[p.face.label] or 0) > best) then best, drm = rank[p.face.label] or 0, d end
          end
        end
        if drm ~= -2 then C.note("11.6113", string.format("%s (the winner) applies %d of the -2 DRM, after the DR", side, drm), secret) end
      end
      local want, pick = outcome(drm)
      local lowest
      for _, l in ipairs(leaders) do
        if not l.vars.wounded and (lowest == nil or (rank[l.face.label] or 0) < (rank[lowest.face.label] or 0)) then lowest = l end
      end
      C.record("leader_hardening", "11.6113", { side = side, dr = roll, drm = drm, rolled = want, leader = (pick or lowest or {}).id }, secret)
      C.note("11.6113", string.format("%s leader Battle Hardening DR %d%+d = %d%s: %s%s", side, roll, drm, roll + drm,
        drm ~= 0 and " (won the scenario)" or "", want,
        pick and "" or (lowest and (" not Retained; the lowest-grade leader " .. lowest.id .. " hardens") or ", no leader Retained")), secret)
      if pick or lowest then H.harden_leader(pick or lowest, "11.6113") end
    end
  end
end

-- [11.6114] promotion out of the ranks, in lieu of the leader DR
kessel.action{
  kind = "promote", rule = "11.6114", description = "exchange an 8-0 for two 7-0s, or an 8-1 for an 8-0 and a 7-0",
  validate = function(a)
    if C.pb() then return C.refuse("11.6114", "promotion out of the ranks is a Red Barricades rule") end
    local why = S.only_in("hardening", "11.6114")
    if why then return why end
    local need = C.missing(a, "11.6114", { "leader" }, "promote{ leader = <a Retained 8-0 or 8-1> }")
    if need then return need end
    local l = C.unit(a.leader, a.side)
    if not l or l.type ~= "leader" or not retained(l) then return C.refuse("11.6114", "no such Retained leader") end
    local theirs = C.not_owner(a, l, "11.6114")
    if theirs then return theirs end
    if l.vars.isolated or l.vars.wounded then return C.refuse("11.6114", "the leader must be non-Isolated and unwounded") end
    if l.face.label ~= "8-0" and l.face.label ~= "8-1" then return C.refuse("11.6114", "only an 8-0 or an 8-1 is exchanged") end
    -- a heroic leader Battle Hardens first [11.6113]: by then he is no longer an 8-0 or 8-1
    if l.vars.heroic then return C.refuse("11.6114", l.id .. " is heroic: he Battle Hardens (11.6113) before any promotion, and is then no 8-0 or 8-1") end
    -- the mark holds the CG Day of this RePh's 11.611 (a campaign carrying it does not bar the next RePh)
    if C.get_in("promoted", l.side) == C.var("date") then return C.refuse("11.6114", "one promotion per RePh") end
    local leaders, se = 1, 0
    for _, u in ipairs(retained_units{ side = l.side }) do
      if u.type == "leader" then leaders = leaders + 1 end
      se = se + C.hs_equiv(u) / 2
    end
    local per = l.side == "german" and 4 or 8
    if leaders > se / per then
      return C.refuse("11.6114", string.format("%d leaders for %.1f squad-equivalents is more than one per %d", leaders, se, per))
    end
  end,
  apply = function(a)
    local l = kessel.units.get(a.leader)
    local new = l.face.label == "8-0" and { "7-0", "7-0" } or { "8-0", "7-0" }
    kessel.emit.change_unit(l.id, { faces = { C.leader_face(new[1]) } })
    -- the second leader is Retained where the first is (the Retained box, as a rule, after 11.607)
    local id = kessel.emit.create_unit{ side = l.side, type = "leader", faces = { C.leader_face(new[2]) }, at = l.hex,
      vars = { reph = l.vars.reph and C.copy(l.vars.reph) or nil, level = l.vars.level } }
    C.set_in("promoted", l.side, C.var("date"))
    C.note("11.6114", l.id .. " (" .. l.face.label .. ") is exchanged for a " .. new[1] .. " and " .. id .. " (" .. new[2] .. ")")
  end,
}

return H
