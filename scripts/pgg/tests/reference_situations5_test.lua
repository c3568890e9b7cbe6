-- Situations from the reference material, fifth tester pass: what entering units pay [14] [6.7]
-- [13.3], the wording of movement refusals [6.22], the optional rules and profiles played on and
-- off, and combat across the terrain effects chart [9.3] [6.7]. Each test works out by hand what
-- the cited cases demand and checks what the engine does and which case it names.
local expect = kessel.expect
local M = require("rules.movement")

local Strip = require("testing.swf_strip")
local reserve = Strip.reserve
local B = require("testing.board10")

local function german_marker(at) return { { kind = "air_interdiction", side = "german", at = at } } end

-- [14.1] [14.3] [6.7] [13.3] A provisional division enters the map like any reinforcement: the
-- entry hex's terrain is paid out of its MA (6). Entrance P3 (2001) is swamp, 2 MP: 4 left. With a
-- German air marker on 2001 (placed in the German Air Interdiction Phase, still there in the
-- Soviet Movement Phase [13.33]) the hex costs 1 more: 3 left. (The engine used to place it with
-- its whole MA, so a provisional division moved farther than a scheduled one entering there.)
kessel.test("case_14_1_provisional_division_pays_the_entry_hex_terrain", function()
  for _, case in ipairs({ { left = 4 }, { markers = german_marker("2001"), left = 3 } }) do
    Strip.board({ reserve("a") }, "german_air_interdiction", 3,
      { markers = case.markers, map = Strip.map{ terrain = { ["2001"] = "swamp" } } })
    kessel.inject_dice{ 3 }
    expect.accepted(kessel.act{ kind = "end_phase" })
    expect.eq(kessel.game.step().id, "soviet_movement")
    expect.eq(B.where("a"), "2001", "entrance P3")
    expect.eq(M.mp_left(kessel.units.get("a")), case.left)
  end
end)

-- [14.2] [14.3] [6.7] [6.3] A South-Western Front division called onto 1208 (swamp) has paid 2 MP
-- of its 6 to enter: it may go on 4 clear hexes and no farther. Having entered (moved) this phase it
-- may not then move by rail [6.3]. On a clear entry hex it has 5 left.
kessel.test("case_14_2_called_division_pays_the_entry_hex_terrain", function()
  Strip.board({ reserve("r1") }, "soviet_movement", 3, { map = Strip.map{ terrain = { ["1208"] = "swamp" } } })
  expect.accepted(kessel.act{ kind = "swf_call", hex = "1208" })
  expect.eq(M.mp_left(kessel.units.get("r1")), 4)
  local ok, why = kessel.act{ kind = "rail_move", units = { "r1" }, path = { "0506" } }
  expect.refused(ok, why, "6.3", "already moved")
  ok, why = kessel.act{ kind = "move", units = { "r1" }, path = { "1207", "1206", "1205", "1204", "1203" } }
  expect.refused(ok, why, "6.1", "needs 5 MP")
  expect.accepted(kessel.act{ kind = "move", units = { "r1" }, path = { "1207", "1206", "1205", "1204" } })
  Strip.board({ reserve("r1") }, "soviet_movement", 3)
  expect.accepted(kessel.act{ kind = "swf_call", hex = "1208" })
  expect.eq(M.mp_left(kessel.units.get("r1")), 5)
end)

