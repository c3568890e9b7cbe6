-- Situations from the reference material, rules31 pass: the cases with the fewest tests in
-- docs/rules-coverage.md, played as a checker plays them. Geometry of the 10x10 map: odd columns
-- N, NE = c+1 r-1, SE = c+1 r, S, SW = c-1 r, NW = c-1 r-1; even columns NE = c+1 r,
-- SE = c+1 r+1, SW = c-1 r+1, NW = c-1 r.
local expect = kessel.expect
local B = require("testing.board10")

-- The option values of profiles/wbc2009.toml that bear on retreats (a test starts from the
-- `standard` defaults).
local WBC_RETREATS = {
  wbc09_01_retreat_priority = true, wbc09_01a_no_switching_places = true,
  wbc09_01b_no_retreat_into_lone_defender_hex = true, wbc09_01c_simultaneous_retreats = true,
  wbc09_02_opponent_orders_retreats = true, wbc09_03_retreated_units_die_first = true,
}
local function without(id)
  local t = {}
  for k, v in pairs(WBC_RETREATS) do t[k] = v end
  t[id] = false
  return t
end

-- The board of the two WBC09 #1c situations below, German Combat Phase of turn 7: four German
-- 1-1-10 attack s (9-9-6, forest) in 0505 from a 0604, b 0504, c 0605 and d 0506: 4 against 8 (s
-- is cut off: 9 halved to 4, doubled [11.3] [9.3]), 1-2, roll 3: A1, retreated. Every exit is a
-- German hex already holding two units (room for one more [7.2]): b can go only to 0603; a to 0603
-- or 0705; c to 0705 or 0606; d only to 0606 (lake hexsides close the rest, the hexes next to 0505
-- are s's zone and the others' own hexes are closed by WBC09 #1a). Three rooms for four units: one
-- dies whatever the Soviet does, and the three others end in friendly hexes out of a zone.
local function four_ways_three_rooms(options)
  B.setup({ B.rifle("s", "0505", "9-9-6"),
    B.pz("a", "0604", "1-1-10"), B.pz("b", "0504", "1-1-10"), B.pz("c", "0605", "1-1-10"), B.pz("d", "0506", "1-1-10"),
    B.inf("f1", "0603"), B.inf("f2", "0603"), B.inf("f3", "0705"), B.inf("f4", "0705"),
    B.inf("f5", "0606"), B.inf("f6", "0606") },
    { options = options, map = { columns = 10, rows = 10, terrain = { ["0505"] = "forest" },
      hexsides = { { "0504", "0503", "lake" }, { "0504", "0403", "lake" }, { "0604", "0704", "lake" },
        { "0605", "0706", "lake" }, { "0506", "0507", "lake" }, { "0506", "0406", "lake" } } } })
  kessel.inject_dice{ 3 }
  local ev = expect.accepted(B.attack({ "a", "b", "c", "d" }, { "0505" }))
  expect.truthy(B.note(ev, "odds 1-2, roll 3: A1"), B.all_notes(ev))
  expect.accepted(B.choose("retreat"))
  expect.eq(B.pending().kind, "retreat_path")
end
local function dead_of_four()
  local out = {}
  for _, id in ipairs{ "a", "b", "c", "d" } do
    if B.where(id) == "eliminated" then out[#out + 1] = id end
  end
  return table.concat(out, ",")
end

-- WBC09 #1c decides where WBC09 #1 does not. #1 ranks the placements of a whole combat's retreat
-- by how many units end in empty hexes, then in friendly hexes out of and in an enemy zone; two
-- ways that lose one unit each and put the others in the same kind of hex rank alike, so #1 lets
-- the opponent take either, even the one that shuts a unit's only way out at once. The simultaneity
-- note forbids that cut-off while the moving unit has a path that leaves every other unit of the
-- combat a way out [WBC09 #1c, "in other words"]; a death that comes later, when two units are left
-- wanting the one room, is no cut-off by this move. On the board above, sending a to 0603 leaves b
-- no way out while a could go to 0705, where every unit keeps one. Without #1c (the rest of the
-- profile on) #1 takes the cut-off.
kessel.test("case_wbc09_01c_decides_where_wbc09_01_ranks_two_paths_alike", function()
  four_ways_three_rooms(WBC_RETREATS)
  local ok, why = B.retreat({ "a" }, { "0603" })
  expect.refused(ok, why, "WBC09 #1", "retreats of one combat are simultaneous: this path would leave b (Fb) with no retreat")
  expect.accepted(B.retreat({ "a" }, { "0705" }))
  expect.accepted(B.retreat({ "b" }, { "0603" }))
  expect.accepted(B.retreat({ "c" }, { "0606" }))
  expect.accepted(B.retreat({ "d" }, { "0606" }))
  expect.eq(dead_of_four(), "d", "d goes into 0606 over the limit [7.2]")

  four_ways_three_rooms(without("wbc09_01c_simultaneous_retreats"))
  expect.accepted(B.retreat({ "a" }, { "0603" }))
  -- (b's one path leads into 0603, now full: it goes there and is the unit over the limit [7.2])
  local ev = expect.accepted(B.retreat({ "b" }, { "0603" }))
  expect.truthy(B.note(ev, "over-full hex"), B.all_notes(ev))
  expect.accepted(B.retreat({ "c" }, { "0705" }))
  expect.accepted(B.retreat({ "d" }, { "0606" }))
  expect.eq(dead_of_four(), "b")
end)

-- [WBC09 #1c] [7] The note binds only while some other path keeps every unit of the combat a way
-- out. A path into a hex with no room left is no such way for the moving unit itself: it only
-- picks another unit to die over the limit. The check took it for one: on the board above, once a
-- is in 0705 and b in 0603, c's one path with room (0606) leaves d nothing, and c's other path
-- (0705, full) was offered as the way that "saves" d, so 0606 was refused and c was pushed into
-- 0705 to die there. Now c may take either: not all can be saved, and the opponent picks.
kessel.test("case_wbc09_01c_a_path_into_a_full_hex_is_no_way_out_for_the_mover", function()
  local function to_c(path)
    four_ways_three_rooms(WBC_RETREATS)
    expect.accepted(B.retreat({ "a" }, { "0705" }))
    expect.accepted(B.retreat({ "b" }, { "0603" }))
    return B.retreat({ "c" }, { path })
  end
  expect.accepted(to_c("0606"))
  expect.accepted(B.retreat({ "d" }, { "0606" }))
  expect.eq(dead_of_four(), "d")
  local listed = false
  four_ways_three_rooms(WBC_RETREATS)
  expect.accepted(B.retreat({ "a" }, { "0705" }))
  expect.accepted(B.retreat({ "b" }, { "0603" }))
  for _, x in ipairs(kessel.legal()) do
    if x.kind == "retreat" and table.concat(x.units, ",") == "c" and table.concat(x.path, "-") == "0606" then listed = true end
  end
  expect.truthy(listed, "c to 0606 is listed")
  -- the other choice: c into the full 0705, where it is the unit over the limit, and d gets 0606
  expect.accepted(to_c("0705"))
  expect.accepted(B.retreat({ "d" }, { "0606" }))
  expect.eq(dead_of_four(), "c")
end)

-- [13.45] [13.4] [13.3] [13.44] The Soviet marker may not go on a hex a German unit occupies, a
-- disrupted one too (it has no zone [6.6] but it is there); next to German units, in their zone,
-- and on the Soviet's own units it may. The listing offers no German-occupied hex. A German who
-- then moves into the marked hex pays 1 MP more and is out of supply there. Board, Soviet
-- Interdiction Phase of turn 7: g in 0505, d (disrupted) in 0707, rifle s in 0303; 0605 is next
-- to g.
kessel.test("case_13_45_the_soviet_marker_goes_next_to_german_units_never_on_them", function()
  local function board()
    B.setup({ B.pz("g", "0505"), B.pz("d", "0707", nil, { flags = { "disrupted" } }), B.rifle("s", "0303"),
      B.leader("l", "0909", 5) },
      { step = "soviet_interdiction", markers = { { kind = "soviet_interdiction", side = "soviet", count = 3 } } })
  end
  local function place(h) return kessel.act{ kind = "place_marker", hex = h } end
  for _, h in ipairs{ "0505", "0707" } do
    board()
    local ok, why = place(h)
    expect.refused(ok, why, "13.45", "not on a German-occupied hex (" .. h .. ")")
  end
  for _, h in ipairs{ "0605", "0303" } do
    board()
    expect.accepted(place(h))
  end
  board()
  local listed = {}
  for _, a in ipairs(kessel.legal()) do if a.kind == "place_marker" then listed[a.hex] = true end end
  expect.truthy(listed["0605"], "a hex in g's zone is listed")
  expect.falsy(listed["0505"], "g's hex is not listed")
  expect.falsy(listed["0707"], "d's hex is not listed")
  -- the German moves into the marked hex: 1 MP and 1 more for the marker, then no supply there
  expect.accepted(place("0605"))
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.step().id, "german_movement")
  local ok, ev = kessel.act{ kind = "move", units = { "g" }, path = { "0605" } }
  expect.accepted(ok, ev)
  expect.eq(ev[1].cost, 2, "clear 1 + the Soviet marker 1 [13.3]")
  local s = kessel.queries.ask("supply", { unit = "g" })
  expect.eq(s.in_supply, false)
  expect.eq(s.rule, "13.44")
end)

-- [4] The German Mechanized Movement Phase moves panzer, motorized (the panzer divisions' rifle
-- regiments, the motorized divisions, and the independent GD and Lehr, typed motorized) and
-- cavalry units, each with a fresh allowance; an infantry division is refused citing 4, a
-- disrupted mechanized unit citing 6.6, and a reinforcement that did not come on in the Initial
-- Movement Phase waits for the next one [14.3]. Board, German Combat Phase of turn 7, p having
-- spent its allowance; the phase ends into the Mechanized Movement Phase.
kessel.test("case_4_the_mechanized_phase_moves_every_mechanized_type_and_no_other", function()
  local function mot(id, at, t, extra)
    local u = { id = id, name = id, side = "german", type = t, formation = "F" .. id, faces = { "3-3-10", "2-2-10" }, at = at }
    for k, v in pairs(extra or {}) do u[k] = v end
    return u
  end
  B.setup({ B.pz("p", "0102", nil, { vars = { mp_spent = 20 } }), mot("r", "0104", "rifle_mot"), mot("m", "0106", "motorized"),
    mot("gd", "0108", "motorized", { formation = nil, attrs = { independent = 1 } }), B.cav("c", "0302"), B.inf("i", "0304"),
    B.pz("d", "0306", nil, { flags = { "disrupted" } }),
    { id = "late", name = "late", side = "german", type = "panzer", formation = "Flate", faces = { "4-4-10", "2-2-10" },
      enter = { turn = 7, area = "A" } },
    B.rifle("s", "0905", "1-1-6"), B.leader("l", "0909", 5) },
    { map = { columns = 10, rows = 10, areas = { A = { "0110" } } } })
  local M = require("rules.movement")
  expect.eq(M.mp_left(kessel.units.get("p")), 0)
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.step().id, "german_mech_movement")
  expect.eq(M.mp_left(kessel.units.get("p")), 10, "a fresh allowance in the Mechanized Movement Phase [6.1]")
  for _, id in ipairs{ "p", "r", "m", "gd", "c" } do
    local u = kessel.units.get(id)
    local to = u.hex:sub(1, 2) .. string.format("%02d", tonumber(u.hex:sub(3, 4)) + 1)
    local ok, why = kessel.act{ kind = "move", units = { id }, path = { to } }
    expect.accepted(ok, why)
  end
  local ok, why = kessel.act{ kind = "move", units = { "i" }, path = { "0305" } }
  expect.refused(ok, why, "4", "i in 0304 is not a mechanized unit")
  ok, why = kessel.act{ kind = "move", units = { "d" }, path = { "0307" } }
  expect.refused(ok, why, "6.6", "disrupted and may not move")
  ok, why = kessel.act{ kind = "move", units = { "late" }, path = { "0110" } }
  expect.refused(ok, why, "14.3", "reinforcements enter in their player's (initial) Movement Phase")
end)

-- [10.2] [6.5] [6.6] [8] [FAQ 7] A leader alone in a hex: he has a zone, so a German entering it
-- stops; overrun, he defends with his rating and has one step. D1 retreated: he is disrupted, his
-- zone goes, and the overrunners enter his hex free and move on past him. Eng: his one step goes
-- and he dies, the overrunner loses a step and stays where it was, stopped. Board, German Initial
-- Movement Phase of turn 7: g (4-4-10) in 0303, leader l (rating 2) alone in 0505, leader k in 1010
-- (l's line east is open). g moves to 0404 (2 MP), in l's zone; the overrun: 4 halved to 2
-- against 2, 1-1.
kessel.test("case_10_2_a_lone_leader_overrun_defends_with_his_rating_then_is_disrupted_or_dies", function()
  local function board(roll)
    B.setup({ B.pz("g", "0303"), B.leader("l", "0505", 2), B.leader("k", "1010", 2) }, { step = "german_movement" })
    expect.accepted(B.move({ "g" }, { "0404" }))
    local ok, why = B.move({ "g" }, { "0403" })
    expect.refused(ok, why, "6.22", "in the zone of control of l at 0505")
    kessel.inject_dice{ roll }
    local ev = expect.accepted(kessel.act{ kind = "overrun", units = { "g" }, target = "0505" })
    return ev
  end
  local M = require("rules.movement")
  local ev = board(1)
  expect.truthy(B.note(ev, "attack 2 against defence 2 in 0505: odds 1-1, roll 1: D1"), B.all_notes(ev))
  expect.accepted(B.choose("retreat"))
  local opts = {}
  for _, a in ipairs(kessel.legal()) do if a.kind == "retreat" then opts[#opts + 1] = table.concat(a.path, "-") end end
  table.sort(opts)
  expect.eq(table.concat(opts, " "), "0506 0604 0605", "0504 and 0405 are in g's zone [9.71]")
  expect.accepted(B.retreat({ "l" }, { "0605" }))
  expect.truthy(kessel.units.get("l").flags.disrupted, "a leader retreated by an overrun is disrupted [6.6]")
  expect.eq(B.where("g"), "0505", "the cleared hex is entered at no cost [6.5]")
  expect.eq(M.mp_left(kessel.units.get("g")), 5)
  -- 0506 and 0606 are next to the disrupted leader, who has no zone: g goes on through them
  expect.accepted(B.move({ "g" }, { "0506" }))
  expect.accepted(B.move({ "g" }, { "0606" }))
  expect.eq(M.mp_left(kessel.units.get("g")), 3)

  ev = board(4)
  expect.truthy(B.note(ev, "odds 1-1, roll 4: Eng"), B.all_notes(ev))
  expect.eq(B.where("l"), "eliminated", "one step [FAQ 7]")
  expect.eq(kessel.units.get("g").steps_left, 1)
  expect.eq(B.where("g"), "0404", "no entry after Eng [6.5]")
  local ok, why = B.move({ "g" }, { "0505" })
  expect.refused(ok, why, "6.5", "stopped by its overrun")
end)

-- [15] The Soviet scores 2 VP each time he retakes a *city* the German held with a line at the end
-- of the previous German player-turn (reference manual, Scoring; pgg-facts.md); the German scores
-- "cities/hexes", and the campaign's two east-edge exits, 5907 and 5915, are VP hexes, not cities.
-- Every objective counted for a recapture, so a Soviet unit stepping back onto an exit hex the
-- German had held scored 2 VP. Board, Soviet Interdiction Phase of turn 8: Town (10 VP, a major
-- city) in 0505 and Exit (20 VP, no city) in 1005 on the east edge, both held by the German with a
-- line at the end of turn 7 (game vars german_held, city_owner); Soviet rifles now stand in both.
-- At the end of the phase Town is retaken (2 VP) and Exit is not.
kessel.test("case_15_a_vp_hex_that_is_no_city_is_not_retaken_for_vp", function()
  B.setup({ B.rifle("q", "0505"), B.rifle("r", "1005"), B.leader("l", "0807", 3), B.pz("g", "0101", "2-2-10") },
    { map = { columns = 10, rows = 10, places = { { name = "Town", kind = "major_city", hexes = { "0505" } } } },
      step = "soviet_interdiction", turn = 8,
      vars = { objectives = { { name = "Town", vp = 10, hexes = { "0505" } }, { name = "Exit", vp = 20, hexes = { "1005" } } },
        city_owner = { ["0505"] = "german", ["1005"] = "german" }, german_held = { "Town", "Exit" } } })
  local V = require("rules.victory")
  local is_city = {}
  for _, o in ipairs(V.objectives()) do is_city[o.name] = V.is_city(o) end
  expect.eq(is_city.Town, true)
  expect.eq(is_city.Exit, false, "no city place covers 1005")
  local ev = expect.accepted(kessel.act{ kind = "end_phase" })
  expect.truthy(B.note(ev, "the Soviet retakes Town: 2 VP"), B.all_notes(ev))
  expect.falsy(B.note(ev, "retakes Exit"), B.all_notes(ev))
  local rec = kessel.game.var("soviet_recaptures") or {}
  expect.eq(#rec, 1)
  expect.eq(rec[1].city, "Town")
  expect.eq(V.score().soviet_vp, 2)
end)

-- [14.3] [6.22] [6.1] A scheduled arrival and an entry hex the enemy holds or watches. Entry area X
-- is the one east-edge hex 1005; leader k and rifle r are due on turn 8. With German g in 0905,
-- 1005 is in g's zone: k alone may not enter it (a leader enters an enemy zone only with an
-- attack-capable unit [6.22]); k and r together may, and stop there. With g in 1005 itself no unit
-- enters (refused citing 6.1, and the reach query offers no hex); they wait off the map, the phase
-- ends all the same, and they come on in a later turn once the hex is free (delayed, never lost
-- [14.3]).
kessel.test("case_14_3_an_arrival_whose_entry_hex_is_held_or_watched_by_the_enemy", function()
  local function board(gat, turn)
    B.setup({ B.pz("g", gat), B.leader("k", nil, 3, { enter = { turn = 8, area = "X" } }),
      B.rifle("r", nil, "2-2-6", { enter = { turn = 8, area = "X" } }), B.leader("l", "0101", 2) },
      { step = "soviet_movement", turn = turn or 8, map = { columns = 10, rows = 10, areas = { X = { "1005" } } } })
  end
  board("0905")
  local ok, why = B.move({ "k" }, { "1005" })
  expect.refused(ok, why, "6.22", "a leader may enter an enemy ZOC only together with an attack-capable unit")
  expect.accepted(B.move({ "k", "r" }, { "1005" }))
  ok, why = B.move({ "k", "r" }, { "1004" })
  expect.refused(ok, why, "6.22", "in the zone of control of g (Fg) at 0905")

  board("1005")
  ok, why = B.move({ "k", "r" }, { "1005" })
  expect.refused(ok, why, "6.1", "entry hex 1005 holds enemy units")
  local reach = kessel.queries.ask("reach", { units = { "r" } })
  expect.eq(#reach.reachable, 0)
  -- and the mp_left query says the same: the only entry hex is held, so it may not move now
  local left = kessel.queries.ask("mp_left", { unit = "r" })
  expect.eq(left.may_move, false)
  expect.eq(left.reason.rule, "6.1")
  expect.truthy(left.reason.message:find("entry hex 1005 holds enemy units", 1, true), left.reason.message)
  -- the Soviet ends his player-turn with them off the map; the German leaves 1005 and its zone
  for _ = 1, 4 do expect.accepted(kessel.act{ kind = "end_phase" }) end
  expect.eq(kessel.game.step().id, "german_movement")
  expect.accepted(B.move({ "g" }, { "0703" }))
  for _ = 1, 5 do expect.accepted(kessel.act{ kind = "end_phase" }) end
  expect.eq(kessel.game.turn(), 9)
  expect.eq(B.where("r"), "pending")
  expect.eq(kessel.queries.ask("mp_left", { unit = "r" }).may_move, true, "1005 is free again")
  expect.accepted(B.move({ "k", "r" }, { "1005" }))
  expect.accepted(B.move({ "k", "r" }, { "1004" }))   -- out of every zone, the stack moves on
end)

-- [6.3] [8] [6.6] Rail lines and the German. A railway along row 02 (0302 to 2402): a Soviet unit
-- standing in a hex of a German zone does not open it to rail movement (friendly units never lift
-- an enemy zone for movement [8]); a disrupted German unit on the line has no zone [6.6] but
-- still bars its hex (no entry into enemy units [6.1]); the eight units a turn [6.3] count again
-- from the next game-turn. Board, Soviet Movement Phase of turn 7.
kessel.test("case_6_3_rail_past_german_units_and_the_eight_a_turn_renewed_each_turn", function()
  local rail_path = {}
  for c = 3, 24 do rail_path[#rail_path + 1] = string.format("%02d02", c) end
  local function board(units)
    B.setup(units, { step = "soviet_movement", map = { columns = 30, rows = 10, links = { { kind = "railway", path = rail_path } } } })
  end
  local function ride(ids, to) return kessel.act{ kind = "rail_move", units = ids, path = { to } } end
  -- f stands in 1102, in g's zone (g in 1101 reaches no other hex of the line): r may not ride
  -- through it, and rides up to 1002
  board({ B.rifle("r", "0302"), B.rifle("f", "1102"), B.pz("g", "1101"), B.leader("l", "0304", 5) })
  local ok, why = ride({ "r" }, "2002")
  expect.refused(ok, why, "6.3", "rail movement may not enter an enemy ZOC: 1102 is in the zone of control of g (Fg) at 1101")
  expect.accepted(ride({ "r" }, "1002"))
  -- a disrupted German on the line: no zone, but his hex is closed
  board({ B.rifle("r", "0302"), B.pz("d", "1502", nil, { flags = { "disrupted" } }), B.leader("l", "0304", 5) })
  ok, why = ride({ "r" }, "2002")
  expect.refused(ok, why, "6.3", "1502 holds German units")
  expect.accepted(ride({ "r" }, "1402"))   -- 1402, next to d, is open: d has no zone
  -- eight a turn, the count starting again next turn
  local tank = function(id) return { id = id, name = id, side = "soviet", type = "tank", faces = { "4-4-10" }, at = "0302" } end
  board({ tank("t1"), tank("t2"), B.rifle("a", "0302"), B.rifle("b", "0402"), B.rifle("c", "0402"), B.leader("l", "0304", 5) })
  expect.accepted(ride({ "t1", "t2", "a" }, "2002"))
  expect.accepted(ride({ "b" }, "1902"))
  ok, why = ride({ "c" }, "1802")
  expect.refused(ok, why, "6.3", "rail capacity: 8 of 8 used this turn")
  for _ = 1, 9 do expect.accepted(kessel.act{ kind = "end_phase" }) end
  expect.eq(kessel.game.turn(), 8)
  expect.eq(kessel.game.step().id, "soviet_movement")
  expect.accepted(ride({ "c" }, "1802"))
  expect.accepted(ride({ "t1", "t2" }, "0502"))
end)
