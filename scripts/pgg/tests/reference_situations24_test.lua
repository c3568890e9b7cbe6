-- Rule interactions (two or three cases at once), each position built from the documented API
-- alone (docs/lua-api.md: kessel.setup, kessel.act, the PGG queries), as a checker who has never
-- seen the test helpers would build it.
local expect = kessel.expect

local function inf(id, at) return { id = id, side = "german", type = "infantry", faces = { "9-9-7", "4-4-7", "2-2-7", "1-1-7" }, at = at } end
local function rifle(id, at, face) return { id = id, side = "soviet", type = "rifle", faces = { face or "1-1-6" }, at = at } end
local function leader(id, at, rating) return { id = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" }, attrs = { rating = rating }, at = at } end

-- [9.71] [8] [7.1] [9.3] A D2 retreat whose only way runs through a friendly hex in the German
-- zone and across a river into a hex already at the Soviet limit: the path is legal, the river
-- changes nothing for a retreat, and the unit over the limit is the retreated one, lost at once
-- (no choice: the friends already there are never offered [7]).
kessel.test("case_9_71_7_1_retreat_through_friends_in_zoc_across_a_river_into_a_full_hex", function()
  kessel.setup{
    map = { columns = 6, rows = 3, hexsides = { { "0201", "0301", "river" }, { "0401", "0501", "river" } } },
    turn = 5, step = "german_combat",
    units = {
      inf("g1", "0201"), inf("g2", "0402"), inf("g3", "0601"),
      rifle("s", "0301"), rifle("f1", "0401"),
      rifle("f2", "0501"), rifle("f3", "0501"), rifle("f4", "0501"), leader("ldr", "0501", 5),
    },
  }
  local odds = kessel.queries.ask("odds", { units = { "g1" }, targets = { "0301" } })
  expect.eq(odds.defence, 2, "1 doubled: attacked solely across the river [9.3]")
  kessel.inject_dice{ 1 }   -- 9 against 2 is 4-1; a 1 there is D2
  expect.accepted(kessel.act{ kind = "attack", units = { "g1" }, targets = { "0301" } })
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  local r = kessel.queries.ask("retreats")
  expect.eq(r.side, "german", "the opponent picks the path [9.72]")
  expect.eq(#r.retreats, 1, "one path only")
  expect.eq(table.concat(r.retreats[1].path, "-"), "0401-0501")
  local ok, reasons = kessel.act{ kind = "retreat", units = { "s" }, path = { "0302", "0202" } }
  expect.refused(ok, reasons, "9.71")
  expect.accepted(kessel.act{ kind = "retreat", units = { "s" }, path = { "0401", "0501" } })
  expect.eq(kessel.units.get("s").location, "eliminated", "the retreated unit is the excess [7.1]")
  for _, id in ipairs({ "f2", "f3", "f4", "ldr" }) do expect.eq(kessel.units.get(id).hex, "0501") end
end)

-- [9.8] [15] [9.3] An attack on a major city: the city doubles the defence; the defender takes its
-- D2 as a loss and is eliminated, so the victor may advance two hexes, through the city and
-- beyond, and the city is his (the last combat unit to pass through it); the `score` query says
-- so and counts it, with a line to the west edge.
kessel.test("case_9_8_15_an_advance_through_a_city_takes_it_and_the_score_counts_it", function()
  kessel.setup{
    map = { columns = 6, rows = 4, places = { { name = "Orsha", kind = "major_city", hexes = { "0303" } } } },
    turn = 5, step = "german_combat",
    vars = { objectives = { { name = "Orsha", vp = 5, hexes = { "0303" } } } },
    units = { inf("g1", "0203"), rifle("s", "0303"), leader("ldr", "0601", 5) },
  }
  local before = kessel.queries.ask("score")
  expect.eq(before.german_vp, 0)
  expect.eq(before.objectives[1].hexes[1].side, "soviet", "a Soviet combat unit stands in it")
  local odds = kessel.queries.ask("odds", { units = { "g1" }, targets = { "0303" } })
  expect.eq(odds.defence, 2, "1 doubled in a major city [9.3]")
  kessel.inject_dice{ 1 }   -- 9 against 2: 4-1, where a 1 is D2
  expect.accepted(kessel.act{ kind = "attack", units = { "g1" }, targets = { "0303" } })
  expect.accepted(kessel.act{ kind = "choose", choice = "loss" })
  expect.eq(kessel.units.get("s").location, "eliminated")
  local p = kessel.game.var("pending")
  expect.eq(p and p.kind, "advance")
  expect.accepted(kessel.act{ kind = "advance", units = { "g1" }, path = { "0303", "0403" } })
  expect.eq(kessel.units.get("g1").hex, "0403")
  local after = kessel.queries.ask("score")
  expect.eq(after.objectives[1].hexes[1].side, "german", "the last to pass through it [15]")
  expect.eq(after.german_vp, 5)
  expect.eq(after.held[1], "Orsha")
end)

-- [6.5] [6.22] [6.1] Overrun, move on, overrun again: the stack enters a hex next to a rifle
-- division (its zone stops the move), overruns it for 3 MP, enters the cleared hex free, which
-- lies in the zone of a second division: that one may be overrun from there (the overrunners
-- ignore the zone of the unit they overrun) for 3 MP more, and the MP left carry the stack on.
kessel.test("case_6_5_overrun_move_on_and_overrun_a_second_stack_in_one_phase", function()
  kessel.setup{
    map = { columns = 8, rows = 3 }, turn = 5, step = "german_movement", run_step_start = true,
    units = {
      { id = "pz", side = "german", type = "panzer", faces = { "9-9-10", "4-4-10" }, at = "0102" },
      rifle("a", "0302"), rifle("b", "0402"), leader("ldr", "0803", 5),
    },
  }
  expect.accepted(kessel.act{ kind = "move", units = { "pz" }, path = { "0202" } })
  local ok, reasons = kessel.act{ kind = "move", units = { "pz" }, path = { "0203" } }
  expect.refused(ok, reasons, "6.22")
  kessel.inject_dice{ 1 }   -- 9 halved 4 against 1: 4-1, D2
  expect.accepted(kessel.act{ kind = "overrun", units = { "pz" }, target = "0302" })
  expect.accepted(kessel.act{ kind = "choose", choice = "loss" })
  expect.eq(kessel.units.get("pz").hex, "0302", "the cleared hex is entered [6.5]")
  expect.eq(kessel.queries.ask("mp_left", { unit = "pz" }).spent, 4, "1 to move, 3 to overrun, nothing to enter")
  kessel.inject_dice{ 1 }
  expect.accepted(kessel.act{ kind = "overrun", units = { "pz" }, target = "0402" })
  expect.accepted(kessel.act{ kind = "choose", choice = "loss" })
  expect.eq(kessel.units.get("pz").hex, "0402")
  local mp = kessel.queries.ask("mp_left", { unit = "pz" })
  expect.eq(mp.left, 3)
  expect.accepted(kessel.act{ kind = "move", units = { "pz" }, path = { "0502", "0602", "0702" } })
end)

-- [10.35] [11.2] [11.3] [9.71] A rifle division beyond every leader's radius: in its own Combat
-- Phase it may not attack; when the German attacks it, it is out of supply at the instant of
-- combat, so its defence is halved (then doubled by the forest, in the default order), and it may
-- still retreat instead of taking the loss.
kessel.test("case_10_35_11_2_a_division_out_of_its_leaders_radius_cannot_attack_and_defends_halved", function()
  local function position(step)
    kessel.setup{
      map = { columns = 12, rows = 4, terrain = { ["0503"] = "forest" } },
      turn = 5, step = step,
      units = { inf("g", "0403"), rifle("s", "0503", "4-4-6"), leader("ldr", "1202", 2) },
    }
  end
  position("soviet_combat")
  local ok, reasons = kessel.act{ kind = "attack", units = { "s" }, targets = { "0403" } }
  expect.refused(ok, reasons, "10.35")
  position("german_combat")
  local sup = kessel.queries.ask("supply", { unit = "s" })
  expect.falsy(sup.in_supply, "no leader within 2 hexes [11.2]")
  local odds = kessel.queries.ask("odds", { units = { "g" }, targets = { "0503" } })
  expect.eq(odds.defence, 4, "4 halved 2, forest x2 4 [11.3] [9.3]")
  kessel.inject_dice{ 4 }   -- 9 against 4: 2-1, where a 4 is D1/A1
  expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0503" } })
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  local r = kessel.queries.ask("retreats")
  expect.truthy(#r.retreats > 0, "out of supply changes nothing for a retreat")
  expect.eq(r.retreats[1].kind, "retreat", "each answer is the action to take")
  expect.accepted(kessel.act(r.retreats[1]))
  expect.eq(kessel.units.get("s").location, "map")
end)

-- [6.3] [13.3] [8] Soviet rail movement past and through a German air marker: a marker beside
-- the line costs nothing, a marker on a rail hex costs that hex and 4 more of the 30, and a
-- German unit next to the line closes it (no rail move into or through an enemy zone).
kessel.test("case_6_3_13_3_rail_past_and_through_an_air_marker_and_an_enemy_zone", function()
  local path = {}
  for c = 3, 34 do path[#path + 1] = string.format("%02d02", c) end
  local function position(markers, units)
    local list = { rifle("s", "0302"), leader("ldr", "0303", 5) }
    for _, u in ipairs(units or {}) do list[#list + 1] = u end
    kessel.setup{
      map = { columns = 36, rows = 4, links = { { kind = "railway", path = path } } },
      turn = 5, step = "soviet_movement", markers = markers, units = list,
    }
  end
  local function rail_to(last)
    local p = {}
    for i = 2, #path do
      p[#p + 1] = path[i]
      if path[i] == last then break end
    end
    return kessel.act{ kind = "rail_move", units = { "s" }, path = p }
  end
  -- 30 rail hexes: 0302 to 3302
  position({})
  expect.accepted(rail_to("3302"))
  -- a marker beside the line (0503, not a rail hex): nothing
  position({ { kind = "air_interdiction", side = "german", at = "0503" } })
  expect.accepted(rail_to("3302"))
  -- a marker on the line: 5 of the 30 for its hex, so 26 hexes are the most
  position({ { kind = "air_interdiction", side = "german", at = "1002" } })
  local ok, reasons = rail_to("3002")
  expect.refused(ok, reasons, nil, "30")
  expect.accepted(rail_to("2902"))
  -- a German unit next to the line at 2001: its zone covers 1902 and 2002, closed to rail movement
  position({}, { inf("g", "2001") })
  ok, reasons = rail_to("2402")
  expect.refused(ok, reasons, "6.3", "1902 is in the zone of control of g at 2001")
  ok, reasons = rail_to("1902")
  expect.refused(ok, reasons, "6.3", "1902")
  expect.accepted(rail_to("1802"))
end)

-- [14.3] [6.1] [6.22] German reinforcements due at an entry area whose one hex holds a Soviet
-- division and whose other hex lies in its zone: the held hex is refused, the other may be
-- entered, and the arrivals stop there and may not leave the zone.
kessel.test("case_14_3_6_22_reinforcements_enter_beside_an_enemy_held_entry_hex_and_stop", function()
  kessel.setup{
    map = { columns = 8, rows = 6, areas = { E = { "0103", "0104" } } },
    turn = 5, step = "german_movement",
    units = {
      { id = "gi", side = "german", type = "infantry", faces = { "9-9-7", "4-4-7", "2-2-7", "1-1-7" }, enter = { turn = 5, area = "E" } },
      rifle("s", "0104"), leader("ldr", "0805", 5),
    },
  }
  local ok, reasons = kessel.act{ kind = "move", units = { "gi" }, path = { "0104" } }
  expect.refused(ok, reasons, "6.1", "holds enemy units")
  ok, reasons = kessel.act{ kind = "move", units = { "gi" }, path = { "0103", "0203" } }
  expect.refused(ok, reasons, "6.22")
  expect.accepted(kessel.act{ kind = "move", units = { "gi" }, path = { "0103" } })
  ok, reasons = kessel.act{ kind = "move", units = { "gi" }, path = { "0102" } }
  expect.refused(ok, reasons, "6.22")
end)

-- [14.3] [7.1] [4] Soviet reinforcements entering onto their entry hex already holding three
-- divisions: the entry is a move like any other, so the hex may be over the limit while the
-- phase goes on; the phase may not end until it is cured, and moving the newcomers on cures it.
kessel.test("case_14_3_7_1_arrivals_may_overfill_their_entry_hex_until_the_phase_ends", function()
  local function arrival(id) return { id = id, side = "soviet", type = "rifle", faces = { "2-2-6" }, enter = { turn = 5, area = "X" } } end
  kessel.setup{
    map = { columns = 10, rows = 6, areas = { X = { "1003" } } },
    turn = 5, step = "soviet_movement", run_step_start = true,
    units = {
      rifle("a", "1003"), rifle("b", "1003"), rifle("c", "1003"), leader("ldr", "0903", 5),
      arrival("n1"), arrival("n2"), inf("g", "0304"),
    },
  }
  expect.accepted(kessel.act{ kind = "move", units = { "n1", "n2" }, path = { "1003" } })
  expect.eq(#kessel.units.at("1003"), 5)
  local ok, reasons = kessel.act{ kind = "end_phase" }
  expect.refused(ok, reasons, "7.1", "1003")
  expect.accepted(kessel.act{ kind = "move", units = { "n1", "n2" }, path = { "1004" } })
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.step().id, "soviet_combat")
end)

-- [15] [9.6] [9.8] A German infantry division on its last step holds Roslavl with a line to the
-- west edge at the end of the German player-turn; in the Soviet Combat Phase it is destroyed
-- there. The city stays German (the last to be in it) unless a Soviet combat unit goes in: the
-- advance after combat takes it, and only then does the end of the Soviet player-turn count a
-- recapture (+2 VP).
local function roslavl_falls(advance)
  kessel.setup{
    map = { columns = 6, rows = 4, places = { { name = "Roslavl", kind = "major_city", hexes = { "0303" } } } },
    turn = 4, step = "german_air_interdiction",
    vars = { objectives = { { name = "Roslavl", vp = 10, hexes = { "0303" } } } },
    units = {
      { id = "g", side = "german", type = "infantry", formation = "6 Inf", faces = { "9-9-7", "4-4-7", "2-2-7", "1-1-7" }, step = 3, at = "0303" },
      rifle("s", "0403", "9-9-6"), leader("ldr", "0503", 5),
    },
  }
  expect.eq(kessel.queries.ask("score").held[1], "Roslavl")
  expect.accepted(kessel.act{ kind = "end_phase" })           -- the German player-turn ends
  expect.eq(kessel.game.step().id, "soviet_movement")
  expect.accepted(kessel.act{ kind = "end_phase" })
  kessel.inject_dice{ 1 }   -- 9 against 1 doubled in the city: 4-1, where a 1 is D2
  expect.accepted(kessel.act{ kind = "attack", units = { "s" }, targets = { "0303" } })
  expect.accepted(kessel.act{ kind = "choose", choice = "loss" })
  expect.eq(kessel.units.get("g").location, "eliminated", "its last step [9.6]")
  if advance then
    expect.accepted(kessel.act{ kind = "advance", units = { "s" }, path = { "0303" } })
  else
    expect.accepted(kessel.act{ kind = "advance", skip = true })
  end
  while kessel.game.step().id ~= "german_movement" do expect.accepted(kessel.act{ kind = "end_phase" }) end
  return kessel.queries.ask("score")
end

kessel.test("case_15_a_city_whose_last_defender_dies_stays_german_until_a_soviet_unit_enters", function()
  local r = roslavl_falls(false)
  expect.eq(r.objectives[1].hexes[1].side, "german", "nobody else has been in it [15]")
  expect.eq(#r.recaptures, 0)
  expect.eq(r.soviet_vp, 5, "the 6th Infantry Division destroyed, no recapture")
  r = roslavl_falls(true)
  expect.eq(r.objectives[1].hexes[1].side, "soviet")
  expect.eq(#r.recaptures, 1)
  expect.eq(r.recaptures[1].city, "Roslavl")
  expect.eq(r.soviet_vp, 5 + 2, "the division and the recapture")
end)

-- [6.5] [6.6] [4] Disruption against the combats of the same turn: a Soviet overrun in the Soviet
-- Movement Phase makes a German regiment retreat, which disrupts it. In the Soviet Combat Phase
-- that follows it defends at its full strength; it may not move, attack or move again in the
-- German player-turn that follows (its owner's Disruption Removal Phase comes only after the
-- Mechanized Movement Phase), and it recovers there.
kessel.test("case_6_6_an_overrun_disrupts_for_the_rest_of_the_turn_and_the_defence_is_not_halved", function()
  kessel.setup{
    map = { columns = 10, rows = 5 }, turn = 5, step = "soviet_movement", run_step_start = true,
    units = {
      { id = "g", side = "german", type = "rifle_mot", formation = "7 Pz", faces = { "2-2-10", "1-1-10" }, at = "0402" },
      rifle("s1", "0502", "9-9-6"), rifle("s2", "0604", "3-3-6"), leader("ldr", "0803", 5),
    },
  }
  kessel.inject_dice{ 2 }   -- 9 halved 4 against 2: 2-1, where a 2 is D1
  expect.accepted(kessel.act{ kind = "overrun", units = { "s1" }, target = "0402" })
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  expect.accepted(kessel.act{ kind = "retreat", units = { "g" }, path = { "0403" } })
  expect.truthy(kessel.units.get("g").flags.disrupted, "a retreat in an overrun disrupts [6.6]")
  expect.eq(kessel.units.get("s1").hex, "0402", "the overrunners enter the cleared hex [6.5]")
  -- a disrupted unit has no zone [6.6]: s2 moves next to it and on without stopping
  expect.accepted(kessel.act{ kind = "move", units = { "s2" }, path = { "0504", "0503" } })
  expect.accepted(kessel.act{ kind = "end_phase" })
  local odds = kessel.queries.ask("odds", { units = { "s2" }, targets = { "0403" } })
  expect.truthy(odds.legal)
  expect.eq(odds.defence, 2, "disrupted units defend normally [6.6]")
  expect.accepted(kessel.act{ kind = "end_phase" })   -- Soviet Combat Phase: no attack
  while kessel.game.step().id ~= "german_movement" do expect.accepted(kessel.act{ kind = "end_phase" }) end
  local ok, reasons = kessel.act{ kind = "move", units = { "g" }, path = { "0303" } }
  expect.refused(ok, reasons, "6.6")
  expect.accepted(kessel.act{ kind = "end_phase" })
  ok, reasons = kessel.act{ kind = "attack", units = { "g" }, targets = { "0503" } }
  expect.refused(ok, reasons, "6.6")
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.step().id, "german_mech_movement")
  ok, reasons = kessel.act{ kind = "move", units = { "g" }, path = { "0303" } }
  expect.refused(ok, reasons, "6.6")
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.step().id, "german_disruption_removal")
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.falsy(kessel.units.get("g").flags.disrupted, "lifted in its owner's Disruption Removal Phase")
end)

-- [6.6] [13.44] [6.37] The state a position may start in, as docs/lua-api.md ("A PGG position of
-- your own") names it: a unit set up with flag `disrupted` may not move; a German unit under a
-- `soviet_interdiction` marker is out of supply; a `rail_cut` marker closes its hex to rail.
kessel.test("case_6_6_13_44_6_37_a_position_set_up_disrupted_interdicted_and_cut", function()
  kessel.setup{
    map = { columns = 10, rows = 4, links = { { kind = "railway", path = { "0502", "0602", "0702", "0802", "0902" } } } },
    turn = 5, step = "soviet_movement",
    markers = {
      { kind = "soviet_interdiction", side = "soviet", at = "0204" },
      { kind = "rail_cut", side = "german", at = "0702" },
    },
    units = {
      inf("g", "0204"),
      { id = "d", side = "soviet", type = "rifle", faces = { "2-2-6" }, flags = { "disrupted" }, at = "0904" },
      rifle("s", "0502"), leader("ldr", "0903", 5),
    },
  }
  local ok, reasons = kessel.act{ kind = "move", units = { "d" }, path = { "0804" } }
  expect.refused(ok, reasons, "6.6")
  local sup = kessel.queries.ask("supply", { unit = "g" })
  expect.falsy(sup.in_supply)
  expect.eq(sup.rule, "13.44")
  ok, reasons = kessel.act{ kind = "rail_move", units = { "s" }, path = { "0602", "0702", "0802" } }
  expect.refused(ok, reasons, "6.37")
  expect.accepted(kessel.act{ kind = "rail_move", units = { "s" }, path = { "0602" } })
end)

-- [5.1] [13.2] The Soviet set-up as a position: units with a set-up area, turn 1, and the German
-- air markers still to place (he places them after the set-up). A unit goes to another hex of
-- its area, not outside it; after `end_setup` the set-up is closed.
kessel.test("case_5_1_a_setup_position_built_inline", function()
  kessel.setup{
    map = { columns = 8, rows = 6, areas = { S20 = { "0303", "0304", "0305" } } },
    turn = 1, step = "soviet_movement",
    markers = { { kind = "air_interdiction", side = "german", count = 3 } },
    units = {
      { id = "a", side = "soviet", type = "rifle", faces = { "2-2-6" }, setup_area = "S20", at = "0303" },
      leader("ldr", "0803", 5),
    },
  }
  local ok, reasons = kessel.act{ kind = "setup_place", unit = "a", hex = "0306" }
  expect.refused(ok, reasons, "5.1")
  expect.accepted(kessel.act{ kind = "setup_place", unit = "a", hex = "0305" })
  expect.eq(kessel.units.get("a").hex, "0305")
  expect.accepted(kessel.act{ kind = "end_setup" })
  ok, reasons = kessel.act{ kind = "setup_place", unit = "a", hex = "0304" }
  expect.refused(ok, reasons, "5.1")
end)

-- [12] [12.2] [9.3] A face-down rifle division as docs/lua-api.md sets one up (`hidden`, `pool`,
-- `pools`): nobody knows its strength, so the odds are not exact; the attack reveals it, and the
-- forest doubles the face it shows.
kessel.test("case_12_2_a_face_down_division_set_up_inline_is_revealed_by_the_attack", function()
  kessel.setup{
    map = { columns = 8, rows = 4, terrain = { ["0403"] = "forest" } },
    turn = 5, step = "german_combat",
    pools = { rifle = { "2-3-6" } },
    units = {
      inf("g", "0303"),
      { id = "h", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0403" },
      leader("ldr", "0703", 5),
    },
  }
  expect.truthy(kessel.units.get("h").hidden)
  local odds = kessel.queries.ask("odds", { units = { "g" }, targets = { "0403" } })
  expect.falsy(odds.exact, "its strength is not known [12]")
  -- the reveal draws its face with a die of its own first (one face in the pool: a 1), then the
  -- combat's: 9 against 3 doubled 6 is 1-1, where a 6 is A2
  kessel.inject_dice{ 1, 6 }
  local events = expect.accepted(kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } })
  local combat
  for _, e in ipairs(events) do if e.event == "record" and e.kind == "combat" then combat = e.fields end end
  expect.eq(combat.defence, 6)
  expect.eq(combat.odds, "1-1")
  expect.falsy(kessel.units.get("h").hidden, "revealed by the attack [12.2]")
end)

-- [15] [8] Reading: the line to the west edge is traced from the city's hex, which it does not
-- enter, so an empty German-owned city in the zone of a Soviet division next to it is still held
-- at the end of turn 12 while the hexes west of it are free; a second division whose zone closes
-- every way out cuts it.
kessel.test("case_15_an_empty_german_city_in_a_soviet_zone_keeps_its_line_until_every_way_out_is_closed", function()
  local function final(soviets)
    local list = { leader("ldr", "0603", 5) }
    for i, at in ipairs(soviets) do list[#list + 1] = rifle("s" .. i, at, "9-9-6") end
    kessel.setup{
      map = { columns = 6, rows = 4, places = { { name = "Roslavl", kind = "major_city", hexes = { "0303" } } } },
      turn = 12, step = "german_air_interdiction",
      vars = { objectives = { { name = "Roslavl", vp = 10, hexes = { "0303" } } }, city_owner = { ["0303"] = "german" } },
      units = list,
    }
    expect.accepted(kessel.act{ kind = "end_phase" })
    expect.truthy(kessel.game.finished())
    return kessel.game.var("result"), kessel.queries.ask("score")
  end
  local result, score = final({ "0403" })
  expect.eq(score.objectives[1].hexes[1].side, "german", "last to be in it [15]")
  expect.eq(result.german_vp, 10, "its line leaves it by 0203, free")
  result = final({ "0403", "0202" })
  expect.eq(result.german_vp, 0, "0202 and 0403 close every hex around it")
end)
