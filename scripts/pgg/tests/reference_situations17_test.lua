-- Situations from the reference material, rules25 pass: open readings of the rules24 pass decided
-- by the reference, and cases not yet played together. Each is played through actions on a small
-- board. Geometry of the 10x10 map: odd columns N, NE = c+1 r-1, SE = c+1 r, S, SW = c-1 r,
-- NW = c-1 r-1; even columns NE = c+1 r, SE = c+1 r+1, SW = c-1 r+1, NW = c-1 r.
local expect = kessel.expect
local B = require("testing.board10")

local function rail_move(units, path) return kessel.act{ kind = "rail_move", units = units, path = path } end

local function listed_rail_moves(units)
  local n = 0
  for _, a in ipairs(kessel.legal("soviet")) do
    if a.kind == "rail_move" and table.concat(a.units, ",") == units then n = n + 1 end
  end
  return n
end

-- [14.3] [6.3] [4] A scheduled Soviet reinforcement that comes onto the map on a railway hex may
-- ride on by rail in the same Movement Phase. The sequence of play brings reinforcements in before
-- rail movement, and rail movement asks only that the unit begin and end on the railway, within
-- the turn's eight units and 30 rail hexes; the entry is the unit's arrival, not a move made
-- before riding. The engine refused the ride, because entering had cost the entry hex's MP and a
-- rail move needs a unit that has not moved ("has already moved this phase"). Provisional and
-- South-Western Front divisions, placed on their hexes, could already ride.
-- Board, Soviet Movement Phase of turn 7: a railway along row 05 from 1005 (east edge, area X) to
-- 0305. Rifle q and tank t arrive at 1005 and ride to 0405 (6 rail hexes); the tank counts 3 of
-- the turn's 8. A rifle that entered and then walked one hex on (to 0905) has moved and may not
-- ride; nor may one that entered at 1005, walked to 0905 and came back.
kessel.test("case_14_3_a_scheduled_arrival_on_a_railway_hex_may_ride_on_that_phase", function()
  local rail = { kind = "railway", path = { "1005", "0905", "0805", "0705", "0605", "0505", "0405", "0305" } }
  local function board()
    B.setup({ B.rifle("q", nil, "2-2-6", { enter = { turn = 7, area = "X" } }),
      { id = "t", name = "t", side = "soviet", type = "tank", faces = { "4-4-10" }, enter = { turn = 7, area = "X" } },
      B.rifle("w", nil, "2-2-6", { enter = { turn = 7, area = "X" } }),
      B.leader("l", "0405", 4), B.pz("g", "0110", "4-4-10") },
      { map = { columns = 10, rows = 10, links = { rail }, areas = { X = { "1005" } } }, step = "soviet_movement" })
  end
  board()
  expect.accepted(B.move({ "q", "t" }, { "1005" }))
  expect.eq(listed_rail_moves("q,t"), 7, "the arrivals' rail moves are listed: 0305-0905")
  local ev = expect.accepted(rail_move({ "q", "t" }, { "0405" }))
  expect.eq(B.where("q"), "0405")
  expect.eq(B.where("t"), "0405")
  expect.truthy(B.note(ev, "4 of the turn's 8"), B.all_notes(ev))
  -- a ride ends the arrivals' movement [6.3]
  local ok, why = B.move({ "q" }, { "0305" })
  expect.refused(ok, why, "6.1")

  board()
  expect.accepted(B.move({ "w" }, { "1005", "0905" }))
  ok, why = rail_move({ "w" }, { "0405" })
  expect.refused(ok, why, "6.3", "already moved this phase")
  expect.accepted(B.move({ "w" }, { "1005" }))
  expect.eq(B.where("w"), "1005", "back on its entry hex, having moved")
  ok, why = rail_move({ "w" }, { "0405" })
  expect.refused(ok, why, "6.3", "already moved this phase")
  expect.eq(listed_rail_moves("w"), 0, "no rail move listed for it")
end)

