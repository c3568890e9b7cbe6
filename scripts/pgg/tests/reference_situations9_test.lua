-- Situations from the reference material, ninth tester pass (round 8): overruns and zones of
-- control case by case, multi-hex retreats, the campaign's set-up and sequence of play, and the
-- thinly covered cases. Each test works out by hand what the cited cases demand and checks what
-- the engine does. Geometry of the 10x10 map: odd columns N, NE = c+1 r-1, SE = c+1 r, S,
-- SW = c-1 r, NW = c-1 r-1; even columns NE = c+1 r, SE = c+1 r+1, SW = c-1 r+1, NW = c-1 r.
local expect = kessel.expect
local B = require("testing.board10")
local M = require("rules.movement")

local function listed(side, pred)
  for _, a in ipairs(kessel.legal(side)) do if pred(a) then return a end end
  return nil
end

-- [6.5] [6.22] [8] Overrunners ignore the zone of control of the units they overrun, from the
-- hex they attack from (pgg-facts.md, 6.5), and of no one else. Board: panzer g (8-8-10) in 0303,
-- the target rifle a (1-1-6) in 0403, another rifle z (1-1-6) in 0202, next to 0303 but not to
-- 0403. g stands in z's zone as well as a's: its move ended when it came there, and it may not
-- leave z's zone voluntarily [6.22]; an overrun that cleared 0403 would take it out, so it may not
-- overrun. Expected: refused citing 6.22 and naming z in 0202, and no such overrun listed.
-- With z disrupted (no zone [6.6]) or z's zone cut by a lake hexside [8], the overrun is allowed.
kessel.test("case_6_5_no_overrun_from_the_zone_of_an_enemy_unit_other_than_the_target", function()
  local units = { B.pz("g", "0303", "8-8-10"), B.rifle("a", "0403", "1-1-6"), B.rifle("z", "0202", "1-1-6"), B.leader("l", "0908", 5) }
  B.setup(units, { step = "german_movement" })
  local ok, why = kessel.act{ kind = "overrun", units = { "g" }, target = "0403" }
  expect.refused(ok, why, "6.22", "z at 0202")
  expect.falsy(listed("german", function(a) return a.kind == "overrun" end), "no overrun listed")
  -- the zone of the target alone is ignored: with z gone the same overrun is allowed
  B.setup({ units[1], units[2], units[4] }, { step = "german_movement" })
  expect.accepted(kessel.validate{ kind = "overrun", units = { "g" }, target = "0403" })
  -- a disrupted unit has no zone [6.6]
  B.setup({ units[1], units[2], B.rifle("z", "0202", "1-1-6", { flags = { "disrupted" } }), units[4] }, { step = "german_movement" })
  expect.accepted(kessel.validate{ kind = "overrun", units = { "g" }, target = "0403" })
  -- no zone across a lake hexside [8]
  B.setup(units, { step = "german_movement", map = { columns = 10, rows = 10, hexsides = { { "0303", "0202", "lake" } } } })
  expect.accepted(kessel.validate{ kind = "overrun", units = { "g" }, target = "0403" })
end)

