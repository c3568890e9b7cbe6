-- Situations from the reference material, rules24 pass: cases played together on small boards
-- where the earlier passes had no test. Each is played through actions.
local expect = kessel.expect
local B = require("testing.board10")
local Strip = require("testing.swf_strip")

-- [6.5] [10.35] [14.1] A provisional division appears at the start of the Soviet Movement Phase,
-- before anything moves, so it begins the phase where it is placed: inside a working leader's
-- radius it may overrun that phase like any unit that began the phase there. The rule bars only a
-- unit that began the phase outside every radius. The engine wrote down who began the phase in
-- command before the provisional roll put the division on the map, and so refused its overrun,
-- saying it had begun the phase outside every radius.
-- Board (the 30x8 strip): entrance P3 = 2001; leader l (rating 3) in 1903, two hexes from it;
-- German g (1-1-10) in 2003. The die gives 3: the division (3-3-6) appears in 2001, moves to 2002
-- (next to g, 1 MP) and overruns 2003: 3 halved 1 against 1, 1-1, roll 1: D1. With the leader far
-- away (in 0901, five hexes from 2001 along the edge and further to 2002) it is still refused.
kessel.test("case_6_5_a_provisional_division_placed_in_a_leaders_radius_may_overrun_that_phase", function()
  local function board(leader_hex)
    Strip.board({ Strip.reserve("a"), B.leader("l", leader_hex, 3), B.pz("g", "2003", "1-1-10") },
      "german_air_interdiction", 3)
    kessel.inject_dice{ 3 }
    expect.accepted(kessel.act{ kind = "end_phase" })
    expect.eq(kessel.game.step().id, "soviet_movement")
    expect.eq(B.where("a"), "2001", "entrance P3")
    expect.accepted(B.move({ "a" }, { "2002" }))
  end

  board("1903")
  kessel.inject_dice{ 1 }
  local ev = expect.accepted(kessel.act{ kind = "overrun", units = { "a" }, target = "2003" })
  expect.truthy(B.note(ev, "overrun of 2003 from 2002"), B.all_notes(ev))

  board("0901")
  local ok, why = kessel.act{ kind = "overrun", units = { "a" }, target = "2003" }
  expect.refused(ok, why, "10.35", "began the phase outside every leader's command radius")
end)

local function cut_at(hex)
  for _, m in ipairs(kessel.markers.all{ kind = "rail_cut", placed = true }) do
    if m.hex == hex then return true end
  end
  return false
end

-- [6.37] [14.1] [14.2] A Soviet combat unit entering a cut rail hex repairs it, and a scheduled
-- reinforcement moving onto the map through one does. A South-Western Front division called onto
-- its railway hex, and a provisional division whose entrance is a railway hex, enter that hex as
-- well; the engine left the cut in place under them, and the division then rode off by rail from
-- the cut hex as if the railway were whole. Now the division's arrival repairs the cut (noted,
-- citing 6.37); under the errata option the repaired hex carries no rail movement before the next
-- game-turn, so the division may not ride on from it that phase.
-- Board (the 30x8 strip): a railway from 1208 (south edge, P4, a South-Western Front hex) north to
-- 1206 and along row 06; a German cut in 1208; leader l (rating 3) in 1206; turn 4.
kessel.test("case_6_37_a_division_placed_on_a_cut_rail_hex_repairs_it", function()
  local function board(step, errata)
    Strip.board({ Strip.reserve("a"), B.leader("l", "1206", 3) }, step, 4,
      { markers = { { kind = "rail_cut", at = "1208" } }, options = { errata_6_37_repair_next_turn = errata } })
    expect.truthy(cut_at("1208"))
  end

  board("soviet_movement", false)
  local ev = expect.accepted(kessel.act{ kind = "swf_call", hex = "1208" })
  expect.eq(B.where("a"), "1208")
  expect.falsy(cut_at("1208"), "the division entered the cut hex: repaired")
  expect.truthy(B.note(ev, "repairs the railway at 1208"), B.all_notes(ev))
  expect.accepted(kessel.act{ kind = "rail_move", units = { "a" }, path = { "1506" } })

  board("soviet_movement", true)
  expect.accepted(kessel.act{ kind = "swf_call", hex = "1208" })
  expect.falsy(cut_at("1208"))
  local ok, why = kessel.act{ kind = "rail_move", units = { "a" }, path = { "1506" } }
  expect.refused(ok, why, "6.37", "repaired this game-turn")

  -- the provisional roll: 4 gives entrance P4, the same hex
  board("german_air_interdiction", false)
  kessel.inject_dice{ 4 }
  ev = expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.step().id, "soviet_movement")
  expect.eq(B.where("a"), "1208")
  expect.falsy(cut_at("1208"), "the provisional division entered the cut hex: repaired")
  expect.truthy(B.note(ev, "repairs the railway at 1208"), B.all_notes(ev))
