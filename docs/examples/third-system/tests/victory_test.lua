-- Rule tests: cities and victory [S11], on the scenario's map and objectives, and on a map and
-- objectives of a test's own (kessel.setup{ objectives =, levels = }).
-- Run: kessel test docs/examples/third-system
local expect = kessel.expect
local H = require("tests.helpers")

local function on_the_map(units, spec)
  spec = spec or {}
  kessel.setup{ units = units, step = spec.step or "crown_move", turn = spec.turn or 1, last_turn = 6 }
end

-- Rule S11: the league holds every town at the start; the crown scores what it takes
kessel.test("case_S11_a_city_changes_hands_when_a_unit_enters_it", function()
  on_the_map{ H.inf("c", "crown", "0304"), H.inf("l", "league", "1208") }
  local s = kessel.queries.ask("score")
  expect.eq(s.vp.crown, 0)
  expect.eq(s.objectives[1].held_by, "league", "Pell at the start")
  expect.accepted(kessel.act{ kind = "move", unit = "c", path = { "0404" } })
  s = kessel.queries.ask("score")
  expect.eq(s.objectives[1].name, "Pell")
  expect.eq(s.objectives[1].held_by, "crown")
  expect.eq(s.vp.crown, 1)
  expect.eq(s.level, "League win", "1 VP is at most 2")
  -- it stays the crown's when the unit moves on (next turn)
  for _ = 1, 4 do expect.accepted(kessel.act{ kind = "end_phase" }) end
  expect.accepted(kessel.act{ kind = "move", unit = "c", path = { "0504" } })
  expect.eq(kessel.queries.ask("score").vp.crown, 1)
end)

-- Rule S11: the level follows the crown's VP
kessel.test("case_S11_levels_follow_the_crown_vp", function()
  on_the_map({ H.inf("c1", "crown", "0803"), H.inf("c2", "crown", "1003"), H.inf("c3", "crown", "1202"),
    H.inf("c4", "crown", "0304"), H.inf("l", "league", "1208") }, {})
  expect.accepted(kessel.act{ kind = "move", unit = "c1", path = { "0904" } })
  expect.eq(kessel.queries.ask("score").level, "Draw", "Harrowgate: 3 VP")
  expect.accepted(kessel.act{ kind = "move", unit = "c3", path = { "1102" } })
  expect.eq(kessel.queries.ask("score").vp.crown, 5)
  expect.eq(kessel.queries.ask("score").level, "Crown win", "Harrowgate and Umber: 5 VP")
end)

-- Rule S11: the league takes a city back by entering it
kessel.test("case_S11_the_league_takes_a_city_back", function()
  kessel.setup{ step = "league_move", vars = { owners = { Harrowgate = "crown" } },
    units = { H.inf("c", "crown", "0101"), H.inf("l", "league", "1004") } }
  expect.eq(kessel.queries.ask("score").vp.crown, 3)
  expect.accepted(kessel.act{ kind = "move", unit = "l", path = { "0904" } })
  expect.eq(kessel.queries.ask("score").vp.crown, 0)
  expect.eq(kessel.queries.ask("score").objectives[2].held_by, "league")
end)

-- Rule S11: a retreat that ends in a city takes it too
kessel.test("case_S11_a_retreat_into_a_city_takes_it", function()
  kessel.setup{ step = "crown_combat", vars = { owners = { Pell = "crown" } },
    units = { H.inf("c1", "crown", "0503"), H.inf("c2", "crown", "0604"), H.inf("l", "league", "0504") } }
  expect.eq(kessel.queries.ask("score").vp.crown, 1)
  kessel.inject_dice{ 4 }  -- 8 vs 4 is 2-1, roll 4: DR
  expect.accepted(kessel.act{ kind = "attack", units = { "c1", "c2" }, target = "0504" })
  expect.eq(table.concat(kessel.game.var("pending").hexes, " "), "0404", "Pell, the one hex out of the zones")
  expect.accepted(kessel.act{ kind = "retreat", to = "0404" })
  expect.eq(kessel.queries.ask("score").objectives[1].held_by, "league")
  expect.eq(kessel.queries.ask("score").vp.crown, 0)
end)

-- Rule S11 on a small map of the test's own: the set-up gives the objectives and levels (they
-- stand for the rest of this file, so such tests come last)
kessel.test("case_S11_scoring_on_a_map_of_the_tests_own", function()
  H.valley{ step = "crown_move",
    units = { H.inf("c", "crown", "0603"), H.inf("l", "league", "0806") },
    objectives = { { name = "Mill", hexes = { "0604" }, vp = 5, side = "crown" } },
    levels = { { name = "League win", max = 4 }, { name = "Crown win" } } }
  local s = kessel.queries.ask("score")
  expect.eq(s.objectives[1].held_by, "league", "the side it is not for holds it at the start")
  expect.eq(s.level, "League win")
  expect.accepted(kessel.act{ kind = "move", unit = "c", path = { "0604" } })
  s = kessel.queries.ask("score")
  expect.eq(s.vp.crown, 5)
  expect.eq(s.level, "Crown win")
end)

-- Rule S11: a reinforcement placed in a city takes it (here an objective the league scores, so
-- the crown holds it at the start)
kessel.test("case_S11_a_reinforcement_placed_in_a_city_takes_it", function()
  H.valley{ turn = 3, step = "crown_combat", areas = { E = { "0604" } },
    units = { H.inf("c", "crown", "0101"),
      { id = "r", side = "league", type = "infantry", faces = { "3-4-4", "1-2-4" }, enter = { turn = 3, area = "E" } } },
    objectives = { { name = "Mill", hexes = { "0604" }, vp = 2, side = "league" } } }
  expect.eq(kessel.queries.ask("score").objectives[1].held_by, "crown")
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.units.get("r").hex, "0604")
  local s = kessel.queries.ask("score")
  expect.eq(s.objectives[1].held_by, "league")
  expect.eq(s.vp.league, 2)
end)