-- [6.5] [6.22] After a successful overrun the overrunners enter the cleared hex and may move on
-- under the ordinary movement rules. Board: panzer g (20-20-10) in 0303; rifle a (1-1-6) in 0403,
-- rifle b (1-1-6) in 0504 next to 0403; rifle z (1-1-6) in 0705. g overruns a (10 against 1, roll
-- 1: De) and enters 0403 (7 MP left); 0403 is in b's zone alone, which an overrun of b ignores, so
-- g overruns b from there (3 MP more: 4 left, roll 1: De) and enters 0504. From 0504 it may not
-- move through 0604, in z's zone, to 0603 [6.22]; it may enter 0604 and stops there.
kessel.test("case_6_5_chained_overruns_then_movement_stops_in_the_next_enemy_zone", function()
  B.setup({ B.pz("g", "0303", "20-20-10"), B.rifle("a", "0403", "1-1-6"), B.rifle("b", "0504", "1-1-6"),
    B.rifle("z", "0705", "1-1-6"), B.leader("l", "0909", 5) }, { step = "german_movement" })
  kessel.inject_dice{ 1, 1 }
  expect.accepted(kessel.act{ kind = "overrun", units = { "g" }, target = "0403" })
  expect.eq(B.where("g"), "0403")
  expect.eq(M.mp_left(kessel.units.get("g")), 7)
  local ev = expect.accepted(kessel.act{ kind = "overrun", units = { "g" }, target = "0504" })
  expect.truthy(B.note(ev, "odds 10-1, roll 1: De"), B.all_notes(ev))
  expect.eq(B.where("b"), "eliminated")
  expect.eq(B.where("g"), "0504")
  expect.eq(M.mp_left(kessel.units.get("g")), 4, "3 + 3 for two overruns, entering free")
  local ok, why = kessel.act{ kind = "move", units = { "g" }, path = { "0604", "0603" } }
  expect.refused(ok, why, "6.22", "movement ends at 0604, in the zone of control of z at 0705")
  expect.accepted(kessel.act{ kind = "move", units = { "g" }, path = { "0604" } })
  ok, why = kessel.act{ kind = "move", units = { "g" }, path = { "0603" } }
  expect.refused(ok, why, "6.22", "may not leave")
end)

