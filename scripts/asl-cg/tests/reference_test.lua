-- Situations taken from the reference texts (round 14): each rebuilt by hand from the cases and
-- played through the rules. Grouped by step.
local T = require("testing.cg")
local expect = T.expect
local X = require("rules.escape")

local function ctrl(side, hex) return { kind = "control", side = side, at = hex } end
local function open_field(units, date)
  T.setup{ step = "setup_areas", map = { columns = 16, rows = 9, tags = { strategic = { "C5", "N5" } }, areas = { P1 = { "P1", "P2" } } },
    markers = { ctrl("british", "C5"), ctrl("german", "N5") }, units = units,
    vars = { entry_areas = { german = { P1 = true } }, date = date or "day_i" } }
  T.resolve()
  expect.eq(kessel.game.step().id, "escape")
end

-- [9.6122] a SAN below 2 is raised to 2, and the note cites 9.6122 (not the dr case 9.61221)
kessel.test("case_9.6122_raise_cites_its_case", function()
  T.setup{ step = "date_san", vars = { date = "dawn", san = { british = 1, german = 0 }, german_controls_ii13 = false } }
  local ev = T.resolve()
  expect.eq(kessel.game.var("san").british, 2)
  expect.eq(kessel.game.var("san").german, 2)
  T.has_note(ev, "[9.6122] british SAN 1 is raised to 2")
  T.has_note(ev, "[9.6122] german SAN 0 is raised to 2")
end)

-- [11.6122] RB raises only a SAN of zero; a SAN of 1 stays; a SAN of 4 with dr 5 drops by one
kessel.test("case_11.6122_only_zero_is_raised_and_drop_is_one", function()
  T.setup{ module = "rb", step = "date_san", vars = { date = "17oct", san = { german = 1, russian = 4 } } }
  kessel.inject_dice{ 5 }
  T.resolve()
  expect.eq(kessel.game.var("san").german, 1)
  expect.eq(kessel.game.var("san").russian, 3)
end)

-- [9.61221] British SAN 4: dr 5 + 0 = 5 drops it by two; dr 4 keeps it
kessel.test("case_9.61221_british_san_four", function()
  T.setup{ step = "date_san", vars = { date = "dawn", san = { british = 4, german = 2 }, german_controls_ii13 = false } }
  kessel.inject_dice{ 5 }
  T.resolve()
  expect.eq(kessel.game.var("san").british, 2)
  T.setup{ step = "date_san", vars = { date = "dawn", san = { british = 4, german = 2 }, german_controls_ii13 = false } }
  kessel.inject_dice{ 4 }
  T.resolve()
  expect.eq(kessel.game.var("san").british, 4)
end)

-- [9.6162] the two conditions at their edges: 16 = 2 x 8 and 16 = 8 + 8: Loss Points
kessel.test("case_9.6162_loss_points_at_the_edge", function()
  T.setup{ step = "cpp", vars = { date = "day_iii", cvp_lost = { german = 16, british = 8 }, cpp = { german = 0 } } }
  kessel.inject_dice{ 4 }
  T.resolve()
  expect.eq(kessel.game.var("cpp").german, 24, "Day III base 20 + dr 4")
end)

-- [9.6161] Dusk has no CPP Base #; nothing is added and the note says so
kessel.test("case_9.6161_dusk_has_no_base", function()
  T.setup{ step = "cpp", vars = { date = "dusk", cvp_lost = { german = 0, british = 0 }, cpp = { german = 3 } } }
  local ev = T.resolve()
  expect.eq(kessel.game.var("cpp").german, 3)
  T.has_note(ev, "[9.6161]")
end)

local ENTRY = { german = { A7 = true, J0 = true, U1 = true, KK1 = true } }
local function shop(cpp, date)
  T.setup{ step = "rg_purchase", vars = { date = date or "day_i", cpp = { german = cpp }, entry_areas = ENTRY } }
end

-- [9.6174] with zero CPP nothing can be bought; [9.617] nothing at Night III; [9.61741] V10 at KK1 costs 1 + 6
kessel.test("case_9.617_zero_cpp_night_and_entry_cost", function()
  shop(0)
  local ok, r = kessel.act{ kind = "buy_rg", rg = "V10", entry = "A7" }
  expect.refused(ok, r, "9.6174", "0 left")
  shop(30, "night_iii")
  ok, r = kessel.act{ kind = "buy_rg", rg = "I4", entry = "A7" }
  expect.refused(ok, r, "9.617", "Night")
  shop(7)
  expect.accepted(kessel.act{ kind = "buy_rg", rg = "V10", entry = "KK1" })
  expect.eq(kessel.game.var("cpp").german, 0)
  ok, r = kessel.act{ kind = "buy_rg", rg = "V10", entry = "A7" }
  expect.refused(ok, r, "9.6174", "0 left")
  -- [9.617] a step with nothing bought ends and says what was spent and left
  local ev = T.resolve()
  T.has_note(ev, "CPP spent 7, left 0")
end)

-- [9.6175] the PzGren Coy: one per CG Date
kessel.test("case_9.6175_pzgren_coy_one_per_date", function()
  shop(40)
  expect.accepted(kessel.act{ kind = "buy_rg", rg = "I5", entry = "A7" })
  local ok, r = kessel.act{ kind = "buy_rg", rg = "I5", entry = "A7" }
  expect.refused(ok, r, "9.6175", "at most 1 per CG Date")
end)

