-- Rule tests: supply [S9] and reinforcements [S10]. Run: kessel test docs/examples/third-system
local expect = kessel.expect
local H = require("tests.helpers")

-- league units in 0201, 0203 and 0205 hold columns 01 and 02 with their units and zones
local function walled(extra)
  local units = { H.inf("c", "crown", "0303"), H.inf("w1", "league", "0201"), H.inf("w2", "league", "0203"),
    H.inf("w3", "league", "0205"), H.inf("t", "league", "0403") }
  for _, u in ipairs(extra or {}) do units[#units + 1] = u end
  H.valley{ units = units, step = "crown_move", run_step_start = true }
end

-- Rule S9
kessel.test("case_S9_enemy_zones_cut_the_line_to_the_own_edge", function()
  walled()
  expect.eq(kessel.units.get("c").flags.oos, true, "marked at the start of the movement phase")
  local s = kessel.queries.ask("supply", { unit = "c" })
  expect.eq(s.in_supply, false)
  expect.eq(s.edge, "west")
  expect.eq(kessel.units.get("w2").flags.oos, nil, "the league is judged in its own phase")
end)

-- Rule S9: a friendly unit in a zone lets the line through
kessel.test("case_S9_friendly_units_open_a_zone_for_the_line", function()
  walled{ H.inf("f1", "crown", "0202"), H.inf("f2", "crown", "0102") }
  expect.eq(kessel.units.get("c").flags.oos, nil)
  expect.eq(kessel.queries.ask("supply", { unit = "c" }).in_supply, true)
end)

-- Rule S9: at most seven hexes to the edge
kessel.test("case_S9_the_line_is_seven_hexes_at_most", function()
  H.valley{ columns = 10, step = "crown_move", run_step_start = true,
    units = { H.inf("near", "crown", "0801"), H.inf("far", "crown", "0901") } }
  expect.eq(kessel.units.get("near").flags.oos, nil, "seven hexes from column 01")
  expect.eq(kessel.units.get("far").flags.oos, true, "eight hexes")
end)

-- Rule S9: out of supply, half the movement allowance and half the attack, rounded down
kessel.test("case_S9_out_of_supply_halves_movement_and_attack", function()
  H.valley{ columns = 10, step = "crown_move", run_step_start = true, units = { H.inf("far", "crown", "0901") } }
  local ok, reasons = kessel.act{ kind = "move", unit = "far", path = { "0904" } }
  expect.refused(ok, reasons, nil, "needs 3 MP, has 2 MP")
  expect.accepted(kessel.act{ kind = "move", unit = "far", path = { "0903" } })
  walled()
  expect.accepted(kessel.act{ kind = "end_phase" })
  local o = kessel.queries.ask("odds", { units = { "c" }, targets = { "0403" } })
  expect.eq(o.attack, 2, "4 halved")
end)

-- Rule S9: back in supply at the start of a later movement phase, the mark goes
kessel.test("case_S9_the_mark_goes_when_the_line_is_back", function()
  H.valley{ step = "crown_move", run_step_start = true,
    units = { { id = "c", side = "crown", type = "infantry", faces = { "4-4-4", "2-2-4" }, at = "0303", flags = { "oos" } } } }
  expect.eq(kessel.units.get("c").flags.oos, nil)
end)

-- Rule S10: reinforcements come on at the start of their side's movement phase on their turn
kessel.test("case_S10_reinforcements_enter_on_their_turn_and_may_move", function()
  H.valley{ turn = 2, step = "crown_combat", areas = { E = { "0803", "0804" } }, units = {
    H.inf("c", "crown", "0101"),
    { id = "r1", side = "league", type = "infantry", faces = { "3-4-4", "1-2-4" }, enter = { turn = 3, area = "E" } },
    { id = "r2", side = "league", type = "infantry", faces = { "3-4-4", "1-2-4" }, enter = { turn = 3, area = "E" } },
    { id = "r3", side = "league", type = "infantry", faces = { "3-4-4", "1-2-4" }, enter = { turn = 3, area = "E" } },
  } }
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.step().id, "league_move")
  expect.eq(kessel.units.get("r1").location, "pending", "not before turn 3")
  for _ = 1, 4 do expect.accepted(kessel.act{ kind = "end_phase" }) end
  expect.eq(kessel.game.turn(), 3)
  expect.eq(kessel.game.step().id, "league_move")
  expect.eq(kessel.units.get("r1").hex, "0803")
  expect.eq(kessel.units.get("r2").hex, "0803", "two to a hex")
  expect.eq(kessel.units.get("r3").hex, "0804", "the third takes the next hex")
  expect.accepted(kessel.act{ kind = "move", unit = "r1", path = { "0703" } })
end)

-- Rule S10: with no room in the area, a reinforcement waits for the next turn
kessel.test("case_S10_no_room_waits_a_turn", function()
  H.valley{ turn = 3, step = "crown_combat", areas = { E = { "0803" } }, units = {
    H.inf("c", "crown", "0803"),
    { id = "r", side = "league", type = "infantry", faces = { "3-4-4", "1-2-4" }, enter = { turn = 3, area = "E" } },
  } }
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.units.get("r").location, "pending")
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.accepted(kessel.act{ kind = "move", unit = "c", path = { "0603" } })
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.step().id, "league_move")
  expect.eq(kessel.units.get("r").hex, "0803", "on turn 4, once the hex is free")
end)