end)

-- [6.3] [6.37] The Soviet may not move by rail through a cut hex, and a rail move leaving a cut hex
-- runs over the cut railway as much as one entering it (the errata option already refuses a rail
-- move that starts in a hex repaired that turn, for the same reason). A Soviet unit can stand in a
-- cut hex without repairing it: a leader (only combat units repair [6.37]), or a unit that got
-- there by a retreat or an advance (not movement). The engine let such a unit ride off from the
-- cut hex. Board (the 30x8 strip): railway along row 06; cut in 1006; leader l (rating 3) there.
-- Refused citing 6.37, and no rail move is listed for l; from 0906, next to the cut, l may ride
-- west to 0506 but not east through 1006.
kessel.test("case_6_37_no_rail_move_starts_in_a_cut_rail_hex", function()
  Strip.board({ B.leader("l", "1006", 3) }, "soviet_movement", 4, { markers = { { kind = "rail_cut", at = "1006" } } })
  local ok, why = kessel.act{ kind = "rail_move", units = { "l" }, path = { "1506" } }
  expect.refused(ok, why, "6.37", "cut at 1006")
  for _, a in ipairs(kessel.legal("soviet")) do
    expect.falsy(a.kind == "rail_move", "no rail move listed from the cut hex")
  end
  Strip.board({ B.leader("l", "0906", 3) }, "soviet_movement", 4, { markers = { { kind = "rail_cut", at = "1006" } } })
  expect.accepted(kessel.act{ kind = "rail_move", units = { "l" }, path = { "0506" } })
  Strip.board({ B.leader("l", "0906", 3) }, "soviet_movement", 4, { markers = { { kind = "rail_cut", at = "1006" } } })
  ok, why = kessel.act{ kind = "rail_move", units = { "l" }, path = { "1506" } }
  expect.refused(ok, why, "6.37", "cut at 1006")
end)

-- [14.1] [15] A city belongs to the side whose combat unit was last in it or passed through it.
-- A provisional division that appears in an empty city the German holds (the campaign's entrance
-- P2 is Rzhev, 3901, a 5 VP city) has been in it; if it moves on in the same phase, the city is
-- still the Soviet's. The engine recorded ownership from each move's path and from the units
-- standing in a city at the end of a step, and the appearing division did neither, so the German
-- kept the city. Board (the 30x8 strip): Town (5 VP) in 1001 = entrance P2, German-owned and
-- held with a line at the end of turn 3; no German unit near. The die gives 2: the division
-- appears in Town and moves on to 1003 (two hexes south); Town is the Soviet's, and at the end of
-- the Soviet player-turn the retaking scores.
kessel.test("case_15_a_provisional_division_appearing_in_a_german_held_city_retakes_it", function()
  Strip.board({ Strip.reserve("a"), B.leader("l", "1003", 3), B.pz("g", "0107", "2-2-10") }, "german_air_interdiction", 3,
    { vars = { objectives = { { name = "Town", vp = 5, hexes = { "1001" } } },
      city_owner = { ["1001"] = "german" }, german_held = { "Town" } } })
  kessel.inject_dice{ 2 }
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.step().id, "soviet_movement")
  expect.eq(B.where("a"), "1001", "entrance P2")
  expect.accepted(B.move({ "a" }, { "1002", "1003" }))
  expect.eq(kessel.game.var("city_owner")["1001"], "soviet", "the last to be in Town")
  local ev
  for _ = 1, 4 do ev = expect.accepted(kessel.act{ kind = "end_phase" }) end
  expect.eq(kessel.game.step().id, "german_movement")
  expect.eq(#(kessel.game.var("soviet_recaptures") or {}), 1, B.all_notes(ev))
end)

