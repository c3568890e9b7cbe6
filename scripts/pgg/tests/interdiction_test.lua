-- Air interdiction [13.2] [13.3] [13.33] [13.4] [13.45].
local expect = kessel.expect

local function rifle(id, at) return { id = id, name = id, side = "soviet", type = "rifle", faces = { "3-3-6" }, at = at } end
local function pz(id, at) return { id = id, name = id, side = "german", type = "panzer", faces = { "4-4-10", "2-2-10" }, at = at } end

local function board(units, step, turn, extra)
  local spec = { map = { columns = 45, rows = 5,
      places = { { name = "Smolensk", kind = "major_city", hexes = { "2202", "2203" } } },
      tags = { road_supply_source = { "0103" } },
      links = { { kind = "road", path = { "0103", "0203", "0303" } } } },
    units = units, step = step, turn = turn or 5,
    markers = { { kind = "air_interdiction", side = "german", count = 3 }, { kind = "soviet_interdiction", side = "soviet", count = 3 } } }
  for k, v in pairs(extra or {}) do spec[k] = v end
  kessel.setup(spec)
end
local function place(hex) return kessel.act{ kind = "place_marker", hex = hex } end

-- Rule 13.2
kessel.test("case_13_2_german_places_three_in_air_phase_on_soviet_units_too", function()
  board({ rifle("r", "1003") }, "german_air_interdiction")
  expect.accepted(place("1003"), "a Soviet-occupied hex is fine")
  expect.accepted(place("1004"))
  local ok, why = place("1004")
  expect.refused(ok, why, "13", "already holds")
  expect.accepted(place("1005"))
  ok, why = place("1002")
  expect.refused(ok, why, "13.2", "no air_interdiction marker left")
  board({}, "german_movement")
  ok, why = place("1003")
  expect.refused(ok, why, "13.2", "Air Interdiction Phase")
end)

-- Rule 13.2
kessel.test("case_13_2_not_east_of_column_40_until_smolensk_held", function()
  board({}, "german_air_interdiction")
  local ok, why = place("4103")
  expect.refused(ok, why, "13.2", "column 40")
  expect.accepted(place("4003"))
  board({}, "german_air_interdiction", 6, { vars = { smolensk_held_since = 5 } })
  expect.accepted(place("4103"), "one turn after Smolensk was held")
  board({}, "german_air_interdiction", 5, { vars = { smolensk_held_since = 5 } })
  ok, why = place("4103")
  expect.refused(ok, why, "13.2", "column 40")
end)

-- Rule 13.2
kessel.test("case_13_2_smolensk_hold_is_judged_each_air_phase", function()
  board({ pz("a", "2202"), pz("b", "2203") }, "german_disruption_removal", 5)
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.var("smolensk_held_since"), 5)
  -- lost again: the limit returns
  board({ pz("a", "2202") }, "german_disruption_removal", 7, { vars = { smolensk_held_since = 5 } })
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.var("smolensk_held_since"), nil)
end)

