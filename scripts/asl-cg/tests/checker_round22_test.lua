-- Round 22: an outside checker's situations from the Pegasus Bridge refit-phase text, step by step
-- in the text's order (9.601-9.620), written from `kessel info`, the docs and test runs before
-- reading each step's Lua. The first tests are the differences found in the rules; the rest are
-- situations that agreed with the text (boundary values, states entering a step, step order) that
-- no earlier test pinned down.
local T = require("testing.cg")
local expect = T.expect
local S = require("rules.sequence")

local function walk_to(id) while kessel.game.step().id ~= id do T.resolve() end end
-- two Strategic Locations, one each side's (C5 British, J5 German), and an Entry Area each, so
-- neither side's Setup Area is Isolated unless a test makes it so
local function field(units, vars, step, markers)
  local all = { T.squad("g1", "german", "4-6-7", "J5"), T.squad("b1", "british", "6-4-8", "C5") }
  for _, u in ipairs(units or {}) do all[#all + 1] = u end
  vars = vars or {}
  vars.date = vars.date or "dawn"
  vars.entry_areas = vars.entry_areas or { german = { GE = true }, british = { BE = true } }
  T.setup{ map = { tags = { strategic = { "C5", "J5" } }, areas = { GE = { "L5", "L6" }, BE = { "A5", "A6" } } },
    step = step or "setup_areas", vars = vars, units = all, markers = markers }
end
-- the same without Entry Areas: each side's only Setup Area is Isolated [9.6052]
local function cut_off(units, step)
  field(units, { entry_areas = {} }, step)
end
local function escape(units, side, dice)
  kessel.inject_dice(dice)
  return expect.accepted(kessel.act{ kind = "escape", units = units, side = side })
end
local function problems()
  local out = {}
  for _, p in ipairs(S.unit_problems()) do out[#out + 1] = p.message end
  return table.concat(out, "\n")
end

-- [9.606] [9.6061] [9.608] A Guard that Escapes takes his prisoner with him: the prisoner is in
-- its Guard's Location (the ruleset's own check, [9.608]), and 9.608 lets only an Isolated Guard
-- keep, transfer or free him "in the same Isolated Area". Before, the German Guard Escaped from the
-- British Setup Area into his Isolated one and the British prisoner stayed behind in C6, still
-- "Guarded" by him from H5: 9.608 kept him so, and the position the RePh left failed `kessel check`.
kessel.test("case_9.6061_a_guard_that_escapes_takes_his_prisoner_along", function()
  cut_off({ T.squad("g2", "german", "4-6-7", "C6"),
    T.squad("bp", "british", "6-4-8", "C6", { vars = { prisoner_of = "german", guarded_by = "g2" } }) })
  T.resolve()
  local ev = escape({ "g2" }, "german", { 1, 3 })
  T.has_note(ev, "g2 escapes to Setup Area A, which is Isolated")
  expect.truthy(T.unit("g2").hex ~= "C6", "the Guard left C6")
  expect.eq(T.unit("bp").hex, T.unit("g2").hex, "his prisoner goes with him")
  walk_to("prisoners")
  ev = T.resolve()
  T.has_note(ev, "bp stays the prisoner of the Isolated g2")
  expect.eq(problems(), "", "the position the RePh leaves passes kessel check")
end)

-- [9.6053] The same for a Guard in Uncontrolled Territory Retained into the nearest friendly Setup
-- Area: his prisoner is moved with him (it stayed in the hex he left).
kessel.test("case_9.6053_a_guard_retained_from_uncontrolled_territory_takes_his_prisoner", function()
  field({ T.squad("g2", "german", "4-6-7", "F8"),
    T.squad("bp", "british", "6-4-8", "F8", { vars = { prisoner_of = "german", guarded_by = "g2" } }) })
  local ev = T.resolve()
  T.has_note(ev, "g2 in Uncontrolled Territory is Retained into Setup Area")
  expect.truthy(T.unit("g2").hex ~= "F8", "the Guard was moved")
  expect.eq(T.unit("bp").hex, T.unit("g2").hex, "and his prisoner with him")
end)

-- [9.6041] [9.6042] (A17.2, chapter A data outside the text) A wounded SMC's morale is one lower:
-- a wounded 8-1 Encircled takes his 1TC against 7, so an Original 7 (Final 8) fails. The ruleset
-- already made a wounded leader's DRM one worse under A17.2; the TC read the printed morale, so
-- the same 8-1 passed.
kessel.test("case_9.6041_a_wounded_leader_takes_his_1tc_with_morale_one_lower", function()
  field({ T.leader("gw", "german", "8-1", "K8", { vars = { encircled = true, wounded = true } }),
    T.leader("gl", "german", "8-1", "K7", { vars = { encircled = true } }) }, nil, "encirclement")
  kessel.inject_dice{ 3, 4, 3, 4 }
  local ev = T.resolve()
  T.has_note(ev, "gw takes a 1TC (Encircled): DR 7+1 = 8 vs morale 7: fails")
  T.has_note(ev, "gl takes a 1TC (Encircled): DR 7+1 = 8 vs morale 8: passes")
  expect.eq(T.unit("gw").location, "eliminated", "the wounded 8-1 fails")
  expect.eq(T.unit("gl").location, "map", "the unwounded 8-1 passes")
end)

-- [9.6042] the same wounded SMC in an A-P minefield: his NTC is against morale one lower
kessel.test("case_9.6042_a_wounded_leader_takes_his_ntc_with_morale_one_lower", function()
  field({ T.leader("bw", "british", "8-1", "E8", { vars = { wounded = true } }) }, nil, "encirclement",
    { { kind = "ap_mine", side = "german", at = "E8", value = { strength = 6 } } })
  kessel.inject_dice{ 4, 4, 1 }
  local ev = T.resolve()
  T.has_note(ev, "bw takes a NTC (A-P minefield): DR 8+0 = 8 vs morale 7: fails")
end)

-- [9.6111] Two half-squads of one Setup Area recombine though they stand in different hexes; the
-- squad is where the first one is, and what the one removed held goes with it: its LMG, and the
-- prisoner it Guarded as an Isolated Guard [9.608]. Before, the LMG stayed in K6 "possessed" by the
-- squad in J6 (`kessel check` refused the position) and the prisoner stayed Guarded by the removed
-- half-squad.
kessel.test("case_9.6111_what_a_recombined_half_squad_held_goes_with_the_squad", function()
  cut_off({ T.hs("h1", "german", "4-6-7", "J6"), T.hs("h2", "german", "4-6-7", "K6"),
    T.sw("lmg", "german", "LMG", "K6", { vars = { possessed_by = "h2" } }),
    T.squad("bp", "british", "6-4-8", "K6", { vars = { prisoner_of = "german", guarded_by = "h2" } }) })
  walk_to("hardening")
  local ev = T.resolve()
  T.has_note(ev, "h1 and h2 Recombine into a squad")
  expect.eq(T.unit("h2").location, "removed")
  expect.eq(T.unit("lmg").vars.possessed_by, "h1"); expect.eq(T.unit("lmg").hex, "J6", "the LMG with the squad")
  expect.eq(T.unit("bp").vars.guarded_by, "h1", "Guarded by the squad"); expect.eq(T.unit("bp").hex, "J6")
  expect.eq(problems(), "", "the position passes kessel check")
end)

-- [9.608] An Isolated Guard may transfer his prisoner to another friendly unit "in the same
-- Isolated Area": one in another hex of it takes him there. Before, the prisoner stayed in K6,
-- Guarded by the squad in J5.
kessel.test("case_9.608_a_prisoner_transferred_goes_to_his_new_guard", function()
  cut_off({ T.squad("g2", "german", "4-6-7", "K6"),
    T.squad("bp", "british", "6-4-8", "K6", { vars = { prisoner_of = "german", guarded_by = "g2" } }) })
  walk_to("prisoners")
  expect.accepted(kessel.act{ kind = "prisoner", unit = "bp", choice = "transfer", to = "g1", side = "german" })
  expect.eq(T.unit("bp").hex, "J5", "with g1")
  T.resolve()
  expect.eq(T.unit("bp").vars.guarded_by, "g1")
  expect.eq(problems(), "", "the position passes kessel check")
end)

-- [9.601] (A20.5) A unit Captured in RePh Melee becomes an unarmed prisoner, who holds nothing:
-- his LMG is his Guard's, Captured. Before, the German squad kept possession of its LMG as a
-- prisoner of the British, the LMG still the German's.
kessel.test("case_9.601_a_captured_units_sw_passes_to_his_guard", function()
  field({ T.squad("m1", "german", "4-6-7", "F8"), T.sw("ml", "german", "LMG", "F8", { vars = { possessed_by = "m1" } }),
    T.squad("m2", "british", "6-4-8", "F8") }, { attacker = "british" }, "melee")
  local ok, ev = kessel.act{ kind = "melee_outcome", hex = "F8", captured = { { unit = "m1", guard = "m2" } } }
  expect.accepted(ok, ev)
  T.has_note(ev, "m2 takes ml from his prisoner m1 (Captured)")
  local w = T.unit("ml")
  expect.eq(w.vars.possessed_by, "m2"); expect.eq(w.side, "british")
  expect.eq(w.vars.captured, true); expect.eq(w.vars.original_side, "german")
end)

-- Situations that agreed with the text --------------------------------------------------------

-- [9.6041] the 1TC's boundary: a 4-6-7 passes on an Original 6 (Final 7), fails on a 7; the
-- Encircled marker stays until 9.6062
kessel.test("case_9.6041_the_1tc_boundary", function()
  field({ T.squad("g2", "german", "4-6-7", "J6", { vars = { encircled = true } }),
    T.squad("g3", "german", "4-6-7", "K6", { vars = { encircled = true } }) }, nil, "encirclement")
  kessel.inject_dice{ 3, 3, 3, 4 }
  T.resolve()
  expect.eq(T.unit("g2").location, "map", "Final 7 vs 7 passes")
  expect.eq(T.unit("g2").vars.encircled, true, "still Encircled until 9.6062")
  expect.eq(T.unit("g3").location, "eliminated", "Final 8 fails")
end)

-- [9.6041] a leader's own DRM is not his: an Encircled 9-2 alone fails on an Original 9; the
-- leader takes his 1TC first and, passing, lends his DRM to the squad with him
kessel.test("case_9.6041_a_leader_tests_first_without_his_own_drm", function()
  field({ T.leader("g9", "german", "9-2", "K7", { vars = { encircled = true } }),
    T.leader("l1", "german", "9-1", "K8", { vars = { encircled = true } }),
    T.squad("s1", "german", "4-6-7", "K8", { vars = { encircled = true } }) }, nil, "encirclement")
  kessel.inject_dice{ 4, 5, 2, 2, 4, 3 }
  local ev = T.resolve()
  expect.eq(T.unit("g9").location, "eliminated", "Final 10 vs 9")
  T.has_note(ev, "s1 takes a 1TC (Encircled): DR 7+0 = 7 vs morale 7: passes")
end)

-- [9.6053] [9.6056] a lone leader in Uncontrolled Territory is Retained into the nearest friendly
-- Setup Area: he need not Escape (the action is refused)
kessel.test("case_9.6053_uncontrolled_territory_is_retained_not_escaped", function()
  field({ T.leader("gl", "german", "8-0", "F8") })
  T.resolve()
  expect.eq(kessel.game.var("setup_areas").hexes[T.unit("gl").hex], "german", "in a German Setup Area")
  local ok = kessel.act{ kind = "escape", units = { "gl" }, side = "german" }
  expect.falsy(ok, "no Escape for a Retained unit")
end)

-- [9.606] Escape DRM: a squad (+1 two HS) in the enemy Setup Area (+1) with an HMG (5 PP, +2 over
-- its IPC of 3); a Final 10 is Casualty Reduction, and the HMG goes with the half-squad
kessel.test("case_9.606_drm_pp_over_ipc_and_enemy_area", function()
  field({ T.squad("g2", "german", "4-6-7", "C7"), T.sw("hmg", "german", "HMG", "C7", { vars = { possessed_by = "g2" } }) })
  T.resolve()
  local ev = escape({ "g2" }, "german", { 2, 4 })
  T.has_note(ev, "+2 PP carried > IPC")
  expect.eq(T.record(ev, "escape").final, 10)
  expect.eq(T.unit("g2").step, 1, "Casualty Reduced to a HS")
  expect.eq(T.unit("hmg").hex, T.unit("g2").hex, "the HMG with it")
end)

-- [9.606] a wounded SMC portages nothing: he drops his LMG before the DR (+1 Wounded)
kessel.test("case_9.606_a_wounded_smc_drops_what_he_carries", function()
  field({ T.leader("gw", "german", "8-0", "B6", { vars = { wounded = true } }),
    T.sw("lw", "german", "LMG", "B6", { vars = { possessed_by = "gw" } }) })
  T.resolve()
  local ev = escape({ "gw" }, "german", { 3, 3 })
  T.has_note(ev, "gw drops lw (over its portage limit)")
  T.has_note(ev, "+1 unarmed, Wounded or Walking Wounded")
  expect.eq(T.unit("lw").hex, "B6", "left where he was")
  expect.falsy(T.unit("lw").vars.possessed_by)
end)

-- [9.606] the Night DRM is the date just played: -1 after Night III, none after Dawn
kessel.test("case_9.606_night_drm_after_night_iii_only", function()
  field({ T.squad("g2", "german", "4-6-7", "C7") }, { date = "night_iii" })
  T.resolve()
  local ev = escape({ "g2" }, "german", { 3, 3 })
  T.has_note(ev, "-1 Night CG Date")
  field({ T.squad("g2", "german", "4-6-7", "C7") }, { date = "dawn" })
  T.resolve()
  ev = escape({ "g2" }, "german", { 3, 3 })
  expect.falsy(T.note(ev, "Night"), "Dawn is no Night date")
end)

-- [9.606] vehicle table: Final 8 Escapes, 10 Eliminated (crew Escapes), 11 Abandoned in place
-- (crew Eliminated); Encircled is NA to a vehicle
kessel.test("case_9.606_vehicle_table_boundaries", function()
  field({ T.vehicle("v1", "german", "PzIVH", "C6"), T.vehicle("v2", "german", "PzIVH", "C7"),
    T.vehicle("v3", "german", "PzIVH", "C4"), T.vehicle("v4", "german", "PzIVH", "B6", { vars = { encircled = true } }) })
  T.resolve()
  expect.eq(T.record(escape({ "v1" }, "german", { 3, 4 }), "escape").final, 8)
  expect.eq(kessel.game.var("setup_areas").hexes[T.unit("v1").hex], "german", "v1 Escaped")
  escape({ "v2" }, "german", { 4, 5 })
  expect.eq(T.unit("v2").location, "eliminated", "Final 10")
  escape({ "v3" }, "german", { 5, 5 })
  expect.eq(T.unit("v3").vars.abandoned, true, "Final 11: Abandoned")
  expect.eq(T.unit("v3").hex, "C4", "in its hex")
  local ev = escape({ "v4" }, "german", { 3, 3 })
  expect.falsy(T.note(ev, "Encircled"), "+2 Encircled is NA to a vehicle")
end)

-- [9.606 EX] [9.6071] the Kuebelwagen: an unarmed Mobile vehicle in the British Setup Area rolls
-- an Original 7, Final 9 (+1 enemy area, +1 unarmed): Abandoned, no crew; 9.6071 has the British
-- Retain it, Captured
kessel.test("case_9.606_ex_the_kuebelwagen_is_abandoned_then_captured", function()
  field({ T.vehicle("kw", "german", "Kfz 1", "C6", { vars = { unarmed = true } }) })
  T.resolve()
  local ev = escape({ "kw" }, "german", { 3, 4 })
  expect.eq(T.record(ev, "escape").final, 9)
  expect.eq(T.unit("kw").vars.abandoned, true)
  walk_to("equipment")
  T.resolve()
  local u = T.unit("kw")
  expect.eq(u.side, "british"); expect.eq(u.vars.captured, true); expect.eq(u.vars.original_side, "german")
end)

-- [9.606] [9.6062] order: the Encircled marker still counts (+2) at the Escape, and is removed as
-- the Escape step ends
kessel.test("case_9.6062_encircled_counts_at_escape_then_goes", function()
  field({ T.squad("g2", "german", "4-6-7", "C6", { vars = { encircled = true } }) }, nil, "encirclement")
  kessel.inject_dice{ 1, 1 }
  T.resolve()
  T.resolve()
  local ev = escape({ "g2" }, "german", { 1, 2 })
  T.has_note(ev, "+2 Encircled")
  T.resolve()
  expect.falsy(T.unit("g2").vars.encircled, "9.6062")
end)

-- [9.608] a prisoner of a non-Isolated Guard is Eliminated
kessel.test("case_9.608_a_non_isolated_guards_prisoner_is_eliminated", function()
  field({ T.squad("bp", "british", "6-4-8", "J5", { vars = { prisoner_of = "german", guarded_by = "g1" } }) })
  walk_to("prisoners")
  T.resolve()
  expect.eq(T.unit("bp").location, "eliminated")
end)

-- [9.6101] the Wounded Leader Table's bands with the British -1 and the Isolated +1 together:
-- 4 wounded, 5 Eliminated
kessel.test("case_9.6101_isolated_british_wounded_leader_bands", function()
  cut_off({ T.leader("bl", "british", "8-1", "C5", { vars = { wounded = true } }),
    T.leader("bl2", "british", "8-1", "C5", { vars = { wounded = true } }) })
  walk_to("wounded")
  kessel.inject_dice{ 4, 5 }
  T.resolve()
  expect.eq(T.unit("bl").vars.wounded, true, "dr 4+1-1 = 4: Retained wounded")
  expect.eq(T.unit("bl2").location, "eliminated", "dr 5+1-1 = 5: Eliminated")
end)

-- [9.6111] a Walking Wounded HS does not recombine with a HS that is not
kessel.test("case_9.6111_ww_and_non_ww_half_squads_stay_apart", function()
  field({ T.hs("h1", "british", "6-4-8", "C5"), T.hs("h2", "british", "6-4-8", "C6", { vars = { ww = true } }) })
  walk_to("hardening")
  T.resolve()
  expect.eq(T.unit("h1").step, 1); expect.eq(T.unit("h2").step, 1)
  expect.eq(T.unit("h2").location, "map")
end)

-- [9.6112] two Heroes and one MMC: the MMC hardens once, so the second Hero is Retained; a crew is
-- no MMC a Hero may harden
kessel.test("case_9.6112_one_mmc_hardens_once_and_never_a_crew", function()
  field({ T.hero("he1", "german", "J6"), T.hero("he2", "german", "J6"), T.crew("gc", "german", "J6") })
  walk_to("hardening")
  T.resolve()
  expect.eq(T.unit("g1").vars.squad_face, "4-6-8")
  local gone = (T.unit("he1").location == "eliminated" and 1 or 0) + (T.unit("he2").location == "eliminated" and 1 or 0)
  expect.eq(gone, 1, "one Hero Eliminated, one Retained")
end)

-- [9.61221] [9.61222] SAN 5: dr 4+1 = 5 reduces it by two; the German's dr 3+1 = 4 leaves it
kessel.test("case_9.6122_san_five_boundaries", function()
  field({}, { san = { british = 5, german = 5 }, german_controls_ii13 = false }, "date_san")
  kessel.inject_dice{ 4, 3 }
  T.resolve()
  expect.eq(kessel.game.var("san").british, 3)
  expect.eq(kessel.game.var("san").german, 5)
end)

-- [9.613] the Shift table: a Final 11 reduces on a subsequent dr >= 4; a 12 Eliminates the group
-- and its SW
kessel.test("case_9.613_shift_casualties_and_elimination", function()
  local function ctrl(side, hex) return { kind = "control", side = side, at = hex } end
  local function shift_field(units)
    T.setup{ step = "setup_areas", map = { columns = 14, rows = 12, tags = { strategic = { "C3", "C9", "M6" } }, areas = { A1 = { "A1" } } },
      markers = { ctrl("german", "C3"), ctrl("german", "C9"), ctrl("british", "M6") }, units = units,
      vars = { entry_areas = { german = { A1 = true } }, date = "day_i" } }
    walk_to("shift")
  end
  shift_field{ T.squad("c", "german", "4-6-7", "D3"), T.squad("m", "british", "6-4-8", "M6") }
  kessel.inject_dice{ 5, 6, 4 }
  expect.accepted(kessel.act{ kind = "shift", units = { "c" }, to = "B" })
  expect.eq(T.unit("c").step, 1, "Shifted with Casualties")
  shift_field{ T.squad("c", "german", "4-6-7", "D3"), T.sw("l", "german", "LMG", "D3", { vars = { possessed_by = "c" } }),
    T.squad("m", "british", "6-4-8", "M6") }
  kessel.inject_dice{ 6, 6 }
  expect.accepted(kessel.act{ kind = "shift", units = { "c" }, to = "B" })
  expect.eq(T.unit("c").location, "eliminated"); expect.eq(T.unit("l").location, "eliminated")
end)

-- [9.6141c] [9.6142] order: an MA that fails its repair in 9.6142 Recalls its AFV, and 9.6141c
-- then applies: a Mobile, non-Isolated AFV is Eliminated
kessel.test("case_9.6142_a_disabled_ma_recalls_and_9.6141c_eliminates", function()
  field({ T.vehicle("v1", "german", "PzIVH", "K5"),
    T.sw("ma", "german", "75L", "K5", { vars = { mounted_on = "v1", main_armament = true, malfunctioned = true } }) })
  walk_to("repair")
  kessel.inject_dice{ 6, 6, 6, 6 }
  T.resolve()
  expect.eq(T.unit("v1").location, "eliminated")
end)

-- [9.6141] Isolated: an AFV under Recall stays so; the stun dr takes +1 Isolated +1 German (1+2 =
-- 3: retained); the Immobilization dr +1 Isolated (1+1 = 2: Mobile)
kessel.test("case_9.6141_isolated_vehicles", function()
  cut_off({ T.vehicle("r1", "german", "PzIVH", "J6", { vars = { recall = true } }),
    T.vehicle("s1", "german", "PzIVH", "J6", { vars = { stun = true } }),
    T.vehicle("i1", "german", "PzIVH", "J6", { vars = { immobile = true } }) })
  walk_to("repair")
  kessel.inject_dice{ 1, 1, 1, 1 }
  T.resolve()
  expect.eq(T.unit("r1").location, "map"); expect.eq(T.unit("r1").vars.recall, true)
  expect.eq(T.unit("s1").vars.stun, true)
  expect.falsy(T.unit("i1").vars.immobile)
end)

-- [9.6142] a malfunctioned SW in a Setup Area with no Personnel makes no dr and stays so
kessel.test("case_9.6142_no_repair_without_personnel_in_the_area", function()
  T.setup{ map = { tags = { strategic = { "C5", "J5", "C11" } }, areas = { GE = { "L5", "L6" }, BE = { "A5", "A6" } } }, step = "setup_areas",
    vars = { date = "dawn", entry_areas = { german = { GE = true }, british = { BE = true } } },
    markers = { { kind = "control", side = "german", at = "C11" } },
    units = { T.squad("g1", "german", "4-6-7", "J5"), T.squad("b1", "british", "6-4-8", "C5"),
      T.sw("ml", "german", "LMG", "C12", { vars = { malfunctioned = true } }) } }
  walk_to("repair")
  kessel.inject_dice{ 1, 1, 1 }
  T.resolve()
  expect.eq(T.unit("ml").location, "map"); expect.eq(T.unit("ml").vars.malfunctioned, true)
end)

-- [9.619] the FPP left after buying two A-P mine factors at 1.5 each are forfeit, said as a GM
-- reads them (C.num, as the purchase notes say them): "27", not "27.0". Also the step's limits:
-- A-P mines are British only (note f), no German HIP in Dusk (note h), one SAN Increase a RePh
-- (note e).
kessel.test("case_9.619_forfeit_fpp_are_said_as_a_whole_number", function()
  field({}, { date = "dusk", fpp = { german = 30, british = 30 } }, "fortifications")
  expect.falsy(kessel.act{ kind = "buy_fortification", item = "ap_mine", count = 2, hex = "J6", side = "german" }, "note f")
  expect.falsy(kessel.act{ kind = "buy_fortification", item = "hip_squad", count = 1, side = "german" }, "note h")
  expect.accepted(kessel.act{ kind = "buy_fortification", item = "san_increase", count = 1, side = "german" })
  expect.falsy(kessel.act{ kind = "buy_fortification", item = "san_increase", count = 1, side = "german" }, "note e")
  expect.accepted(kessel.act{ kind = "buy_fortification", item = "ap_mine", count = 2, hex = "C6", side = "british" })
  local ev = T.resolve()
  T.has_note(ev, "british forfeits 27 unspent FPP")
  T.has_note(ev, "german forfeits 20 unspent FPP")
end)

-- [9.603] [9.6042] order: a passenger unloaded into an A-P minefield in 9.603 is not attacked
-- then, but takes the 9.6042 NTC with the units already there
kessel.test("case_9.603_a_passenger_unloaded_into_a_minefield_takes_the_9.6042_ntc", function()
  field({ T.vehicle("v", "british", "Carrier", "E8"), T.squad("p", "british", "6-4-8", "E8", { vars = { passenger_of = "v", broken = true } }) },
    nil, "rally", { { kind = "ap_mine", side = "german", at = "E8", value = { strength = 6 } } })
  local ev = T.resolve()
  T.has_note(ev, "p unloads from v in E8")
  expect.falsy(T.unit("p").vars.passenger_of); expect.falsy(T.unit("p").vars.broken, "rallied first")
  expect.falsy(T.note(ev, "NTC"), "no attack as it unloads")
  kessel.inject_dice{ 5, 5, 1, 1, 1, 1 }
  ev = T.resolve()
  T.has_note(ev, "p takes a NTC (A-P minefield): DR 10+0 = 10 vs morale 8: fails")
  expect.eq(T.unit("p").step, 1, "Casualty Reduction")
end)

-- [9.6101] prisoners held by an Isolated Guard are not Retained by their side: a wounded heroic
-- leader makes no Wounded Leader dr and does not Battle Harden, two prisoner HS do not recombine
kessel.test("case_9.610_9.611_prisoners_are_not_retained", function()
  cut_off({ T.leader("bl", "british", "8-1", "J5", { vars = { wounded = true, heroic = true, prisoner_of = "german", guarded_by = "g1" } }),
    T.hs("bh1", "british", "6-4-8", "J5", { vars = { prisoner_of = "german", guarded_by = "g1" } }),
    T.hs("bh2", "british", "6-4-8", "J5", { vars = { prisoner_of = "german", guarded_by = "g1" } }) })
  walk_to("date_san")
  local bl = T.unit("bl")
  expect.eq(bl.location, "map"); expect.eq(bl.vars.wounded, true); expect.eq(bl.vars.heroic, true); expect.eq(bl.face.label, "8-1")
  expect.eq(T.unit("bh1").step, 1); expect.eq(T.unit("bh2").location, "map")
end)