-- [6.37] [6.5] WBC09 #6 A German unit moving into or through a rail hex may cut the railway there,
-- and overrunners who clear a hex must enter it: they have moved into it. The cut was asked for
-- on a `move` only, in a hex of that move's path, so a rail hex taken by an overrun could never be
-- cut by the units that entered it (the hex where they stand is no hex of any later move's path,
-- and they may have no MP left). The overrun now takes `rail_cut` (and `lift`) as a move does: the
-- cut goes down in the overrun hex when the overrunners enter it, and not when the overrun fails.
-- Board, German Movement Phase of turn 7: railway along row 05 (0305-0905); German g (4-4-10) in
-- 0304; Soviet s (1-1-6) in 0305, t (1-1-6) in 0605. g overruns 0305 asking for a cut there:
-- 4 halved 2 against 1, 2-1, roll 1: D2; the Soviet takes the loss, s dies, g enters 0305 and
-- the railway there is cut. A cut asked for in another hex than the one overrun, or in a hex off
-- the railway (the same board without it), is refused citing 6.37; an overrun that ends in Eng
-- (2-1, roll 5) enters nothing and cuts nothing.
kessel.test("case_6_37_overrunners_who_enter_a_rail_hex_may_cut_the_railway_there", function()
  local rail = { kind = "railway", path = { "0305", "0405", "0505", "0605", "0705", "0805", "0905" } }
  local function board(links)
    B.setup({ B.pz("g", "0304", "4-4-10"), B.rifle("s", "0305", "1-1-6"), B.rifle("t", "0605", "1-1-6"),
      B.leader("l", "0909", 5) },
      { map = { columns = 10, rows = 10, links = links or { rail } }, step = "german_movement", turn = 7,
        markers = { { kind = "rail_cut", side = "german", count = 6 } } })
  end
  board({})
  local ok, why = kessel.act{ kind = "overrun", units = { "g" }, target = "0305", rail_cut = "0305" }
  expect.refused(ok, why, "6.37", "not a rail hex")
  board()
  ok, why = kessel.act{ kind = "overrun", units = { "g" }, target = "0305", rail_cut = "0405" }
  expect.refused(ok, why, "6.37", "0405")
  kessel.inject_dice{ 1 }
  local ev = expect.accepted(kessel.act{ kind = "overrun", units = { "g" }, target = "0305", rail_cut = "0305" })
  expect.truthy(B.note(ev, "roll 1: D2"), B.all_notes(ev))
  ev = expect.accepted(B.choose("loss"))
  expect.eq(B.where("s"), "eliminated")
  expect.eq(B.where("g"), "0305")
  expect.truthy(cut_at("0305"), B.all_notes(ev))
  expect.truthy(B.note(ev, "railway cut at 0305"), B.all_notes(ev))

  board()
  kessel.inject_dice{ 5 }
  ev = expect.accepted(kessel.act{ kind = "overrun", units = { "g" }, target = "0305", rail_cut = "0305" })
  expect.truthy(B.note(ev, "roll 5: Eng"), B.all_notes(ev))
  expect.eq(B.where("g"), "0304")
  expect.falsy(cut_at("0305"), "a failed overrun cuts nothing")
end)