-- [9.619] note c: 10% FRU of the Retained squads may use HIP by day: 11 squads allow 2, 10 allow 1
kessel.test("case_9.619_hip_ten_percent_fractions_rounded_up", function()
  local units = {}
  for i = 1, 11 do units[i] = T.squad("b" .. i, "british", "6-4-8", "C3") end
  T.setup{ step = "fortifications", units = units, vars = { date = "day_i", fpp = { british = 20 } } }
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "british", item = "hip_squad", count = 2 })
  local ok, r = kessel.act{ kind = "buy_fortification", side = "british", item = "hip_squad" }
  expect.refused(ok, r, "9.619", "10%")
  units = {}
  for i = 1, 10 do units[i] = T.squad("b" .. i, "british", "6-4-8", "C3") end
  T.setup{ step = "fortifications", units = units, vars = { date = "day_i", fpp = { british = 20 } } }
  ok, r = kessel.act{ kind = "buy_fortification", side = "british", item = "hip_squad", count = 2 }
  expect.refused(ok, r, "9.619", "10%")
end)

-- [9.619] note f: no mines in an Isolated Location, even one with no unit in it
kessel.test("case_9.619_no_mines_in_an_empty_isolated_location", function()
  T.setup{ step = "fortifications", vars = { date = "day_i", fpp = { british = 20 },
    setup_areas = { hexes = { C3 = "british", C4 = "british", H8 = "british" },
      areas = { british = { { id = "A", hexes = { "C3", "C4" }, isolated = true }, { id = "B", hexes = { "H8" } } }, german = {} } } } }
  local ok, r = kessel.act{ kind = "buy_fortification", side = "british", item = "ap_mine", hex = "C4" }
  expect.refused(ok, r, "9.619", "Isolated")
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "british", item = "ap_mine", hex = "H8" })
end)

-- [9.6141d] stun: German +1, Isolated +1: dr 4 -> 6 Eliminated; British dr 2 recovers
kessel.test("case_9.6141_stun_german_isolated", function()
  T.setup{ step = "repair", units = {
    T.vehicle("b", "british", "Sherman V", "C3", { vars = { stun = true, reph = { status = "retained", area = "A" } } }),
    T.vehicle("g", "german", "PzKpfw IVH", "H8", { vars = { stun = true, isolated = true, reph = { status = "isolated", area = "B" } } }) } }
  kessel.inject_dice{ 2, 4 }
  T.resolve()
  expect.eq(T.unit("b").vars.stun, nil)
  expect.eq(T.unit("g").location, "eliminated")
end)

-- [9.6101] a Heroic British wounded leader: dr 3 - 1 - 1 = 1: Retained unwounded
kessel.test("case_9.6101_heroic_british_leader", function()
  T.setup{ step = "wounded", units = { T.leader("b1", "british", "8-0", "C3", { vars = { wounded = true, heroic = true } }) } }
  kessel.inject_dice{ 3 }
  T.resolve()
  expect.eq(T.unit("b1").vars.wounded, nil)
end)

-- [9.606] a Hero stacked with a squad gives his -1 DRM to the stack's Escape DR (NA alone)
kessel.test("case_9.606_hero_drm_in_a_stack", function()
  open_field{ T.squad("a", "german", "4-6-7", "A1"), T.hero("h", "german", "A1") }
  kessel.emit.move("a", { "F5" }); kessel.emit.move("h", { "F5" })
  local with_hero = X.drm({ T.unit("a"), T.unit("h") })
  local alone = X.drm({ T.unit("a") })
  expect.eq(with_hero, alone - 1, "the Hero's -1 (an SMC adds no HS-equivalent)")
end)

-- [9.606] a low Final DR (Original 2 is Heat of Battle; an Original 3 with -2 adjacent) still escapes
kessel.test("case_9.606_final_dr_below_two_escapes", function()
  open_field{ T.squad("b", "german", "4-6-7", "A1"), T.leader("l", "german", "9-2", "A1") }
  kessel.emit.move("b", { "K4" }); kessel.emit.move("l", { "K4" })
  kessel.emit.unit_var("b", "reph", { status = "must_escape" }); kessel.emit.unit_var("l", "reph", { status = "must_escape" })
  kessel.inject_dice{ 1, 2 }  -- 3 - 2 (adjacent) - 2 (9-2) + 2 (two HS-equivalents... squad 2 + leader 0) = ...
  local ok, ev = kessel.act{ kind = "escape", units = { "b", "l" } }
  expect.accepted(ok, ev)
  expect.eq(T.record(ev, "escape").result, "escapes")
end)

