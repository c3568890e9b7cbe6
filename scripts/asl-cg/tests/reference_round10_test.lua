-- Situations from the reference texts, tenth tester pass (ASL round 10): the refit phase played
-- step by step as a tournament GM would, in the order of the CG's refit sequence, checking the
-- inputs, dice, tables, results and refusals of each step against the text. Each test rebuilds
-- one situation, names its case, and checks what the text says must happen.
local T = require("testing.cg")
local expect = T.expect

local function walk_to(id)
  while kessel.game.step().id ~= id do T.resolve() end
end

-- [11.6121] "Should no scenario be generated (RePh step 11.623) players return to this step and
-- repeat RePh steps 11.612-.623 until one is": an Idle Day. The RePh of the 20 Oct scenario made
-- 21 Oct the new CG Day; the players play 11.619-.623 (not in our text) and no scenario is
-- generated. The phase goes back to 11.612: 22 Oct, a second SAN dr, a second CPP Replenishment
-- DR and a second ELR DR, whose DRM are the Idle Day's: the 44 CVP the German suffered on 20 Oct
-- and his win are not counted again, one Idle Day (-2) since the last scenario and no scenario
-- since that Idle Day (no +2). Before, there was no way to declare an Idle Day: the RB RePh ended
-- after 11.618, and the steps could not be repeated.
kessel.test("case_11.6121_an_idle_day_repeats_steps_11.612_to_11.623", function()
  T.setup{ module = "rb", step = "cpp", vars = { date = "21oct", previous_date = "20oct", scenario_winner = "german",
    cvp_lost = { german = 44, russian = 10 }, cpp = { german = 2, russian = 0 }, elr = { german = 3, russian = 3 },
    attack_chit = { german = true }, san = { german = 2, russian = 2 }, weather = "clear", ec = "moist" } }
  -- 21 Oct: German CPP DR 7 -1 (hist) +1 (Attack chit) -2 (44 CVP) = 5: +16
  kessel.inject_dice{ 3, 4, 3, 4 }
  local ev = T.resolve()
  T.has_note(ev, "german CPP: DR 7-2 = 5", "21 Oct replenishment")
  walk_to("scenario_generation")
  expect.eq(kessel.game.var("weather") ~= nil, true)
  -- offered there, as a choice the editor lists (and valid as listed)
  local offered = {}
  for _, a in ipairs(kessel.legal()) do if a.kind == "idle_day" then offered[#offered + 1] = a end end
  expect.eq(#offered, 1)
  expect.truthy(kessel.validate(offered[1]))
  local ok, r = kessel.act{ kind = "idle_day", side = "german" }
  expect.accepted(ok, r)
  T.has_note(r, "[11.6121] no CG scenario is generated for 21oct: an Idle Day (german 1 since the last scenario, russian 1 since the last scenario)")
  expect.eq(kessel.game.step().id, "date_san", "back to 11.612")
  expect.eq(kessel.game.finished(), false)
  ev = T.resolve()
  T.has_note(ev, "[11.6121] new CG Date: 22oct")
  walk_to("cpp")
  -- 22 Oct: German DR 7 -2 (hist 22 Oct): no Attack chit, no CVP on the Idle Day: 5, +16 on 18 left
  kessel.inject_dice{ 3, 4, 3, 4 }
  ev = T.resolve()
  T.has_note(ev, "german CPP: DR 7-2 = 5 (-2 Historical DRM for 22oct (11.6161)): +16; Start 18, Total 34")
  expect.eq(kessel.game.var("cpp_german"), 34)
  -- ELR: 7 -2 (hist) -2 (one Idle Day), no win, no Attack chit, no scenario since the Idle Day
  kessel.inject_dice{ 3, 4, 3, 4 }
  ev = T.resolve()
  T.has_note(ev, "german ELR DR 7-4 = 3 (-2 Historical DRM for 22oct (11.6161), -2 Idle days): ELR 3 -> 3")
  T.has_note(ev, "russian ELR DR 7-2 = 5 (-2 Idle days): ELR 3 -> 3")
  T.resolve()   -- 11.618, the Idle Day's weather is now the previous CG Day's
  expect.eq(kessel.game.step().id, "scenario_generation")
  ev = T.resolve()
  T.has_note(ev, "a CG scenario is generated for 22oct; the RePh is over")
  expect.eq(kessel.game.finished(), true)
  T.replays()
end)

-- [11.6121] [9.6121] an Idle Day is declared once 11.619-.623 have given no scenario: refused in an
-- earlier step, citing 11.6121; refused in PB, whose 9.6121 repeats no steps; its Attack chits
-- and purchases are checked as the scenario records are. An Idle Day on the CG's last day ends the
-- CG at the next 11.612: there is no new CG Day.
kessel.test("case_11.6121_an_idle_day_is_declared_after_11.623_and_not_in_pb", function()
  T.setup{ module = "rb", step = "weather", vars = { date = "21oct" } }
  local ok, r = kessel.act{ kind = "idle_day" }
  expect.refused(ok, r, "11.6121", "RePh step 11.619")
  T.resolve()
  ok, r = kessel.act{ kind = "idle_day", attack_chit = { british = true } }
  expect.refused(ok, r, "11.616", "not a side of the RB campaign game")
  ok, r = kessel.act{ kind = "idle_day", bought = { german = { afv = 1 } } }
  expect.refused(ok, r, "11.617", "`afv` is not counted")
  ok, r = kessel.act{ kind = "idle_day", bought = { german = { first_line = -1 } } }
  expect.refused(ok, r, "11.617", "whole number")
  -- the Idle Day's own Attack chit and purchases are those the next CPP and ELR DR read
  ok, r = kessel.act{ kind = "idle_day", attack_chit = { russian = true }, bought = { russian = { first_line = 2 } } }
  expect.accepted(ok, r)
  expect.eq(kessel.game.var("attack_chit").russian, true)
  expect.eq(kessel.game.var("bought_previous_day").russian.first_line, 2)
  T.setup{ step = "commencement", vars = { date = "day_i" } }
  ok, r = kessel.act{ kind = "idle_day" }
  expect.refused(ok, r, "9.6121", "no Idle Day")
  -- the last CG Day (here the scenario's `last_date`) passes with no scenario: the CG is over
  T.setup{ module = "rb", step = "scenario_generation", vars = { date = "24oct", last_date = "24oct" } }
  expect.accepted(kessel.act{ kind = "idle_day" })
  local ev = T.resolve()
  T.has_note(ev, "24oct was the last CG Date: there is no new CG Date; the CG is over")
  expect.eq(kessel.game.finished(), true)
  T.replays()
end)

-- [9.6121] [11.6121] "Each passage of this RePh step represents the start of a new CG Date [Day]":
-- the scenario records may name the upcoming date (`next_date`, read for 9.602 and 9.6058), but
-- only the one after `date`. Before, `date = "day_i", next_date = "day_iii"` passed the check and
-- 9.612 jumped to Day III: Day II's CPP Base # 30 and its TT4 reinforcements were never received;
-- RB's `next_date` two days on skipped a CG Day's CPP and ELR DR (an Idle Day is its own pass).
-- A `last_date` before the scenario's date never ended the CG.
kessel.test("case_9.6121_11.6121_the_next_cg_date_is_the_one_after", function()
  local S = require("rules.sequence")
  T.setup{ step = "markers", vars = { date = "day_i", next_date = "day_iii" } }
  local text = table.concat(S.record_problems(), "\n")
  expect.truthy(text:find("[9.6121] next_date `day_iii` is not the CG Date after `day_i` (day_ii)", 1, true), text)
  T.setup{ step = "markers", vars = { date = "day_i", next_date = "day_ii", last_date = "day_iii" } }
  expect.eq(#S.record_problems(), 0, table.concat(S.record_problems(), "\n"))
  T.setup{ module = "rb", step = "markers", vars = { date = "20oct", next_date = "22oct", last_date = "19oct" } }
  text = table.concat(S.record_problems(), "\n")
  expect.truthy(text:find("[11.6121] next_date `22oct` is not the CG Date after `20oct` (21oct)", 1, true), text)
  expect.truthy(text:find("Idle Day: idle_day", 1, true), text)
  expect.truthy(text:find("[11.6121] last_date `19oct` comes before the scenario's date `20oct`", 1, true), text)
  T.setup{ module = "rb", step = "markers", vars = { date = "15nov", next_date = "15nov" } }
  text = table.concat(S.record_problems(), "\n")
  expect.truthy(text:find("(none: it is the last)", 1, true), text)
end)

-- [9.6201] "In PB, each individual CG Scenario does not have Victory Conditions ... Neither side
-- 'wins' or 'loses' a CG scenario, only the CG itself": a PB scenario that names a winner is
-- refused at check, as is a record only the RB steps read (the ELR of 11.617, the weather of
-- 11.618, an Attack chit of 11.616): PB's RePh has no such step, and the ruleset ignored them in
-- silence (a GM's `scenario_winner = "german"` in PB passed the check and did nothing).
kessel.test("case_9.6201_a_pb_cg_scenario_has_no_winner", function()
  local S = require("rules.sequence")
  T.setup{ step = "markers", vars = { date = "day_i", scenario_winner = "german", elr = { german = 3 }, weather = "clear",
    attack_chit = { german = true } } }
  local text = table.concat(S.record_problems(), "\n")
  expect.truthy(text:find("[9.6201] scenario_winner `german`: a PB CG scenario has no winner", 1, true), text)
  expect.truthy(text:find("[9.6] `elr` is a Red Barricades record (11.617): the PB RePh has no such step", 1, true), text)
  expect.truthy(text:find("[9.6] `weather` is a Red Barricades record (11.618)", 1, true), text)
  expect.truthy(text:find("[9.6] `attack_chit` is a Red Barricades record (11.616)", 1, true), text)
  -- RB reads them all
  T.setup{ module = "rb", step = "markers", vars = { date = "18oct", scenario_winner = "german", elr = { german = 3 }, weather = "clear",
    attack_chit = { german = true } } }
  expect.eq(#S.record_problems(), 0, table.concat(S.record_problems(), "\n"))
end)

-- [11.617] "On a Final DR of <= 2 that side's current ELR increases by one, to a maximum of 4": a
-- side whose ELR is already 5 keeps it on a gain (before, min(4, 5 + 1) took it down to 4 on a
-- gain); a loss at 0 stays 0. A side with no ELR recorded is taken as 3, and the note says so (it
-- was silent); an ELR record above 5 is refused at check.
kessel.test("case_11.617_a_gain_never_lowers_the_elr", function()
  T.setup{ module = "rb", step = "elr", vars = { date = "2nov", elr = { german = 5 }, scenarios_since_idle = { german = 0, russian = 0 },
    scenario_winner = "german" } }
  kessel.inject_dice{ 1, 1, 1, 1 }
  local ev = T.resolve()
  -- German: 2 +2 (hist) -1 (won) = 3: no change; Russian: 2 + 0 = 2: a gain from the ELR taken as 3
  T.has_note(ev, "german ELR DR 2+1 = 3")
  T.has_note(ev, "russian ELR DR 2+0 = 2: ELR 3 -> 4")
  T.has_note(ev, "no ELR is recorded for the russian (scenario var `elr`): 3 was taken")
  expect.eq(kessel.game.var("elr").german, 5)
  T.setup{ module = "rb", step = "elr", vars = { date = "11nov", elr = { german = 5, russian = 0 }, scenarios_since_idle = { german = 0, russian = 5 } } }
  kessel.inject_dice{ 1, 1, 6, 6 }
  ev = T.resolve()
  -- German: 2 - 3 (hist 11 Nov) = -1: a gain, but at 5 he stays 5; Russian: 12 - 1 + 10 = 21: stays 0
  T.has_note(ev, "german ELR DR 2-3 = -1 (-3 Historical DRM for 11nov (11.6161)): ELR 5 -> 5 (a gain, but the ELR is at its maximum of 4 or above)")
  T.has_note(ev, "ELR 0 -> 0 (a loss, but the ELR is at its minimum of 0)")
  expect.eq(kessel.game.var("elr").german, 5)
  local S = require("rules.sequence")
  T.setup{ module = "rb", step = "markers", vars = { date = "18oct", elr = { german = 6 } } }
  local text = table.concat(S.record_problems(), "\n")
  expect.truthy(text:find("[11.617] scenario var `elr`: the german value 6 is above 5", 1, true), text)
end)

-- [11.6062] "Each type A, and each type B, Isolated Area becomes No Man's Land", but [11.6051] "A
-- Strategic Location can never be a No Man's Land Location, as one side will always Control it".
-- An Isolated Area of three hexes with only a German leader in it (type B): its Strategic Location
-- E5 (tagged) keeps its Russian Control marker, and so does E6 (a foxhole: a Fortification); E7,
-- Controlled by the Russian type C area of the last CG Day (a marker the rules made for a
-- non-Strategic Location), loses it, though the German leader holds it alone and the marker was
-- flipped to German in 11.6052 (the flip kept what the marker was made for). Before, all three
-- markers were removed: E5 and E6 became No Man's Land, nobody's.
kessel.test("case_11.6051_11.6062_a_strategic_location_in_a_type_b_area_keeps_its_control", function()
  T.setup{ module = "rb", step = "perimeter", map = { tags = { strategic = { "E5" } } },
    vars = { date = "18oct", isolated_areas = { { hexes = { "E5", "E6", "E7" } } } },
    units = { T.leader("gl", "german", "8-0", "E7") },
    markers = { { kind = "control", side = "russian", at = "E5" }, { kind = "control", side = "russian", at = "E6" },
      { kind = "foxhole", side = "russian", at = "E6" } },
    valued = { { kind = "control", side = "russian", hex = "E7", value = { level = 0, made = "11.6062" } } } }
  local ev = T.resolve()
  expect.eq(kessel.game.var("isolated_areas")[1].type, "B")
  T.has_note(ev, "becomes No Man's Land [11.6062]")
  T.has_note(ev, "[11.6051] Isolated Area 1: a Strategic Location is never No Man's Land, and keeps its Control: E5 (russian), E6 (russian)")
  local A = require("rules.areas")
  expect.eq(A.controller("E5", 0), "russian")
  expect.eq(A.controller("E6", 0), "russian")
  local left = 0
  for _, m in ipairs(kessel.markers.at("E7")) do if m.kind == "control" then left = left + 1 end end
  expect.eq(left, 0, "E7 is No Man's Land")
  T.replays()
end)

-- [9.6178] [9.6181] the RG Purchase Record a scenario gives (an Initial Scenario's OB lists its RG
-- with `given = true`) is checked at load: an ID not on the chart, a line without a CG Date (9.618
-- resolves the lines of its own date only, so it was never made), a strength other than F or D
-- ("X" was read as Full), an I1-I3 whose strength the OB does not give (note e: it is specified by
-- the Initial OB; it was made Full), and a Depleted I2 (4/-: there is none; it was made with no
-- squads at all, yet got an LMG and a leader) are refused, citing the case.
kessel.test("case_9.6178_9.6181_the_rg_record_a_scenario_gives_is_checked", function()
  local S = require("rules.sequence")
  T.setup{ step = "markers", vars = { date = "night_i", rg_record = {
    { date = "night_i", id = "I1", strength = "D", given = true },
    { date = "night_i", id = "I2", strength = "D", given = true },
    { date = "night_i", id = "I3", given = true },
    { id = "I4", strength = "F" },
    { date = "night_i", id = "Z9", given = true },
    { date = "dawn", id = "V3", strength = "X" } } } }
  local text = table.concat(S.record_problems(), "\n")
  expect.falsy(text:find("rg_record[1]", 1, true), text)
  expect.truthy(text:find("[9.6181] rg_record[2]: I2 PzPionier Pltn has no Depleted strength (4/-)", 1, true), text)
  expect.truthy(text:find("[9.6181] rg_record[3] (I3): the Initial OB specifies its strength (note e)", 1, true), text)
  expect.truthy(text:find("[9.6178] rg_record[4] (I4): `nil` is no CG Date", 1, true), text)
  expect.truthy(text:find("[9.6171] rg_record[5]: no RG `Z9` on the RG chart", 1, true), text)
  expect.truthy(text:find("[9.6178] rg_record[6] (V3): strength `X` is F (Full) or D (Depleted)", 1, true), text)
end)

-- [11.6122] [9.6122] a SAN is the players' record; a side with none recorded was taken as 0 and
-- "raised to 2" with nothing to tell the GM that no SAN had been given: the note says so now
kessel.test("case_11.6122_a_side_with_no_san_recorded_is_noted", function()
  T.setup{ module = "rb", step = "date_san", vars = { date = "18oct", san = { german = 3 } } }
  local ev = T.resolve()
  T.has_note(ev, "[11.6122] russian SAN 0 is raised to 2 (no points spent); no SAN was recorded for the russian (scenario var `san`): 0 was taken")
  expect.eq(T.note(ev, "german SAN"), nil, "a recorded SAN of 3 is neither adjusted nor raised")
  expect.eq(kessel.game.var("san").german, 3)
end)

-- [9.616] [9.6161] [9.6162] the RePh after the Day III scenario: the new CG Date is Dusk, whose
-- CPP Base # the chart gives as "None" (the note said 0), and the formula's other term, the CG
-- Scenario Loss Points, is available from the Day I RePh on: German CVP 20 >= 2 x 4 and >= 4 + 8,
-- a dr of 5, so 0 + 5 CPP (our reading: the chart's None is no Base #, not no replenishment)
kessel.test("case_9.6161_dusk_has_no_base_number_but_loss_points", function()
  T.setup{ step = "cpp", vars = { date = "dusk", cvp_lost = { german = 20, british = 4 }, cpp = { german = 1 } } }
  kessel.inject_dice{ 5 }
  local ev = T.resolve()
  T.has_note(ev, "[9.6161] CPP Base # for dusk: None (0)")
  T.has_note(ev, "[9.6162] German CVP 20 >= 2 x 4 and >= 4 + 8: dr 5")
  expect.eq(kessel.game.var("cpp").german, 6)
end)

-- [9.6] "Those steps listed below preceded by a '!' are the only steps to be completed before
-- setting up to play a CG Initial Scenario": in a CG Initial Scenario of three turns, the "!"
-- steps (9.617-9.620) are taken before its first turn, and then the scenario is played from its
-- first turn; once it has begun they are refused. Before, `start_refit{ initial = true }` waited,
-- like a RePh, for the scenario's last turn ("the CG scenario is still being played"), and past
-- 9.620 the game went on to the next turn (or ended), so the "!" steps could only follow the
-- scenario they were meant to prepare.
kessel.test("case_9.6_the_marked_steps_come_before_the_initial_scenario", function()
  kessel.setup{ map = { columns = 12, rows = 12, numbering = "letters", default = "open" }, units = {},
    vars = { date = "day_i", cpp = { german = 10 }, scenario_ended = true }, options = { module = "pb" }, turn = 1, last_turn = 3, seed = 1 }
  expect.eq(kessel.game.step().id, "scenario")
  local ok, r = kessel.act{ kind = "start_refit" }
  expect.refused(ok, r, "9.6", "still being played")
  ok, r = kessel.act{ kind = "start_refit", initial = true }
  expect.accepted(ok, r)
  expect.eq(kessel.game.step().id, "rg_purchase")
  expect.accepted(kessel.act{ kind = "buy_rg", side = "german", rg = "I4", entry = "A7" })
  for _ = 1, 3 do T.resolve() end
  local ev = T.resolve()   -- 9.620
  T.has_note(ev, "[9.6] the steps marked ! are completed: the CG Initial Scenario is set up and played")
  expect.eq(kessel.game.step().mode, nil)
  expect.eq(kessel.game.step().id, "scenario")
  expect.eq(kessel.game.turn(), 1, "the scenario is played from its first turn")
  expect.eq(kessel.game.var("date"), "day_i")
  T.replays()
  -- under way (its second turn): no "!" steps any more
  kessel.setup{ map = { columns = 12, rows = 12, numbering = "letters", default = "open" }, units = {},
    vars = { date = "day_i" }, options = { module = "pb" }, turn = 2, last_turn = 3, seed = 1 }
  ok, r = kessel.act{ kind = "start_refit", initial = true }
  expect.refused(ok, r, "9.6", "before setting up to play a CG Initial Scenario: this one is under way")
end)
