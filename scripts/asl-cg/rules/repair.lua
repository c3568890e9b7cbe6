-- RePh step 9.614 Equipment Repair and Replenishment (PB), 11.613 (RB).
-- Weapons (sw, gun) have faces { weapon, pp, repair } and vars malfunctioned, captured,
-- vehicular, nonqualified, depleted = { ammo types }; vehicles vars immobile, recall, stun, ...
local C = require("rules.common")
local S = require("rules.sequence")
local A = require("rules.areas")
local R = {}

kessel.dice_table{ id = "immobile_repair", rule = "9.6141", bands = { { -10, "mobile" }, { 3, "no_change" } } }
kessel.dice_table{ id = "stun_recovery", rule = "9.6141", bands = { { -10, "recover" }, { 3, "retain" }, { 6, "eliminated" } } }
kessel.dice_table{ id = "weapon_repair_pb", rule = "9.6142", bands = { { -10, "repaired" }, { 2, "eliminated" } } }
kessel.dice_table{ id = "weapon_repair_rb", rule = "11.6132", bands = { { -10, "repaired" }, { 3, "eliminated" } } }
kessel.dice_table{ id = "special_ammo", rule = "9.61424", bands = { { -10, "restored" }, { 4, "depleted" } } }

local function retained(u) return u.location == "map" or u.location == "pending" end
local function weapons()
  local out = {}
  for _, u in ipairs(kessel.units.all()) do
    -- a Weapon mounted on a wreck is no Weapon of a side to repair or roll for [9.6142] [11.6132]
    local on = u.vars.mounted_on and kessel.units.get(u.vars.mounted_on)
    -- nor is Equipment no side Retains, left in No Man's Land by 11.607 [11.6072] (RB)
    if (u.type == "sw" or u.type == "gun" or C.vehicular(u)) and retained(u) and not (on and C.is_wreck(on))
      and not A.rb_unretained(u) then
      out[#out + 1] = u
    end
  end
  return out
end

-- [11.6131] RB: a Mobile AFV on the map that is not Isolated goes to the Retained box (as in 11.607)
local function rb_clear(v, case)
  v = kessel.units.get(v.id)
  if C.pb() or v.location ~= "map" or v.vars.isolated or v.vars.immobile or v.vars.bogged then return end
  kessel.emit.withdraw(v.id)
  kessel.emit.unit_var(v.id, "reph", { status = "retained", area = "retained_box", why = case })
  -- its mounted Weapons and the armor leader in it go with it, as in 11.607 (they stayed on the
  -- map, in the hex it left)
  local with = C.carried(v.id)
  C.follow(v)
  for _, w in ipairs(with) do kessel.emit.unit_var(w.id, "reph", { status = "retained", area = "retained_box", why = case }) end
  C.note(case, v.id .. " is Mobile and not Isolated: cleared from the map to the Retained box"
    .. (#with > 0 and (" with " .. table.concat((function() local t = {} for _, w in ipairs(with) do t[#t + 1] = w.id end return t end)(), ", ")) or ""))
end

-- [9.6141c] PB: a Mobile, non-Isolated Retained AFV under Recall is Eliminated; a Mobile Isolated
-- one begins the next scenario under Recall, with Ammunition Shortage
local function pb_recall(v, case)
  v = kessel.units.get(v.id)
  if not v.vars.recall or v.vars.immobile or v.location == "eliminated" then return end
  if v.vars.isolated then
    kessel.emit.unit_var(v.id, "ammo_shortage", true)
    C.note(case, v.id .. " is Isolated and stays under Recall (Ammunition Shortage)")
  else
    C.eliminate(v.id, case, "under Recall", { with_crew = true })
  end
end

-- [9.6141b] PB names a "Front-Line hex" without defining it (RB's Front Line is its Perimeter's
-- edge [11.605]); our reading, when the vehicle var `front_line` does not say: a hex of a friendly
-- Setup Area next to a No-Man's-Land hex or a hex of the enemy's Setup Area (the edge the two
-- sides face each other across). Before, without the var the +1 was never applied.
function R.pb_front_line(v)
  if v.location ~= "map" then return false end
  local st = kessel.game.var("setup_areas")
  if not (st and st.hexes) or st.hexes[v.hex] ~= v.side then return false end
  for _, n in ipairs(kessel.hex.neighbors(v.hex)) do
    local c = st.hexes[n]
    if c == "nml" or c == C.other(v.side) then return true end
  end
  return false
end

-- a vehicle's repair steps [9.6141] / [11.6131]
function R.vehicles(case)
  if not C.pb() then
    -- RB has the Shock/UK and Bog steps here, not in 11.604 [11.6131]
    local E = require("rules.encirclement")
    local afv = {}
    for _, v in ipairs(kessel.units.all{ type = "vehicle" }) do if retained(v) and not v.vars.wreck then afv[#afv + 1] = v end end
    E.shock(case, afv)
    local bogged = {}
    for _, v in ipairs(afv) do
      v = kessel.units.get(v.id)
      if v.location ~= "eliminated" and v.vars.bogged then bogged[#bogged + 1] = v end
    end
    E.bog(case, bogged)
    for _, v in ipairs(bogged) do rb_clear(v, case) end
  end
  local Ar = require("rules.areas")
  for _, v in ipairs(kessel.units.all{ type = "vehicle" }) do
    -- PB: "for each vehicle in a friendly-Setup/Eligible-Entry Area" [9.6141] (off-map in an Entry
    -- Area, or in a friendly Setup Area; not one left in No Man's Land or Uncontrolled Territory)
    local in_area = not C.pb() or v.location == "pending" or Ar.stored() == nil
      or (v.location == "map" and Ar.area_at(v.side, v.hex, C.level(v)) ~= nil)
    if retained(v) and not v.vars.wreck and in_area then
      -- PB repairs a non-captured vehicle only [9.6141b]; RB names every manned AFV in a
      -- friendly-Controlled Location, a Captured one (remanned, so not abandoned) too [11.6131]
      if v.vars.immobile and not (C.pb() and v.vars.captured) and not v.vars.abandoned then
        local m = C.mods()
        if v.vars.isolated then m.add(1, "Isolated") end
        if v.vars.nonqualified then m.add(1, "only Non-Qualified Use") end
        if C.pb() then
          local front = v.vars.front_line
          if front == nil then front = R.pb_front_line(v) end
          if front then m.add(1, "in a Front-Line hex" .. (v.vars.front_line == nil and " (its Setup Area's edge, next to No Man's Land or the enemy's area)" or "")) end
        else
          -- the armor leader in it (as in an Escape DR [11.6063]), or the vehicle var when given
          local al = v.vars.armor_leader_drm
          if al == nil then
            al = 0
            for _, o in ipairs(kessel.units.all{ type = "armor_leader", side = v.side }) do
              if o.vars.in_vehicle == v.id and retained(o) and C.leadership(o) < al then al = C.leadership(o) end
            end
          end
          m.add(al, "armor leader")
          if v.vars.inexperienced then m.add(1, "Inexperienced Crew") end
        end
        local drm = m.drm
        local roll = C.dr("immobile_repair")
        local r = kessel.tables.lookup("immobile_repair", roll + drm)
        C.note(case, string.format("%s Immobilization repair dr %d%+d: %s%s", v.id, roll, drm, r == "mobile" and "becomes Mobile" or "no change", m.text()))
        if r == "mobile" then kessel.emit.unit_var(v.id, "immobile", nil); rb_clear(v, case) end
      end
      v = kessel.units.get(v.id)
      -- PB Recall is part of 9.6141; RB has a step of its own for it, after the repairs [11.6141]
      if C.pb() then pb_recall(v, case) end
      v = kessel.units.get(v.id)
      if C.pb() and v.location ~= "eliminated" and v.vars.stun then
        local m = C.mods()
        if v.vars.isolated then m.add(1, "Isolated") end
        if v.side == "german" then m.add(1, "German") end
        local drm = m.drm
        local roll = C.dr("stun")
        local r = kessel.tables.lookup("stun_recovery", roll + drm)
        C.note("9.6141", string.format("%s stun recovery dr %d%+d: %s%s", v.id, roll, drm, r, m.text()))
        if r == "recover" then kessel.emit.unit_var(v.id, "stun", nil)
        elseif r == "eliminated" then C.eliminate(v.id, "9.6141", "stun", { with_crew = true }) end
      end
    end
  end
end

local function disable(w, case, why)
  kessel.emit.unit_var(w.id, "malfunctioned", nil)
  kessel.emit.unit_var(w.id, "disabled", true)
  -- the CG Date of this RePh: an MG Disabled now may still be exchanged in the next step [9.61421]
  kessel.emit.unit_var(w.id, "disabled_reph", C.var("date"))
  C.note(case, w.id .. " is Disabled (" .. why .. ")")
  if w.vars.main_armament and w.vars.mounted_on and not w.vars.captured then
    kessel.emit.unit_var(w.vars.mounted_on, "recall", true)
    C.note(case, w.vars.mounted_on .. " is Recalled: its MA is Disabled")
    -- PB: "the AFV is immediately Recalled (9.6141c applies)"; RB applies 11.6141 in its own step
    local v = kessel.units.get(w.vars.mounted_on)
    if C.pb() and v then pb_recall(v, "9.6141") end
  end
end

-- [9.6142] [9.61422] PB: the Setup/Entry Area a Retained unit is in (its Retained area when off the
-- map, else the friendly Setup Area holding its hex and level, else its Location), as a key
local function area_of(u, side)
  if u.location == "pending" then return u.vars.reph and u.vars.reph.area and ("entry " .. u.vars.reph.area) end
  if u.location ~= "map" then return nil end
  local st = kessel.game.var("setup_areas")
  for _, a in ipairs(st and st.areas and st.areas[side] or {}) do
    if (a.level or 0) == C.level(u) or a.level == nil then
      for _, h in ipairs(a.hexes) do if h == u.hex then return "area " .. a.id end end
    end
  end
  if u.vars.reph and u.vars.reph.area then return "area " .. u.vars.reph.area end
  -- outside any listed Setup Area (no 9.605 run): its own Location
  return "Location " .. u.hex .. "/" .. C.level(u)
end

-- [9.6142] PB: a Weapon is rolled for only in a friendly Setup/Entry Area that holds Personnel
-- (a vehicular Weapon: only with an Inherent crew in its vehicle); returns nil or why not
local function pb_unmanned(w)
  local side = w.side
  if C.vehicular(w) then
    local v = w.vars.mounted_on and kessel.units.get(w.vars.mounted_on)
    if not v or v.vars.abandoned or v.vars.crewless or v.vars.unarmed or not retained(v) then
      return "no Inherent crew in its vehicle"
    end
    return nil
  end
  local holder = (w.vars.possessed_by and kessel.units.get(w.vars.possessed_by)) or w
  local key = area_of(holder, side)
  if key == nil then return "it is in no friendly Setup/Entry Area" end
  for _, u in ipairs(kessel.units.all{ side = side }) do
    if C.is_personnel(u) and retained(u) and area_of(u, side) == key then return nil end
  end
  return "its " .. key:gsub("^area ", "Setup Area "):gsub("^entry ", "Entry Area ") .. " holds no Personnel"
end

-- weapon repair [9.6142] [11.6132], captured weapons [9.61422] [11.6135]
function R.weapons()
  local pb = C.pb()
  for _, w in ipairs(weapons()) do
    local possessor = w.vars.possessed_by and kessel.units.get(w.vars.possessed_by)
    local ox = pb and possessor and possessor.vars.ox_bucks
    local unmanned = pb and pb_unmanned(w)
    if unmanned and w.vars.malfunctioned and (not w.vars.captured or ox) then
      C.note("9.6142", w.id .. " makes no repair dr and stays malfunctioned: " .. unmanned)
    elseif unmanned and w.vars.captured and not w.vars.malfunctioned and not w.vars.disabled then
      C.note("9.61422", w.id .. " (captured) makes no dr and is kept: " .. unmanned)
    elseif w.vars.malfunctioned and (not w.vars.captured or ox) then
      local case = pb and "9.6142" or "11.6132"
      local m = C.mods()
      if w.vars.nonqualified then m.add(1, "only Non-Qualified Use") end
      if C.weapon_isolated(w) then m.add(1, "Isolated") end
      if pb then
        if C.vehicular(w) then m.add(-1, "vehicular-mounted") end
        m.add(-((w.face and w.face.repair) or 0), "Weapon Repair Number")
      else
        if C.vehicular(w) then m.add(-2, "vehicular-mounted") end
        -- "-1 If Russian MG/ATR": a Russian SW machine gun or A-T Rifle (our reading: the MG is
        -- paired with the ATR, a SW only, and a vehicular MG has its own -2 above; footnote 29 is
        -- not in our text). Before, any weapon whose name held "MG" took it (a BMG, CMG or AAMG of
        -- a Russian AFV took -3)
        if w.side == "russian" and not C.vehicular(w) and (C.sw_kind(w) == "mg" or C.sw_kind(w) == "atr") then
          m.add(-1, "Russian MG/ATR")
        end
      end
      local drm = m.drm
      local roll = C.dr("weapon_repair")
      local r = kessel.tables.lookup(pb and "weapon_repair_pb" or "weapon_repair_rb", roll + drm)
      C.record("weapon_repair", case, { unit = w.id, dr = roll, drm = drm, result = r })
      C.note(case, string.format("%s repair dr %d%+d: %s%s", w.id, roll, drm, r, m.text()))
      if r == "repaired" then kessel.emit.unit_var(w.id, "malfunctioned", nil)
      elseif C.vehicular(w) then disable(w, case, "not repaired")
      else C.eliminate(w.id, case, "not repaired") end
    elseif w.vars.captured and not ox then
      local case = pb and "9.61422" or "11.6135"
      if w.vars.malfunctioned then
        if C.vehicular(w) then kessel.emit.unit_var(w.id, "disabled", true); C.note(case, w.id .. " (captured, malfunctioned) is Disabled")
        else C.eliminate(w.id, case, "captured and malfunctioned") end
      elseif not w.vars.disabled then
        local roll = C.dr("captured_weapon")
        if roll >= (pb and 4 or 3) then
          if C.vehicular(w) then kessel.emit.unit_var(w.id, "disabled", true); C.note(case, w.id .. " (captured) dr " .. roll .. ": Disabled")
          else C.eliminate(w.id, case, "captured, dr " .. roll) end
        else
          C.note(case, w.id .. " (captured) dr " .. roll .. ": kept")
        end
      end
    end
  end
  -- a captured vehicle with no functioning Weapon becomes a (Burnt-Out) wreck [9.61422] [11.6136]
  for _, v in ipairs(kessel.units.all{ type = "vehicle" }) do
    if retained(v) and v.vars.captured and not v.vars.wreck then
      local functioning = false
      for _, w in ipairs(weapons()) do
        if w.vars.mounted_on == v.id and not w.vars.disabled and not w.vars.malfunctioned and w.location ~= "eliminated" then functioning = true end
      end
      if not functioning then
        kessel.emit.unit_var(v.id, "wreck", "burnt_out")
        C.note(pb and "9.61422" or "11.6136", v.id .. " (captured) has no functioning Weapon and becomes a wreck")
      end
    end
  end
end

-- [9.61421] [11.6133] a Disabled vehicular MG is repaired by Eliminating a friendly LMG
kessel.action{
  kind = "mg_exchange", rule = "9.61421", description = "repair a Disabled vehicular MG by Eliminating a friendly LMG",
  validate = function(a)
    local case = C.pb() and "9.61421" or "11.6133"
    -- "even if Disabled in step 9.6142 [11.6132]": those dr are made as 9.614's step ends, so an MG
    -- they Disabled may still be exchanged in the step that follows (before it is resolved)
    local late = R.exchange_late()
    local why = not late and S.only_in("repair", case)
    if why then return why end
    local need = C.missing(a, case, { "mg", "lmg" }, "mg_exchange{ mg = <a Disabled vehicular MG>, lmg = <the friendly LMG Eliminated for it> }")
    if need then return need end
    local mg, lmg = C.unit(a.mg, a.side), C.unit(a.lmg, a.side)
    if not mg or not C.vehicular(mg) or not mg.vars.disabled or mg.vars.captured then
      return C.refuse(case, "a Disabled, non-captured vehicular MG is repaired")
    end
    -- the exchange repairs an MG (BMG, CMG, AAMG, an MG main armament): not a Disabled Gun or
    -- other vehicular Weapon (a Disabled 75L main armament was repaired by an LMG) [9.61421] [11.6133]
    local wname = tostring(mg.face and mg.face.weapon or "")
    if not C.vehicular_mg(mg) then
      return C.refuse(case, a.mg .. " (" .. wname .. ") is no MG: only a vehicular MG is repaired by Eliminating an LMG")
    end
    if late and mg.vars.disabled_reph ~= C.var("date") then
      return C.refuse(case, "after RePh step " .. S.rule("repair") .. " only an MG its repair dr Disabled may still be exchanged")
    end
    local theirs = C.not_owner(a, mg, case)
    if theirs then return theirs end
    if not lmg or lmg.type ~= "sw" or not lmg.face or lmg.face.weapon ~= "LMG" or lmg.side ~= mg.side or lmg.vars.captured then
      return C.refuse(case, "a friendly LMG is Eliminated for it")
    end
    -- both Retained: an LMG already Eliminated (or removed) paid for a repair, and the MG of an
    -- Eliminated vehicle or a wreck was repaired
    if not retained(lmg) then return C.refuse(case, a.lmg .. " is not Retained (it is " .. tostring(lmg.location) .. "): a Retained LMG is Eliminated for it") end
    local v = kessel.units.get(mg.vars.mounted_on or "")
    if not retained(mg) or not v or not retained(v) or C.is_wreck(v) then
      return C.refuse(case, a.mg .. " is on no Retained AFV")
    end
    local area = function(u) return u and u.vars.reph and u.vars.reph.area end
    if C.pb() and area(v) ~= area(lmg) and area(v) ~= area(kessel.units.get(lmg.vars.possessed_by or "")) then
      return C.refuse(case, "the LMG must be Retained in the vehicle's Setup/Entry Area")
    end
    if not C.pb() and (C.weapon_isolated(lmg) or (v and v.vars.isolated)) then return C.refuse(case, "both must be non-Isolated") end
  end,
  apply = function(a)
    local case = C.pb() and "9.61421" or "11.6133"
    C.eliminate(a.lmg, case, "exchanged for a vehicular MG")
    kessel.emit.unit_var(a.mg, "disabled", nil)
    C.note(case, a.mg .. " is repaired")
  end,
}

-- the step after 9.614 [11.613], in which an MG Disabled by this RePh's repair dr may be exchanged
function R.exchange_late()
  local s = S.current()
  return s ~= nil and S.in_refit() and not kessel.game.finished() and s.id == (C.pb() and "reinforcements" or "armor_withdrawal")
end

local function ammo(case)
  for _, w in ipairs(weapons()) do
    if type(w.vars.depleted) == "table" and not w.vars.captured and not C.weapon_isolated(w) then
      if C.pb() then
        local left = {}
        local drm = (w.side == "british" and tostring(C.var("date", "")):match("^night")) and -1 or 0
        for _, kind in ipairs(w.vars.depleted) do
          local roll = C.dr("special_ammo")
          local r = kessel.tables.lookup("special_ammo", roll + drm)
          C.note("9.61424", string.format("%s %s resupply dr %d%+d: %s%s", w.id, kind, roll, drm, r, drm ~= 0 and " (-1 British before a Night CG scenario)" or ""))
          if r ~= "restored" then left[#left + 1] = kind end
        end
        kessel.emit.unit_var(w.id, "depleted", #left > 0 and left or nil)
      elseif w.type == "gun" or C.vehicular(w) then
        kessel.emit.unit_var(w.id, "depleted", nil)
        C.note("11.6137", w.id .. " has its special ammunition restored")
      else
        -- RB restores a Gun's (vehicular-mounted included), not a SW's: 11.6137 names Guns, where
        -- PB's 9.61424 names every weapon (a SW mortar's depleted WP was restored)
        C.note("11.6137", w.id .. " is a SW, not a Gun: its depleted ammunition is not restored")
      end
    end
  end
  for _, u in ipairs(kessel.units.all()) do
    -- PB: non-captured, non-Isolated German vehicles [9.61425]; RB: "each non-Isolated unit",
    -- a Captured one too [11.6138]
    -- PB: "in a German Setup/Entry Area" (Retained off-map in an Entry Area, or in a German Setup
    -- Area; not one left abandoned in No Man's Land or Uncontrolled Territory; with no Setup Areas
    -- determined, 9.605 not played, every one)
    local Ar = require("rules.areas")
    local in_area = u.location == "pending" or Ar.stored() == nil
      or (u.location == "map" and Ar.area_at(u.side, u.hex, C.level(u)) ~= nil)
    if retained(u) and u.vars.low_ammo and not u.vars.isolated
      and (not C.pb() or (u.side == "german" and C.is_vehicle(u) and not u.vars.captured and in_area)) then
      kessel.emit.unit_var(u.id, "low_ammo", nil)
      C.note(C.pb() and "9.61425" or "11.6138", u.id .. ": Low Ammo removed")
    end
    -- [11.6139] a non-Isolated Infantry unit or Weapon: an AFV's Shortage is its Weapons' (a
    -- vehicular-mounted Weapon is a Weapon [11.6132] [11.6137]), so a non-Isolated AFV is freed of it
    -- too. Before, it kept it for good: no later step takes it off, and 11.6141 gives it again only to
    -- an Isolated, Recalled one
    if not C.pb() and retained(u) and u.vars.ammo_shortage and not u.vars.isolated then
      kessel.emit.unit_var(u.id, "ammo_shortage", nil)
      if u.vars.ammo_shortage_day then kessel.emit.unit_var(u.id, "ammo_shortage_day", nil) end
      C.note("11.6139", u.id .. ": Ammunition Shortage lifted")
    end
  end
end

-- [11.6134] FT/DC removed from play are Retained if the Original effects DR was <= 10, up to
-- the side's non-Isolated Assault Engineer squads
local function ft_dc()
  for _, side in ipairs(C.sides()) do
    local engineers = 0
    for _, u in ipairs(kessel.units.all{ side = side, type = "squad" }) do
      if retained(u) and not u.vars.isolated and u.step == 0 and C.assault_engineer(u) then
        engineers = engineers + 1
      end
    end
    local kept = { FT = 0, DC = 0 }
    local told = false
    for _, w in ipairs(kessel.units.all{ type = "sw" }) do
      local kind = w.face and w.face.weapon
      -- judged for its original owning side, even if the enemy had Captured it [11.6134]
      local owner = w.vars.captured and w.vars.original_side or w.side
      if owner == side and (kind == "FT" or kind == "DC") and w.vars.removed_dr then
        if not told then
          C.note("11.6134", string.format("%s: %d non-Isolated Assault Engineer squad(s) (%s)", side, engineers, C.assault_engineer_basis(side)))
          told = true
        end
        if w.vars.removed_dr <= 10 and kept[kind] < engineers then
          kept[kind] = kept[kind] + 1
          if w.side ~= owner then C.change_hands(w, owner) end
          kessel.emit.withdraw(w.id)
          kessel.emit.unit_var(w.id, "removed_dr", nil)
          C.note("11.6134", w.id .. " (" .. kind .. ") is Retained")
        else
          if w.location ~= "eliminated" then kessel.emit.eliminate(w.id) end
          kessel.emit.unit_var(w.id, "removed_dr", nil)
          C.note("11.6134", w.id .. " (" .. kind .. ") is Eliminated" .. (w.vars.removed_dr > 10 and " (effects DR > 10)" or " (no Assault Engineer squad left for it)"))
        end
      end
    end
  end
end

S.on_end("repair", function()
  R.vehicles(C.pb() and "9.6141" or "11.6131")
  R.weapons()
  if not C.pb() then ft_dc() end
  ammo()
end)

return R