-- Rule 13.33
kessel.test("case_13_33_german_markers_removed_end_of_soviet_movement", function()
  board({ rifle("r", "1003") }, "soviet_movement", 5,
    { markers = { { kind = "air_interdiction", side = "german", at = "1004" }, { kind = "soviet_interdiction", side = "soviet", at = "2004" } } })
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(#kessel.markers.all{ kind = "air_interdiction", placed = true }, 0)
  expect.eq(#kessel.markers.all{ kind = "soviet_interdiction", placed = true }, 1)
end)

-- Rule 13.4
kessel.test("case_13_4_soviet_marker_rules", function()
  board({ pz("g", "1003") }, "soviet_interdiction")
  local ok, why = place("1003")
  expect.refused(ok, why, "13.45", "German-occupied")
  expect.accepted(place("1004"))
  ok, why = place("1005")
  expect.refused(ok, why, "13.4", "one Soviet interdiction marker a turn")
  board({}, "soviet_interdiction", 12)
  ok, why = place("1005")
  expect.refused(ok, why, "13.4", "turn 12")
  board({}, "soviet_interdiction", 8, { vars = { soviet_interdiction_used = 3 } })
  ok, why = place("1005")
  expect.refused(ok, why, "13.4", "three times")
end)

-- Rule 13.4
kessel.test("case_13_4_soviet_marker_lasts_the_german_player_turn", function()
  board({}, "german_air_interdiction", 5,
    { markers = { { kind = "soviet_interdiction", side = "soviet", at = "2004" } } })
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.turn(), 6)
  expect.eq(#kessel.markers.all{ kind = "soviet_interdiction", placed = true }, 0)
end)

-- Rule 13.2: before turn 1 the German places first
kessel.test("case_13_2_initial_markers_before_first_soviet_move", function()
  board({ rifle("r", "1003") }, "soviet_movement", 1, { vars = { first_turn_16 = "move", first_turn_19 = "move" } })
  -- the decision is the German's, inside the Soviet Movement Phase (the deciding_side query)
  expect.eq(kessel.queries.ask("deciding_side", {}), "german")
  local ok, why = kessel.act{ kind = "move", units = { "r" }, path = { "1004" } }
  expect.refused(ok, why, "13.2", "places his air interdiction markers")
  expect.accepted(place("1005")); expect.accepted(place("1002")); expect.accepted(place("1001"))
  expect.eq(kessel.game.var("air_initial_done"), true)
  expect.eq(kessel.queries.ask("deciding_side", {}), "soviet")
  expect.accepted(kessel.act{ kind = "move", units = { "r" }, path = { "1004" } })
end)

-- WBC09 #15
kessel.test("case_wbc09_15_interdiction_on_overrun_cost", function()
  board({}, "german_movement", 5, { markers = { { kind = "soviet_interdiction", side = "soviet", at = "2004" } } })
  local I = require("rules.interdiction")
  expect.eq(I.overrun_surcharge("2004", "german"), 0, "standard")
  board({}, "german_movement", 5, { markers = { { kind = "soviet_interdiction", side = "soviet", at = "2004" } },
    options = { wbc09_15_interdiction_on_overrun_cost = true } })
  expect.eq(I.overrun_surcharge("2004", "german"), 1)
end)

-- [13.2] [13.45] [13.3] [13.44] The listing offers every hex a marker may go to, exactly those the
-- rules accept: an empty hex far from the enemy too (a German marker on an empty rail hex costs a
-- rail move 4 hexes [13.3]; the Soviet marker on the road behind a spearhead stops German supply
-- there [13.44]). Before, the German was offered only Soviet-occupied hexes and the Soviet only
-- hexes next to German units, so a player in the editor could not make either placement.
kessel.test("case_13_2_13_45_every_hex_a_marker_may_go_to_is_listed", function()
  local function listed_and_accepted()
    local listed = {}
    for _, a in ipairs(kessel.legal()) do if a.kind == "place_marker" then listed[a.hex] = true end end
    local accepted = {}
    for _, h in ipairs(kessel.map.hexes()) do
      if kessel.validate{ kind = "place_marker", hex = h } then accepted[h] = true end
      expect.eq(listed[h] == true, accepted[h] == true, h .. ": listed exactly when accepted")
    end
    return listed
  end
  board({ rifle("r", "1003"), pz("g", "2003") }, "german_air_interdiction")
  local listed = listed_and_accepted()
  expect.truthy(listed["1003"], "on the Soviet unit")
  expect.truthy(listed["3003"], "an empty hex far from any Soviet unit")
  expect.truthy(listed["4003"], "column 40")
  expect.falsy(listed["4103"], "east of column 40 [13.2]")
  board({ rifle("r", "1003"), pz("g", "2003") }, "soviet_interdiction")
  listed = listed_and_accepted()
  expect.truthy(listed["0203"], "the supply road far behind the German unit")
  expect.truthy(listed["2004"], "next to the German unit")
  expect.falsy(listed["2003"], "the German unit's hex [13.45]")
end)

-- Rule 13.2: the air markers' eastern limit (column 40) is lifted by holding Smolensk. On a map
-- that reaches past the limit with no Smolensk (a cut of the campaign map around Vyazma, say) no
-- hold could ever lift it: `kessel check` says so at scenario var air_limit_city
-- (I.limit_problems, the check hook's list). Before, every marker stayed west of column 40 all
-- game without a word.
kessel.test("case_13_2_an_eastern_limit_no_hold_can_lift_is_a_check_problem", function()
  local I = require("rules.interdiction")
  local air = { { kind = "air_interdiction", side = "german", count = 3 } }
  kessel.setup{ map = { columns = 44, rows = 2 }, step = "german_air_interdiction", turn = 3, units = {}, markers = air }
  local problems = I.limit_problems()
  expect.eq(#problems, 1, "a map past column 40 without Smolensk")
  expect.eq(problems[1].var, "air_limit_city")
  expect.truthy(problems[1].message:find("air_east_limit = 0", 1, true), problems[1].message)
  kessel.setup{ map = { columns = 44, rows = 2, places = { { name = "Smolensk", kind = "major_city", hexes = { "2201" } } } },
    step = "german_air_interdiction", turn = 3, units = {}, markers = air }
  expect.eq(#I.limit_problems(), 0, "Smolensk on the map: the limit can be lifted")
  kessel.setup{ map = { columns = 40, rows = 2 }, step = "german_air_interdiction", turn = 3, units = {}, markers = air }
  expect.eq(#I.limit_problems(), 0, "a map that ends at column 40 never meets the limit")
  kessel.setup{ map = { columns = 44, rows = 2 }, step = "german_air_interdiction", turn = 3, units = {} }
  expect.eq(#I.limit_problems(), 0, "no German air markers: no limit to lift")
end)

-- Rule 13.4: "three times a game" is the scenario's count of Soviet interdiction markers (the
-- campaign's `count = 3`), so a scenario that starts with fewer uses left says so with its count;
-- before, the rules allowed three whatever the scenario declared.
kessel.test("case_13_4_the_soviet_uses_a_game_are_the_scenarios_marker_count", function()
  local I = require("rules.interdiction")
  local one = { { kind = "air_interdiction", side = "german", count = 3 }, { kind = "soviet_interdiction", side = "soviet", count = 1 } }
  board({}, "soviet_interdiction", 8, { markers = one, vars = { soviet_interdiction_used = 1 } })
  local ok, why = place("1005")
  expect.refused(ok, why, "13.4", "used once this game")
  expect.eq(I.soviet_uses(), 1)
  board({}, "soviet_interdiction", 8, { vars = { soviet_interdiction_used = 2 } })
  expect.eq(I.soviet_uses(), 3, "the campaign's three")
  expect.accepted(place("1005"))
end)

-- Rule 13.4: a Soviet interdiction marker declared for the German is a contradiction `check`
-- names at the marker (the kind makes it a Soviet use whatever side the file gives).
kessel.test("case_13_4_a_soviet_marker_of_another_side_is_a_check_problem", function()
  local I = require("rules.interdiction")
  board({}, "soviet_interdiction", 8, { markers = { { kind = "soviet_interdiction", side = "soviet" },
    { kind = "soviet_interdiction", side = "german" } } })
  local problems = I.soviet_marker_problems()
  expect.eq(#problems, 1)
  expect.eq(problems[1].marker, 1, "the second marker, id 1")
  expect.truthy(problems[1].message:find("13.4", 1, true), problems[1].message)
  board({}, "soviet_interdiction", 8)
  expect.eq(#I.soviet_marker_problems(), 0, "the campaign's markers")
end)