-- [14.2] [6.22] [6.3] Reading (rules25): a South-Western Front division may be called onto a
-- railway hex in German ZOC (the diversion of [14.1] is written for the provisional division,
-- whose hex a die picks); it then stops there: no walking out [6.22], no ride, since a rail move
-- may not start in an enemy ZOC [6.3]. A German-occupied hex is refused.
-- Board (the 30x8 strip): German g (2-2-10) in 1308, next to the railway hex 1208; turn 4.
kessel.test("case_14_2_a_called_division_may_enter_a_hex_in_german_zoc_and_stops_there", function()
  local Strip = require("testing.swf_strip")
  Strip.board({ Strip.reserve("a"), B.leader("l", "1206", 3), B.pz("g", "1308", "2-2-10") }, "soviet_movement", 4)
  expect.accepted(kessel.act{ kind = "swf_call", hex = "1208" })
  expect.eq(B.where("a"), "1208")
  local ok, why = rail_move({ "a" }, { "1506" })
  expect.refused(ok, why, "6.3", "may not start in an enemy ZOC")
  ok, why = B.move({ "a" }, { "1207" })
  expect.refused(ok, why, "6.22")
  Strip.board({ Strip.reserve("a"), B.leader("l", "1206", 3), B.pz("g", "1208", "2-2-10") }, "soviet_movement", 4)
  ok, why = kessel.act{ kind = "swf_call", hex = "1208" }
  expect.refused(ok, why, "6.1", "holds German units")
  expect.eq(B.where("a"), "pending", "still waiting off the map")
end)

-- [14] [11] [13.3] [13.44] Reading (rules25): a German reinforcement entering under a Soviet
-- interdiction marker pays the marker's +1 MP and is in supply for that player-turn (units
-- entering play are; the marker stops lines traced into or through its hex, and the arrival
-- traces none). A German unit that entered on an earlier turn and stands there is out of supply.
-- Board: area E = 0103 under a Soviet marker; German Initial Movement Phase of turn 7.
kessel.test("case_14_a_german_arrival_under_a_soviet_marker_pays_it_and_is_in_supply", function()
  local S = require("rules.supply")
  local M = require("rules.movement")
  local function board(units)
    B.setup(units, { map = { columns = 10, rows = 10, areas = { E = { "0103" } } }, step = "german_movement",
      markers = { { kind = "soviet_interdiction", side = "soviet", at = "0103" } } })
  end
  board({ B.pz("p", nil, "4-4-10", { enter = { turn = 7, area = "E" } }), B.leader("l", "0909", 3) })
  expect.accepted(B.move({ "p" }, { "0103" }))
  expect.eq(M.mp_left(kessel.units.get("p")), 8, "10 - (1 clear + 1 marker)")
  local ok, why = S.in_supply("p")
  expect.truthy(ok, why)
  board({ B.pz("p", "0103", "4-4-10", { vars = { entered_turn = 6 } }), B.leader("l", "0909", 3) })
  ok, why = S.in_supply("p")
  expect.falsy(ok, "an earlier arrival under the marker is cut off")
  expect.truthy(why:find("13.44", 1, true), why)
end)

