-- RePh 9.614 Equipment Repair and Replenishment, RB 11.613 (rules/repair.lua).
local T = require("testing.cg")
local expect = T.expect

local function at(units, extra)
  local spec = { step = "repair", units = units, vars = { date = "day_i" } }
  for k, v in pairs(extra or {}) do spec[k] = v end
  T.setup(spec)
end

-- [9.6142 EX] a German HMG (repair number 3), not Isolated, held by a 4-6-8, repairs on a dr <= 4
kessel.test("case_9.6142_example_hmg_repairs_on_four", function()
  at{ T.squad("s", "german", "4-6-8", "C3"), T.sw("hmg", "german", "HMG", "C3", { vars = { possessed_by = "s", malfunctioned = true } }) }
  kessel.inject_dice{ 4 }
  local ev = T.resolve()
  expect.eq(T.unit("hmg").vars.malfunctioned, nil)
  expect.eq(T.record(ev, "weapon_repair").drm, -3)
  at{ T.squad("s", "german", "4-6-8", "C3"), T.sw("hmg", "german", "HMG", "C3", { vars = { possessed_by = "s", malfunctioned = true } }) }
  kessel.inject_dice{ 5 }
  T.resolve()
  expect.eq(T.unit("hmg").location, "eliminated")
end)

-- [9.6142] a vehicular MA not repaired is Disabled and its AFV Recalled (then 9.6141c next time)
kessel.test("case_9.6142_vehicular_ma_disabled_recalls", function()
  at{ T.vehicle("pz", "german", "PzKpfw IVH", "C3"),
    T.sw("ma", "german", "75L", "C3", { vars = { vehicular = true, main_armament = true, mounted_on = "pz", malfunctioned = true } }) }
  kessel.inject_dice{ 6 }
  T.resolve()
  expect.eq(T.unit("ma").vars.disabled, true)
  expect.eq(T.unit("pz").vars.recall, true)
  -- "(9.6141c applies)": a Mobile, non-Isolated AFV under Recall is Eliminated (it stayed Retained)
  expect.eq(T.unit("pz").location, "eliminated")
end)

-- [9.6141b] Immobilization repair: dr <= 2 (+1 Isolated, +1 front line) becomes Mobile
kessel.test("case_9.6141_immobilization_repair", function()
  at{ T.vehicle("a", "german", "Marder", "C3", { vars = { immobile = true } }),
    T.vehicle("b", "german", "Marder", "C4", { vars = { immobile = true, isolated = true, front_line = true } }) }
  kessel.inject_dice{ 2, 1 }
  T.resolve()
  expect.eq(T.unit("a").vars.immobile, nil)
  expect.eq(T.unit("b").vars.immobile, true, "1 + 2 = 3: no change")
end)

-- [9.6141c] a Mobile non-Isolated AFV under Recall is Eliminated; Isolated it stays Recalled
kessel.test("case_9.6141_recall", function()
  at{ T.vehicle("a", "german", "Marder", "C3", { vars = { recall = true } }),
    T.vehicle("b", "german", "Marder", "C4", { vars = { recall = true, isolated = true } }) }
  T.resolve()
  expect.eq(T.unit("a").location, "eliminated")
  expect.eq(T.unit("b").location, "map")
  expect.eq(T.unit("b").vars.ammo_shortage, true)
end)

-- [9.6141d] stun recovery: +1 German; <= 2 recovers, 3-5 keeps the stun, >= 6 Eliminated
kessel.test("case_9.6141_stun_recovery", function()
  at{ T.vehicle("a", "german", "Marder", "C3", { vars = { stun = true } }), T.vehicle("b", "british", "Stuart V(a)", "C4", { vars = { stun = true } }),
    T.vehicle("c", "german", "Marder", "C5", { vars = { stun = true } }) }
  kessel.inject_dice{ 1, 2, 5 }
  T.resolve()
  expect.eq(T.unit("a").vars.stun, nil)
  expect.eq(T.unit("b").vars.stun, nil)
  expect.eq(T.unit("c").location, "eliminated")
end)

