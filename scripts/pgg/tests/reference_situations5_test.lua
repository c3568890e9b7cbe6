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

-- [14.1] [14.2] [14.3] [6.3] Reading (the reference is silent on what appearing costs): a
-- provisional division is placed on its entrance, and a South-Western Front division on its railway
-- hex, with the whole MA (6), whatever the hex's terrain or a German air marker there; scheduled
-- reinforcements move onto the map and pay the entry hex (case_14_3_… tests). A called division
-- may ride on by rail from its railway hex [6.3] (the reason the entry hexes are railway hexes).
kessel.test("case_14_1_provisional_division_is_placed_with_its_whole_ma", function()
  for _, markers in ipairs({ {}, german_marker("2001") }) do
    Strip.board({ reserve("a") }, "german_air_interdiction", 3,
      { markers = markers, map = Strip.map{ terrain = { ["2001"] = "swamp" } } })
    kessel.inject_dice{ 3 }
    local events = expect.accepted(kessel.act{ kind = "end_phase" })
    expect.eq(kessel.game.step().id, "soviet_movement")
    expect.eq(B.where("a"), "2001", "entrance P3")
    expect.eq(M.mp_left(kessel.units.get("a")), 6)
    expect.truthy(B.note(events, "placed with its whole MA"), B.all_notes(events))
  end
end)

