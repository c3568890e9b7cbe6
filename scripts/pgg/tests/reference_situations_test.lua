-- Situations taken from the reference material and played through the rules as an outside tester
-- would: each test builds a small position, works out by hand what the cited cases demand, and
-- checks what the engine does and which case it names. Tests that pin a behaviour no other test
-- covers; the geometry is the 10x10 inline map (odd columns: N, NE = c+1 r-1, SE = c+1 r, S,
-- SW = c-1 r, NW = c-1 r-1; even columns: NE = c+1 r, SE = c+1 r+1, SW = c-1 r+1, NW = c-1 r).
local expect = kessel.expect
local M = require("rules.movement")

local B = require("testing.board10")
local pz, inf, cav, rifle, leader, setup = B.pz, B.inf, B.cav, B.rifle, B.leader, B.setup
local note, all_notes, pending, where = B.note, B.all_notes, B.pending, B.where

-- [9.23] [9.3] A two-hex attack: g1 (0304) and g2 (0504) are next to both 0403 and 0404; both are
-- across a river from 0403 only. 0403 is attacked solely across the river (2 ×2 = 4), 0404 is not
-- (2): 12 against 6 is 2-1; roll 1 on 2-1 is D2.
kessel.test("case_9_23_two_hex_attack_river_doubles_only_the_hex_solely_across", function()
  setup({ pz("g1", "0304", "6-6-10"), pz("g2", "0504", "6-6-10"), rifle("a", "0403"), rifle("b", "0404"), leader("l", "0402", 3) },
    { map = { columns = 10, rows = 10, hexsides = { { "0304", "0403", "river" }, { "0504", "0403", "river" } } } })
  kessel.inject_dice{ 1 }
  local events = expect.accepted(kessel.act{ kind = "attack", units = { "g1", "g2" }, targets = { "0403", "0404" } })
  expect.truthy(note(events, "0403: attacked solely across a river, doubled"), all_notes(events))
  expect.falsy(note(events, "0404: attacked solely across a river"), "0404 is not across the river")
  expect.truthy(note(events, "attack 12 against defence 6 in 0403+0404: odds 2-1, roll 1: D2"), all_notes(events))
end)

-- [6.5] [6.22] A successful overrun clears 0403 and the panzer must enter it; 0403 is in the ZOC
-- of another Soviet unit (z in 0404), so its move ends there: it may not go on.
kessel.test("case_6_5_cleared_hex_in_another_enemy_zoc_ends_the_move", function()
  setup({ pz("g", "0303", "8-8-10"), rifle("a", "0403", "1-1-6"), rifle("z", "0404", "1-1-6"), leader("l", "0706", 5) },
    { step = "german_movement" })
  kessel.inject_dice{ 1 } -- 8 halved 4 against 1: 4-1, roll 1: D2
  expect.accepted(kessel.act{ kind = "overrun", units = { "g" }, target = "0403" })
  expect.accepted(kessel.act{ kind = "choose", choice = "loss" }) -- the one-step rifle dies
  expect.eq(where("a"), "eliminated")
  expect.eq(where("g"), "0403", "the overrunner enters the cleared hex")
  expect.eq(M.mp_left(kessel.units.get("g")), 7, "3 MP for the overrun, nothing to enter")
  local ok, r = kessel.act{ kind = "move", units = { "g" }, path = { "0402" } }
  expect.refused(ok, r, "6.22", "may not leave")
end)

-- [6.5] [9.3] An overrun pays 3 MP whatever the target's terrain; the defender still gets the
-- terrain (forest + river ×3) and the overrunners are halved after it: 8 → 4 against 1 ×3 = 3:
-- 1-1, roll 1: D1.
kessel.test("case_6_5_overrun_cost_flat_three_terrain_still_defends", function()
  setup({ pz("g", "0303", "8-8-10"), rifle("a", "0403", "1-1-6"), leader("l", "0603", 5) },
    { step = "german_movement", map = { columns = 10, rows = 10, terrain = { ["0403"] = "forest" }, hexsides = { { "0303", "0403", "river" } } } })
  kessel.inject_dice{ 1 }
  local events = expect.accepted(kessel.act{ kind = "overrun", units = { "g" }, target = "0403" })
  expect.truthy(note(events, "overrun: attack 4 against defence 3 in 0403: odds 1-1, roll 1: D1"), all_notes(events))
  expect.accepted(kessel.act{ kind = "choose", choice = "loss" })
  expect.eq(where("g"), "0403")
  expect.eq(M.mp_left(kessel.units.get("g")), 7, "no forest or river cost to enter the cleared hex")
end)