-- [10.4] [14.3] [6.7] Optional rule on: a leader with no line of supply to the east edge (boxed in
-- by three panzers) is evacuated in turn 7 and comes back through X at the start of the Soviet
-- Movement Phase of turn 8, like any arrival paying its entry hex: X (0808) is swamp, 2 MP of the
-- leader's 10, so 8 are left (it used to come back with all 10). A second evacuation the same turn
-- is refused, and with the option off, or WBC09 #5 on over it, the first one is too.
kessel.test("case_10_4_returning_leader_pays_the_entry_hex", function()
  local units = { B.leader("l", "0202", 2), B.pz("g1", "0302"), B.pz("g2", "0203"), B.pz("g3", "0101"),
    B.leader("m", "0102", 3) }
  local function start(options)
    B.setup(units, { step = "soviet_movement", options = options,
      map = { columns = 10, rows = 10, areas = { X = { "0808" } }, terrain = { ["0808"] = "swamp" } } })
  end
  start({})
  local ok, why = kessel.act{ kind = "evacuate", leader = "l" }
  expect.refused(ok, why, "10.4", "optional rule that is off")
  start({ leader_evacuation = true, wbc09_05_no_leader_evacuation = true })
  ok, why = kessel.act{ kind = "evacuate", leader = "l" }
  expect.refused(ok, why, "WBC09 #5", "not in effect")
  start({ leader_evacuation = true })
  expect.accepted(kessel.act{ kind = "evacuate", leader = "l" })
  ok, why = kessel.act{ kind = "evacuate", leader = "m" }
  expect.refused(ok, why, "10.4", "already evacuated this turn")
  for _ = 1, 9 do expect.accepted(kessel.act{ kind = "end_phase" }) end
  expect.eq(kessel.game.turn(), 8)
  expect.eq(kessel.game.step().id, "soviet_movement")
  expect.eq(B.where("l"), "0808", "back at X")
  expect.eq(M.mp_left(kessel.units.get("l")), 8, "10 less the swamp entry hex")
end)

-- [14.1] [14.3] Nothing enters on turn 12, and the provisional division is a reinforcement like any
-- other (the South-Western Front is closed that turn for the same reason): going from the German
-- Air Interdiction Phase of turn 11 to the Soviet Movement Phase of turn 12 rolls no die and brings
-- no division; the note cites 14.3. On turn 11 the roll is made as usual.
kessel.test("case_14_3_no_provisional_roll_on_turn_12", function()
  Strip.board({ reserve("a") }, "german_air_interdiction", 11)
  local events = expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.turn(), 12)
  expect.eq(kessel.units.get("a").location, "pending", "still in the reserve")
  local n = B.note(events, "no provisional reinforcement roll on turn 12")
  expect.truthy(n, B.all_notes(events))
  expect.eq(n.rule, "14.3")
  Strip.board({ reserve("a") }, "german_air_interdiction", 10)
  kessel.inject_dice{ 3 }
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(B.where("a"), "2001", "turn 11: entrance P3")
end)

-- [12.4] WBC09 #14: the rifle pool is used up, so a face-down division shows the values of a dead
-- counter when revealed. It entered on turn 5, so its counter was one already dead then: d2 (3-3-6,
-- died turn 2) or d1 (7-7-6, died turn 4), never d3 (9-8-6, died turn 6, after it entered). Under
-- WBC09 #14 only a division dead two turns before its entry may come back: d2 alone. The draw die
-- (1) picks the first fitting counter of the pile (d1, d2, d3 in order of death): d1 in the
-- standard game, d2 under WBC09 #14. (The engine drew from the whole pile, d3 included, and knew
-- no delay at reveal time, which is how the campaign reuses dead counters.)
kessel.test("case_12_4_dead_counter_drawn_only_if_dead_before_the_unit_entered_and_wbc09_14", function()
  local function dead(id, face, died) return B.rifle(id, nil, face, { location = "eliminated", pool = "rifle", vars = { elim_turn = died } }) end
  local function reveal_with(options)
    B.setup({ B.pz("g", "0303", "8-8-10"), B.leader("l", "0705", 5),
      { id = "u", name = "u", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0403", vars = { entered_turn = 5 } },
      dead("d1", "7-7-6", 4), dead("d2", "3-3-6", 2), dead("d3", "9-8-6", 6) },
      { options = options, pools = { rifle = {} }, vars = { dead_pile = { "d1", "d2", "d3" } } })
    kessel.inject_dice{ 1, 6 }
    local events = expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
    return B.note(events, "revealed as"), events
  end
  local n, events = reveal_with({})
  expect.truthy(n and n.text:find("revealed as 7-7-6", 1, true), B.all_notes(events))
  expect.truthy(B.note(events, "attack 8 against defence 7 in 0403"), B.all_notes(events))
  n, events = reveal_with({ wbc09_14_rifle_recycling_delay = true })
  expect.truthy(n and n.text:find("revealed as 3-3-6", 1, true), B.all_notes(events))
  expect.truthy(B.note(events, "attack 8 against defence 3 in 0403"), B.all_notes(events))
end)