-- [9.606] PB vehicle table: 9 Abandoned (crew escapes), 11 Abandoned and the crew Eliminated
kessel.test("case_9.606_vehicle_nine_and_eleven", function()
  open_field{ T.vehicle("pz", "german", "PzKpfw IVH", "B5") }
  kessel.inject_dice{ 4, 4 }  -- 8 + 1 enemy area = 9
  local ok, ev = kessel.act{ kind = "escape", units = { "pz" } }
  expect.accepted(ok, ev)
  expect.eq(T.record(ev, "escape").result, "abandoned_crew_escapes")
  expect.eq(T.unit("pz").vars.abandoned, true)
  open_field{ T.vehicle("pz", "german", "PzKpfw IVH", "B5") }
  kessel.inject_dice{ 5, 5 }  -- 10 + 1 = 11
  ok, ev = kessel.act{ kind = "escape", units = { "pz" } }
  expect.accepted(ok, ev)
  expect.eq(T.record(ev, "escape").result, "abandoned_crew_eliminated")
  expect.eq(#kessel.units.all{ type = "crew" }, 0)
end)

-- [11.615] all mines in a Location are one "type": an A-T mine may be rolled for while A-P mines
-- are there, and after one failed mine attempt no other mine attempt is made there
kessel.test("case_11.615_mines_are_one_item", function()
  T.setup{ module = "rb", step = "fort_removal", vars = { date = "18oct" },
    markers = { ctrl("german", "C3"), { kind = "ap_mine", side = "russian", at = "C3" }, { kind = "at_mine", side = "russian", at = "C3" } } }
  kessel.inject_dice{ 5 }
  expect.accepted(kessel.act{ kind = "remove_fortification", side = "german", marker = 2 })
  expect.eq(#kessel.markers.all{ kind = "ap_mine", placed = true }, 1, "dr 5: no effect")
  local ok, r = kessel.act{ kind = "remove_fortification", side = "german", marker = 1 }
  expect.refused(ok, r, "11.615", "one attempt")
end)

-- [11.617] ELR never above 4 nor below 0
kessel.test("case_11.617_elr_limits", function()
  T.setup{ module = "rb", step = "elr", vars = { date = "20oct", elr = { german = 4, russian = 0 }, scenarios_since_idle = { russian = 2 } } }
  kessel.inject_dice{ 1, 1, 6, 6 }
  T.resolve()
  expect.eq(kessel.game.var("elr").german, 4)
  expect.eq(kessel.game.var("elr").russian, 0)
end)

-- [11.618] EC after an Overcast day in November: -3 -1 = -4; dr 6 -> 2 Moist; weather -1
kessel.test("case_11.618_overcast_november", function()
  T.setup{ module = "rb", step = "weather", vars = { date = "2nov", weather = "overcast", ec = "moderate" } }
  kessel.inject_dice{ 4, 3, 6 }  -- weather 7 - 1 = 6 Overcast
  local ev = T.resolve()
  T.has_note(ev, "[11.618] weather DR 7-1 = 6: overcast (-1 the previous CG Day was Overcast); EC dr 6-4 = 2: moist (-3 previous Day Overcast, -1 November)")
  expect.eq(kessel.game.var("weather"), "overcast")
  expect.eq(kessel.game.var("ec"), "moist")
end)

-- [9.602] item 8: the scenario just played is Night II, so the next is Night III: No Move
-- counters go, with no `next_date` given (the date list decides); after Night I they stay
kessel.test("case_9.602_no_move_removed_when_the_date_list_says_night_iii", function()
  T.setup{ step = "markers", markers = { { kind = "no_move", side = "german", at = "C9" } }, vars = { date = "night_ii" } }
  T.resolve()
  expect.eq(#kessel.markers.all{ kind = "no_move", placed = true }, 0)
  T.setup{ step = "markers", markers = { { kind = "no_move", side = "german", at = "C9" } }, vars = { date = "night_i" } }
  T.resolve()
  expect.eq(#kessel.markers.all{ kind = "no_move", placed = true }, 1)
end)

-- [9.6058] after Night I the upcoming date is Night II: a German squad on No Move is fixed,
-- with no `next_date` given
kessel.test("case_9.6058_no_move_from_the_date_list", function()
  T.setup{ step = "setup_areas", map = { tags = { strategic = { "C3" } } }, markers = { ctrl("german", "C3") },
    units = { T.squad("g1", "german", "4-6-7", "C3", { vars = { no_move = true } }) }, vars = { date = "night_i" } }
  T.resolve()
  expect.eq(T.unit("g1").vars.fixed, true)
end)

-- [9.6] [9.603] after the Dusk scenario (the last CG Date) the RePh ends at CG-Scenario End:
-- no new date, no reinforcements, no CPP, no RG; the game is over and says why
kessel.test("case_9.6_the_last_cg_date_ends_at_cg_scenario_end", function()
  T.setup{ step = "rally", units = { T.squad("b", "british", "6-4-8", "C3", { vars = { broken = true } }) },
    vars = { date = "dusk", san = { british = 2, german = 2 }, cpp = { german = 5 } } }
  local ev = T.resolve()
  T.has_note(ev, "[9.603] CG-Scenario End has occurred")
  T.has_note(ev, "[9.6] dusk was the last CG Date: the CG is over")
  expect.eq(kessel.game.finished(), true)
  -- a campaign file plays nothing after it, and says why
  local ended = kessel.game.campaign_ended()
  expect.eq(ended and ended.rule, "9.6")
  expect.truthy(ended.message:find("the CG is over", 1, true), ended.message)
  expect.eq(kessel.game.var("date"), "dusk")
  expect.eq(kessel.game.var("cpp").german, 5)
  local ok, r = kessel.act{ kind = "end_step" }
  expect.refused(ok, r, "9.6", "over")
  T.replays()
end)

-- [9.6121] a RePh reaching 9.612 with no date after the current one does not make a date of nothing
kessel.test("case_9.6121_no_new_date_after_the_last", function()
  T.setup{ step = "date_san", vars = { date = "dusk", san = { british = 2, german = 2 }, cpp = { german = 5 } } }
  local ev = T.resolve()
  T.has_note(ev, "[9.6121] dusk was the last CG Date")
  expect.eq(kessel.game.var("date"), "dusk")
  expect.eq(kessel.game.finished(), true)
  expect.eq(kessel.game.campaign_ended().rule, "9.6121")
  expect.eq(#kessel.units.all{ side = "british" }, 0, "no Dawn reinforcements")
end)

-- [11.6] RB: a scenario's `last_date` ends the CG after its RePh's 11.603
kessel.test("case_11.6_last_date_of_the_cg", function()
  T.setup{ module = "rb", step = "victory_rally", vars = { date = "19oct", last_date = "19oct", scenario_winner = "german" } }
  local ev = T.resolve()
  T.has_note(ev, "[11.6] 19oct was the last CG Date")
  expect.eq(kessel.game.finished(), true)
  expect.eq(kessel.game.campaign_ended().rule, "11.6")
  T.setup{ module = "rb", step = "victory_rally", vars = { date = "18oct", last_date = "19oct" } }
  T.resolve()
  expect.eq(kessel.game.finished(), false)
  expect.eq(kessel.game.campaign_ended(), nil, "the CG goes on")
end)

local function area(a) return { vars = { reph = { status = "retained", area = a } } } end

-- [9.6112] two Heroes, one MMC in their Setup Area: the first Hero hardens it, the second finds
-- no MMC left (none hardens twice) and is Retained
kessel.test("case_9.6112_second_hero_finds_no_mmc", function()
  T.setup{ step = "hardening", units = { T.hero("h1", "german", "C3", area("A")), T.hero("h2", "german", "C3", area("A")),
    T.squad("s", "german", "4-6-7", "C3", area("A")) } }
  local ev = T.resolve()
  expect.eq(T.unit("h1").location, "eliminated")
  expect.eq(T.unit("h2").location, "map")
  expect.eq(T.C.face_label(T.unit("s")), "4-6-8")
  T.has_note(ev, "[9.6112] h2 (Hero) is Retained")
end)

-- [11.6112] RB: a Hero in an Isolated Area hardens an MMC of that Isolated Area only
kessel.test("case_11.6112_isolated_hero_hardens_in_his_area", function()
  T.setup{ module = "rb", step = "hardening", units = {
    T.hero("h", "german", "C3", { vars = { isolated = true } }),
    T.squad("out", "german", "4-4-7", "H8"),
    T.squad("in", "german", "4-6-7", "C4", { vars = { isolated = true } }) },
    vars = { date = "18oct", isolated_areas = { { hexes = { "C3", "C4" }, type = "C" } } } }
  local ok, r = kessel.act{ kind = "hero_harden", hero = "h", unit = "out" }
  expect.refused(ok, r, "11.6112", "Isolated Area")
  kessel.inject_dice{ 6, 6, 6, 6, 6, 6, 6, 6 }  -- MMC and leader DRs: nothing more
  T.resolve()
  expect.eq(T.C.face_label(T.unit("in")), "4-6-8")
  expect.eq(T.C.face_label(T.unit("out")), "4-4-7")
end)

-- [11.6113] the winner's -2: German DR 5 - 2 = 3: a 9-2 hardens (to 10-2)
kessel.test("case_11.6113_winner_drm", function()
  T.setup{ module = "rb", step = "hardening", units = { T.leader("g92", "german", "9-2", "C3"), T.leader("g80", "german", "8-0", "C4") },
    vars = { date = "18oct", scenario_winner = "german" } }
  kessel.inject_dice{ 6, 6, 6, 6, 2, 3, 6, 6 }
  T.resolve()
  expect.eq(T.unit("g92").face.label, "10-2")
  expect.eq(T.unit("g80").face.label, "8-0")
end)

-- [9.6182] a Depleted PzGren Coy: the HMG (3) on dr < 3, each of the two LMG on dr <= 4;
-- [9.6183] two leader DR, -1 Coy +1 Depleted
kessel.test("case_9.6182_depleted_pzgren_coy", function()
  T.setup{ step = "rg_purchase", vars = { date = "day_i", cpp = { german = 30 }, entry_areas = { german = { A7 = true } } } }
  expect.accepted(kessel.act{ kind = "buy_rg", rg = "I5", entry = "A7" })
  T.resolve()
  -- strength 5+5 = 10 Depleted; HMG dr 3 (no); MMG dr 4 (<= 4 yes); LMG dr 4, 5 (one); MTR dr 1 (yes);
  -- leaders DR 3+3 = 6 +0: 8-1; DR 6+6 = 12: 6+1
  kessel.inject_dice{ 5, 5, 3, 4, 4, 5, 1, 3, 3, 6, 6 }
  T.resolve()
  local rec = kessel.game.var("rg_record")[1]
  expect.eq(rec.strength, "D")
  expect.eq(rec.sw.HMG, nil)
  expect.eq(rec.sw.MMG, 1)
  expect.eq(rec.sw.LMG, 1)
  expect.eq(rec.sw.LtMTR, 1)
  expect.eq(#rec.units, 9)
  expect.eq(table.concat(rec.leaders, ","), "8-1,6+1")
end)

-- [9.6183] V10 (StaffCar) and V11 get no leader DR; [9.6181] M1 makes no strength DR
kessel.test("case_9.6183_v10_no_leader_and_9.6181_m1_no_dr", function()
  T.setup{ step = "rg_purchase", vars = { date = "day_i", cpp = { german = 30 }, entry_areas = { german = { A7 = true } } } }
  expect.accepted(kessel.act{ kind = "buy_rg", rg = "V10", entry = "A7" })
  expect.accepted(kessel.act{ kind = "buy_rg", rg = "M1" })
  T.resolve()
  kessel.inject_dice{ 2, 2 }  -- V10 strength only
  local ev = T.resolve()
  local rec = kessel.game.var("rg_record")
  expect.eq(rec[1].strength, "F")
  expect.eq(rec[1].leaders, nil)
  expect.eq(rec[2].strength, nil, "M1 is always 15 FPP")
  expect.eq(#kessel.units.all{ type = "armor_leader" }, 0)
  expect.eq(T.note(ev, "V10 leader"), nil)
end)

-- [9.6153] the withdrawal of non-Airborne MMC happens after Day II only
kessel.test("case_9.6153_no_withdrawal_after_day_i", function()
  T.setup{ step = "reinforcements", units = { T.squad("b", "british", "4-5-7", "C3", area("A")) },
    vars = { date = "day_ii", previous_date = "day_i" } }
  T.resolve()
  expect.eq(T.unit("b").location, "map")
end)

-- [11.6111] RB has no MTR exception: two same HS Recombine even with a MTR Retained, and keep_hs
-- is refused citing 11.6111; [11.6112] a RB hero_harden refusal cites 11.6112
kessel.test("case_11.6111_no_mortar_exception_in_rb", function()
  T.setup{ module = "rb", step = "hardening", units = {
    T.hs("h1", "german", "4-6-7", "C3"), T.hs("h2", "german", "4-6-7", "C3"), T.sw("m", "german", "50 MTR", "C3"),
    T.hero("hero", "german", "C4") }, vars = { date = "18oct" } }
  local ok, r = kessel.act{ kind = "keep_hs", unit = "h1" }
  expect.refused(ok, r, "11.6111", "no HS is kept apart")
  ok, r = kessel.act{ kind = "hero_harden", hero = "hero", unit = "nobody" }
  expect.refused(ok, r, "11.6112", "non-crew MMC")
  kessel.inject_dice{ 6, 6, 6, 6, 6, 6, 6, 6 }
  T.resolve()
  expect.eq(T.unit("h1").step, 0)
  expect.eq(T.unit("h2").location, "removed")
end)

-- [9.606] the Escape note names each modifier, so the sum can be checked: the 9.6061 EX squad in
-- the British Setup Area, Original 6, +1 enemy area, +1 HS-equivalent: Final 8
kessel.test("case_9.606_escape_note_names_its_modifiers", function()
  open_field{ T.squad("gs", "german", "4-6-7", "B5") }
  kessel.inject_dice{ 3, 3 }
  local ok, ev = kessel.act{ kind = "escape", units = { "gs" } }
  expect.accepted(ok, ev)
  T.has_note(ev, "gs: Escape DR 6+2 = 8 (+1 HS-equivalents > one HS using the same DR, +1 in an enemy Setup Area): escapes")
end)

-- [11.6131] RB: the Shock/UK recuperation and Bog Removal are made in the repair step (RB's
-- 11.604 has neither); an unbogged or repaired non-Isolated AFV is cleared to the Retained box
kessel.test("case_11.6131_rb_shock_bog_and_clearing", function()
  T.setup{ module = "rb", step = "repair", vars = { date = "18oct" }, units = {
    T.vehicle("sh", "german", "PzKpfw IIIH", "C3", { vars = { shock = true } }),
    T.vehicle("bg", "german", "PzKpfw IIIH", "D3", { vars = { bogged = true } }),
    T.vehicle("im", "german", "PzKpfw IIIH", "E3", { vars = { immobile = true } }),
    T.vehicle("iso", "german", "PzKpfw IIIH", "F3", { vars = { immobile = true, isolated = true } }) } }
  -- shock dr 2: recovers; bog DR 2+2 = 4 <= 6: unbogged; immobilization dr 1: Mobile; Isolated dr 1+1 = 2: Mobile
  kessel.inject_dice{ 2, 2, 2, 1, 1 }
  local ev = T.resolve()
  expect.eq(T.unit("sh").vars.shock, nil)
  T.has_note(ev, "[11.6131] sh recovers from Shock/UK")
  expect.eq(T.unit("bg").vars.bogged, nil)
  expect.eq(T.unit("bg").location, "pending")
  expect.eq(T.unit("im").vars.immobile, nil)
  expect.eq(T.unit("im").vars.reph.area, "retained_box")
  expect.eq(T.unit("iso").vars.immobile, nil)
  expect.eq(T.unit("iso").location, "map", "Isolated: stays on the map")
end)

-- a 16x9 map with No Man's Land between C5 (British) and G5 (German): E5 is within two hexes of both
local function nml_field(units)
  T.setup{ step = "setup_areas", map = { columns = 16, rows = 9, tags = { strategic = { "C5", "G5" } }, areas = { P1 = { "P1", "P2" } } },
    markers = { ctrl("british", "C5"), ctrl("german", "G5") }, units = units,
    vars = { entry_areas = { german = { P1 = true } }, date = "day_i" } }
  local ev = T.resolve()
  expect.eq(kessel.game.var("setup_areas").hexes.E5, "nml", "E5 is No Man's Land")
  return ev
end

-- [9.6056 chart] an Abandoned (otherwise Mobile) vehicle in No Man's Land is left in place
-- unpossessed [9.6072]: it has no crew to Escape and makes no Escape DR
kessel.test("case_9.6056_abandoned_mobile_vehicle_in_nml_stays", function()
  nml_field{ T.vehicle("kw", "german", "Kuebelwagen", "E5", { vars = { abandoned = true } }) }
  expect.eq(T.unit("kw").vars.reph.status, "abandoned")
  local ok, r = kessel.act{ kind = "escape", units = { "kw" } }
  expect.refused(ok, r, "9.606", "kw is abandoned: only a Personnel or Mobile-vehicle unit attempts Escape")
  local ev = T.resolve()
  expect.eq(T.record(ev, "escape"), nil, "no Escape DR")
  expect.eq(T.unit("kw").location, "map")
  expect.eq(T.unit("kw").hex, "E5")
end)

-- [9.6051] a manned Immobile vehicle without functioning MA in No Man's Land becomes abandoned and
-- its crew must attempt Escape
kessel.test("case_9.6051_immobile_vehicle_without_ma_in_nml_crew_escapes", function()
  local ev = nml_field{ T.vehicle("pz", "german", "PzKpfw IVH", "E5", { vars = { immobile = true, ma_disabled = true } }) }
  expect.eq(T.unit("pz").vars.abandoned, true)
  local crews = kessel.units.all{ type = "crew", side = "german" }
  expect.eq(#crews, 1, "the crew leaves the vehicle")
  expect.eq(crews[1].hex, "E5")
  expect.eq(crews[1].vars.reph.status, "must_escape")
  T.has_note(ev, "[9.6051]")
end)

-- [9.608] an Isolated Guard transfers a prisoner only to a friendly unit able to Guard in the
-- same Isolated Area; [11.608] RB: the same Isolated Area of the players' Perimeters
kessel.test("case_9.608_transfer_within_the_same_isolated_area", function()
  local iso = function(a) return { vars = { isolated = true, reph = { status = "isolated", area = a } } } end
  T.setup{ step = "prisoners", units = {
    T.squad("g", "german", "4-6-7", "C5", iso("B")),
    T.squad("p", "british", "6-4-8", "C5", { vars = { prisoner_of = "german", guarded_by = "g", unarmed = true } }),
    T.squad("far", "german", "4-6-7", "J5", iso("C")), T.squad("near", "german", "4-6-7", "C6", iso("B")),
    T.sw("mg", "german", "LMG", "C6", iso("B")) } }
  local ok, r = kessel.act{ kind = "prisoner", unit = "p", choice = "transfer", to = "far" }
  expect.refused(ok, r, "9.608", "same Isolated Area")
  ok, r = kessel.act{ kind = "prisoner", unit = "p", choice = "transfer", to = "mg" }
  expect.refused(ok, r, "9.608", "same Isolated Area")
  expect.accepted(kessel.act{ kind = "prisoner", unit = "p", choice = "transfer", to = "near" })
  T.setup{ module = "rb", step = "prisoners", vars = { date = "18oct", isolated_areas = { { hexes = { "C5" } }, { hexes = { "J5" } } } }, units = {
    T.squad("g", "german", "4-6-7", "C5", { vars = { isolated = true } }),
    T.squad("p", "russian", "4-4-7r", "C5", { vars = { prisoner_of = "german", guarded_by = "g", unarmed = true } }),
    T.squad("far", "german", "4-6-7", "J5", { vars = { isolated = true } }) } }
  ok, r = kessel.act{ kind = "prisoner", unit = "p", choice = "transfer", to = "far" }
  expect.refused(ok, r, "11.608", "same Isolated Area")
end)

-- [9.6041] EXC: the Encircled Vulnerable crew of an Immobile vehicle takes a 1TC; failing it is
-- Eliminated and the vehicle left abandoned; the note shows the DR against the morale either way
kessel.test("case_9.6041_vulnerable_crew_of_an_immobile_vehicle", function()
  T.setup{ step = "encirclement", units = {
    T.vehicle("v1", "german", "SPW S307(f)", "C3", { vars = { encircled = true, immobile = true, crew_morale = 7 } }),
    T.vehicle("v2", "german", "SPW S307(f)", "H8", { vars = { encircled = true, immobile = true, crew_morale = 7 } }) } }
  kessel.inject_dice{ 4, 3, 3, 3 }
  local ev = T.resolve()
  expect.eq(T.unit("v1").vars.abandoned, true)
  expect.eq(T.unit("v2").vars.abandoned, nil)
  T.has_note(ev, "v1's Vulnerable crew takes a 1TC: DR 7+1 = 8 vs morale 7: fails")
  T.has_note(ev, "v2's Vulnerable crew takes a 1TC: DR 6+1 = 7 vs morale 7: passes")
end)

-- [9.6152] Note 4 / [9.6153]: the leaders and SW that come with the Airborne MMC on Night III are
-- of the Airborne formation and stay after Day II; Day II's (TT4, no Note 4) leave with their MMC
local function back_to_reinforcements_after_day_ii()
  kessel.emit.var("date", "day_iii")
  kessel.emit.var("previous_date", "day_ii")
  kessel.emit.clock(kessel.game.turn(), require("rules.sequence").index("reinforcements"))
end

kessel.test("case_9.6153_airborne_leaders_and_sw_stay", function()
  local areas = { hexes = { C3 = "british" }, areas = { british = { { id = "A", hexes = { "C3" } } }, german = {} } }
  T.setup{ step = "reinforcements", vars = { date = "night_iii", setup_areas = areas } }
  T.resolve()
  local before = #kessel.units.all{ side = "british" }
  expect.truthy(before > 20, "Night III brings 18 squads, 6 leaders, 9 SW")
  back_to_reinforcements_after_day_ii()
  T.resolve()
  local left = 0
  for _, u in ipairs(kessel.units.all{ side = "british" }) do if u.location ~= "removed" then left = left + 1 end end
  expect.eq(left, before, "every Night III counter (squads, leaders, LMG, PIAT) is Airborne")
  -- a Day II leader and LMG without the Airborne mark go with the MMC
  T.setup{ step = "reinforcements", vars = { date = "day_ii", setup_areas = areas } }
  T.resolve()
  back_to_reinforcements_after_day_ii()
  T.resolve()
  for _, u in ipairs(kessel.units.all{ side = "british" }) do
    if u.type == "squad" or u.type == "leader" or u.type == "sw" then expect.eq(u.location, "removed", u.id) end
  end
end)

-- [11.6064] an escaped RB unit is Retained in the box, no longer Isolated and without Ammunition
-- Shortage; [11.6065] its Isolated Area, now holding only an SMC, turns type B: the SMC must Escape
kessel.test("case_11.6065_escape_changes_the_area_type", function()
  T.setup{ module = "rb", step = "perimeter", vars = { date = "18oct", isolated_areas = { { hexes = { "C5" } } } },
    units = { T.squad("g", "german", "4-6-7", "C5"), T.leader("l", "german", "8-0", "C5") },
    markers = { ctrl("german", "C5") } }
  T.resolve()
  expect.eq(kessel.game.var("isolated_areas")[1].type, "C")
  expect.eq(T.unit("l").vars.must_escape, nil)
  kessel.inject_dice{ 2, 3 }
  local ok, ev = kessel.act{ kind = "escape", units = { "g" } }
  expect.accepted(ok, ev)
  expect.eq(T.unit("g").location, "pending")
  expect.eq(T.unit("g").vars.isolated, nil)
  expect.eq(T.unit("g").vars.ammo_shortage, nil)
  T.has_note(ev, "[11.6065] an Escape changes Isolated Area 1 from type C to type B")
  expect.eq(kessel.game.var("isolated_areas")[1].type, "B")
  expect.eq(T.unit("l").vars.must_escape, true)
  -- type B becomes No Man's Land, save its Strategic Location C5 (the German Control marker),
  -- which never is [11.6051] (round 10; the marker was removed)
  expect.eq(#kessel.markers.all{ kind = "control", placed = true }, 1, "C5 keeps its Control")
end)

-- [9.6142] +1 if Isolated: a SW held by an Isolated squad is Isolated with it (a SW is not
-- classified in 9.605 itself): HMG (repair 3), dr 4 - 3 + 1 = 2: Eliminated; [9.61424] its
-- depleted ammunition is not resupplied
kessel.test("case_9.6142_sw_of_an_isolated_squad_is_isolated", function()
  T.setup{ step = "repair", vars = { date = "day_i" }, units = {
    T.squad("s", "german", "4-6-8", "C3", { vars = { isolated = true } }),
    T.sw("hmg", "german", "HMG", "C3", { vars = { possessed_by = "s", malfunctioned = true } }),
    T.sw("mg2", "german", "MMG", "C3", { vars = { possessed_by = "s", depleted = { "ap" } } }) } }
  kessel.inject_dice{ 4 }
  local ev = T.resolve()
  expect.eq(T.record(ev, "weapon_repair").drm, -2, "-3 repair number, +1 Isolated")
  expect.eq(T.unit("hmg").location, "eliminated")
  expect.eq(T.unit("mg2").vars.depleted[1], "ap")
end)

-- [9.619] note g: the Starshell Increase is the British leaders' -1; the British buy it for 10 FPP
kessel.test("case_9.619_starshell_increase_is_british", function()
  T.setup{ step = "fortifications", vars = { date = "night_iii", fpp = { british = 10, german = 10 } } }
  local ok, r = kessel.act{ kind = "buy_fortification", side = "german", item = "starshell_increase" }
  expect.refused(ok, r, "9.619", "British")
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "british", item = "starshell_increase" })
  expect.eq(kessel.game.var("starshell_drm"), -1)
  expect.eq(T.C.fpp("british"), 0)
end)

-- [11.6113] the winner may, after the DR, take -1 instead of -2: DR 5 - 2 = 3 is a 9-2 the German
-- does not have (the lowest, an 8-0, would harden); 5 - 1 = 4 is his 9-1, which hardens to a 9-2.
-- A var fixes the choice.
kessel.test("case_11.6113_winner_may_take_less_drm", function()
  local units = function() return { T.leader("g91", "german", "9-1", "C3"), T.leader("g80", "german", "8-0", "C4") } end
  T.setup{ module = "rb", step = "hardening", units = units(), vars = { date = "18oct", scenario_winner = "german" } }
  kessel.inject_dice{ 6, 6, 6, 6, 2, 3, 6, 6 }
  local ev = T.resolve()
  expect.eq(T.unit("g91").face.label, "9-2")
  expect.eq(T.unit("g80").face.label, "8-0")
  T.has_note(ev, "german (the winner) applies -1 of the -2 DRM")
  T.setup{ module = "rb", step = "hardening", units = units(),
    vars = { date = "18oct", scenario_winner = "german", leader_hardening_drm = { german = -2 } } }
  kessel.inject_dice{ 6, 6, 6, 6, 2, 3, 6, 6 }
  T.resolve()
  expect.eq(T.unit("g91").face.label, "9-1")
  expect.eq(T.unit("g80").face.label, "8-1", "9-2 not Retained: the lowest-grade leader hardens")
end)

-- [11.607] [11.6072 EXC] a hidden Set DC is not cleared nor Captured with the map; [11.6073] in a
-- friendly-Controlled Location it stays hidden, in an enemy-Controlled one it is Eliminated
kessel.test("case_11.6073_hidden_set_dc", function()
  T.setup{ module = "rb", step = "equipment", vars = { date = "18oct" }, units = {
    T.sw("dc1", "german", "DC", "C3", { vars = { hidden = true, set_dc = true } }),
    T.sw("dc2", "german", "DC", "D4", { vars = { hidden = true, set_dc = true } }) },
    markers = { ctrl("german", "C3"), ctrl("russian", "D4") } }
  local ev = T.resolve()
  expect.eq(T.unit("dc1").location, "map")
  expect.eq(T.unit("dc1").vars.hidden, true)
  expect.eq(T.unit("dc1").side, "german")
  expect.eq(T.unit("dc2").location, "eliminated")
  T.has_note(ev, "[11.6073]")
end)

-- [11.6] [11.6121] a date the module does not list (a PB date under the rb profile) neither ends
-- the CG nor becomes nothing: the RePh goes on and the note says the date is unchanged
kessel.test("case_11.6121_unlisted_date_is_kept", function()
  T.setup{ module = "rb", step = "victory_rally", vars = { date = "dawn", san = { german = 2, russian = 2 } } }
  T.resolve()
  expect.eq(kessel.game.finished(), false)
  T.setup{ module = "rb", step = "date_san", vars = { date = "dawn", san = { german = 2, russian = 2 } } }
  local ev = T.resolve()
  T.has_note(ev, "[11.6121] `dawn` is no CG Date of the RB list")
  expect.eq(kessel.game.var("date"), "dawn")
  expect.eq(kessel.game.finished(), false)
end)

-- [9.6042] a hex with A-P and A-T mines and two A-P markers: each Infantry unit takes one NTC;
-- failing it is Casualty Reduction
kessel.test("case_9.6042_one_ntc_per_minefield_hex", function()
  T.setup{ step = "encirclement", units = { T.squad("s", "german", "4-6-7", "C3") },
    markers = { { kind = "ap_mine", side = "british", at = "C3" }, { kind = "ap_mine", side = "british", at = "C3" },
      { kind = "at_mine", side = "british", at = "C3" } } }
  kessel.inject_dice{ 6, 2, 6, 6 }  -- 8 > 7: fails once
  local ev = T.resolve()
  local n = 0
  for _, e in ipairs(ev) do if e.event == "record" and e.kind == "task_check" then n = n + 1 end end
  expect.eq(n, 1)
  expect.eq(T.unit("s").step, 1, "Casualty Reduction: a half-squad")
end)

-- [11.617] the Germans are taken to have chosen the Attack chit for a CG Initial Scenario: after the
-- 17 Oct Initial Scenario of CG I their ELR DR has +1 even with no attack_chit given (the CPP DR of
-- 11.616 has no such assumption: its 18 Oct example totals -4 without it)
kessel.test("case_11.617_german_attack_chit_assumed_after_initial_scenario", function()
  local vars = { date = "18oct", previous_date = "17oct", elr = { german = 3, russian = 3 },
    scenarios_since_idle = { german = 1 } }
  T.setup{ module = "rb", step = "elr", vars = vars }
  kessel.inject_dice{ 6, 6, 3, 4 }  -- German 12 - 2 (hist) + 2 (one scenario) + 1 (Attack) = 13
  local ev = T.resolve()
  expect.eq(kessel.game.var("elr").german, 2, "a Final DR of 13 lowers the ELR")
  expect.eq(kessel.game.var("elr").russian, 3, "Russian 7 - 1 = 6: unchanged")
  T.has_note(ev, "Attack chit")
  -- a later scenario (not an Initial one) with no Attack chit: no +1, 12 leaves the ELR alone
  vars.date, vars.previous_date = "20oct", "19oct"
  T.setup{ module = "rb", step = "elr", vars = vars }
  kessel.inject_dice{ 6, 5, 3, 4 }  -- German 11 + 0 (hist 20 Oct) + 2 = 13
  T.resolve()
  expect.eq(kessel.game.var("elr").german, 2, "11 + 2 = 13 lowers it")
  T.setup{ module = "rb", step = "elr", vars = vars }
  kessel.inject_dice{ 5, 5, 3, 4 }  -- German 10 + 2 = 12: no change without the Attack chit
  T.resolve()
  expect.eq(kessel.game.var("elr").german, 3, "12 leaves the ELR at 3")
end)

-- [11.610] [9.6101] "each currently Wounded leader" makes the dr: an armor leader is a leader too
-- (he was skipped and kept his wound for ever); RB: dr 3 Eliminates him, PB: dr 1 heals him
kessel.test("case_11.610_a_wounded_armor_leader_rolls_too", function()
  local al = { id = "al", side = "german", type = "armor_leader", faces = { { morale = 9, drm = -1, label = "9-1" } },
    at = "C4", vars = { wounded = true } }
  T.setup{ module = "rb", step = "wounded", units = { al } }
  kessel.inject_dice{ 3 }
  local ev = T.resolve()
  T.has_note(ev, "al (wounded): dr 3+0")
  expect.eq(T.unit("al").location, "eliminated", "a Final dr >= 3: evacuated")
  T.setup{ step = "wounded", units = { al } }
  kessel.inject_dice{ 1 }
  T.resolve()
  expect.eq(T.unit("al").location, "map")
  expect.eq(T.unit("al").vars.wounded, nil, "a Final dr <= 1: Retained unwounded [9.6101]")
end)

-- [11.6141] a Mobile Isolated AFV under Recall (here placed under it by an MA Disabled in 11.6132,
-- after the 11.6131 step) begins the next scenario under Recall and with Ammunition Shortage; a
-- non-Isolated one is Eliminated, and the note cites 11.6141
kessel.test("case_11.6141_isolated_recalled_afv_gets_ammunition_shortage", function()
  T.setup{ module = "rb", step = "armor_withdrawal", units = {
    T.vehicle("iso", "german", "PzKpfw IVH", "C3", { vars = { recall = true, isolated = true } }),
    T.vehicle("free", "german", "PzKpfw IVH", "C5", { vars = { recall = true } }) } }
  local ev = T.resolve()
  expect.eq(T.unit("iso").location, "map")
  expect.eq(T.unit("iso").vars.recall, true)
  expect.eq(T.unit("iso").vars.ammo_shortage, true, "Ammunition Shortage (11.6061)")
  expect.eq(T.unit("free").location, "eliminated")
  T.has_note(ev, "[11.6141]")
end)

-- [11.6134] a removed FT/DC is Retained by its original owning side: a German DC the Russians had
-- Captured and used (effects DR 7) goes back to the German, who has an Assault Engineer squad; the
-- Russians, with none, could not have kept it anyway
kessel.test("case_11.6134_a_captured_dc_goes_back_to_its_original_owner", function()
  T.setup{ module = "rb", step = "repair", units = {
    T.squad("ae", "german", "8-3-8", "C3"),
    T.sw("dc", "russian", "DC", nil, { location = "removed", vars = { removed_dr = 7, captured = true, original_side = "german" } }) } }
  local ev = T.resolve()
  expect.eq(T.unit("dc").location, "pending", "Retained")
  expect.eq(T.unit("dc").side, "german", "by its original owner")
  expect.eq(T.unit("dc").vars.captured, nil)
  T.has_note(ev, "[11.6134] dc (DC) is Retained")
end)

-- [11.6113] a non-heroic 10-0, hardened as the lowest-grade leader when the leader rolled is not
-- Retained, stays a 10-0, and the note does not speak of a heroic status he never had
kessel.test("case_11.6113_a_non_heroic_10_0_fallback_is_unchanged", function()
  T.setup{ module = "rb", step = "hardening", units = { T.leader("c", "russian", "10-0", "H8") } }
  -- MMC DRs (German 12, Russian 12: none), then German leader DR 12 (no leader), Russian DR 4: 9-1
  kessel.inject_dice{ 6, 6, 6, 6, 6, 6, 2, 2 }
  local ev = T.resolve()
  expect.eq(T.unit("c").face.label, "10-0")
  T.has_note(ev, "c (10-0) is not Battle Hardened further")
  for _, e in ipairs(ev) do
    if e.event == "note" then expect.falsy(e.text:find("heroic", 1, true), e.text) end
  end
end)