-- [11.3] Out of supply at the start of the Movement Phase halves the MA, fractions dropped:
-- infantry 7 → 3, cavalry 5 → 2, panzer 10 → 5; a Soviet rifle 6 → 3.
kessel.test("case_11_3_out_of_supply_ma_by_type", function()
  kessel.setup{ map = { columns = 40, rows = 5 },
    units = { inf("i", "3503"), cav("c", "3603"), pz("p", "3703"), leader("far", "0103", 2) },
    step = "german_movement", turn = 7, run_step_start = true }
  expect.eq(M.mp_left(kessel.units.get("i")), 3)
  expect.eq(M.mp_left(kessel.units.get("c")), 2)
  expect.eq(M.mp_left(kessel.units.get("p")), 5)
  kessel.setup{ map = { columns = 40, rows = 5 }, units = { rifle("r", "0503"), pz("g", "3003") },
    step = "soviet_movement", turn = 7, run_step_start = true }
  expect.eq(M.mp_left(kessel.units.get("r")), 3, "no leader: out of supply [11.2]")
end)

-- [6.7] Cavalry pays the infantry rate on roads (1 MP) but 2 MP in forest; a road does not bridge
-- a river: cavalry along four road hexes then across the river on the road pays 4 + 1 + 2 = 7 > 5.
kessel.test("case_6_7_cavalry_road_forest_and_river", function()
  setup({ cav("c", "0105") }, { step = "german_movement", map = { columns = 10, rows = 10,
    terrain = { ["0202"] = "forest" }, hexsides = { { "0505", "0605", "river" } },
    links = { { kind = "road", path = { "0105", "0205", "0305", "0405", "0505", "0605", "0705" } } } } })
  local ok, r = kessel.validate{ kind = "move", units = { "c" }, path = { "0205", "0305", "0405", "0505", "0605" } }
  expect.refused(ok, r, "6.1", "needs 7 MP")
  expect.accepted(kessel.validate{ kind = "move", units = { "c" }, path = { "0205", "0305", "0405", "0505" } })
  -- 0105 → 0104 → 0103 (2 clear) → 0202 forest (2) = 4
  expect.eq(M.field({ "c" }):cost("0202"), 4, "cavalry pays 2 for forest")
end)

-- [9.71] A D2 path may pass through a hex in an enemy ZOC when a friendly unit is there, never
-- through an empty one: from 0403, 0503 is in h's ZOC and empty (closed), 0504 is in it but holds
-- the Soviet f (open).
kessel.test("case_9_71_retreat_passes_friends_in_enemy_zoc_not_empty_zoc_hexes", function()
  setup{ pz("g", "0303", "9-9-10"), pz("h", "0603", "1-1-10"), rifle("a", "0403"), rifle("f", "0504", "1-1-6"), leader("l", "0407", 5) }
  kessel.inject_dice{ 1 } -- 9 against 2: 4-1, roll 1: D2
  expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  local ok, r = kessel.act{ kind = "retreat", units = { "a" }, path = { "0503", "0502" } }
  expect.refused(ok, r, "9.71")
  expect.accepted(kessel.act{ kind = "retreat", units = { "a" }, path = { "0504", "0505" } })
  expect.eq(where("a"), "0505")
end)

-- [9.71] A unit in the corner whose only neighbour on the map is in the attacker's ZOC has no
-- retreat path: retreating eliminates it (nothing retreats off the map).
kessel.test("case_9_71_cornered_unit_retreating_is_eliminated", function()
  setup{ pz("g", "0201", "2-2-10"), rifle("a", "0101", "2-2-6"), leader("l", "0505", 5) }
  kessel.inject_dice{ 1 } -- 2 against 2: 1-1, roll 1: D1
  expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0101" } })
  local events = expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  local p = pending()
  if p and p.kind == "retreat_path" then
    events = expect.accepted(kessel.act{ kind = "retreat", units = { "a" }, path = {} })
  end
  expect.eq(where("a"), "eliminated", all_notes(events))
end)