-- [9.1] [10.36] [12.2] [12.3] Reading (rules25): a leader committed to an attack with the units of
-- his hex stays an attacker when they all prove duds and are removed: he adds nothing (his bonus
-- is capped by their strength, now 0) but shares the result. Board, Soviet Combat Phase of turn
-- 7: untried d and leader l (rating 3) in 0503, rifle a (4-4-6) in 0504, German g (2-2-10) in
-- 0403. d is a 0-0-6; a's 4 against 2: 2-1, roll 6: A1. The leader may take the step.
kessel.test("case_10_36_a_leader_whose_units_prove_duds_still_shares_the_attackers_result", function()
  B.setup({ { id = "d", name = "d", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0503" },
    B.leader("l", "0503", 3), B.rifle("a", "0504", "4-4-6"), B.pz("g", "0403", "2-2-10") },
    { step = "soviet_combat", pools = { rifle = { "0-0-6" } } })
  kessel.inject_dice{ 1, 6 }   -- the draw of d's counter from the pool, then the combat roll
  local ev = expect.accepted(B.attack({ "d", "l", "a" }, { "0403" }))
  expect.eq(kessel.units.get("d").location, "eliminated", "the dud is removed")
  expect.truthy(B.note(ev, "odds 2-1, roll 6: A1"), B.all_notes(ev))
  expect.accepted(B.choose("loss", { "l" }))
  expect.eq(kessel.units.get("l").location, "eliminated", "the leader took the attackers' step")
  expect.eq(B.where("a"), "0504")
end)

-- [6.22] [14.2] [6.5] A South-Western Front division called onto a hex in German ZOC has entered
-- that zone: it stays stopped when another Soviet stack overruns the German unit away in the same
-- phase (the strict reading of [6.22], see case_6_22_a_unit_that_entered_an_enemy_zoc_stays_
-- stopped_when_the_zone_is_overrun_away), while the overrunners, who cleared the hex, go on.
-- Board (the 30x8 strip): German g (1-1-10) in 1308 next to 1208; Soviet rifle s (6-6-6) in 1307
-- next to g, with leader l (rating 3) in 1206 (s began the phase in command); turn 4. The call
-- puts division a in 1208. s overruns g: 6 halved 3 against 1, 3-1, roll 1: D2, g loses both
-- steps and is gone; s enters 1308 and moves on to 1408; a may not move.
kessel.test("case_6_22_a_called_division_placed_in_an_enemy_zoc_stays_stopped_when_the_zone_goes", function()
  local Strip = require("testing.swf_strip")
  Strip.board({ Strip.reserve("a"), B.leader("l", "1206", 3), B.rifle("s", "1307", "6-6-6"), B.pz("g", "1308", "1-1-10") },
    "soviet_movement", 4)
  expect.accepted(kessel.act{ kind = "swf_call", hex = "1208" })
  kessel.inject_dice{ 1 }
  local ev = expect.accepted(kessel.act{ kind = "overrun", units = { "s" }, target = "1308" })
  expect.truthy(B.note(ev, "odds 3-1, roll 1: D2"), B.all_notes(ev))
  expect.truthy(B.pending(), "the German chooses: loss or retreat")
  expect.accepted(B.choose("loss"))
  expect.eq(B.where("g"), "eliminated")
  expect.eq(B.where("s"), "1308")
  expect.accepted(B.move({ "s" }, { "1408" }))
  local ok, why = B.move({ "a" }, { "1207" })
  expect.refused(ok, why, "6.22", "its movement is over for the phase")
end)

-- [10.4] [14.3] [6.3] An evacuated leader comes back through X like an arrival (optional rule):
-- on a railway hex he may ride on by rail that phase, as a scheduled arrival may (leaders ride
-- outside the eight). The engine placed him having paid the entry hex, so he had "already moved".
-- Board, Soviet Movement Phase of turn 7: leader l in 0202, boxed in by German units; a railway
-- along row 05 from 1005 (area X) to 0305. l is evacuated; on turn 8 he is back at 1005 and rides
-- to 0405.
kessel.test("case_10_4_a_leader_back_from_evacuation_on_a_railway_hex_may_ride_on", function()
  local rail = { kind = "railway", path = { "1005", "0905", "0805", "0705", "0605", "0505", "0405", "0305" } }
  B.setup({ B.leader("l", "0202", 2), B.pz("g1", "0302"), B.pz("g2", "0203"), B.pz("g3", "0101"), B.leader("m", "0102", 3) },
    { step = "soviet_movement", options = { leader_evacuation = true },
      map = { columns = 10, rows = 10, links = { rail }, areas = { X = { "1005" } } } })
  expect.accepted(kessel.act{ kind = "evacuate", leader = "l" })
  for _ = 1, 9 do expect.accepted(kessel.act{ kind = "end_phase" }) end
  expect.eq(kessel.game.step().id, "soviet_movement")
  expect.eq(B.where("l"), "1005", "back at X")
  local ev = expect.accepted(rail_move({ "l" }, { "0405" }))
  expect.eq(B.where("l"), "0405")
  expect.truthy(B.note(ev, "0 of the turn's 8"), B.all_notes(ev))
end)