-- [9.61422] a functioning captured Weapon is Eliminated on dr >= 4, unless held by the Ox and Bucks
kessel.test("case_9.61422_captured_weapons", function()
  at{ T.squad("ox", "british", "6-4-8", "C3", { vars = { ox_bucks = true } }), T.squad("b", "british", "6-4-8", "C4"),
    T.sw("m1", "british", "MG34", "C3", { vars = { captured = true, possessed_by = "ox" } }),
    T.sw("m2", "british", "MG34", "C4", { vars = { captured = true, possessed_by = "b" } }),
    T.sw("m3", "british", "MG34", "C4", { vars = { captured = true, possessed_by = "b", malfunctioned = true } }) }
  kessel.inject_dice{ 4 }
  T.resolve()
  expect.eq(T.unit("m1").location, "map")
  expect.eq(T.unit("m2").location, "eliminated")
  expect.eq(T.unit("m3").location, "eliminated", "already malfunctioned")
end)

-- [9.61421] a Disabled vehicular MG is repaired by Eliminating a friendly LMG of the same area
kessel.test("case_9.61421_vehicular_mg_exchange", function()
  local area = { vars = { reph = { status = "retained", area = "A" } } }
  at{ T.vehicle("pz", "german", "PzKpfw IVH", "C3", area),
    T.sw("cmg", "german", "MG", "C3", { vars = { vehicular = true, disabled = true, mounted_on = "pz" } }),
    T.sw("lmg", "german", "LMG", "C3", area), T.sw("far", "german", "LMG", "H3", { vars = { reph = { status = "retained", area = "B" } } }) }
  local ok, r = kessel.act{ kind = "mg_exchange", mg = "cmg", lmg = "far" }
  expect.refused(ok, r, "9.61421", "Retained in the vehicle")
  expect.accepted(kessel.act{ kind = "mg_exchange", mg = "cmg", lmg = "lmg" })
  expect.eq(T.unit("cmg").vars.disabled, nil)
  expect.eq(T.unit("lmg").location, "eliminated")
end)

-- [9.61424] special ammunition restored on dr <= 3 (-1 British before a Night date);
-- [9.61425] Low Ammo comes off German vehicles
kessel.test("case_9.61424_special_ammo_and_9.61425_low_ammo", function()
  at({ T.gun("at", "british", "57L AT", "C3", { vars = { depleted = { "APDS", "HE" } } }),
    T.vehicle("pz", "german", "PzKpfw IVH", "C4", { vars = { low_ammo = true } }) }, { vars = { date = "night_ii" } })
  kessel.inject_dice{ 4, 5 }
  T.resolve()
  expect.eq(table.concat(T.unit("at").vars.depleted, ","), "HE", "4 - 1 = 3 restores APDS; 5 - 1 = 4 does not")
  expect.eq(T.unit("pz").vars.low_ammo, nil)
end)

-- [11.6132] RB weapon repair: <= 2; -1 Russian MG
kessel.test("case_11.6132_rb_weapon_repair", function()
  at({ T.sw("mg", "russian", "LMG", "C3", { vars = { malfunctioned = true } }), T.sw("g", "german", "LMG", "C4", { vars = { malfunctioned = true } }) },
    { module = "rb" })
  kessel.inject_dice{ 3, 3 }
  T.resolve()
  expect.eq(T.unit("mg").vars.malfunctioned, nil)
  expect.eq(T.unit("g").location, "eliminated")
end)

