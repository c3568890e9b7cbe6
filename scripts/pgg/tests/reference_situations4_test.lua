-- Situations from the reference material, fourth tester pass: South-Western Front calls [14.2]
-- played through the `swf_call` action (limits a turn and a game, the phase, what enters and what
-- it may do, the dead pile with and without WBC09 #14), and stacking on a Soviet advance after
-- combat [7.1] [9.8]. Each test works out by hand what the cited cases demand and checks what the
-- engine does and which case it names.
local expect = kessel.expect

local function dead_rifle(id, died)
  return { id = id, name = id, side = "soviet", type = "rifle", faces = { "3-3-6" }, location = "eliminated", vars = { elim_turn = died } }
end

local Strip = require("testing.swf_strip")
local reserve, swf_board = Strip.reserve, Strip.board

-- [14.2] Five a turn, ten a game, +1 VP each for the first five and +2 for the next five. Three
-- were called on turn 2 (3 VP); on turn 3 five more may come (the per-turn count starts again),
-- the 4th and 5th at 1 VP and the 6th-8th at 2 VP: 3 + 1 + 1 + 2 + 2 + 2 = 11; a sixth call on
-- turn 3 is refused by the per-turn limit although the game's ten are not used up.
kessel.test("case_14_2_five_a_turn_counts_again_each_turn_and_vp_step_up_after_the_fifth", function()
  local units = {}
  for i = 1, 12 do units[i] = reserve("r" .. i) end
  swf_board(units, "soviet_movement", 3, { vars = { swf_count = 3, swf_vp = 3, swf_turn = { turn = 2, n = 3 } } })
  for i = 1, 5 do expect.accepted(kessel.act{ kind = "swf_call", hex = (i % 2 == 0) and "1208" or "2008" }) end
  expect.eq(kessel.game.var("swf_count"), 8)
  expect.eq(kessel.game.var("swf_vp"), 11)
  local ok, why = kessel.act{ kind = "swf_call", hex = "1208" }
  expect.refused(ok, why, "14.2", "at most 5")
end)

-- [14.2] [4] The divisions are called in the Soviet Movement Phase only: not in the Soviet
-- Combat Phase, nor in the German Movement Phase (where the Soviet is not the phasing player).
kessel.test("case_14_2_calls_only_in_the_soviet_movement_phase", function()
  swf_board({ reserve("r1") }, "soviet_combat", 3)
  local ok, why = kessel.act{ kind = "swf_call", hex = "1208", side = "soviet" }
  expect.refused(ok, why, "14.2", "Soviet Movement Phase")
  for _, a in ipairs(kessel.legal("soviet")) do expect.truthy(a.kind ~= "swf_call", "no call listed in combat") end
  swf_board({ reserve("r1") }, "german_movement", 3)
  ok, why = kessel.act{ kind = "swf_call", hex = "1208", side = "soviet" }
  expect.refused(ok, why, "4", "may not act")
  expect.eq(kessel.units.get("r1").location, "pending", "still off the map")
end)

-- [14.2] [14] A called division enters untried [12] on its rail hex and, entering in its own
-- Movement Phase, may move on in that phase like any reinforcement.
kessel.test("case_14_2_called_division_enters_untried_and_moves_that_phase", function()
  swf_board({ reserve("r1") }, "soviet_movement", 3)
  expect.accepted(kessel.act{ kind = "swf_call", hex = "1208" })
  local u = kessel.units.get("r1")
  expect.eq(u.hex, "1208")
  expect.truthy(u.hidden, "untried")
  expect.accepted(kessel.act{ kind = "move", units = { "r1" }, path = { "1207" } })
  expect.eq(kessel.units.get("r1").hex, "1207")
end)

-- [14.2] [12.4] WBC09 #14: with no reserve left the call takes a rifle from the dead pile in the
-- standard game (died turn 3, called turn 4). Under WBC09 #14 a division may not come back the
-- turn after it died, so the same call is refused; on turn 5 it is accepted.
kessel.test("case_14_2_call_from_the_dead_pile_and_wbc09_14_delay", function()
  swf_board({ dead_rifle("d", 3) }, "soviet_movement", 4)
  expect.accepted(kessel.act{ kind = "swf_call", hex = "1208" })
  expect.eq(kessel.units.get("d").hex, "1208")
  swf_board({ dead_rifle("d", 3) }, "soviet_movement", 4, { options = { wbc09_14_rifle_recycling_delay = true } })
  local ok, why = kessel.act{ kind = "swf_call", hex = "1208" }
  expect.refused(ok, why, "14.2", "no rifle division is available")
  swf_board({ dead_rifle("d", 3) }, "soviet_movement", 5, { options = { wbc09_14_rifle_recycling_delay = true } })
  expect.accepted(kessel.act{ kind = "swf_call", hex = "1208" })
end)

-- [12.4] [14.2] In the standard game a division called back from the dead pile comes back face
-- down: its values are forgotten and its counter rejoins the unknowns (the rifle pool, empty
-- before), so the German's view shows a rifle and no values, and its next reveal draws from the
-- pool. Under WBC09 #14 the Soviet selected it among divisions both players saw die: face up.
kessel.test("case_12_4_a_division_back_from_the_dead_pile_returns_face_down", function()
  local dead = dead_rifle("d", 2)
  dead.pool = "rifle"
  swf_board({ dead }, "soviet_movement", 5, { pools = { rifle = {} } })
  expect.accepted(kessel.act{ kind = "swf_call", hex = "1208" })
  local u = kessel.units.get("d")
  expect.eq(u.hex, "1208")
  expect.truthy(u.hidden, "face down")
  expect.eq(u.attack, nil, "its values are forgotten")
  expect.eq(table.concat(kessel.game.pool("rifle"), ","), "3-3-6", "its counter rejoins the unknowns")
  local seen = nil
  for _, r in ipairs(kessel.game.view("german").units) do if r.id == "d" then seen = r end end
  expect.truthy(seen and seen.hidden, "the German sees a face-down rifle")
  expect.eq(#(seen.faces or {}), 0, "and no values")
  swf_board({ dead }, "soviet_movement", 5,
    { pools = { rifle = {} }, options = { wbc09_14_rifle_recycling_delay = true } })
  expect.accepted(kessel.act{ kind = "swf_call", hex = "1208" })
  u = kessel.units.get("d")
  expect.falsy(u.hidden, "WBC09 #14: face up")
  expect.eq(u.attack, 3)
  expect.eq(#kessel.game.pool("rifle"), 0)
end)

-- [14.2] [7.1] Stacking is judged at the end of the Movement Phase, not as divisions enter: four
-- calls into 1208 are accepted, and the phase may not end with four rifles there.
kessel.test("case_14_2_four_calls_into_one_hex_then_the_stacking_check", function()
  local units = {}
  for i = 1, 4 do units[i] = reserve("r" .. i) end
  swf_board(units, "soviet_movement", 3)
  for _ = 1, 4 do expect.accepted(kessel.act{ kind = "swf_call", hex = "1208" }) end
  local ok, why = kessel.act{ kind = "end_phase" }
  expect.refused(ok, why, "7.1")
  expect.accepted(kessel.act{ kind = "move", units = { "r4" }, path = { "1207" } })
  expect.accepted(kessel.act{ kind = "end_phase" })
end)

-- [9.8] [7.1] Stacking holds throughout combat, so on an advance too. Four Soviet 3-3-6 rifles
-- (three from 0503, one from 0402, a leader in command) attack a 1-1 panzer: 12-1, read on the
-- 10-1 column [9.4], die 1: De [9.5]; the defender's hex 0403
-- is empty. All four may not advance into it together, nor one by one: the fourth is refused
-- once three are in.
kessel.test("case_9_8_soviet_advance_stops_at_three_combat_units", function()
  local function rifle(id, at) return { id = id, name = id, side = "soviet", type = "rifle", faces = { "3-3-6" }, at = at } end
  local function leader(id, at) return { id = id, name = id, side = "soviet", type = "leader", faces = { "0-3-10" }, attrs = { rating = 3 }, at = at } end
  kessel.setup{ map = { columns = 8, rows = 8 }, units = {
    rifle("a1", "0503"), rifle("a2", "0503"), rifle("a3", "0503"), rifle("b1", "0402"), leader("l", "0402"),
    { id = "g", name = "g", side = "german", type = "panzer", formation = "Fg", faces = { "1-1-10", "1-1-10" }, at = "0403" } },
    step = "soviet_combat", turn = 7 }
  kessel.inject_dice{ 1 }
  expect.accepted(kessel.act{ kind = "attack", units = { "a1", "a2", "a3", "b1" }, targets = { "0403" } })
  expect.eq(kessel.units.get("g").location, "eliminated")
  local ok, why = kessel.act{ kind = "advance", units = { "a1", "a2", "a3", "b1" }, path = { "0403" } }
  expect.refused(ok, why, "7.1", "stacking limit")
  expect.accepted(kessel.act{ kind = "advance", units = { "a1", "a2" }, path = { "0403" } })
  expect.eq(kessel.game.var("pending").kind, "advance", "the others may still advance")
  ok, why = kessel.act{ kind = "advance", units = { "b1", "a3" }, path = { "0403" } }
  expect.refused(ok, why, "7.1", "stacking limit")
  expect.accepted(kessel.act{ kind = "advance", units = { "b1" }, path = { "0403" } })
  ok, why = kessel.act{ kind = "advance", units = { "a3" }, path = { "0403" } }
  expect.refused(ok, why, "7.1", "stacking limit")
  expect.eq(#kessel.units.at("0403"), 3)
end)

-- [8] [11.1] [11.2] Hexsides and the zones of control that cut lines: a ZOC crosses rivers but not
-- lake hexsides, and so do the cuts it makes in lines of supply and of communication.
-- German side: a 32x5 strip, supply road 0103-0503 from the source 0103, a panzer in 2403 (20 hexes
-- from the road's end 0503, 23 MP from the west edge, so only the road serves). A Soviet rifle in
-- 0302 touches the road at 0303 only: across a river its ZOC cuts the road; across a lake hexside
-- it does not.
-- Soviet side: a 12x2 strip, leader (rating 3) in 0601, rifle in 0401, the line runs through 0501;
-- a panzer in 0502 touches 0401, 0501 and 0601. Across a river 0501 is in its ZOC and the rifle
-- has no line; with a lake hexside between 0501 and 0502 the line is open.
kessel.test("case_8_zoc_across_a_lake_hexside_cuts_no_line_across_a_river_it_does", function()
  local S = require("rules.supply")
  local function pz(id, at) return { id = id, name = id, side = "german", type = "panzer", faces = { "4-4-10", "2-2-10" }, at = at } end
  local function rifle(id, at) return { id = id, name = id, side = "soviet", type = "rifle", faces = { "3-3-6" }, at = at } end
  local function road(side)
    kessel.setup{ map = { columns = 32, rows = 5, hexsides = { { "0302", "0303", side } },
        links = { { kind = "road", path = { "0103", "0203", "0303", "0403", "0503" } } },
        tags = { road_supply_source = { "0103" } } },
      units = { pz("g", "2403"), rifle("r", "0302") }, step = "german_movement", turn = 5 }
  end
  road("river")
  expect.falsy(S.in_supply("g", "combat"), "the rifle's ZOC crosses the river onto the road")
  road("lake")
  expect.truthy(S.in_supply("g", "combat"), "no ZOC across the lake hexside: the road is open")
  local function loc(side)
    kessel.setup{ map = { columns = 12, rows = 2, hexsides = { { "0501", "0502", side } } }, step = "soviet_movement", turn = 5,
      units = { { id = "l", name = "l", side = "soviet", type = "leader", faces = { "0-3-10" }, attrs = { rating = 3 }, at = "0601" },
        rifle("r", "0401"), pz("g", "0502") } }
  end
  loc("river")
  expect.falsy(S.in_supply("r", "combat"), "0501 in the panzer's ZOC across the river")
  loc("lake")
  expect.truthy(S.in_supply("r", "combat"), "no ZOC across the lake hexside: the line is open")
end)

-- [8] [9.71] The same hexside rule for retreats. 8x8 map: a 3-3 panzer in 0303 attacks a 1-1 rifle
-- in 0403 at 3-1 (in supply or not: halving stops at 1 [11.3]), die 3: D1, and the Soviet retreats. Lake hexsides close 0503, 0504 and 0404; of
-- 0403's other neighbours 0304 is in the panzer's ZOC and 0402 touches 0303. With a lake hexside
-- between 0303 and 0402, 0402 is out of the panzer's ZOC: an empty hex out of enemy ZOC, the only
-- retreat and a legal one. With a river there instead, 0402 is in its ZOC and the rifle, with no
-- legal path, is eliminated.
kessel.test("case_9_71_retreat_next_to_the_enemy_across_a_lake_hexside_not_across_a_river", function()
  local function d1(side)
    kessel.setup{ map = { columns = 8, rows = 8, hexsides = { { "0403", "0503", "lake" }, { "0403", "0504", "lake" },
        { "0403", "0404", "lake" }, { "0303", "0402", side } } },
      units = { { id = "g", name = "g", side = "german", type = "panzer", formation = "Fg", faces = { "3-3-10", "1-1-10" }, at = "0303" },
        { id = "s", name = "s", side = "soviet", type = "rifle", faces = { "1-1-6" }, at = "0403" } },
      step = "german_combat", turn = 7 }
    kessel.inject_dice{ 3 }
    expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
    expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  end
  d1("lake")
  local paths = {}
  for _, a in ipairs(kessel.legal("german")) do paths[#paths + 1] = table.concat(a.path, ",") end
  expect.eq(table.concat(paths, " "), "0402", "the one retreat, out of the ZOC behind the lake")
  expect.accepted(kessel.act{ kind = "retreat", units = { "s" }, path = { "0402" } })
  expect.eq(kessel.units.get("s").hex, "0402")
  d1("river")
  local ok, why = kessel.act{ kind = "retreat", units = { "s" }, path = { "0402" } }
  expect.refused(ok, why, "9.71", "enemy zone of control")
  expect.accepted(kessel.act{ kind = "retreat", units = { "s" }, path = {} })
  expect.eq(kessel.units.get("s").location, "eliminated")
end)
