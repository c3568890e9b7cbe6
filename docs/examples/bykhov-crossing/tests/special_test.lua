-- Rule tests of The Bykhov crossing: `kessel test` on the scenario folder runs every kessel.test
-- here, each from the scenario's set-up. The scenario changes no rule in Lua: its [vars] switch
-- off the campaign's first-turn obligations [5.2] and close turn 4 [13.4] [14.3]; these tests
-- hold the PGG rules to those variables.
local expect = kessel.expect

kessel.test("scenario_runs_its_turns", function()
  expect.eq(kessel.game.last_turn() - kessel.game.turn() + 1, 4, "turns in scenario.toml")
end)

-- The legal actions at the start must pass the rules' own checks.
kessel.test("legal_actions_at_the_start_are_valid", function()
  for _, a in ipairs(kessel.legal()) do
    local ok, reasons = kessel.validate(a)
    expect.accepted(ok, reasons)
  end
end)

-- [5.2] first_turn_roll_armies = [] and first_turn_full_ma_armies = []: this scenario's 13th Army
-- stands on turn 1 if its player likes, and no die is rolled for the campaign's 16th and 19th.
-- (Before the variables, a formation named "13 Army" on turn 1 had to spend its whole allowance
-- moving north, south or east, whatever the scenario was.)
kessel.test("case_5_2_this_13th_army_has_no_first_turn_obligations", function()
  expect.accepted(kessel.act{ kind = "end_air_placement" })   -- the German's initial markers [13.2]
  expect.eq(kessel.game.step().id, "soviet_movement")
  expect.eq(kessel.game.var("first_turn_16"), nil, "no first-turn die for the 16th Army")
  local M = require("rules.movement")
  expect.falsy(M.first_turn_full_ma(kessel.units.get("s-13a-r1")), "no whole-allowance move")
  -- the Soviet ends his first Movement Phase without moving
  expect.accepted(kessel.act{ kind = "end_phase" })
end)

-- [14.3] closing_turn = 4: the two divisions due on turn 3 may not enter on turn 4, the last.
kessel.test("case_14_3_nothing_enters_on_turn_4", function()
  kessel.setup{ turn = 4, step = "soviet_movement", units = {
    { id = "late", side = "soviet", type = "rifle", faces = { "2-2-6" }, enter = { turn = 3, area = "K" } },
    { id = "g", side = "german", type = "panzer", faces = { "4-4-10", "2-2-10" }, at = "0131" } } }
  local ok, why = kessel.act{ kind = "move", units = { "late" }, path = { "1224" } }
  expect.refused(ok, why, "14.3", "turn 4")
  kessel.setup{ turn = 3, step = "soviet_movement", units = {
    { id = "late", side = "soviet", type = "rifle", faces = { "2-2-6" }, enter = { turn = 3, area = "K" } },
    { id = "g", side = "german", type = "panzer", faces = { "4-4-10", "2-2-10" }, at = "0131" } } }
  expect.accepted(kessel.act{ kind = "move", units = { "late" }, path = { "1224" } })
end)

-- [13.4] closing_turn = 4: no Soviet interdiction marker on turn 4.
kessel.test("case_13_4_no_soviet_interdiction_on_turn_4", function()
  local units = { { id = "g", side = "german", type = "panzer", faces = { "4-4-10", "2-2-10" }, at = "0131" },
    { id = "s", side = "soviet", type = "rifle", faces = { "2-2-6" }, at = "0827" } }
  local markers = { { kind = "soviet_interdiction", side = "soviet", count = 3 } }
  kessel.setup{ turn = 4, step = "soviet_interdiction", units = units, markers = markers }
  local ok, why = kessel.act{ kind = "place_marker", hex = "0529" }
  expect.refused(ok, why, "13.4", "turn 4")
  kessel.setup{ turn = 3, step = "soviet_interdiction", units = units, markers = markers }
  expect.accepted(kessel.act{ kind = "place_marker", hex = "0529" })
end)