-- [11.6132] "-1 If Russian MG/ATR" is a Russian SW machine gun's or A-T Rifle's: a Russian AFV's
-- BMG has the vehicular-mounted -2 only (it took -3: any weapon named "...MG..." matched), a SW
-- of another name that declares itself an MG on its face takes it (a "DP" did not), a mortar
-- and a German MMG do not
kessel.test("case_11.6132_the_russian_mg_atr_drm_is_a_sw_mgs_or_atrs", function()
  at({ T.vehicle("t34", "russian", "T-34 M41", "C5"),
    T.sw("bmg", "russian", "BMG", "C5", { vars = { vehicular = true, mounted_on = "t34", malfunctioned = true } }),
    T.sw("mmg", "russian", "MMG", "C3", { vars = { malfunctioned = true } }),
    T.sw("atr", "russian", "ATR", "C3", { vars = { malfunctioned = true } }),
    T.sw("dp", "russian", "DP", "C3", { faces = { { weapon = "DP", pp = 1, repair = 2, kind = "mg" } }, vars = { malfunctioned = true } }),
    T.sw("mtr", "russian", "50mm MTR", "C3", { vars = { malfunctioned = true } }),
    T.sw("gmmg", "german", "MMG", "C7", { vars = { malfunctioned = true } }) }, { module = "rb" })
  kessel.inject_dice{ 6, 6, 6, 6, 6, 6 }
  local ev = T.resolve()
  local drm = {}
  for _, e in ipairs(ev) do
    if e.event == "record" and e.kind == "weapon_repair" then drm[e.fields.unit] = e.fields.drm end
  end
  expect.eq(drm.bmg, -2, "a vehicular MG: -2 vehicular-mounted, no Russian MG/ATR -1")
  expect.eq(drm.mmg, -1, "a Russian SW MG")
  expect.eq(drm.atr, -1, "a Russian ATR")
  expect.eq(drm.dp, -1, "a SW declared an MG by its face")
  expect.eq(drm.mtr, 0, "a mortar is no MG")
  expect.eq(drm.gmmg, 0, "a German MG")
  T.has_note(ev, "bmg repair dr 6-2")
end)

-- [9.6142] [11.6132] a Weapon mounted on a vehicle (`mounted_on`) is vehicular-mounted though the
-- scenario leaves out `vehicular = true`: its repair dr takes the vehicular -2 and a failed one
-- Disables it. Before, only the flag counted: the Russian T-34's BMG took no -2 (dr 6 - 1 = 5)
-- and was Eliminated off its AFV
kessel.test("case_11.6132_a_weapon_mounted_on_a_vehicle_is_vehicular", function()
  at({ T.vehicle("t34", "russian", "T-34 M41", "C5"),
    T.sw("bmg", "russian", "BMG", "C5", { vars = { mounted_on = "t34", malfunctioned = true } }) }, { module = "rb" })
  kessel.inject_dice{ 6 }
  local ev = T.resolve()
  expect.eq(T.record(ev, "weapon_repair").drm, -2)
  expect.eq(T.unit("bmg").location, "map", "Disabled, not Eliminated")
  expect.eq(T.unit("bmg").vars.disabled, true)
end)