kessel.test("case_14_2_called_division_is_placed_with_its_whole_ma_and_may_ride_on", function()
  Strip.board({ reserve("r1") }, "soviet_movement", 3, { map = Strip.map{ terrain = { ["1208"] = "swamp" } } })
  expect.accepted(kessel.act{ kind = "swf_call", hex = "1208" })
  expect.eq(M.mp_left(kessel.units.get("r1")), 6)
  expect.accepted(kessel.act{ kind = "rail_move", units = { "r1" }, path = { "0506" } })
  expect.eq(B.where("r1"), "0506")
  -- or it walks its whole MA from there
  Strip.board({ reserve("r1") }, "soviet_movement", 3)
  expect.accepted(kessel.act{ kind = "swf_call", hex = "1208" })
  expect.accepted(kessel.act{ kind = "move", units = { "r1" }, path = { "1207", "1206", "1205", "1204", "1203", "1202" } })
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

-- [6.22] Every ZOC refusal names where the move stops and whose zone it is, once: a stack in 0101
-- asked to go to 0106 past a rifle in 0105 stops at 0104; a path through 0104 is refused at the
-- next hex; a scheduled reinforcement entering at 0104 may not go on; a stack already in the zone
-- may not leave it. (The texts used to read "entered enemy ZOC of 100 Rifle at 0105 at 0104".)
kessel.test("case_6_22_zoc_refusals_name_the_stop_hex_and_the_enemy_unit_once", function()
  local map = { columns = 2, rows = 9, areas = { C = { "0104" } } }
  B.setup({ B.pz("p", "0101", nil, { name = "25 Pz" }), B.rifle("r", "0105", nil, { name = "100 Rifle" }),
    B.pz("q", nil, nil, { enter = { turn = 3, area = "C" } }) }, { step = "german_movement", map = map })
  local stop = "movement ends at 0104, in the zone of control of 100 Rifle at 0105"
  local ok, why = kessel.act{ kind = "move", units = { "p" }, path = { "0106" } }
  expect.refused(ok, why, "6.22", "cannot reach 0106: " .. stop)
  ok, why = kessel.act{ kind = "move", units = { "p" }, path = { "0102", "0103", "0104", "0105" } }
  expect.refused(ok, why, "6.22", "cannot enter 0105: " .. stop)
  ok, why = kessel.act{ kind = "move", units = { "q" }, path = { "0104", "0204" } }
  expect.refused(ok, why, "6.22", "cannot enter 0204: " .. stop)
  expect.falsy(tostring(why):find("at 0105 at", 1, true), "no doubled 'at'")
  expect.accepted(kessel.act{ kind = "move", units = { "p" }, path = { "0104" } })
  ok, why = kessel.act{ kind = "move", units = { "p" }, path = { "0103" } }
  expect.refused(ok, why, "6.22", "the stack at 0104 is in the zone of control of 100 Rifle at 0105 and may not leave it voluntarily")
end)

-- [9.3] [6.7] The terrain effects chart on defence, one 2-3-6 rifle in 0403 attacked from 0303:
-- clear, swamp, a minor city and a road change nothing (3); forest, a major city and a river
-- crossed by every attacker double (6); the doublings add: forest and river 9, forest, major city
-- and river 12. An attack from 0303 and 0304 where only 0303 is across the river does not double.
kessel.test("case_9_3_every_terrain_of_the_chart_on_defence", function()
  local K = require("rules.combat")
  local function defence(map_extra, attackers)
    local map = { columns = 10, rows = 10 }
    for k, v in pairs(map_extra) do map[k] = v end
    B.setup({ B.pz("g", "0303"), B.pz("h", "0304"), B.rifle("s", "0403", "2-3-6"), B.leader("l", "0705", 5) }, { map = map })
    return K.defence_of({ "0403" }, { attacker_hexes = attackers or { "0303" } })
  end
  local river = { { "0303", "0403", "river" } }
  expect.eq(defence{}, 3, "clear")
  expect.eq(defence{ terrain = { ["0403"] = "swamp" } }, 3, "swamp: no effect on combat")
  expect.eq(defence{ places = { { name = "Velizh", kind = "minor_city", hexes = { "0403" } } } }, 3, "minor city: no effect")
  expect.eq(defence{ links = { { kind = "road", path = { "0303", "0403", "0503" } } } }, 3, "road: no effect")
  expect.eq(defence{ terrain = { ["0403"] = "forest" } }, 6, "forest")
  expect.eq(defence{ places = { { name = "Orsha", kind = "major_city", hexes = { "0403" } } } }, 6, "major city")
  expect.eq(defence{ hexsides = river }, 6, "solely across a river")
  expect.eq(defence({ hexsides = river }, { "0303", "0304" }), 3, "0304 is not across the river")
  expect.eq(defence{ terrain = { ["0403"] = "forest" }, hexsides = river }, 9, "forest and river add: x3")
  expect.eq(defence{ terrain = { ["0403"] = "forest" }, hexsides = river,
    places = { { name = "Orsha", kind = "major_city", hexes = { "0403" } } } }, 12, "forest, major city and river: x4")
end)

-- [9.23] [9.6] [9.7] [9.8] A two-hex attack from 0304 and 0504 (each next to both defending hexes)
-- on rifles in 0403 and 0404: 16 against 4 is 4-1, roll 4: D1. The defender's result covers the
-- whole combat: one step in all, or every defending stack retreats a hex. Each retreat path is the
-- German's pick: 0403 may go only to 0402 (0503 and 0303 are in German ZOC, 0404 is not empty),
-- 0404 to 0405, in the order he likes. Then either attacking hex may advance into either emptied hex, one at a time.
kessel.test("case_9_23_two_hex_d1_every_defending_stack_retreats_and_either_attacking_hex_advances", function()
  B.setup{ B.pz("g", "0304", "8-8-10"), B.pz("h", "0504", "8-8-10"), B.rifle("a", "0403", "2-2-6"),
    B.rifle("b", "0404", "2-2-6"), B.leader("l", "0705", 5) }
  kessel.inject_dice{ 4 }
  local events = expect.accepted(kessel.act{ kind = "attack", units = { "g", "h" }, targets = { "0403", "0404" } })
  expect.truthy(B.note(events, "attack 16 against defence 4 in 0403+0404: odds 4-1, roll 4: D1"), B.all_notes(events))
  local p = B.pending()
  expect.eq(p.kind, "loss_or_retreat")
  expect.eq(p.side, "soviet")
  expect.eq(p.n, 1, "one step for the whole defence")
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  expect.eq(B.pending().side, "german", "the opponent picks the paths [9.72]")
  local paths = {}
  for _, a in ipairs(kessel.legal("german")) do paths[#paths + 1] = a.units[1] .. ":" .. table.concat(a.path, ",") end
  -- the German picks which stack goes first [9.72] (the order the paths are laid out in is his)
  expect.eq(table.concat(paths, " "), "a:0402 b:0405")
  expect.accepted(kessel.act{ kind = "retreat", units = { "a" }, path = { "0402" } })
  expect.accepted(kessel.act{ kind = "retreat", units = { "b" }, path = { "0405" } })
  expect.eq(B.pending().kind, "advance")
  expect.accepted(kessel.act{ kind = "advance", units = { "h" }, path = { "0403" } })
  expect.accepted(kessel.act{ kind = "advance", units = { "g" }, path = { "0404" } })
  expect.eq(B.where("h"), "0403")
  expect.eq(B.where("g"), "0404")
end)

-- [9.8] [7.2] De from two attacking hexes, two panzer regiments in each: the two-hex advance may be
-- taken by both hexes, the first hex being the defender's. g1 and g2 stop in 0403; h1 and h2 may not
-- stop there too (four German units, over the three of 7.2) but may pass through it to 0503.
kessel.test("case_9_8_two_hex_advance_by_two_attacking_hexes_within_the_stacking_limit", function()
  B.setup{ B.pz("g1", "0304", "8-8-10"), B.pz("g2", "0304", "8-8-10"), B.pz("h1", "0504", "8-8-10"),
    B.pz("h2", "0504", "8-8-10"), B.rifle("a", "0403", "1-1-6"), B.leader("l", "0808", 2) }
  kessel.inject_dice{ 1 }
  local events = expect.accepted(kessel.act{ kind = "attack", units = { "g1", "g2", "h1", "h2" }, targets = { "0403" } })
  expect.truthy(B.note(events, "roll 1: De"), B.all_notes(events))
  expect.accepted(kessel.act{ kind = "advance", units = { "g1", "g2" }, path = { "0403" } })
  local ok, why = kessel.act{ kind = "advance", units = { "h1", "h2" }, path = { "0403" } }
  expect.refused(ok, why, "7.2")
  expect.accepted(kessel.act{ kind = "advance", units = { "h1", "h2" }, path = { "0403", "0503" } })
  expect.eq(B.where("h1"), "0503")
  expect.eq(B.pending(), nil)
end)

-- [11.2] [8] Any Soviet unit in a hex negates the German ZOC there for a line of communication: a
-- leader alone, or a disrupted rifle (disruption takes away its own ZOC [6.6], not its presence). The
-- rifle in 0401 traces to the leader in 0601 through 0501, in the ZOC of the panzer in 0502.
kessel.test("case_11_2_a_leader_or_a_disrupted_unit_negates_enemy_zoc_for_the_line", function()
  local S = require("rules.supply")
  local function line(extra)
    local units = { B.leader("l", "0601", 3), B.rifle("r", "0401", "3-3-6"), B.pz("g", "0502") }
    if extra then units[#units + 1] = extra end
    kessel.setup{ map = { columns = 12, rows = 2 }, step = "soviet_movement", turn = 5, units = units }
    return S.in_supply("r", "combat")
  end
  expect.falsy(line(nil), "0501 is in the panzer's ZOC")
  expect.truthy(line(B.leader("x", "0501", 2)), "a leader alone in 0501")
  expect.truthy(line(B.rifle("x", "0501", "2-2-6", { flags = { "disrupted" } })), "a disrupted rifle in 0501")
end)

-- [15] WBC09 sides, options vp_bid and vp_bidding: a bid agreed before the game is the margin the
-- German said he can take, whether or not the bidding option is on: with Smolensk (25) held, a
-- bid of 12 is reached (German Marginal), a bid of 30 is not (25 is 5 short of it: Soviet Marginal,
-- as 45 is without a bid). With no bid, 25 is a Soviet Strategic Victory. (The agreed bid was
-- ignored unless vp_bidding was on as well, so a GM who set only vp_bid saw no difference; and the
-- bid once came off the German total, so a German who took exactly his bid lost decisively.)
kessel.test("case_15_a_bid_agreed_before_the_game_counts_without_the_bidding_option", function()
  local V = require("rules.victory")
  local function score(options)
    B.setup({ B.inf("a", "0403"), B.inf("b", "0404") }, { options = options,
      vars = { objectives = { { name = "Smolensk", vp = 25, hexes = { "0403", "0404" } } } } })
    return V.score()
  end
  expect.eq(score({}).german_vp, 25)
  expect.eq(score({}).level, "Soviet Strategic")
  local r = score({ vp_bid = 12 })
  expect.eq(r.german_vp, 25, "the German's VP are his")
  expect.eq(r.bid, 12)
  expect.eq(r.level, "German Marginal", "25 reaches the bid of 12")
  expect.eq(score({ vp_bid = 12, vp_bidding = true }).level, "German Marginal", "the same with the bidding option on")
  expect.eq(score({ vp_bid = 25 }).level, "German Marginal", "exactly the bid")
  expect.eq(score({ vp_bid = 30 }).level, "Soviet Marginal", "5 short of the bid")
  expect.eq(score({ vp_bid = 76 }).level, "Soviet Decisive", "51 short of the bid")
end)

-- [7] [7.1] [7.2] Stacking checkpoints at the end of every phase, with four units in 0505: the
-- Soviet's are judged at the end of his Movement Phase and in combat (not in his Disruption Removal
-- or Interdiction Phase); the German's at the end of both his Movement Phases and in combat, and with
-- german_stacking_checkpoint = every_phase at the end of every phase of his player-turn too.
kessel.test("case_7_stacking_checkpoints_at_each_phase_end", function()
  local function ends(units, step, opt)
    B.setup(units, { step = step, options = { german_stacking_checkpoint = opt } })
    local ok, why = kessel.act{ kind = "end_phase" }
    if ok then return "ends" end
    return why[1].rule
  end
  local german = { B.pz("a", "0505"), B.pz("b", "0505"), B.pz("c", "0505"), B.inf("d", "0505"), B.leader("l", "0909", 2) }
  local expected = {
    german_movement = { "7.2", "7.2" }, german_combat = { "7.2", "7.2" }, german_mech_movement = { "7.2", "7.2" },
    german_disruption_removal = { "ends", "7.2" }, german_air_interdiction = { "ends", "7.2" } }
  for step, want in pairs(expected) do
    expect.eq(ends(german, step, "movement_and_combat"), want[1], step)
    expect.eq(ends(german, step, "every_phase"), want[2], step .. " (every_phase)")
  end
  local soviet = { B.rifle("a", "0505"), B.rifle("b", "0505"), B.rifle("c", "0505"), B.rifle("d", "0505"),
    B.leader("l", "0909", 2), B.pz("g", "0101") }
  local soviet_expected = { soviet_movement = "7.1", soviet_combat = "7.1", soviet_disruption_removal = "ends", soviet_interdiction = "ends" }
  for step, want in pairs(soviet_expected) do expect.eq(ends(soviet, step), want, step) end
  -- what the refusal asks for: in his Movement Phase, while units there can still move away,
  -- moving them; in combat (no moving any more), eliminating the excess
  local function refusal(step)
    B.setup(german, { step = step })
    local ok, why = kessel.act{ kind = "end_phase" }
    expect.falsy(ok, step)
    return why[1].message
  end
  local moving = refusal("german_movement")
  expect.truthy(moving:find("move them away", 1, true), moving)
  expect.falsy(moving:find("must eliminate", 1, true), moving)
  local combat = refusal("german_combat")
  expect.truthy(combat:find("must eliminate 1 unit", 1, true), combat)
end)

-- [15] The victory levels at the end of game-turn 12, played to the end: German 50 - Soviet 0 is a
-- German Marginal Victory (a draw with german_marginal_is_draw); German 10 - Soviet 10 (two German
-- divisions destroyed at 5 VP) is a tie, 0: Soviet Decisive.
kessel.test("case_15_victory_levels_at_the_end_of_turn_12_thresholds_and_ties", function()
  local function finish(vp, extra_units, options)
    local units = { B.inf("a", "0403") }
    for _, u in ipairs(extra_units or {}) do units[#units + 1] = u end
    B.setup(units, { step = "german_air_interdiction", turn = 12, last_turn = 12, options = options,
      vars = { objectives = { { name = "Town", vp = vp, hexes = { "0403" } } } } })
    local events = expect.accepted(kessel.act{ kind = "end_phase" })
    return kessel.game.var("result"), events
  end
  local r, events = finish(50)
  expect.eq(r.difference, 50)
  expect.eq(r.level, "German Marginal")
  expect.truthy(B.note(events, "final score: German 50, Soviet 0 (+50): German Marginal"), B.all_notes(events))
  r = finish(49)
  expect.eq(r.level, "Soviet Marginal")
  r = finish(50, nil, { german_marginal_is_draw = true })
  expect.eq(r.level, "Draw")
  r = finish(80, nil, { german_marginal_is_draw = true })
  expect.eq(r.level, "German Strategic")
  r = finish(10, { B.inf("x", nil, { location = "eliminated" }), B.inf("y", nil, { location = "eliminated" }) })
  expect.eq(r.german_vp, 10)
  expect.eq(r.soviet_vp, 10)
  expect.eq(r.level, "Soviet Decisive", "a tie is a difference of 0")
end)

-- [6.3] [8] Rail refusals at an enemy ZOC say whose zone it is, as movement refusals do: a rail move
-- along row 02 past a panzer in 1001 is refused at the first hex of its zone; a rail move may not
-- start next to it either.
kessel.test("case_6_3_rail_refusals_at_an_enemy_zoc_name_the_unit", function()
  local rail = {}
  for c = 3, 40 do rail[#rail + 1] = string.format("%02d02", c) end
  local function line(units)
    kessel.setup{ map = { columns = 42, rows = 4, links = { { kind = "railway", path = rail } } },
      units = units, step = "soviet_movement", turn = 7 }
  end
  line{ B.rifle("r", "0302", "3-3-6"), B.pz("g", "1001") }
  local ok, why = kessel.act{ kind = "rail_move", units = { "r" }, path = { "2002" } }
  expect.refused(ok, why, "6.3", "may not enter an enemy ZOC: 0902 is in the zone of control of g (Fg) at 1001")
  line{ B.rifle("r", "1002", "3-3-6"), B.pz("g", "1001") }
  ok, why = kessel.act{ kind = "rail_move", units = { "r" }, path = { "2002" } }
  expect.refused(ok, why, "6.3", "may not start in an enemy ZOC: 1002 is in the zone of control of g (Fg) at 1001")
end)

-- [14.1] [6.7] Entrance P3 (2001) is in the ZOC of a panzer in 1901, so the division enters at the
-- nearest open hex toward the east on the same edge; 2101 is a lake, which no unit may enter, so
-- that is 2201, not 2101. (The search took the lake hex.)
kessel.test("case_14_1_blocked_entrance_never_moves_the_division_into_a_lake", function()
  Strip.board({ reserve("a"), B.pz("g", "1901") }, "german_air_interdiction", 3,
    { map = Strip.map{ terrain = { ["2101"] = "lake" } } })
  kessel.inject_dice{ 3 }
  local events = expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(B.where("a"), "2201", B.all_notes(events))
end)

-- [9.8] [6.7] De: the panzer may advance two hexes, the first being the defender's hex 0403, the
-- second any empty hex next to it, but not across the lake hexside between 0403 and 0503: 0503 is
-- not offered, and asking for it is refused citing the lake [6.7] (the refusal used to give only
-- the general 9.8 wording). A path that is simply not on offer lists those that are.
kessel.test("case_9_8_two_hex_advance_never_crosses_a_lake_hexside", function()
  B.setup({ B.pz("g", "0303", "9-9-10"), B.rifle("s", "0403", "1-1-6"), B.leader("l", "0909", 2) },
    { map = { columns = 10, rows = 10, hexsides = { { "0403", "0503", "lake" } } } })
  kessel.inject_dice{ 1 }
  expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
  for _, a in ipairs(kessel.legal("german")) do
    expect.truthy(not (a.path and a.path[2] == "0503"), "0503 is across the lake hexside")
  end
  local ok, why = kessel.act{ kind = "advance", units = { "g" }, path = { "0403", "0503" } }
  expect.refused(ok, why, "6.7", "may not cross the lake hexside between 0403 and 0503")
  ok, why = kessel.act{ kind = "advance", units = { "g" }, path = { "0403", "0404", "0405" } }
  expect.refused(ok, why, "9.8", "on offer: 0403, 0403-0402")
  expect.accepted(kessel.act{ kind = "advance", units = { "g" }, path = { "0403", "0504" } })
  expect.eq(B.where("g"), "0504")
end)