-- [14.1] [15] [6.37] Where in its entrance the provisional division appears is the Soviet's
-- choice: the engine puts it on the entrance's first open hex and lets him put it on another
-- (place_provisional) before it moves. What its arrival does to a hex (a city becomes the
-- Soviet's, a rail cut is repaired) belongs to the hex it appears in: the first hex was only the
-- engine's default, so re-placing the division gives that hex back as it was and does the same to
-- the hex chosen. Board (the 30x8 strip): entrance P1 = 0301, 0401; 0301 is Town (German-owned,
-- empty) and carries a German rail cut; 0401 is Village (German-owned). The die gives 1: the
-- division lands in 0301 (Town Soviet, cut repaired); the Soviet puts it in 0401 instead: Town is
-- German again and the cut is back, Village is the Soviet's.
kessel.test("case_14_1_re_placing_the_provisional_division_undoes_what_its_default_hex_got", function()
  local rail = { kind = "railway", path = { "0301", "0302", "0303" } }
  local map = Strip.map()
  map.links[#map.links + 1] = rail
  Strip.board({ Strip.reserve("a"), B.leader("l", "0303", 3) }, "german_air_interdiction", 3,
    { map = map, markers = { { kind = "rail_cut", side = "german", at = "0301" } },
      vars = { objectives = { { name = "Town", vp = 5, hexes = { "0301" } }, { name = "Village", vp = 5, hexes = { "0401" } } },
        city_owner = { ["0301"] = "german", ["0401"] = "german" } } })
  kessel.inject_dice{ 1 }
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(B.where("a"), "0301")
  expect.eq(kessel.game.var("city_owner")["0301"], "soviet")
  expect.falsy(cut_at("0301"))
  expect.accepted(kessel.act{ kind = "place_provisional", hex = "0401" })
  expect.eq(B.where("a"), "0401")
  local owner = kessel.game.var("city_owner")
  expect.eq(owner["0301"], "german", "Town as it was before the default placement")
  expect.eq(owner["0401"], "soviet", "Village: the division appeared there")
  expect.truthy(cut_at("0301"), "the cut the default placement repaired is back")
end)

-- [9.1] [9.73] [12.3] Each unit is attacked at most once a phase. In the standard game, units
-- retreated onto a hex whose every real defender turns out a dud (a 0-0-6, removed on reveal)
-- defend on their own; the engine marked as attacked only the units it counted as defenders
-- before the reveal, so those retreated units, having defended, could be attacked again in the
-- same phase. Board, German Combat Phase of turn 7: d (face down, the pool holds a 0-0-6) and r
-- (2-2-6, retreated onto 0505 earlier this phase) in 0505; leader l (rating 5) in 0705; g1
-- (1-1-10) and g2 (4-4-10) in 0404. g1 attacks 0505: d is removed, r defends alone, 1 against 2,
-- 1-2, roll 3: A1; g1 takes the step. g2's attack on 0505 is refused citing 9.1.
kessel.test("case_9_1_retreated_units_that_defended_alone_after_a_dud_are_not_attacked_again", function()
  B.setup({ B.pz("g1", "0404", "1-1-10"), B.pz("g2", "0404", "4-4-10"),
    { id = "d", name = "d", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0505" },
    B.rifle("r", "0505", "2-2-6", { flags = { "retreated_onto" } }), B.leader("l", "0705", 5) },
    { pools = { rifle = { "0-0-6" } } })
  kessel.inject_dice{ 1, 3 }
  local ev = expect.accepted(B.attack({ "g1" }, { "0505" }))
  expect.truthy(B.note(ev, "d has no strength: removed"), B.all_notes(ev))
  expect.truthy(B.note(ev, "odds 1-2, roll 3: A1"), B.all_notes(ev))
  expect.accepted(B.choose("loss"))
  expect.eq(B.where("r"), "0505")
  local ok, why = B.attack({ "g2" }, { "0505" })
  expect.refused(ok, why, "9.1", "already been attacked")
end)

-- [6.5] [10.35] [14.3] A Soviet unit that came onto the map this phase did not begin it within a
-- leader's radius, so it may not overrun this phase (the reading kept: only this turn's
-- provisional division, placed before anything moves, begins the phase where it appears). The
-- refusal said it "began the phase outside every leader's command radius", which a GM looking at
-- a unit that entered next to its leader could not check; it now says the unit came onto the
-- map this phase. Board, from the German Air Interdiction Phase of turn 6 into the Soviet Movement
-- Phase of turn 7 (so that the phase has its start): rifle r (3-3-6) and leader l (rating 3)
-- due at X = 0808; German g (1-1-10) in 0708. r and l enter at 0808 (in g's zone: they stop);
-- r's overrun of 0708 is refused citing 10.35, the case of the command radius, as an attack is.
kessel.test("case_6_5_a_unit_that_entered_this_phase_may_not_overrun_and_the_refusal_says_so", function()
  local r = B.rifle("r", nil, "3-3-6"); r.location = "pending"; r.enter = { turn = 7, area = "X" }
  local l = B.leader("l", nil, 3); l.location = "pending"; l.enter = { turn = 7, area = "X" }
  B.setup({ r, l, B.pz("g", "0708", "1-1-10") },
    { map = { columns = 10, rows = 10, areas = { X = { "0808" } } }, step = "german_air_interdiction", turn = 6 })
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.step().id, "soviet_movement")
  expect.accepted(B.move({ "r", "l" }, { "0808" }))
  local ok, why = kessel.act{ kind = "overrun", units = { "r" }, target = "0708" }
  expect.refused(ok, why, "10.35", "came onto the map this phase")
end)