-- [9.8] After De the victor may advance two hexes, the first being the defender's hex, ignoring
-- enemy ZOC: 0403 then 0404, which is next to the Soviet z in 0505.
kessel.test("case_9_8_two_hex_advance_ignores_enemy_zoc", function()
  setup{ pz("g", "0303", "9-9-10"), rifle("a", "0403", "1-1-6"), rifle("z", "0505", "1-1-6"), leader("l", "0707", 5) }
  kessel.inject_dice{ 1 } -- 9 against 1: 9-1, roll 1: De
  expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
  expect.eq(pending().kind, "advance")
  local ok, r = kessel.act{ kind = "advance", units = { "g" }, path = { "0404", "0403" } }
  expect.refused(ok, r, "9.8")
  expect.accepted(kessel.act{ kind = "advance", units = { "g" }, path = { "0403", "0404" } })
  expect.eq(where("g"), "0404")
end)

-- [9.6] Eng: each side loses a step; a German infantry division steps down 9-9-7 → 4-4-7 and
-- nobody retreats or advances. 9 against 9 is 1-1, roll 4: Eng.
kessel.test("case_9_6_eng_steps_down_german_infantry_no_advance", function()
  setup{ inf("g", "0303"), rifle("a", "0403", "6-6-6"), rifle("b", "0403", "3-3-6"), leader("l", "0603", 5) }
  kessel.inject_dice{ 4 }
  expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
  expect.eq(pending().kind, "eng_loss")
  expect.accepted(kessel.act{ kind = "choose", units = { "b" } })
  expect.eq(where("b"), "eliminated")
  expect.eq(where("a"), "0403")
  expect.eq(kessel.units.get("g").attack, 4, "9-9-7 → 4-4-7")
  expect.eq(pending(), nil, "no advance after Eng")
end)

-- [9.8] [7.2] Victors advance in groups; a second group that would make four German units in the
-- vacated hex is refused, under the German stacking case (not the Soviet one).
kessel.test("case_7_2_german_advance_over_the_limit_cites_7_2", function()
  setup{ pz("g1", "0303", "9-9-10"), pz("g2", "0303"), pz("g3", "0304"), pz("g4", "0304"), rifle("a", "0403", "1-1-6"), leader("l", "0707", 5) }
  kessel.inject_dice{ 1 }
  expect.accepted(kessel.act{ kind = "attack", units = { "g1", "g2", "g3", "g4" }, targets = { "0403" } })
  expect.accepted(kessel.act{ kind = "advance", units = { "g1", "g2" }, path = { "0403" } })
  local ok, r = kessel.act{ kind = "advance", units = { "g3", "g4" }, path = { "0403" } }
  expect.refused(ok, r, "7.2", "stacking")
  expect.accepted(kessel.act{ kind = "advance", units = { "g3" }, path = { "0403" } })
end)

-- [10.36] A leader adds its rating capped at the attack of the combat units of its own hex: the
-- rating-5 leader in 0403 stands with a 1-1-6, so it adds 1, not 5; the 4-4-6 in 0404 adds its 4.
-- 1 + 1 + 4 = 6 against the panzer's 2 in 0304: 3-1, roll 3: D1.
kessel.test("case_10_36_leader_bonus_capped_at_its_own_hexs_units", function()
  setup({ rifle("r1", "0403", "1-1-6"), leader("l", "0403", 5), rifle("r2", "0404", "4-4-6"), pz("g", "0304", "2-2-10") },
    { step = "soviet_combat" })
  kessel.inject_dice{ 3 }
  local events = expect.accepted(kessel.act{ kind = "attack", units = { "r1", "l", "r2" }, targets = { "0304" } })
  expect.truthy(note(events, "leaders in 0403 add 1 (rating 5, capped at the units' 1)"), all_notes(events))
  expect.truthy(note(events, "attack 6 against defence 2 in 0304: odds 3-1, roll 3: D1"), all_notes(events))
end)

