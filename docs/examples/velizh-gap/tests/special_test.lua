-- Rule tests of The Velizh gap: `kessel test` on the scenario folder runs every kessel.test here,
-- each from the scenario's set-up (turn 5 of the campaign, on a cut of its north). The scenario
-- changes no rule in Lua: its [vars] send German supply, and the line that holds a city, to the
-- north edge [11.1] [15], and its Soviet marker's count leaves him one use [13.4]; these tests
-- hold the PGG rules to that data.
local expect = kessel.expect
local S = require("rules.supply")
local V = require("rules.victory")

kessel.test("scenario_runs_turns_5_to_8", function()
  expect.eq(kessel.game.turn(), 5, "first_turn in scenario.toml")
  expect.eq(kessel.game.first_turn(), 5)
  expect.eq(kessel.game.last_turn(), 8, "turns in scenario.toml")
end)

-- The legal actions at the start must pass the rules' own checks.
kessel.test("legal_actions_at_the_start_are_valid", function()
  for _, a in ipairs(kessel.legal()) do
    local ok, reasons = kessel.validate(a)
    expect.accepted(ok, reasons)
  end
end)

-- [11.1] german_supply_edges = ["north"]: the 19th Panzer traces to the north edge, and a German
-- unit on this map's west edge, south of the marshes, is out of supply (the campaign's west edge
-- would have supplied it where it stands; swamp is entered but not passed [6.7]).
kessel.test("case_11_1_the_german_is_supplied_from_the_north_edge_only", function()
  local ok, why = S.in_supply("g-19pz-pz", "combat")
  expect.truthy(ok, why)
  expect.truthy(why:find("from the north edge", 1, true), why)
  kessel.setup{ turn = 5, step = "german_movement", units = {
    { id = "g", side = "german", type = "motorized", faces = { "3-3-10", "2-2-10" }, at = "0813" },
    { id = "l", side = "soviet", type = "leader", faces = { "0-3-10" }, attrs = { rating = 3 }, at = "2210" } } }
  ok, why = S.in_supply("g", "combat")
  expect.falsy(ok, "on the west edge, the marshes between it and the north edge")
  expect.truthy(why:find("north edge", 1, true), why)
end)

-- [15] The line that holds a city runs to the German's supply edge too: Velizh has one north
-- along the road's forest and clear hexes, a hex of the west edge south of the marshes none.
kessel.test("case_15_a_citys_line_runs_to_the_north_edge", function()
  kessel.setup{ turn = 8, step = "german_movement", units = {
    { id = "g", side = "german", type = "motorized", faces = { "3-3-10", "2-2-10" }, at = "1509" },
    { id = "l", side = "soviet", type = "leader", faces = { "0-3-10" }, attrs = { rating = 3 }, at = "2210" } } }
  expect.truthy(V.line_west("1509"), "Velizh to the north edge")
  expect.falsy(V.line_west("0813"), "the west edge is no German edge here")
end)

-- [11.2] Surazh lies beyond the marshes from every line east: its two divisions start out of
-- supply, and the answer names the edge in force.
kessel.test("case_11_2_surazh_beyond_the_marshes_starts_out_of_supply", function()
  local ok, why = S.in_supply("s-19a-r1", "combat")
  expect.falsy(ok)
  expect.truthy(why:find("east edge", 1, true), why)
  expect.truthy(S.in_supply("s-22a-r1", "combat"), "Velizh is Ershakov's")
end)

-- [13.4] The Soviet marker's count is his uses a game: this scenario's one is spent on turn 5 and
-- refused on turn 6.
kessel.test("case_13_4_one_soviet_interdiction_use_left", function()
  local function end_phases_until(id)
    repeat expect.accepted(kessel.act{ kind = "end_phase" }) until kessel.game.step().id == id
  end
  end_phases_until("soviet_interdiction")
  expect.accepted(kessel.act{ kind = "place_marker", hex = "1505" })
  end_phases_until("soviet_movement")
  expect.eq(kessel.game.turn(), 6)
  end_phases_until("soviet_interdiction")
  local ok, why = kessel.act{ kind = "place_marker", hex = "1505" }
  expect.refused(ok, why, "13.4", "used once")
  expect.eq(require("rules.interdiction").soviet_uses(), 1, "count = 1 in scenario.toml")
end)