-- [11.6132] a SW's declared kind is one a rule reads
kessel.test("case_11.6132_a_sw_kind_is_checked", function()
  local S = require("rules.sequence")
  at({ T.sw("x", "russian", "DP", "C3", { faces = { { weapon = "DP", pp = 1, repair = 2, kind = "machinegun" } } }),
    T.sw("y", "russian", "DP", "C3", { faces = { { weapon = "DP", pp = 1, repair = 2, kind = "mg" } } }) }, { module = "rb" })
  local list = S.unit_problems()
  expect.eq(#list, 1)
  expect.eq(list[1].unit, "x")
  expect.truthy(list[1].message:find("[11.6132] unit `x`: the DP's kind is `machinegun`", 1, true), list[1].message)
end)

-- [11.6134] FT/DC removed from play are Retained if their effects DR was <= 10, up to the side's
-- non-Isolated Assault Engineer squads; [11.6135] a captured Weapon goes on dr >= 3
kessel.test("case_11.6134_ft_dc_and_11.6135_captured", function()
  at({ T.squad("ae", "german", "8-3-8", "C3"),
    T.sw("dc1", "german", "DC", nil, { location = "removed", vars = { removed_dr = 9 } }),
    T.sw("dc2", "german", "DC", nil, { location = "removed", vars = { removed_dr = 8 } }),
    T.sw("ft", "german", "FT", nil, { location = "removed", vars = { removed_dr = 11 } }),
    T.sw("cap", "russian", "MG34", "H3", { vars = { captured = true } }) }, { module = "rb" })
  kessel.inject_dice{ 3 }
  T.resolve()
  expect.eq(T.unit("dc1").location, "pending")
  expect.eq(T.unit("dc2").location, "eliminated", "one Assault Engineer squad: one DC")
  expect.eq(T.unit("ft").location, "eliminated", "effects DR 11")
  expect.eq(T.unit("cap").location, "eliminated")
end)

-- [11.6137] [11.6139] RB restores special ammo and lifts Ammunition Shortage off non-Isolated units
kessel.test("case_11.6137_rb_ammo_restored", function()
  at({ T.gun("g", "russian", "76L", "C3", { vars = { depleted = { "APCR" } } }),
    T.squad("s", "russian", "4-4-7r", "C4", { vars = { ammo_shortage = true } }),
    T.squad("i", "russian", "4-4-7r", "C5", { vars = { ammo_shortage = true, isolated = true } }) }, { module = "rb" })
  T.resolve()
  expect.eq(T.unit("g").vars.depleted, nil)
  expect.eq(T.unit("s").vars.ammo_shortage, nil)
  expect.eq(T.unit("i").vars.ammo_shortage, true)
end)

-- [9.61422] a captured vehicle with no functioning Weapon becomes a wreck; one with a working MG stays
kessel.test("case_9.61422_captured_vehicle_without_weapons_is_wrecked", function()
  at{ T.vehicle("v1", "british", "Marder", "C3", { vars = { captured = true } }),
    T.vehicle("v2", "british", "Marder", "C4", { vars = { captured = true } }),
    T.sw("mg", "british", "MG", "C4", { vars = { vehicular = true, mounted_on = "v2", captured = true } }) }
  kessel.inject_dice{ 2 }
  T.resolve()
  expect.eq(T.unit("v1").vars.wreck, "burnt_out")
  expect.eq(T.unit("v2").vars.wreck, nil, "its captured MG kept on dr 2")
end)

-- [9.6142] a malfunctioned Weapon is rolled for only in a friendly Setup/Entry Area holding
-- Personnel: an LMG left in Setup Area A, with the only squad in B, makes no dr; one in A with a
-- squad elsewhere in A rolls; a vehicular MG in an Abandoned vehicle (no Inherent crew) makes none;
-- [9.61422] likewise a captured Weapon with no Personnel in its Area is kept without a dr
kessel.test("case_9.6142_repair_needs_personnel_in_the_area", function()
  local function in_area(a) return { reph = { status = "retained", area = a } } end
  local function v(extra) for k, x in pairs(in_area("A")) do extra[k] = x end; return { vars = extra } end
  at{ T.squad("s", "german", "4-6-7", "C9", { vars = in_area("B") }),
    T.sw("lmg", "german", "LMG", "C3", v{ malfunctioned = true }),
    T.sw("cap", "german", "Bren", "C3", v{ captured = true }),
    T.vehicle("t", "german", "PzIVH", "C5", v{ abandoned = true }),
    T.sw("vmg", "german", "CMG", "C5", v{ vehicular = true, mounted_on = "t", malfunctioned = true }) }
  local ev = T.resolve()
  expect.eq(T.record(ev, "weapon_repair"), nil, "no repair dr at all")
  expect.eq(T.unit("lmg").vars.malfunctioned, true, "still malfunctioned")
  expect.eq(T.unit("cap").location, "map", "the captured Bren is kept")
  T.has_note(ev, "[9.6142] lmg makes no repair dr and stays malfunctioned: its Setup Area A holds no Personnel")
  T.has_note(ev, "vmg makes no repair dr and stays malfunctioned: no Inherent crew in its vehicle")
  T.has_note(ev, "[9.61422] cap (captured) makes no dr")
  -- with a squad in another hex of the same Setup Area the LMG rolls
  at{ T.squad("s", "german", "4-6-7", "C4", { vars = in_area("A") }), T.sw("lmg", "german", "LMG", "C3", v{ malfunctioned = true }) }
  kessel.inject_dice{ 1 }
  ev = T.resolve()
  expect.eq(T.record(ev, "weapon_repair").unit, "lmg")
  expect.eq(T.unit("lmg").vars.malfunctioned, nil, "repaired on a 1")
end)