-- [7.3] [9.3] An intact panzer division (4 + 2 + 2) alone in a forest hex: each regiment doubled
-- (16), then the forest doubles (32). Two regiments only (the third elsewhere): 6 ×2 = 12.
kessel.test("case_7_3_intact_division_in_forest_doubles_twice", function()
  local K = require("rules.combat")
  local function reg(id, at, face) return { id = id, side = "german", type = id == "p" and "panzer" or "rifle_mot", formation = "7 Pz", faces = { face, "1-1-10" }, at = at } end
  setup({ reg("p", "0304", "4-4-10"), reg("r1", "0304", "2-2-10"), reg("r2", "0304", "2-2-10"), leader("l", "0706", 5) },
    { map = { columns = 10, rows = 10, terrain = { ["0304"] = "forest" } } })
  expect.eq(K.defence_of({ "0304" }, { attacker_hexes = { "0403" } }), 32)
  setup({ reg("p", "0304", "4-4-10"), reg("r1", "0304", "2-2-10"), reg("r2", "0305", "2-2-10"), leader("l", "0706", 5) },
    { map = { columns = 10, rows = 10, terrain = { ["0304"] = "forest" } } })
  expect.eq(K.defence_of({ "0304" }, { attacker_hexes = { "0403" } }), 12)
end)

