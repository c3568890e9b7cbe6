-- Situations from the reference material, seventh tester pass (round 6): the sequence of play
-- walked phase by phase (markers, supply, disruption), the refusals a player meets when he tries
-- the wrong thing, and the leftovers of the fifth pass. Each test works out by hand what the cited
-- cases demand and checks what the engine does and which case it names.
local expect = kessel.expect
local B = require("testing.board10")

local function to_step(id)
  local guard = 0
  while kessel.game.step().id ~= id do
    expect.accepted(kessel.act{ kind = "end_phase" })
    guard = guard + 1
    assert(guard < 12, "did not reach " .. id)
  end
end

local function mp(id) return kessel.queries.ask("mp_left", { unit = id }) end

-- [13.4] [13.3] [13.44] The Soviet interdiction marker is placed at the end of the Soviet
-- player-turn and "affects both German Movement Phases": entering its hex costs a German unit 1 MP
-- more in the Initial Movement Phase and again in the Mechanized Movement Phase, German supply may
-- not be traced through it (judged at the start of each German Movement Phase and at the instant of
-- combat), and it comes off at the end of the German player-turn (the Air Interdiction Phase), not
-- at the end of the German Movement Phase as the German markers do after the Soviet's [13.33].
-- Board: a supply road 0103-0503 on a 10x10 map; an infantry division in 0605 is boxed in by
-- lake hexes but for 0505, and 0505 by lakes but for 0504 (and 0605): every line the division
-- traces, by road or by MP to the west edge, runs through 0505, where the Soviet marker goes.
kessel.test("case_13_4_soviet_marker_lasts_both_german_movement_phases_then_goes", function()
  local lakes = {}
  for _, h in ipairs{ "0604", "0606", "0705", "0706", "0506", "0404", "0405" } do lakes[h] = "lake" end
  B.setup({ B.pz("g", "0303", "4-4-10"), B.inf("i", "0605"), B.rifle("r", "0909", "2-2-6"), B.leader("l", "0910", 3) },
    { step = "soviet_interdiction", turn = 5,
      map = { columns = 10, rows = 10, terrain = lakes, tags = { road_supply_source = { "0103" } },
        links = { { kind = "road", path = { "0103", "0203", "0303", "0403", "0503" } } } },
      markers = { { kind = "soviet_interdiction", side = "soviet", count = 3 }, { kind = "air_interdiction", side = "german", count = 3 } } })
  expect.accepted(kessel.act{ kind = "place_marker", hex = "0505" })
  to_step("german_movement")
  local s = kessel.queries.ask("supply", { unit = "i" })
  expect.falsy(s.in_supply, "no line through the Soviet marker [13.44]: " .. tostring(s.why))
  expect.eq(mp("i").allowance, 3, "judged out of supply at the start of the Initial Movement Phase: 7 halved [11.3]")
  -- the panzer pays 1 MP more to enter the marked hex: road ½ into 0403, clear 1 into 0504,
  -- clear 1 + 1 into 0505; then back to 0504
  local ok, ev = kessel.act{ kind = "move", units = { "g" }, path = { "0403", "0504", "0505" } }
  expect.accepted(ok, ev)
  expect.eq(mp("g").left, 10 - 0.5 - 1 - 2, "½ by road, 1, then 1 + 1 under the marker")
  expect.accepted(kessel.act{ kind = "move", units = { "g" }, path = { "0504" } })
  to_step("german_mech_movement")
  expect.eq(#kessel.markers.all{ kind = "soviet_interdiction", placed = true }, 1, "still there in the Mechanized Movement Phase")
  expect.falsy(kessel.queries.ask("supply", { unit = "i" }).in_supply, "still cut in the Mechanized Movement Phase")
  ok, ev = kessel.act{ kind = "move", units = { "g" }, path = { "0505" } }
  expect.accepted(ok, ev)
  expect.eq(ev[1].cost, 2, "the second German Movement Phase pays the marker too")
  to_step("german_air_interdiction")
  expect.eq(#kessel.markers.all{ kind = "soviet_interdiction", placed = true }, 1, "on the map until the end of the German player-turn")
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.turn(), 6)
  expect.eq(#kessel.markers.all{ kind = "soviet_interdiction", placed = true }, 0, "removed at the end of the German player-turn")
  expect.truthy(kessel.queries.ask("supply", { unit = "i" }).in_supply, "the line is open again")
end)

-- [13.2] [13.3] [13.33] German air markers placed in the German Air Interdiction Phase of turn 7
-- stay through the turn change and slow the Soviet Movement Phase of turn 8: +1 MP to enter a
-- marked hex, and a marked rail hex costs a rail move 5 of its 30 hexes; they do nothing to the
-- Soviet Combat Phase and are gone at the end of the Soviet Movement Phase [13.33], so the German
-- Movement Phase of turn 8 sees none.
kessel.test("case_13_33_german_markers_last_from_the_air_phase_through_the_next_soviet_movement", function()
  local rail = {}
  for c = 1, 10 do rail[#rail + 1] = string.format("%02d01", c) end
  B.setup({ B.pz("g", "0808"), B.rifle("r", "0505", "2-2-6"), B.rifle("t", "0101", "2-2-6"), B.leader("l", "0506", 5) },
    { step = "german_air_interdiction", turn = 7,
      map = { columns = 10, rows = 10, links = { { kind = "railway", path = rail } } },
      markers = { { kind = "air_interdiction", side = "german", count = 3 } } })
  expect.accepted(kessel.act{ kind = "place_marker", hex = "0504" })
  expect.accepted(kessel.act{ kind = "place_marker", hex = "0301" })
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.turn(), 8)
  expect.eq(kessel.game.step().id, "soviet_movement")
  expect.eq(#kessel.markers.all{ kind = "air_interdiction", placed = true }, 2, "the turn change leaves them in place")
  local ok, ev = kessel.act{ kind = "move", units = { "r" }, path = { "0504" } }
  expect.accepted(ok, ev)
  expect.eq(ev[1].cost, 2, "clear 1 + 1 under the German marker [13.3]")
  -- t rails east along row 01 from 0101: 0201 (1), 0301 under the marker (5), 0401 ... 1001 (1
  -- each): 0101 -> 1001 costs 13 rail hexes
  ok, ev = kessel.act{ kind = "rail_move", units = { "t" }, path = { "1001" } }
  expect.accepted(ok, ev)
  expect.truthy(B.note(ev, "13 rail hexes"), B.all_notes(ev))
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(#kessel.markers.all{ kind = "air_interdiction", placed = true }, 0, "removed at the end of the Soviet Movement Phase [13.33]")
  to_step("german_movement")
  expect.eq(#kessel.markers.all{ kind = "air_interdiction", placed = true }, 0, "none in the German player-turn")
end)

-- [11.3] Supply is judged at the start of the Movement Phase for movement and at the instant of
-- combat for combat. A Soviet rifle (4-4-6) at 0505 begins the Soviet Movement Phase out of supply
-- (its leader, rating 2, in 0907, is four hexes away): it moves at half MA (3) for the whole
-- phase, though the leader then walks up beside it (0604). In the Soviet Combat Phase the same
-- rifle attacks at its full 4: it is in supply at that instant. (A Soviet unit out of its leader's
-- radius may not attack at all [10.35]: the other way round is the German's defence, below.)
kessel.test("case_11_3_supply_for_combat_is_judged_at_the_attack_not_at_the_start_of_movement", function()
  B.setup({ B.rifle("a", "0505", "4-4-6"), B.leader("l", "0907", 2), B.pz("g1", "0404", "4-4-10") },
    { step = "soviet_movement", turn = 7, run_step_start = true })
  expect.eq(mp("a").allowance, 3, "out of supply at the start of the phase: 6 halved")
  expect.accepted(kessel.act{ kind = "move", units = { "l" }, path = { "0604" } })
  expect.eq(mp("a").allowance, 3, "the movement judgement stands for the whole phase")
  expect.truthy(kessel.queries.ask("supply", { unit = "a" }).in_supply, "in supply now")
  to_step("soviet_combat")
  kessel.inject_dice{ 1 }   -- 4 against 4, 1-1, roll 1: D1
  local ok, ev = kessel.act{ kind = "attack", units = { "a" }, targets = { "0404" } }
  expect.accepted(ok, ev)
  local rec = kessel.log.records{ kind = "combat" }
  expect.eq(rec[#rec].fields.attack, 4, "in supply at the instant of the attack: full strength. " .. B.all_notes(ev))
end)

-- [11.3] [11.1] [8] The German's defence is judged at the instant of the Soviet attack too. A
-- panzer regiment (4-4-10) in 0505 is in supply when the Soviet Movement Phase begins (a rifle
-- and its leader in 0404 cover two of its six neighbours with their zone, 0405 and 0504). A second
-- rifle moves into 0605: its zone covers 0604 and 0506, so every hex around the panzer is Soviet
-- or in an uncovered Soviet zone, and no German line leaves 0505. In the Soviet Combat Phase the
-- panzer defends at 2 (4 halved): out of supply at that instant.
kessel.test("case_11_3_german_defence_is_judged_at_the_instant_of_the_soviet_attack", function()
  B.setup({ B.pz("g", "0505", "4-4-10"), B.rifle("b", "0404", "4-4-6"), B.leader("l", "0404", 3), B.rifle("c", "0706", "2-2-6") },
    { step = "soviet_movement", turn = 7, run_step_start = true })
  expect.truthy(kessel.queries.ask("supply", { unit = "g" }).in_supply, "in supply before the Soviet moves")
  expect.accepted(kessel.act{ kind = "move", units = { "c" }, path = { "0605" } })
  local s = kessel.queries.ask("supply", { unit = "g" })
  expect.falsy(s.in_supply, "cut off by the move")
  to_step("soviet_combat")
  kessel.inject_dice{ 1 }   -- 4 against 2: 2-1, roll 1: D2
  local ok, ev = kessel.act{ kind = "attack", units = { "b" }, targets = { "0505" } }
  expect.accepted(ok, ev)
  local rec = kessel.log.records{ kind = "combat" }
  expect.eq(rec[#rec].fields.defence, 2, "out of supply at the instant: 4 halved. " .. B.all_notes(ev))
  expect.eq(rec[#rec].fields.odds, "2-1")
end)

-- [9.71] [9.72] The refusals the German meets when he picks a Soviet retreat path badly name the
-- retreating unit, the hex and what bars it, with the case. A panzer (8-8-10, 0505) attacks a
-- rifle (2-2-6, 0404) at 4-1 and rolls 3: D2/A1; the Soviet retreats, the German picks the path.
-- 0304 is a lake; a second panzer in 0406 puts 0405 in its zone. Before the Soviet has chosen, a
-- retreat or an advance is refused with the decision that is waiting (not "no retreat is waiting").
kessel.test("case_9_71_retreat_refusals_name_the_unit_the_hex_and_the_reason", function()
  B.setup({ B.pz("g", "0505", "8-8-10"), B.pz("g2", "0406"), B.rifle("r", "0404"), B.leader("l", "0802", 5) },
    { step = "german_combat", turn = 7, map = { columns = 10, rows = 10, terrain = { ["0304"] = "lake" } } })
  kessel.inject_dice{ 3 }
  expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0404" } })
  local ok, why = kessel.act{ kind = "retreat", unit = "r", path = { "0403", "0402" } }
  expect.refused(ok, why, "9.6", "D2/A1: the defender loses 2 step(s) or retreats 2 hex(es)")
  ok, why = kessel.act{ kind = "advance", units = { "g" }, path = { "0404" } }
  expect.refused(ok, why, "9.6", "a decision is waiting")
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  ok, why = kessel.act{ kind = "retreat", unit = "r", path = { "0403" } }
  expect.refused(ok, why, "9.71", "r: the retreat is exactly 2 hex(es), this path has 1")
  ok, why = kessel.act{ kind = "retreat", unit = "r", path = { "0304", "0303" } }
  expect.refused(ok, why, "9.71", "r: units never retreat into a lake hex (0304)")
  ok, why = kessel.act{ kind = "retreat", unit = "r", path = { "0405", "0305" } }
  expect.refused(ok, why, "9.71", "0405 is in the zone of control of g (Fg) at 0505")
  ok, why = kessel.act{ kind = "retreat", unit = "r", path = { "0403", "0404" } }
  expect.refused(ok, why, "9.71", "r: a retreat never enters a hex twice nor goes back to the hex it left (0404)")
  ok, why = kessel.act{ kind = "choose", choice = "loss" }
  expect.refused(ok, why, "9.72", "a decision is waiting: pick the 2-hex retreat path")
  expect.accepted(kessel.act{ kind = "retreat", unit = "r", path = { "0403", "0402" } })
end)

-- [15] A city of two hexes counts for the German when both hexes are his and a line free of
-- Soviet units and zones of control runs to the west edge from each of them; the engine traced
-- the line from the hex the scenario lists first only, so the score depended on the listing order.
-- Smolensk 2202+2203 on a 30x6 strip, both German-owned: 2202 empty (the German passed through it)
-- with a line west by 2102; a panzer in 2203 cut off: every neighbour of 2203 is Soviet (2104) or
-- in an uncovered Soviet zone (2103, 2204, 2303, 2304, and 2202, empty, in the zone of the rifle
-- in 2302). Listed either way round, Smolensk is not held; once the rifle in 2104 is gone (2103
-- and 2204 open) it is, either way round.
kessel.test("case_15_two_hex_city_needs_a_line_from_each_hex_whatever_the_listing_order", function()
  local V = require("rules.victory")
  local function held(order, soviets)
    local units = { B.pz("a", "2203"), B.leader("l", "2904", 3) }
    for _, u in ipairs(soviets) do units[#units + 1] = u end
    kessel.setup{ map = { columns = 30, rows = 6, places = { { name = "Smolensk", kind = "major_city", hexes = { "2202", "2203" } } } },
      units = units, step = "german_air_interdiction", turn = 9,
      vars = { objectives = { { name = "Smolensk", vp = 25, hexes = order } }, city_owner = { ["2202"] = "german", ["2203"] = "german" } } }
    return #V.german_held() == 1
  end
  local ring = { B.rifle("s1", "2302", "2-2-6"), B.rifle("s2", "2104", "2-2-6"), B.rifle("s3", "2305", "2-2-6") }
  expect.falsy(held({ "2202", "2203" }, ring), "2203 is cut off: not held")
  expect.falsy(held({ "2203", "2202" }, ring), "the same listed the other way round")
  local open = { B.rifle("s1", "2302", "2-2-6"), B.rifle("s3", "2305", "2-2-6") }
  expect.truthy(held({ "2202", "2203" }, open), "2203 traces west by 2103: held")
  expect.truthy(held({ "2203", "2202" }, open), "held either way round")
end)

-- [13.2] [15] "Smolensk taken, with a line to the west edge": taken as cities are taken for
-- victory, by a German combat unit in each hex or the last to pass through it. A panzer drives
-- through both Smolensk hexes (2202, 2203) on turn 5 and on to 2303, leaving them empty; nothing
-- Soviet is near. At the German Air Interdiction Phase the German holds Smolensk (the engine asked
-- for German units standing in both hexes and said it was not held); on turn 6 the markers may
-- go east of column 40, the Soviet never having recaptured it.
kessel.test("case_13_2_smolensk_taken_by_passing_through_stays_taken_until_recaptured", function()
  kessel.setup{ map = { columns = 45, rows = 5, places = { { name = "Smolensk", kind = "major_city", hexes = { "2202", "2203" } } } },
    units = { B.pz("a", "1802"), B.rifle("r", "4404", "2-2-6"), B.leader("l", "4405", 2) }, step = "german_movement", turn = 5,
    vars = { objectives = { { name = "Smolensk", vp = 25, hexes = { "2202", "2203" } } } },
    markers = { { kind = "air_interdiction", side = "german", count = 3 } } }
  expect.accepted(kessel.act{ kind = "move", units = { "a" }, path = { "1902", "2002", "2102", "2202", "2203", "2303" } })
  to_step("german_air_interdiction")
  expect.eq(kessel.game.var("smolensk_held_since"), 5, "taken on turn 5, though no German stands in it")
  local ok, why = kessel.act{ kind = "place_marker", hex = "4103" }
  expect.refused(ok, why, "13.2", "column 40")
  expect.accepted(kessel.act{ kind = "end_phase" })
  to_step("german_air_interdiction")
  expect.eq(kessel.game.turn(), 6)
  expect.eq(kessel.game.var("smolensk_held_since"), 5, "still held: the Soviet has not recaptured it")
  expect.accepted(kessel.act{ kind = "place_marker", hex = "4103" }, "one turn after it was taken")
end)

-- WBC09 #14 [12.4] "The Soviet player selects" the destroyed rifle divisions that return as
-- reinforcements once the original ones are used; the engine drew them at random (no choice was
-- offered). The counter mix is used up; three divisions died on turn 2 (7-7-6, 3-3-6, 9-8-6); a
-- face-down division entered on turn 5 (so all three may be it: dead two turns before). In his
-- Movement Phase the Soviet names the 9-8-6, then the 7-7-6; attacked in the German Combat
-- Phase the face-down division is revealed as the 9-8-6, not drawn. The next division taken from
-- the pile (for a provisional or South-Western Front division) is the 7-7-6, his second choice. Under the standard rules
-- there is nothing to select: dead counters come back at random [12.4].
kessel.test("case_wbc09_14_the_soviet_selects_the_returning_divisions", function()
  local function dead(id, face)
    return B.rifle(id, nil, face, { name = "Rifle " .. id, location = "eliminated", pool = "rifle", vars = { elim_turn = 2 } })
  end
  local function board(options)
    B.setup({ B.pz("g", "0303", "8-8-10"), B.leader("l", "0705", 5),
      { id = "u", name = "u", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0403", vars = { entered_turn = 5 } },
      dead("d1", "7-7-6"), dead("d2", "3-3-6"), dead("d3", "9-8-6") },
      { step = "soviet_movement", turn = 5, options = options, pools = { rifle = {} },
        vars = { dead_pile = { "d1", "d2", "d3" }, provisional_last = { turn = 5 } } })
  end
  board({})
  local ok, why = kessel.act{ kind = "select_returning", units = { "d3" } }
  expect.refused(ok, why, "WBC09 #14", "drawn at random")
  board({ wbc09_14_rifle_recycling_delay = true })
  ok, why = kessel.act{ kind = "select_returning", units = { "g" } }
  expect.refused(ok, why, "WBC09 #14", "g is not a destroyed Soviet rifle division")
  local chosen = expect.accepted(kessel.act{ kind = "select_returning", units = { "d3", "d1" } })
  expect.truthy(B.note(chosen, "first wanted first: Rifle d3, Rifle d1"), B.all_notes(chosen))
  to_step("german_combat")
  kessel.inject_dice{ 1 }
  local ev = expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
  expect.truthy(B.note(ev, "revealed as 9-8-6"), B.all_notes(ev))
  expect.truthy(B.note(ev, "the Soviet selected Rifle d3 from the dead pile"), B.all_notes(ev))
  local R = require("rules.reinforcements")
  expect.eq(R.available_rifles()[1].id, "d1", "his second choice comes back next")
  local n = 0
  for _, u in ipairs(R.available_rifles()) do if u.id == "d3" then n = n + 1 end end
  expect.eq(n, 0, "the 9-8-6 is in play again: it does not come back a second time")
end)

-- [4] [5.2] [13.2] [14.3] [6.37] More refusals a player meets, each naming the unit or hex it
-- is about (they used to state the rule alone): a 20th Army rifle division ending its first-turn
-- move in column 02; a 16th Army division that rolled to stand asked to move by rail; a German
-- air marker east of column 40 before Smolensk is held; a German reinforcement brought in during
-- the Mechanized Movement Phase; a rail cut asked for with all six markers on the map.
kessel.test("case_4_refusals_name_the_unit_and_the_hex", function()
  B.setup({ B.rifle("a", "0105", "2-2-6", { formation = "20 Army" }), B.rifle("s", "0505", "2-2-6", { formation = "16 Army" }),
    B.leader("l", "0506", 3) },
    { step = "soviet_movement", turn = 1, vars = { first_turn_16 = "stand", first_turn_19 = "move", air_initial_done = true },
      map = { columns = 10, rows = 10, links = { { kind = "railway", path = { "0505", "0605", "0705" } } } } })
  local ok, why = kessel.act{ kind = "move", units = { "a" }, path = { "0104", "0204" } }
  expect.refused(ok, why, "5.2", "may not end their move in columns 01-02 (a (20 Army), 0204)")
  ok, why = kessel.act{ kind = "rail_move", units = { "s" }, path = { "0705" } }
  expect.refused(ok, why, "5.2", "the 16 Army rolled to stand on the first turn: s (16 Army) in 0505 may not move by rail")
  B.setup({ B.pz("g", "0303") }, { step = "german_air_interdiction", turn = 4, map = { columns = 45, rows = 5 },
    markers = { { kind = "air_interdiction", side = "german", count = 3 } } })
  ok, why = kessel.act{ kind = "place_marker", hex = "4103" }
  expect.refused(ok, why, "13.2", "4103 is east of column 40")
  B.setup({ B.pz("g", "0303"), B.pz("late", nil, nil, { enter = { turn = 4, area = "C" } }) },
    { step = "german_mech_movement", turn = 4, map = { columns = 10, rows = 10, areas = { C = { "0105" } } } })
  ok, why = kessel.act{ kind = "move", units = { "late" }, path = { "0105" } }
  expect.refused(ok, why, "14.3", "(initial) Movement Phase (late (Flate))")
  local cuts = {}
  for i = 1, 6 do cuts[i] = { kind = "rail_cut", at = string.format("09%02d", i) } end
  B.setup({ B.pz("g", "0303") }, { step = "german_movement", turn = 4, markers = cuts,
    map = { columns = 10, rows = 10, links = { { kind = "railway", path = { "0303", "0403", "0503" } } } } })
  ok, why = kessel.act{ kind = "move", units = { "g" }, path = { "0403", "0503" }, rail_cut = "0403" }
  expect.refused(ok, why, "6.37", "all six rail cut markers are on the map: no cut at 0403")
end)

-- [14.1] The die picks the provisional division's entrance; where in that entrance it comes on is
-- the Soviet's choice. The engine put it on the entrance's first open hex with no choice, which
-- matters for the campaign's entrance 1 (the north-edge area V, nine hexes: 1901 to 2701, eight
-- hexes apart). Entrance P1 here is 0301-0801 on a 10x10 map; a panzer holds 0401 and puts 0301
-- and 0501 in its zone. The die says 1: the division comes on at 0601 (the first open hex); the Soviet
-- puts it on 0801 instead (listed among his actions), not on 0501 (German ZOC), not outside the
-- entrance, not a second time (the choice is made once), and not once it has moved.
kessel.test("case_14_1_the_soviet_places_the_provisional_division_in_its_entrance", function()
  B.setup({ { id = "p", name = "p", side = "soviet", type = "rifle", hidden = true, pool = "rifle", formation = "Provisional" },
    B.pz("g", "0401"), B.leader("l", "0909", 3) },
    { step = "german_air_interdiction", turn = 4, pools = { rifle = { "3-3-6" } },
      map = { columns = 10, rows = 10, areas = { P1 = { "0301", "0401", "0501", "0601", "0701", "0801" },
        P2 = { "1005" }, P3 = { "1006" }, P4 = { "1007" }, P5 = { "1008" }, P6 = { "1009" } } } })
  kessel.inject_dice{ 1 }
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(B.where("p"), "0601", "the first open hex of entrance 1")
  local listed = {}
  for _, a in ipairs(kessel.legal("soviet")) do if a.kind == "place_provisional" then listed[#listed + 1] = a.hex end end
  expect.eq(table.concat(listed, ","), "0701,0801", "the other open hexes of the entrance are offered")
  local ok, why = kessel.act{ kind = "place_provisional", hex = "0501" }
  expect.refused(ok, why, "14.1", "0501 is not open for rifle (face down, Provisional)")
  ok, why = kessel.act{ kind = "place_provisional", hex = "0902" }
  expect.refused(ok, why, "14.1", "0902 is not a hex of entrance P1")
  expect.accepted(kessel.act{ kind = "place_provisional", hex = "0801" })
  expect.eq(B.where("p"), "0801")
  expect.eq(mp("p").left, 6, "still its whole MA")
  -- the choice is made once: no second placement is offered or accepted
  for _, a in ipairs(kessel.legal("soviet")) do
    if a.kind == "place_provisional" then error("a second placement is listed: " .. a.hex) end
  end
  ok, why = kessel.act{ kind = "place_provisional", hex = "0701" }
  expect.refused(ok, why, "14.1", "is chosen once")
  expect.accepted(kessel.act{ kind = "move", units = { "p" }, path = { "0802" } })
  ok, why = kessel.act{ kind = "place_provisional", hex = "0701" }
  expect.refused(ok, why, "14.1", "rifle (face down, Provisional) has moved")
end)

-- [14.3] [6.1] [6.22] The `reach` query (kessel query, the editor's move field) for a reinforcement
-- waiting to enter answered "not on the map". It now gives every hex the unit may reach this phase
-- from its entry area, at the cheapest cost over the entry hexes, and each listed hex is one a
-- `move` from an entry hex reaches at that cost. Area C is 0103-0105 on a 10x10 map, 0104 forest;
-- a Soviet rifle in 0207 puts 0107 in its zone. A panzer regiment (MA 10) entering at 0105 pays 1,
-- at 0104 2 (forest: 2 for motorized units whichever way it is entered).
kessel.test("case_14_3_reach_of_a_reinforcement_is_its_field_from_the_entry_area", function()
  B.setup({ B.pz("late", nil, nil, { enter = { turn = 4, area = "C" } }), B.rifle("r", "0207", "2-2-6"), B.leader("l", "0909", 3) },
    { step = "german_movement", turn = 4, map = { columns = 10, rows = 10, areas = { C = { "0103", "0104", "0105" } },
      terrain = { ["0104"] = "forest" } } })
  local r = kessel.queries.ask("reach", { units = { "late" } })
  expect.eq(#r.refused, 0, "a reinforcement in its entry phase may move")
  local cost = {}
  for _, x in ipairs(r.reachable) do cost[x.hex] = x.cost end
  expect.eq(cost["0105"], 1, "entry at 0105: clear")
  expect.eq(cost["0104"], 2, "0104 is forest: 2 from off the map (3 through 0105)")
  expect.eq(cost["0106"], 2, "one hex on from 0105")
  expect.eq(cost["0107"], 3, "into the rifle's zone, where the move ends")
  expect.eq(cost["0207"], nil, "the rifle's hex")
  -- every listed hex is a move from some entry hex at that cost, and the cheapest such
  for _, x in ipairs(r.reachable) do
    local best
    for _, e in ipairs{ "0103", "0104", "0105" } do
      local path = x.hex == e and { e } or { e, x.hex }
      local plan = require("rules.movement").plan{ kind = "move", units = { "late" }, path = path }
      if plan then
        local c = plan.legs["late"].cost
        if best == nil or c < best then best = c end
      end
    end
    expect.eq(best, x.cost, "a move to " .. x.hex)
    -- the answer spells that move: its path enters by the entry hex of the cheapest way in
    local plan = require("rules.movement").plan{ kind = "move", units = { "late" }, path = x.path }
    expect.truthy(plan, "the path given for " .. x.hex)
    expect.eq(plan and plan.legs["late"].cost, x.cost, "the path given for " .. x.hex)
  end
  -- the move by the cheapest entry hex: 0105, then on to 0107 (a path of the entry hex and the
  -- destination)
  local ok, ev = kessel.act{ kind = "move", units = { "late" }, path = { "0105", "0107" } }
  expect.accepted(ok, ev)
  expect.eq(B.where("late"), "0107")
  expect.eq(mp("late").left, 10 - 3, "entered at 0105 (1), then 0106 and 0107")
  -- out of its phase it says why
  B.setup({ B.pz("late", nil, nil, { enter = { turn = 4, area = "C" } }) },
    { step = "german_mech_movement", turn = 4, map = { columns = 10, rows = 10, areas = { C = { "0103", "0104", "0105" } } } })
  r = kessel.queries.ask("reach", { units = { "late" } })
  expect.eq(r.refused[1].rule, "14.3")
  expect.truthy(r.refused[1].message:find("(initial) Movement Phase", 1, true), r.refused[1].message)
end)

-- [9.7] [9.72] In the standard game the stacks of a multi-hex defence retreat whole; the German,
-- who picks the paths, picks which stack goes first (ninth tester pass: the engine made him take
-- them in the order of the attack's targets). Splitting a stack is refused naming the stack.
-- (Rifles in 0403 and 0404 attacked from 0304 and 0504 at 4-1, roll 4: D1, the Soviet retreats.)
kessel.test("case_9_72_the_opponent_picks_which_defending_stack_retreats_first", function()
  B.setup{ B.pz("g", "0304", "8-8-10"), B.pz("h", "0504", "8-8-10"), B.rifle("a", "0403", "2-2-6"),
    B.rifle("b", "0404", "1-1-6"), B.rifle("c", "0404", "1-1-6"), B.leader("l", "0705", 5) }
  kessel.inject_dice{ 4 } -- 16 against 4: 4-1, roll 4: D1
  expect.accepted(kessel.act{ kind = "attack", units = { "g", "h" }, targets = { "0403", "0404" } })
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  local ok, why = kessel.act{ kind = "retreat", units = { "b" }, path = { "0405" } }
  expect.refused(ok, why, "9.7", "b in 0404 must retreat with b, c")
  ok, why = kessel.act{ kind = "retreat", units = { "a", "b" }, path = { "0402" } }
  expect.refused(ok, why, "9.72", "units retreating together must start in one hex (a is in 0403, b in 0404)")
  expect.accepted(kessel.act{ kind = "retreat", units = { "b", "c" }, path = { "0405" } })
  expect.accepted(kessel.act{ kind = "retreat", units = { "a" }, path = { "0402" } })
  expect.eq(B.where("a"), "0402")
  expect.eq(B.where("c"), "0405")
end)

-- [5.2] [13.2] WBC09 sides. The 16th and 19th Armies' die roll is part of the first Soviet
-- Movement Phase, after the Soviet set-up and the German's initial air markers; it was made when
-- the game was loaded, so the German placed his markers knowing whether the two armies would move
-- (the provisional roll [14.1] was moved behind the markers for the same reason in the third
-- pass). Now the roll is refused and not offered while the markers are being placed, and made as
-- the last one goes down (die 2: the 16th moves; die 5: the 19th stands). Under the WBC bidding
-- the players roll first and then bid, so there it is made at once.
kessel.test("case_5_2_the_first_turn_roll_comes_after_the_initial_air_markers", function()
  local function board(options)
    B.setup({ B.rifle("a", "0505", "2-2-6", { formation = "16 Army" }), B.rifle("b", "0805", "2-2-6", { formation = "19 Army" }),
      B.leader("l", "0706", 3) },
      { step = "soviet_movement", turn = 1, options = options, markers = { { kind = "air_interdiction", side = "german", count = 3 } } })
  end
  board({})
  local ok, why = kessel.act{ kind = "first_turn_roll", side = "soviet" }
  expect.refused(ok, why, "13.2", "initial air markers")
  ok, why = kessel.act{ kind = "first_turn_roll" }
  expect.refused(ok, why, "5.2", "after the Soviet set-up and the German's initial air markers")
  for _, a in ipairs(kessel.legal()) do expect.truthy(a.kind ~= "first_turn_roll", "not offered under the markers") end
  expect.accepted(kessel.act{ kind = "place_marker", hex = "0505" })
  expect.accepted(kessel.act{ kind = "place_marker", hex = "0805" })
  expect.eq(kessel.game.var("first_turn_16"), nil, "not rolled while the German places his markers")
  kessel.inject_dice{ 2, 5, 1 }   -- 16th, 19th, then the provisional roll [14.1]
  local ev = expect.accepted(kessel.act{ kind = "place_marker", hex = "0606" })
  expect.eq(kessel.game.var("first_turn_16"), "move")
  expect.eq(kessel.game.var("first_turn_19"), "stand")
  expect.truthy(B.note(ev, "16 Army rolls 2"), B.all_notes(ev))
  board({ vp_bidding = true })
  kessel.inject_dice{ 3, 4, 1 }   -- who bids first (WBC09 sides), then the 16th and the 19th
  expect.accepted(kessel.act{ kind = "first_turn_roll" }, "WBC: roll first, then bid")
  expect.eq(kessel.game.var("first_turn_16"), "stand")
end)