-- [9.72] [9.71] [9.23] The player who picks the retreat paths picks which stack retreats first;
-- the order decides who lives. Board: German panzers p1-p3 (1-1-10) in 0403 and q (1-1-10) in
-- 0404 attack two 9-9-6 rifles in 0304 (4 against 18: below 1-3, read at 1-3 [9.5]), roll 1: A1;
-- the German retreats and the Soviet picks the paths. Lakes in 0402, 0405 and 0505; 0303, 0305 and
-- (once p has left) 0403 are in the rifles' zone with no German there. p may go to 0503 or 0504,
-- both empty; q only to 0504. q first: q takes 0504 (its only empty hex [9.71]), then p must take
-- 0503: nobody dies. p first: the Soviet sends p to 0504 (empty, legal), then q's only hex holds
-- three Germans and q dies for overstacking [7.2]. The engine took the stacks in the order the
-- German had listed his attackers, so the German, not the path-picker, chose the order; now the
-- Soviet is offered either stack first. Under WBC09 #1 the most units must reach empty hexes: p
-- first into 0504 is refused.
kessel.test("case_9_72_the_path_picker_orders_the_stacks_and_the_order_decides_who_dies", function()
  local function board(options)
    B.setup({ B.pz("q", "0404", "1-1-10"), B.pz("p1", "0403", "1-1-10"), B.pz("p2", "0403", "1-1-10"), B.pz("p3", "0403", "1-1-10"),
      B.rifle("s1", "0304", "9-9-6"), B.rifle("s2", "0304", "9-9-6"), B.leader("l", "0207", 5) },
      { map = { columns = 10, rows = 10, terrain = { ["0402"] = "lake", ["0405"] = "lake", ["0505"] = "lake" } }, options = options })
    kessel.inject_dice{ 1 }
    local ev = expect.accepted(kessel.act{ kind = "attack", units = { "q", "p1", "p2", "p3" }, targets = { "0304" } })
    expect.truthy(B.note(ev, "roll 1: A1"), B.all_notes(ev))
    expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
    expect.eq(B.pending().side, "soviet", "the Soviet picks the German's paths [9.72]")
  end
  board()
  local offered = {}
  for _, a in ipairs(kessel.legal("soviet")) do offered[#offered + 1] = table.concat(a.units, ",") .. ">" .. table.concat(a.path, ",") end
  table.sort(offered)
  expect.eq(table.concat(offered, " "), "p1,p2,p3>0503 p1,p2,p3>0504 q>0504")
  expect.accepted(kessel.act{ kind = "retreat", units = { "p1", "p2", "p3" }, path = { "0504" } })
  local ok, why = kessel.act{ kind = "retreat", units = { "q" }, path = {} }
  expect.refused(ok, why, "9.71", "a legal retreat path exists")
  expect.accepted(kessel.act{ kind = "retreat", units = { "q" }, path = { "0504" } })
  expect.eq(B.where("q"), "eliminated", "the fourth German in 0504 dies [7.2]")
  -- q first: nobody dies
  board()
  expect.accepted(kessel.act{ kind = "retreat", units = { "q" }, path = { "0504" } })
  ok, why = kessel.act{ kind = "retreat", units = { "p1", "p2", "p3" }, path = { "0504" } }
  expect.refused(ok, why, "9.71", "empty hex")
  expect.accepted(kessel.act{ kind = "retreat", units = { "p1", "p2", "p3" }, path = { "0503" } })
  for _, id in ipairs{ "q", "p1", "p2", "p3" } do expect.eq(kessel.units.get(id).location, "map", id) end
  -- WBC09 #1: four units can reach empty hexes, so p first into 0504 is refused
  board({ wbc09_01_retreat_priority = true })
  ok, why = kessel.act{ kind = "retreat", units = { "p1", "p2", "p3" }, path = { "0504" } }
  expect.refused(ok, why, "WBC09 #1", "empty hexes")
end)

-- [7.1] [5.1] [13.2] Soviet stacking is checked at the end of his Movement Phase; the set-up
-- before turn 1 and the German's initial air markers come before that phase's first move. The
-- campaign sets up six divisions in 2216 and in 4015: during the set-up the Soviet could eliminate
-- them as excess (accepted, "eliminated for overstacking"), though the set-up allows them there and
-- they have not had a move to spread out. Expected: refused citing 5.1 while the set-up is open and
-- 13.2 while the markers are awaited; once the first move may be made the owner may (as before)
-- lose the excess rather than move it.
kessel.test("case_7_1_no_elimination_for_overstacking_before_the_first_soviet_move", function()
  local units = { B.leader("rem", "0104", 4), B.rifle("r1", "0104"), B.rifle("r2", "0105"), B.leader("sup", "0908", 5) }
  for i = 1, 4 do units[#units + 1] = B.rifle("x" .. i, "0505") end
  B.setup(units, { map = { columns = 10, rows = 10, areas = { S13 = { "0104", "0105", "0106" } } },
    markers = { { kind = "air_interdiction", side = "german", count = 3 } }, step = "soviet_movement", turn = 1,
    vars = { first_turn_16 = "move", first_turn_19 = "move", setup_areas = { r1 = "S13", r2 = "S13", rem = "S13" } } })
  local ok, why = kessel.act{ kind = "eliminate_excess", unit = "x1" }
  expect.refused(ok, why, "5.1", "end_setup")
  expect.falsy(listed("soviet", function(a) return a.kind == "eliminate_excess" end), "nothing offered")
  expect.accepted(kessel.act{ kind = "end_setup" })
  ok, why = kessel.act{ kind = "eliminate_excess", unit = "x1", side = "soviet" }
  expect.refused(ok, why, "13.2", "air markers")
  expect.accepted(kessel.act{ kind = "end_air_placement" })
  local ev = expect.accepted(kessel.act{ kind = "eliminate_excess", unit = "x1" })
  expect.truthy(B.note(ev, "eliminated for overstacking at 0505"), B.all_notes(ev))
end)

-- [6.3] [13.33] [13.4] What a GM reads in the log of the Soviet Movement Phase: a rail move names
-- the units that moved and how much of the turn's eight is used (a tank counts three); the German
-- air markers are lifted at the end of the phase with a note naming their hexes, and the Soviet
-- marker at the end of the German player-turn. (The rail note named neither units nor count, and
-- the markers went without a word.)
kessel.test("case_6_3_rail_note_names_the_units_and_the_count_and_marker_removal_is_noted", function()
  local rail = {}
  for c = 1, 9 do rail[#rail + 1] = string.format("%02d05", c) end
  B.setup({ B.rifle("r", "0105"), B.rifle("t", "0105", "4-4-10", { type = "tank" }), B.leader("l", "0105", 3), B.pz("g", "0909") },
    { step = "soviet_movement", map = { columns = 10, rows = 10, links = { { kind = "railway", path = rail } } },
      markers = { { kind = "air_interdiction", side = "german", at = "0303" }, { kind = "air_interdiction", side = "german", at = "0707" } } })
  local ev = expect.accepted(kessel.act{ kind = "rail_move", units = { "r", "t", "l" }, path = { "0605" } })
  expect.truthy(B.note(ev, "rail move of r, t, l 0105 -> 0605, 5 rail hexes; 4 of the turn's 8 combat units used"), B.all_notes(ev))
  ev = expect.accepted(kessel.act{ kind = "end_phase" })
  local n = B.note(ev, "air_interdiction marker(s) removed from 0303, 0707 (end of the Soviet Movement Phase)")
  expect.truthy(n, B.all_notes(ev))
  expect.eq(n.rule, "13.33")
  expect.eq(#kessel.markers.all{ kind = "air_interdiction", placed = true }, 0)
end)

-- [15] The game-end check at the end of the German Air Interdiction Phase of turn 12: the final
-- note gave only the totals and the level; a GM checks the score against the board, so the points
-- are listed where they come from. Board: German infantry in Town (0403, 30 VP) with a line west;
-- City (0707, 20 VP) is the Soviet's; the German infantry division y destroyed (5 VP), a recapture
-- of City on turn 9 (2 VP), three South-Western Front divisions called (3 VP). German 33, Soviet 7:
-- +26, Soviet Marginal.
kessel.test("case_15_final_score_lists_where_each_side_s_points_come_from", function()
  B.setup({ B.inf("a", "0403"), B.inf("y", nil, { location = "eliminated" }), B.rifle("s", "0707"), B.leader("l", "0808", 3) },
    { step = "german_air_interdiction", turn = 12, last_turn = 12,
      vars = { objectives = { { name = "Town", vp = 30, hexes = { "0403" } }, { name = "City", vp = 20, hexes = { "0707" } } },
        swf_count = 3, soviet_recaptures = { { city = "City", turn = 9 } } } })
  local ev = expect.accepted(kessel.act{ kind = "end_phase" })
  expect.truthy(B.note(ev, "German VP 33: Town (30), 3 South-Western Front division(s) called (3)"), B.all_notes(ev))
  expect.truthy(B.note(ev, "Soviet VP 7: y destroyed (5), City retaken on turn 9 (2)"), B.all_notes(ev))
  expect.truthy(B.note(ev, "final score: German 33, Soviet 7 (+26): Soviet Marginal"), B.all_notes(ev))
end)

-- [9.73] FAQ 5 [9.6] An Engaged result does not kill a unit retreated onto the hex, and that unit
-- is no defender: it may not be the one that takes the defender's Eng step either. Board (lakes
-- round 0403 but for 0303, 0304 and 0404): g (4-4-10) in 0303 attacks the rifle s (2-2-6) in 0403,
-- 4 against 2 is 2-1, roll 2: D1; s retreats onto f and f2 (2-3-6) in 0404; h (6-6-10)
-- in 0304 attacks 0404 at 1-1 (6 against 3+3), roll 4: Eng. The Soviet names which of f and f2
-- loses the step; s is not offered and naming it is refused.
kessel.test("case_9_73_faq_5_eng_step_is_taken_by_a_real_defender_not_a_retreated_unit", function()
  B.setup({ B.pz("g", "0303"), B.rifle("s", "0403"), B.rifle("f", "0404", "2-3-6"), B.rifle("f2", "0404", "2-3-6"),
    B.pz("h", "0304", "6-6-10"), B.leader("sup", "0605", 5) },
    { map = { columns = 10, rows = 10, hexsides = { { "0403", "0503", "lake" }, { "0403", "0504", "lake" }, { "0403", "0402", "lake" } } } })
  kessel.inject_dice{ 2 }
  local ev = expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
  expect.truthy(B.note(ev, "odds 2-1, roll 2: D1"), B.all_notes(ev))
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  expect.accepted(kessel.act{ kind = "retreat", units = { "s" }, path = { "0404" } })
  if B.pending() then expect.accepted(kessel.act{ kind = "advance", skip = true }) end
  kessel.inject_dice{ 4 }
  ev = expect.accepted(kessel.act{ kind = "attack", units = { "h" }, targets = { "0404" } })
  expect.truthy(B.note(ev, "attack 6 against defence 6 in 0404: odds 1-1, roll 4: Eng"), B.all_notes(ev))
  local p = B.pending()
  expect.truthy(p and p.kind == "eng_loss" and p.side == "soviet", "the Soviet names the step: " .. tostring(p and p.kind))
  local offered = {}
  for _, a in ipairs(kessel.legal("soviet")) do offered[#offered + 1] = table.concat(a.units or {}, ",") end
  table.sort(offered)
  expect.eq(table.concat(offered, " "), "f f2")
  local ok, why = kessel.act{ kind = "choose", choice = "loss", units = { "s" } }
  expect.refused(ok, why, nil, "s")
  expect.accepted(kessel.act{ kind = "choose", choice = "loss", units = { "f" } })
  expect.eq(B.where("s"), "0404", "Eng spares the retreated unit")
  expect.eq(B.where("f"), "eliminated")
end)

-- WBC09 #12 [10.36] Several leaders in one hex add to one attack, together at most the combat
-- units' own attack; leaders may join an overrun, halved with the rest. Board: rifle s (4-4-6) with
-- leaders l1 (rating 2) and l2 (rating 3) in 0403, a German panzer g (2-2-10) in 0303. Attack:
-- 4 + min(2 + 3, 4) = 8 against 2: 4-1. Standard: a second leader is refused [10.36]. Overrun in
-- the Soviet Movement Phase by s and l1: 4 + min(2, 4) = 6, halved 3, against 2: 1-1. Standard: a
-- leader may not overrun [10.2]. (The old test read the attack as `combat.attack or 8`, which
-- passes whatever the engine does.)
kessel.test("case_wbc09_12_two_leaders_add_up_to_the_units_attack_and_join_an_overrun_halved", function()
  local function board(wbc, step)
    B.setup({ B.rifle("s", "0403", "4-4-6"), B.leader("l1", "0403", 2), B.leader("l2", "0403", 3), B.pz("g", "0303", "2-2-10") },
      { step = step, options = { wbc09_12_multiple_leaders = wbc },
        vars = step == "soviet_movement" and { phase_start = { hexes = { s = "0403", l1 = "0403", l2 = "0403" }, command = { "s" }, step = 0, turn = 7 } } or nil })
  end
  board(true, "soviet_combat")
  kessel.inject_dice{ 6 }
  local ev = expect.accepted(kessel.act{ kind = "attack", units = { "s", "l1", "l2" }, targets = { "0303" } })
  expect.truthy(B.note(ev, "leaders in 0403 add 4 (rating 5, capped at the units' 4)"), B.all_notes(ev))
  expect.truthy(B.note(ev, "attack 8 against defence 2 in 0303: odds 4-1"), B.all_notes(ev))
  board(false, "soviet_combat")
  local ok, why = kessel.act{ kind = "attack", units = { "s", "l1", "l2" }, targets = { "0303" } }
  expect.refused(ok, why, "10.36", "one leader")
  board(true, "soviet_movement")
  kessel.inject_dice{ 6 }
  ev = expect.accepted(kessel.act{ kind = "overrun", units = { "s", "l1" }, target = "0303" })
  expect.truthy(B.note(ev, "overrun: attack 3 against defence 2 in 0303: odds 1-1"), B.all_notes(ev))
  board(false, "soviet_movement")
  ok, why = kessel.act{ kind = "overrun", units = { "s", "l1" }, target = "0303" }
  expect.refused(ok, why, "10.2", "cannot overrun")
end)

-- [13.44] [11.1] A Soviet interdiction marker closes its hex to German lines of supply: a road
-- that runs through it no longer joins the hexes beyond it to the source (0120's role is played by
-- 0103 here), and a German unit standing in the marked hex traces no line out of it. Board: a
-- 45x5 strip, road 0103..3503 along row 03, panzer g in 4005 (5 hexes from the road's end 3503, 39
-- MP from the west edge). Without a marker g is supplied by road; a marker on 1003 cuts the road
-- there (the road beyond is no longer joined to 0103, and 0903 is 31 hexes away): out of supply. A panzer h in 0603 with the marker on
-- 0603 itself is out of supply; with the marker on 1003 it is supplied (west of the cut).
kessel.test("case_13_44_a_soviet_marker_cuts_the_supply_road_and_its_own_hex", function()
  local S = require("rules.supply")
  local road = {}
  for c = 1, 35 do road[#road + 1] = string.format("%02d03", c) end
  local function strip(marker)
    kessel.setup{ map = { columns = 45, rows = 5, links = { { kind = "road", path = road } }, tags = { road_supply_source = { "0103" } } },
      units = { B.pz("g", "4005"), B.pz("h", "0603") }, step = "german_movement", turn = 5,
      markers = marker and { { kind = "soviet_interdiction", side = "soviet", at = marker } } or nil }
  end
  strip(nil)
  local ok, why = S.in_supply("g", "combat")
  expect.truthy(ok, "by road: " .. tostring(why))
  strip("1003")
  ok, why = S.in_supply("g", "combat")
  expect.falsy(ok, "the road is cut at 1003")
  expect.truthy(S.in_supply("h", "combat"), "h is west of the cut")
  strip("0603")
  ok, why = S.in_supply("h", "combat")
  expect.falsy(ok, "h stands on the marker: " .. tostring(why))
end)

-- [4] [6.6] [9.1] [10.35] [6.1] Refusals about one unit name its hex too, so a GM can find the
-- counter on the board: a disrupted unit asked to move or attack, a unit that has already attacked,
-- a Soviet unit outside every leader's radius, an infantry division in the Mechanized Movement
-- Phase, a unit with no MP left. (They named the unit alone.)
kessel.test("case_4_unit_refusals_name_the_unit_s_hex", function()
  B.setup({ B.rifle("d", "0505", "2-2-6", { flags = { "disrupted" } }), B.rifle("far", "0909", "2-2-6"), B.pz("g", "0504"),
    B.pz("h", "0808"), B.leader("l", "0406", 2) }, { step = "soviet_movement" })
  local ok, why = kessel.act{ kind = "move", units = { "d" }, path = { "0506" } }
  expect.refused(ok, why, "6.6", "d in 0505 is disrupted and may not move")
  B.setup({ B.rifle("d", "0505", "2-2-6", { flags = { "disrupted" } }), B.rifle("far", "0909", "2-2-6"), B.pz("g", "0504"),
    B.pz("h", "0808"), B.leader("l", "0406", 2) }, { step = "soviet_combat" })
  ok, why = kessel.act{ kind = "attack", units = { "d" }, targets = { "0504" } }
  expect.refused(ok, why, "6.6", "d in 0505 is disrupted and cannot attack")
  ok, why = kessel.act{ kind = "attack", units = { "far" }, targets = { "0808" } }
  expect.refused(ok, why, "10.35", "far in 0909 is outside every leader's command radius")
  B.setup({ B.pz("g", "0303"), B.rifle("a", "0403", "1-1-6"), B.rifle("b", "0404", "1-1-6"), B.leader("l", "0808", 5) })
  kessel.inject_dice{ 6 }
  expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
  while B.pending() do
    local a = kessel.legal()[1]
    expect.accepted(kessel.act(a))
  end
  ok, why = kessel.act{ kind = "attack", units = { "g" }, targets = { "0404" } }
  expect.refused(ok, why, "9.1", "in " .. B.where("g") .. " has already attacked this phase")
  B.setup({ B.inf("i", "0303"), B.pz("p", "0305", nil, { vars = { mp_spent = 20 } }) }, { step = "german_mech_movement" })
  ok, why = kessel.act{ kind = "move", units = { "i" }, path = { "0304" } }
  expect.refused(ok, why, "4", "i in 0303 is not a mechanized unit")
  ok, why = kessel.act{ kind = "move", units = { "p" }, path = { "0306" } }
  expect.refused(ok, why, "6.1", "p (Fp) in 0305 has no movement points left")
end)

-- [9.71] FAQ 1: a D2 retreat may end in a hex next to the combat hex, two hexes on, if that hex is
-- empty (or friendly) and not in an enemy zone of control. Board: panzer g (4-4-10) in 0303 attacks
-- rifle s (1-1-6) in 0403: 4-1, roll 1: D2; the German picks s's path. Without k, 0404-0504 ends
-- next to 0403 and out of every German zone: accepted. With panzer k (1-1-10) in 0604, 0504 is in
-- k's zone: the same path is refused citing 9.71 and naming k, and 0504-0404 too (it passes 0504);
-- 0404-0405 is accepted.
kessel.test("case_9_71_faq_1_two_hex_retreat_next_to_the_combat_hex_not_into_an_enemy_zone", function()
  local function board(with_k)
    local units = { B.pz("g", "0303", "4-4-10"), B.rifle("s", "0403", "1-1-6"), B.leader("l", "0408", 5) }
    if with_k then units[#units + 1] = B.pz("k", "0604", "1-1-10") end
    B.setup(units)
    kessel.inject_dice{ 1 }
    local ev = expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
    expect.truthy(B.note(ev, "odds 4-1, roll 1: D2"), B.all_notes(ev))
    expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  end
  board(false)
  expect.accepted(kessel.act{ kind = "retreat", units = { "s" }, path = { "0404", "0504" } })
  expect.eq(B.where("s"), "0504", "next to the combat hex, two hexes on")
  board(true)
  local ok, why = kessel.act{ kind = "retreat", units = { "s" }, path = { "0404", "0504" } }
  expect.refused(ok, why, "9.71", "0504 is in the zone of control of k (Fk) at 0604")
  ok, why = kessel.act{ kind = "retreat", units = { "s" }, path = { "0504", "0404" } }
  expect.refused(ok, why, "9.71", "0504 is in the zone of control of k (Fk) at 0604")
  expect.accepted(kessel.act{ kind = "retreat", units = { "s" }, path = { "0404", "0405" } })
end)

-- [9.72] [9.8] The retreat and advance notes name the units as the other notes do (they gave the
-- units' ids: "g-7pz-pz advance 0310" in the campaign). Panzer "25 Pz Rgt" (id g) attacks the
-- rifle "100 Rifle" (id s) in 0403 at 4-1, roll 1: D2; s retreats 0404-0405 and g advances 0403.
kessel.test("case_9_8_retreat_and_advance_notes_name_the_units", function()
  B.setup({ B.pz("g", "0303", "4-4-10", { name = "25 Pz Rgt", formation = "7 Pz" }), B.rifle("s", "0403", "1-1-6", { name = "100 Rifle" }),
    B.leader("l", "0408", 5) })
  kessel.inject_dice{ 1 }
  expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  local ev = expect.accepted(kessel.act{ kind = "retreat", units = { "s" }, path = { "0404", "0405" } })
  expect.truthy(B.note(ev, "100 Rifle retreats 0403 → 0404-0405"), B.all_notes(ev))
  ev = expect.accepted(kessel.act{ kind = "advance", units = { "g" }, path = { "0403" } })
  expect.truthy(B.note(ev, "25 Pz Rgt (7 Pz) advance 0403"), B.all_notes(ev))
end)