-- [6.3] [11.3] Rail movement is not halved out of supply: an out-of-supply rifle division still
-- goes up to 30 rail hexes (25 here), but not 31.
kessel.test("case_6_3_out_of_supply_units_rail_the_full_30_hexes", function()
  local rail = {}
  for c = 1, 40 do rail[#rail + 1] = string.format("%02d02", c) end
  kessel.setup{ map = { columns = 40, rows = 3, links = { { kind = "railway", path = rail } } },
    units = { rifle("r", "0502", "3-3-6"), rifle("s", "0602", "3-3-6") }, step = "soviet_movement", turn = 7, run_step_start = true }
  expect.truthy(kessel.units.get("r").flags.oos, "no leader: out of supply [11.2]")
  expect.accepted(kessel.act{ kind = "rail_move", units = { "r" }, path = { "3002" } })
  local ok, r = kessel.act{ kind = "rail_move", units = { "s" }, path = { "3702" } }
  expect.refused(ok, r, "6.3", "31 rail hexes")
end)

-- [9.6] De/A1 (6-1, roll 1): the defender is eliminated; the attacker who takes the step may
-- advance up to two hexes [9.8]; one who retreats instead may not (FAQ 8).
kessel.test("case_9_6_de_a1_advance_only_after_the_step_loss", function()
  local function pos()
    setup{ pz("g", "0303", "6-6-10"), pz("h", "0304", "6-6-10"), rifle("a", "0403", "2-2-6"), leader("l", "0707", 5) }
    kessel.inject_dice{ 1 } -- 12 against 2: 6-1, roll 1: De/A1
    expect.accepted(kessel.act{ kind = "attack", units = { "g", "h" }, targets = { "0403" } })
    expect.eq(where("a"), "eliminated")
    expect.eq(pending().kind, "loss_or_retreat")
  end
  pos()
  expect.accepted(kessel.act{ kind = "choose", choice = "loss", units = { "h" } })
  expect.eq(pending().kind, "advance")
  expect.accepted(kessel.act{ kind = "advance", units = { "g" }, path = { "0403", "0504" } })
  expect.eq(where("g"), "0504")
  pos()
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  while pending() and pending().kind == "retreat_path" do
    local moves = {}
    for _, a in ipairs(kessel.legal()) do if a.kind == "retreat" then moves[#moves + 1] = a end end
    expect.accepted(kessel.act(moves[1]))
  end
  expect.eq(pending(), nil, "no advance after the attacker retreated")
end)

-- [6.5] [6.6] [8] An overrun D1 taken as a retreat by a stack of two: both retreat, both are
-- disrupted, the hex is cleared and entered; disrupted units have no ZOC, so a second panzer
-- moves past them without stopping.
kessel.test("case_6_6_overrun_retreat_disrupts_the_whole_stack_and_lifts_its_zoc", function()
  setup({ pz("g", "0303", "4-4-10"), pz("k", "0301", "4-4-10"), rifle("a", "0403", "1-1-6"), rifle("b", "0403", "1-1-6"), leader("l", "0808", 5) },
    { step = "german_movement" })
  kessel.inject_dice{ 1 } -- 4 halved 2 against 2: 1-1, roll 1: D1
  expect.accepted(kessel.act{ kind = "overrun", units = { "g" }, target = "0403" })
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  expect.accepted(kessel.act{ kind = "retreat", units = { "a", "b" }, path = { "0503" } })
  expect.truthy(kessel.units.get("a").flags.disrupted)
  expect.truthy(kessel.units.get("b").flags.disrupted)
  expect.eq(where("g"), "0403")
  -- 0502 and 0602 are next to 0503: without a ZOC there k goes through
  expect.accepted(kessel.act{ kind = "move", units = { "k" }, path = { "0401", "0502", "0602", "0702" } })
  expect.eq(where("k"), "0702")
end)

-- [13.2] The German's initial air markers are not placed east of column 40 (the reading of
-- pgg-facts.md and the extended sequence of play: "not further east than the 4000 hexrow").
kessel.test("case_13_2_initial_markers_up_to_column_40", function()
  kessel.setup{ map = { columns = 45, rows = 5 }, units = { rifle("r", "0503") }, step = "soviet_movement", turn = 1,
    markers = { { kind = "air_interdiction", side = "german" }, { kind = "air_interdiction", side = "german" }, { kind = "air_interdiction", side = "german" } } }
  expect.accepted(kessel.act{ kind = "place_marker", hex = "4003" })
  local ok, r = kessel.act{ kind = "place_marker", hex = "4103" }
  expect.refused(ok, r, "13.2", "column 40")
end)

-- [6.5] (option overrun_group = started_together, the default): the overrunning stack must have
-- started the phase in one hex. A reinforcement that entered this phase did not start it in the
-- hex of a unit already on the map, so the two may not overrun together, whichever is named first;
-- two reinforcements that entered together may.
kessel.test("case_6_5_overrun_group_with_a_reinforcement_does_not_depend_on_order", function()
  local function pos(options)
    local units = { pz("p", "0103", "4-4-10"), rifle("s", "0203", "1-1-6"), leader("l", "0808", 5),
      pz("r", nil, "4-4-10", { enter = { turn = 7, area = "C" } }), pz("q", nil, "4-4-10", { enter = { turn = 7, area = "C" } }) }
    setup(units, { step = "german_movement", map = { columns = 10, rows = 10, areas = { C = { "0103", "0104" } } },
      vars = { phase_start = { hexes = { p = "0103" }, command = {}, step = 4, turn = 7 } }, options = options })
  end
  pos()
  expect.accepted(kessel.act{ kind = "move", units = { "r" }, path = { "0103" } })
  local ok, r = kessel.act{ kind = "overrun", units = { "p", "r" }, target = "0203" }
  expect.refused(ok, r, "6.5", "started the phase in one hex")
  ok, r = kessel.act{ kind = "overrun", units = { "r", "p" }, target = "0203" }
  expect.refused(ok, r, "6.5", "started the phase in one hex")
  -- entering together, they started together
  pos()
  expect.accepted(kessel.act{ kind = "move", units = { "r", "q" }, path = { "0104" } })
  expect.accepted(kessel.validate{ kind = "overrun", units = { "r", "q" }, target = "0203" })
  -- the other reading of the option: assembled anywhere
  pos{ overrun_group = "assembled" }
  expect.accepted(kessel.act{ kind = "move", units = { "r" }, path = { "0103" } })
  expect.accepted(kessel.validate{ kind = "overrun", units = { "r", "p" }, target = "0203" })
end)

-- [9.6] [9.8] Ae: a 1-1-6 with its leader attacks a German infantry division: 1 + 1 (leader capped
-- at 1) against 9 is below 1-3, resolved at 1-3 [9.4]; roll 5: Ae. Both attackers die (the leader
-- too), and the German defender may advance two hexes, the first being the attackers' hex.
kessel.test("case_9_6_ae_kills_the_leader_too_and_the_defender_advances_two_hexes", function()
  setup({ rifle("r", "0403", "1-1-6"), leader("l", "0403", 4), inf("g", "0303") }, { step = "soviet_combat" })
  kessel.inject_dice{ 5 }
  local events = expect.accepted(kessel.act{ kind = "attack", units = { "r", "l" }, targets = { "0303" } })
  expect.truthy(note(events, "attack 2 against defence 9 in 0303: odds 1-3, roll 5: Ae"), all_notes(events))
  expect.eq(where("r"), "eliminated")
  expect.eq(where("l"), "eliminated")
  expect.eq(pending().kind, "advance")
  expect.eq(pending().side, "german")
  expect.accepted(kessel.act{ kind = "advance", units = { "g" }, path = { "0403", "0503" } })
  expect.eq(where("g"), "0503")
end)

-- [10.2] A leader alone defends with its rating: a German 2-2-10 against a rating-3 leader is 1-2.
kessel.test("case_10_2_lone_leader_defends_with_its_rating", function()
  setup{ pz("g", "0303", "2-2-10"), leader("l", "0403", 3) }
  kessel.inject_dice{ 4 } -- 1-2, roll 4: A1
  local events = expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
  expect.truthy(note(events, "attack 2 against defence 3 in 0403: odds 1-2, roll 4: A1"), all_notes(events))
end)

-- [12.3] A known 0-1-6 may not overrun (it may only defend).
kessel.test("case_12_3_zero_one_cannot_overrun", function()
  setup({ rifle("z", "0403", "0-1-6"), rifle("t", "0403", "3-3-6"), leader("l", "0503", 4), pz("g", "0303", "1-1-10") },
    { step = "soviet_movement", vars = { phase_start = { hexes = { z = "0403", t = "0403", l = "0503" }, command = { "z", "t", "l" }, step = 0, turn = 7 } } })
  local ok, r = kessel.act{ kind = "overrun", units = { "z", "t" }, target = "0303" }
  expect.refused(ok, r, "12.3", "may only defend")
  expect.accepted(kessel.validate{ kind = "overrun", units = { "t" }, target = "0303" })
end)

-- [6.4] Columns 01-02 are closed to Soviet units on turns 1-6 only: turn 6 refused, turn 7 open.
kessel.test("case_6_4_columns_01_02_open_from_turn_7", function()
  setup({ rifle("r", "0303", "2-2-6"), leader("l", "0304", 3) }, { step = "soviet_movement", turn = 6 })
  local ok, r = kessel.act{ kind = "move", units = { "r" }, path = { "0203" } }
  expect.refused(ok, r, "6.4", "columns 01-02")
  setup({ rifle("r", "0303", "2-2-6"), leader("l", "0304", 3) }, { step = "soviet_movement", turn = 7 })
  expect.accepted(kessel.act{ kind = "move", units = { "r" }, path = { "0203", "0103" } })
end)

-- [6.22] A leader enters an enemy ZOC only with an attack-capable unit (the reading of pgg-facts.md):
-- moving with a known 0-1-6 is refused, with a 2-2-6 it is allowed. 0503 is next to the panzer in 0504.
kessel.test("case_6_22_leader_with_a_zero_one_does_not_enter_enemy_zoc", function()
  setup({ leader("l", "0502", 3), rifle("z", "0502", "0-1-6"), rifle("t", "0502", "2-2-6"), pz("g", "0504") }, { step = "soviet_movement" })
  local ok, r = kessel.act{ kind = "move", units = { "l", "z" }, path = { "0503" } }
  expect.refused(ok, r, "6.22", "attack-capable")
  expect.accepted(kessel.act{ kind = "move", units = { "l", "t" }, path = { "0503" } })
end)

-- [13.3] An interdiction marker slows only the enemy: a German air marker costs a Soviet unit +1 MP
-- and a German unit nothing; a Soviet marker costs a German unit +1 MP.
kessel.test("case_13_3_markers_slow_only_the_enemy", function()
  local function pos(step, kind, side)
    setup({ pz("g", "0105"), rifle("r", "0705", "2-2-6"), leader("l", "0905", 3) },
      { step = step, markers = { { kind = kind, side = side, at = "0205" }, { kind = kind, side = side, at = "0805" } } })
  end
  pos("german_movement", "air_interdiction", "german")
  expect.eq(M.field({ "g" }):cost("0205"), 1, "own marker: clear 1")
  pos("soviet_movement", "air_interdiction", "german")
  expect.eq(M.field({ "r" }):cost("0805"), 2, "German marker: Soviet pays 1 + 1")
  pos("german_movement", "soviet_interdiction", "soviet")
  expect.eq(M.field({ "g" }):cost("0205"), 2, "Soviet marker: German pays 1 + 1")
end)

-- [7.1] A leader may retreat onto three combat units (four units, one a leader); a fourth combat
-- unit retreating there is beyond the limit and is eliminated.
kessel.test("case_7_1_leader_retreats_onto_three_combat_units_a_rifle_does_not", function()
  -- 0403's neighbours: 0402 and 0304 in g's ZOC, 0404 German, 0504 in z1's ZOC: only 0503 is open
  setup{ pz("g", "0303", "3-3-10"), leader("a", "0403", 3), rifle("f1", "0503", "1-1-6"), rifle("f2", "0503", "1-1-6"), rifle("f3", "0503", "1-1-6"),
    pz("z1", "0404", "1-1-10"), leader("sup", "0903", 5) }
  kessel.inject_dice{ 2 } -- 3 against 3: 1-1, roll 2: D1/A1
  expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  expect.accepted(kessel.act{ kind = "retreat", units = { "a" }, path = { "0503" } })
  expect.eq(where("a"), "0503", "3 combat units and a leader: within the limit")
  setup{ pz("g", "0303", "3-3-10"), rifle("a", "0403", "3-3-6"), rifle("f1", "0503", "1-1-6"), rifle("f2", "0503", "1-1-6"), rifle("f3", "0503", "1-1-6"),
    pz("z1", "0404", "1-1-10"), leader("sup", "0903", 5) }
  kessel.inject_dice{ 2 }
  expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  local events = expect.accepted(kessel.act{ kind = "retreat", units = { "a" }, path = { "0503" } })
  expect.eq(where("a"), "eliminated", all_notes(events))
  expect.truthy(note(events, "over-full hex"), all_notes(events))
end)

-- [9.73] [6.5] Retreated units add nothing to the hex they retreat onto and die with any later loss
-- or retreat result there that phase; an overrun is combat in the Movement Phase, so this holds for
-- the retreats overruns cause too (the reference manual's retreat rule has no exception; WBC09 #4
-- spells it out for overruns). s is overrun and retreats onto f; b then overruns f's hex: only f
-- defends (4 halved 2 against 1: 2-1, roll 2: D1), and the loss kills s first.
kessel.test("case_9_73_units_retreated_by_an_overrun_are_riders_for_the_rest_of_the_phase", function()
  setup({ pz("a", "0303", "7-7-10"), pz("b", "0305", "4-4-10"), rifle("s", "0403", "1-1-6"), rifle("f", "0404", "1-1-6"), leader("l", "0808", 5) },
    { step = "german_movement", map = { columns = 10, rows = 10, hexsides = { { "0403", "0503", "lake" }, { "0403", "0504", "lake" } } } })
  kessel.inject_dice{ 3 } -- 7 halved 3 against 1: 3-1, roll 3: D1
  expect.accepted(kessel.act{ kind = "overrun", units = { "a" }, target = "0403" })
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  expect.accepted(kessel.act{ kind = "retreat", units = { "s" }, path = { "0404" } })
  expect.truthy(kessel.units.get("s").flags.retreated_onto, "s retreated onto f")
  kessel.inject_dice{ 2 }
  local events = expect.accepted(kessel.act{ kind = "overrun", units = { "b" }, target = "0404" })
  expect.truthy(note(events, "attack 2 against defence 1 in 0404"), all_notes(events))
  expect.accepted(kessel.act{ kind = "choose", choice = "loss" })
  expect.eq(where("s"), "eliminated", "the retreated unit dies with the loss [9.73]")
  -- the marks go with the phase: in the Combat Phase both defend
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.falsy(kessel.units.get("f").flags.retreated_onto)
end)

-- [6.22] [12.3] option two_zero_one_rifles: the 1-1-6 that counts as the second 0-1-6 (flag
-- no_attack) may only defend, so it is no more attack-capable than a printed 0-1-6 and cannot take
-- a leader into an enemy ZOC.
kessel.test("case_6_22_the_second_zero_one_does_not_take_a_leader_into_enemy_zoc", function()
  setup({ leader("l", "0502", 3), rifle("z", "0502", "1-1-6", { flags = { "no_attack" } }), pz("g", "0504") },
    { step = "soviet_movement", options = { two_zero_one_rifles = true } })
  local ok, r = kessel.act{ kind = "move", units = { "l", "z" }, path = { "0503" } }
  expect.refused(ok, r, "6.22", "attack-capable")
end)

-- [9.6] [9.73] The owner names the units that lose steps. In the standard game a unit retreated
-- onto the hex dies first and its step counts toward the loss, so after D2 with one such unit
-- there is one step left to name: the owner names it (the panzer A, not the infantry division I,
-- which the engine would pick by itself as the unit with most steps left), and his choice holds.
kessel.test("case_9_73_owner_names_the_steps_left_after_the_retreated_units_die", function()
  local function pos()
    setup({ rifle("s1", "0503", "9-9-6"), rifle("s2", "0503", "9-9-6"), leader("l", "0503", 4),
      pz("A", "0403", "4-4-10"), inf("I", "0403"), pz("R", "0403", "2-2-10", { flags = { "retreated_onto" }, step = 1 }) },
      { step = "soviet_combat" })
    kessel.inject_dice{ 1 }
  end
  pos()
  -- 22 against 13 is 1-1; roll 1 on 1-1 is D1: one step, which R's death pays; nothing to name
  expect.accepted(kessel.act{ kind = "attack", units = { "s1", "s2", "l" }, targets = { "0403" } })
  local p = pending()
  expect.eq(p.kind, "loss_or_retreat")
  expect.accepted(kessel.act{ kind = "choose", choice = "loss" })
  expect.eq(where("R"), "eliminated")
  expect.eq(kessel.units.get("A").step, 0)
  expect.eq(kessel.units.get("I").step, 0)
  -- D2 (2-1, roll 1): R pays one step, the owner names A for the other
  setup({ rifle("s1", "0503", "9-9-6"), rifle("s2", "0503", "9-9-6"), rifle("s3", "0504", "9-9-6"), leader("l", "0503", 4),
    pz("A", "0403", "4-4-10"), inf("I", "0403"), pz("R", "0403", "2-2-10", { flags = { "retreated_onto" }, step = 1 }) },
    { step = "soviet_combat" })
  kessel.inject_dice{ 1 } -- 9 + 9 + 4 + 9 = 31 against 13: 2-1, roll 1: D2
  local events = expect.accepted(kessel.act{ kind = "attack", units = { "s1", "s2", "l", "s3" }, targets = { "0403" } })
  expect.truthy(note(events, "roll 1: D2"), all_notes(events))
  p = pending()
  expect.truthy(p.prompt:find("9.73", 1, true), "the prompt says the retreated unit dies first: " .. p.prompt)
  local listed = false
  for _, a in ipairs(kessel.legal()) do
    if a.kind == "choose" and a.units and #a.units == 1 and a.units[1] == "A" then listed = true end
  end
  expect.truthy(listed, "naming A alone is among the legal actions")
  expect.accepted(kessel.act{ kind = "choose", choice = "loss", units = { "A" } })
  expect.eq(where("R"), "eliminated", "the retreated unit dies first [9.73]")
  expect.eq(kessel.units.get("A").step, 1, "the owner's pick loses the step")
  expect.eq(kessel.units.get("I").step, 0, "not the unit with most steps")
end)
