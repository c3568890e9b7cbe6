-- Situations from the reference material, eighth tester pass (round 7): the WBC 2009
-- interpretations with their options on and off, the terrain effects chart, the combat results
-- played through, and the data against pgg-facts.md. Each test works out by hand what the cited
-- cases demand and checks what the engine does.
local expect = kessel.expect
local B = require("testing.board10")

-- [9.73] [9.6] FAQ 3, WBC09 #3: a unit retreated onto friends dies when the hex it retreated onto
-- is attacked and suffers a loss or retreat. A hex the phasing player attacks *from* is not
-- attacked: an A1, A2 or Ae falls on the attacking units [9.6], and a unit that retreated there
-- earlier in the phase took no part in the new attack. Board: 1-1 panzer g1 in 0303, boxed in by
-- lakes but for 0203 (German 4-4 panzer g2) and 0403 (Soviet 9-9 rifle). g1 attacks at 1-3, roll
-- 1: A1, it retreats onto g2. Then g2 attacks the rifle in 0103 at 1-1, roll 5: A1.
-- Expected: g2 loses the step itself (flips to 2-2) or retreats alone; g1 is untouched in both
-- profiles. Ae from the same hex eliminates g2 and leaves g1. (The engine used to eliminate g1 and
-- count its two steps for g2's loss, so g2 lost nothing.)
local function rider_board(profile_wbc)
  local lakes = { ["0302"] = "lake", ["0304"] = "lake", ["0402"] = "lake", ["0202"] = "lake" }
  B.setup({ B.pz("g1", "0303", "1-1-10"), B.pz("g2", "0203", "4-4-10"), B.rifle("s1", "0403", "9-9-6"),
    B.rifle("s2", "0103", "1-4-6"), B.leader("l", "0102", 5) },
    { map = { columns = 10, rows = 10, terrain = lakes },
      options = profile_wbc and { wbc09_03_retreated_units_die_first = true } or nil })
  kessel.inject_dice{ 1 }
  local ev = expect.accepted(kessel.act{ kind = "attack", units = { "g1" }, targets = { "0403" } })
  expect.truthy(B.note(ev, "odds 1-3, roll 1: A1"), B.all_notes(ev))
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  expect.accepted(kessel.act{ kind = "retreat", units = { "g1" }, path = { "0203" } })
  if B.pending() then expect.accepted(kessel.act{ kind = "advance", skip = true }) end
  expect.truthy(kessel.units.get("g1").flags.retreated_onto, "g1 retreated onto g2's hex")
end

kessel.test("case_9_73_a_unit_retreated_onto_an_attacking_hex_is_not_hit_by_the_attackers_result", function()
  for _, wbc in ipairs{ false, true } do
    local label = wbc and " (WBC09 #3 on)" or " (standard)"
    rider_board(wbc)
    kessel.inject_dice{ 5 }
    local ev = expect.accepted(kessel.act{ kind = "attack", units = { "g2" }, targets = { "0103" } })
    expect.truthy(B.note(ev, "attack 4 against defence 4 in 0103: odds 1-1, roll 5: A1"), B.all_notes(ev))
    local p = B.pending()
    expect.eq(p.kind, "loss_or_retreat")
    expect.falsy(p.prompt:find("retreated onto", 1, true), "no retreated unit pays for the attacker's loss" .. label)
    expect.accepted(kessel.act{ kind = "choose", choice = "loss" })
    expect.eq(B.where("g1"), "0203", "g1 took no part in g2's attack" .. label)
    expect.eq(kessel.units.get("g2").steps_left, 1, "g2 takes its own step loss" .. label)
    expect.eq(kessel.units.get("g2").attack, 2, "g2 flipped to 2-2" .. label)
  end
  -- Ae from the hex: the attacking unit dies, the unit retreated there stays
  rider_board(false)
  kessel.inject_dice{ 6 }
  local ev = expect.accepted(kessel.act{ kind = "attack", units = { "g2" }, targets = { "0103" } })
  expect.truthy(B.note(ev, "odds 1-1, roll 6: A2"), B.all_notes(ev))
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  local paths = {}
  for _, a in ipairs(kessel.legal("soviet")) do
    if a.kind == "retreat" then paths[#paths + 1] = table.concat(a.units, ",") .. ":" .. table.concat(a.path, ",") end
  end
  expect.truthy(#paths > 0, "the Soviet picks g2's path")
  for _, s in ipairs(paths) do expect.eq(s:sub(1, 3), "g2:", "only the attacking unit retreats: " .. s) end
  expect.eq(B.where("g1"), "0203", "g1 stays: the retreat of the attacking unit is not its result")
end)

-- [6.4] [6.5] On turns 1-6 no Soviet unit may enter columns 01-02, and overrunners who clear the
-- hex must enter it. A Soviet overrun into column 02 could not end as [6.5] demands, so it is
-- refused, and not listed among the Soviet's actions; from turn 7 it is allowed and the
-- overrunners enter. Board: a flipped German panzer (1-1-10) in 0203, two 8-8-6 rifles in 0303 with
-- their leader (rating 5) in 0304; 16 halved is 8 against 1 (8-1), roll 1: De. (The engine used to
-- accept it on turn 5 and put both rifles in 0203.)
kessel.test("case_6_4_no_soviet_overrun_into_columns_01_02_on_turns_1_to_6", function()
  local function board(turn)
    B.setup({ B.pz("g", "0203", "1-1-10"), B.rifle("a", "0303", "8-8-6"), B.rifle("b", "0303", "8-8-6"),
      B.leader("l", "0304", 5) }, { step = "soviet_movement", turn = turn })
  end
  board(5)
  local ok, why = kessel.act{ kind = "overrun", units = { "a", "b" }, target = "0203" }
  expect.refused(ok, why, "6.4", "overrunners who clear 0203 must enter it, and on turns 1-6 no Soviet unit may enter columns 01-02")
  for _, a in ipairs(kessel.legal("soviet")) do
    expect.truthy(a.kind ~= "overrun", "no overrun into column 02 is listed: " .. tostring(a.target))
  end
  expect.eq(B.where("a"), "0303")
  board(7)
  kessel.inject_dice{ 1 }
  local events = expect.accepted(kessel.act{ kind = "overrun", units = { "a", "b" }, target = "0203" })
  expect.truthy(B.note(events, "odds 8-1, roll 1: De"), B.all_notes(events))
  expect.eq(B.where("a"), "0203", "from turn 7 the cleared hex is entered")
  expect.eq(B.where("b"), "0203")
end)

-- [6.7] [10.2] The terrain effects chart, cell by cell, for every movement class: one step from
-- 0303 into 0403 on an otherwise clear 10x10 map. Worked out from the chart: clear, major and minor
-- city 1; forest 1 for infantry (German infantry, Soviet rifles, leaders [10.2]) and 2 for all
-- others (motorized, tanks, cavalry); swamp 2 for all; along a road ½ for motorized units, tanks and
-- leaders, 1 for infantry and cavalry, whatever the hex; a river hexside adds 2 for a German and 1
-- for a Soviet, road or not (roads do not bridge rivers for movement); lake hexes and hexsides are
-- closed.
kessel.test("case_6_7_terrain_chart_cell_by_cell_for_every_movement_class", function()
  local movers = {
    { id = "inf", side = "german", unit = function() return B.inf("m", "0303") end },
    { id = "cav", side = "german", unit = function() return B.cav("m", "0303") end },
    { id = "mot", side = "german", unit = function() return B.pz("m", "0303") end },
    { id = "rifle", side = "soviet", unit = function() return B.rifle("m", "0303", "4-4-6") end },
    { id = "tank", side = "soviet", unit = function()
      return { id = "m", name = "m", side = "soviet", type = "tank", faces = { "5-5-10" }, at = "0303" } end },
    { id = "leader", side = "soviet", unit = function() return B.leader("m", "0303", 5) end },
  }
  local road = { { kind = "road", path = { "0303", "0403" } } }
  local river = { { "0303", "0403", "river" } }
  local cells = {
    { "clear", {}, { inf = 1, cav = 1, mot = 1, rifle = 1, tank = 1, leader = 1 } },
    { "major city", { places = { { name = "Orsha", kind = "major_city", hexes = { "0403" } } } },
      { inf = 1, cav = 1, mot = 1, rifle = 1, tank = 1, leader = 1 } },
    { "minor city", { places = { { name = "Velizh", kind = "minor_city", hexes = { "0403" } } } },
      { inf = 1, cav = 1, mot = 1, rifle = 1, tank = 1, leader = 1 } },
    { "forest", { terrain = { ["0403"] = "forest" } }, { inf = 1, cav = 2, mot = 2, rifle = 1, tank = 2, leader = 1 } },
    { "swamp", { terrain = { ["0403"] = "swamp" } }, { inf = 2, cav = 2, mot = 2, rifle = 2, tank = 2, leader = 2 } },
    { "road", { links = road }, { inf = 1, cav = 1, mot = 0.5, rifle = 1, tank = 0.5, leader = 0.5 } },
    { "road into forest", { links = road, terrain = { ["0403"] = "forest" } },
      { inf = 1, cav = 1, mot = 0.5, rifle = 1, tank = 0.5, leader = 0.5 } },
    { "road into swamp", { links = road, terrain = { ["0403"] = "swamp" } },
      { inf = 1, cav = 1, mot = 0.5, rifle = 1, tank = 0.5, leader = 0.5 } },
    { "river", { hexsides = river }, { inf = 3, cav = 3, mot = 3, rifle = 2, tank = 2, leader = 2 } },
    { "road across a river", { hexsides = river, links = road },
      { inf = 3, cav = 3, mot = 2.5, rifle = 2, tank = 1.5, leader = 1.5 } },
    { "forest across a river", { hexsides = river, terrain = { ["0403"] = "forest" } },
      { inf = 3, cav = 4, mot = 4, rifle = 2, tank = 3, leader = 2 } },
  }
  for _, m in ipairs(movers) do
    for _, cell in ipairs(cells) do
      local map = { columns = 10, rows = 10 }
      for k, v in pairs(cell[2]) do map[k] = v end
      B.setup({ m.unit() }, { map = map, step = m.side == "german" and "german_movement" or "soviet_movement" })
      local ok, ev = kessel.act{ kind = "move", units = { "m" }, path = { "0403" } }
      expect.accepted(ok, ev)
      expect.eq(ev[1].cost, cell[3][m.id], m.id .. " into " .. cell[1])
    end
    for _, closed in ipairs{ { "lake hexside", { hexsides = { { "0303", "0403", "lake" } } }, "lake hexsides may not be crossed" },
        { "lake hex", { terrain = { ["0403"] = "lake" } }, "lake hexes may not be entered" } } do
      local map = { columns = 10, rows = 10 }
      for k, v in pairs(closed[2]) do map[k] = v end
      B.setup({ m.unit() }, { map = map, step = m.side == "german" and "german_movement" or "soviet_movement" })
      local ok, why = kessel.act{ kind = "move", units = { "m" }, path = { "0403" } }
      expect.refused(ok, why, "6.7", closed[3])
    end
  end
end)

-- [6.5] [9.3] [6.7] Overruns into each terrain: an 8-8-10 panzer regiment in 0303 overruns a 2-2-6
-- rifle in 0403 (its leader in 0504). The terrain doubles the defender as in any combat, and the
-- attack is halved after everything else: 4 against clear, swamp or minor city 2 (2-1), forest,
-- major city or river 4 (1-1), forest across a river 6 (1-2), forest, major city and river 8 (1-2).
-- An overrun across a lake hexside is refused as an attack across one is [9.3] (it cited 6.7, the
-- attack 9.3: one prohibition, one case).
kessel.test("case_6_5_overrun_into_each_terrain_of_the_chart", function()
  local river = { { "0303", "0403", "river" } }
  local city = { { name = "Orsha", kind = "major_city", hexes = { "0403" } } }
  local cells = {
    { "clear", {}, 2, "2-1" },
    { "swamp", { terrain = { ["0403"] = "swamp" } }, 2, "2-1" },
    { "minor city", { places = { { name = "Velizh", kind = "minor_city", hexes = { "0403" } } } }, 2, "2-1" },
    { "forest", { terrain = { ["0403"] = "forest" } }, 4, "1-1" },
    { "major city", { places = city }, 4, "1-1" },
    { "river", { hexsides = river }, 4, "1-1" },
    { "forest across a river", { terrain = { ["0403"] = "forest" }, hexsides = river }, 6, "1-2" },
    { "forest, major city, river", { terrain = { ["0403"] = "forest" }, hexsides = river, places = city }, 8, "1-2" },
  }
  for _, cell in ipairs(cells) do
    local map = { columns = 10, rows = 10 }
    for k, v in pairs(cell[2]) do map[k] = v end
    B.setup({ B.pz("g", "0303", "8-8-10"), B.rifle("s", "0403", "2-2-6"), B.leader("l", "0504", 5) },
      { map = map, step = "german_movement" })
    kessel.inject_dice{ 6 }
    local ok, ev = kessel.act{ kind = "overrun", units = { "g" }, target = "0403" }
    expect.accepted(ok, ev)
    local want = string.format("attack 4 against defence %d in 0403: odds %s", cell[3], cell[4])
    expect.truthy(B.note(ev, want), cell[1] .. ": " .. want .. " | " .. B.all_notes(ev))
  end
  B.setup({ B.pz("g", "0303", "8-8-10"), B.rifle("s", "0403", "2-2-6"), B.leader("l", "0504", 5) },
    { map = { columns = 10, rows = 10, hexsides = { { "0303", "0403", "lake" } } }, step = "german_movement" })
  local ok, why = kessel.act{ kind = "overrun", units = { "g" }, target = "0403" }
  expect.refused(ok, why, "9.3", "the overrunners in 0303 cannot overrun 0403 across a lake hexside")
end)

-- [6.37] [6.5] A Soviet combat unit entering a cut rail hex in its Movement Phase repairs it. An
-- overrun that clears the hex puts the overrunners in it: they have entered it, so the cut comes
-- off (the engine used to repair only along `move` paths, so the cut stayed under the Soviet
-- stack, and stayed after it moved on). A failed overrun enters nothing and repairs nothing.
-- Board: a railway along row 05, a cut in 0405 under a flipped German panzer (1-1-10); two 8-8-6
-- rifles in 0305 and their leader in 0306. 16 halved is 8 against 1: roll 1, De.
kessel.test("case_6_37_soviet_overrun_that_clears_a_cut_rail_hex_repairs_it", function()
  local function board(german)
    local rail = {}
    for c = 1, 10 do rail[#rail + 1] = string.format("%02d05", c) end
    B.setup({ german or B.pz("g", "0405", "1-1-10"), B.rifle("a", "0305", "8-8-6"), B.rifle("b", "0305", "8-8-6"),
      B.leader("l", "0306", 5) },
      { step = "soviet_movement", map = { columns = 10, rows = 10, links = { { kind = "railway", path = rail } } },
        markers = { { kind = "rail_cut", side = "german", at = "0405" } } })
  end
  board()
  kessel.inject_dice{ 1 }
  local ev = expect.accepted(kessel.act{ kind = "overrun", units = { "a", "b" }, target = "0405" })
  expect.truthy(B.note(ev, "odds 8-1, roll 1: De"), B.all_notes(ev))
  expect.eq(B.where("a"), "0405")
  expect.truthy(B.note(ev, "repairs the railway at 0405"), B.all_notes(ev))
  expect.eq(#kessel.markers.all{ kind = "rail_cut", placed = true }, 0, "the cut is off")
  -- a failed overrun: a German infantry division (9-9-7) in 0405, 8 against 9 is 1-2, roll 2: Eng;
  -- the division steps down and stays, the Soviet names the rifle that loses its step
  board(B.inf("g", "0405"))
  kessel.inject_dice{ 2 }
  ev = expect.accepted(kessel.act{ kind = "overrun", units = { "a", "b" }, target = "0405" })
  expect.truthy(B.note(ev, "attack 8 against defence 9 in 0405: odds 1-2, roll 2: Eng"), B.all_notes(ev))
  expect.accepted(kessel.act{ kind = "choose", units = { "a" } })
  expect.eq(B.where("b"), "0305", "the overrun failed: b stays where it was [6.5]")
  expect.eq(#kessel.markers.all{ kind = "rail_cut", placed = true }, 1, "nobody entered 0405: the cut stays")
end)

-- [6.5] WBC09 #11: overrunners who cleared a hex may move on, until another stack moves; then
-- their move is over. An overrun by another stack is that stack moving (it spends MP in its
-- Movement Phase) and ends it the same way, whether it succeeds or fails. (The engine ended the
-- group only on a `move`: after another stack's successful overrun the first group's units were
-- free to move on at any later time; after a failed one the group stayed open.) Board: panzer a
-- (20-20-10) overruns a 1-1-6 rifle in 0403 from 0303 (10 against 1, roll 1: De) and enters it;
-- then panzer b overruns 0708 from 0707: a 1-1-6 (De, roll 1) or a 1-9-6 (10 against 9, 1-1, roll
-- 5: A1, taken as a loss). Either way a may not move on. In both profiles.
kessel.test("case_6_5_another_stacks_overrun_ends_the_overrun_groups_move", function()
  for _, case in ipairs{ { roll = 1, face = "1-1-6", wbc = false }, { roll = 5, face = "1-9-6", wbc = false },
      { roll = 1, face = "1-1-6", wbc = true } } do
    local label = string.format(" (roll %d, %s)", case.roll, case.wbc and "WBC09 #11 on" or "standard")
    B.setup({ B.pz("a", "0303", "20-20-10"), B.rifle("s", "0403", "1-1-6"), B.pz("b", "0707", "20-20-10"),
      B.rifle("t", "0708", case.face), B.leader("l", "1010", 5) },
      { step = "german_movement", options = case.wbc and { wbc09_11_overrun_stack_may_split = true } or nil })
    kessel.inject_dice{ 1 }
    local ev = expect.accepted(kessel.act{ kind = "overrun", units = { "a" }, target = "0403" })
    expect.truthy(B.note(ev, "the overrunners enter 0403"), B.all_notes(ev))
    kessel.inject_dice{ case.roll }
    ev = expect.accepted(kessel.act{ kind = "overrun", units = { "b" }, target = "0708" })
    expect.truthy(B.note(ev, "another stack moved: the units that overran"), "b's overrun ends a's move" .. label .. ": " .. B.all_notes(ev))
    if B.pending() then expect.accepted(kessel.act{ kind = "choose", choice = "loss" }) end
    local ok, why = kessel.act{ kind = "move", units = { "a" }, path = { "0503" } }
    expect.refused(ok, why, "6.5", "stopped", "a may not move on" .. label)
    for _, act in ipairs(kessel.legal("german")) do
      expect.truthy(not (act.units and act.units[1] == "a"), "nothing listed for a" .. label)
    end
  end
end)

-- [6.37] WBC09 #6: "the German does not have to move over old rail breaks to reutilize them" -
-- so without the interpretation he reuses one by moving over it. Railway along row 02; the six
-- cuts in 0202, 0302, 0402, 0502, 0602 and 0802; a panzer regiment in 0701 moves 0702, 0802, 0902,
-- 1002. Standard: with no marker left it may cut 1002 only by lifting the cut it passes in 0802;
-- lifting 0302, off its path, is refused (the engine refused every lift in the standard game, so
-- six cuts once down stayed until the Soviet repaired them). WBC09 #6: 0302 may be lifted.
kessel.test("case_6_37_standard_reuse_of_a_rail_cut_by_moving_over_it_and_wbc09_06", function()
  local function board(wbc)
    local rail, markers = {}, {}
    for c = 1, 10 do rail[#rail + 1] = string.format("%02d02", c) end
    for i, h in ipairs{ "0202", "0302", "0402", "0502", "0602", "0802" } do
      markers[i] = { kind = "rail_cut", side = "german", at = h }
    end
    B.setup({ B.pz("g", "0701"), B.rifle("s", "0909", "2-2-6"), B.leader("l", "1010", 3) },
      { step = "german_movement", map = { columns = 10, rows = 10, links = { { kind = "railway", path = rail } } },
        markers = markers, options = wbc and { wbc09_06_rail_break_relocation = true } or nil })
  end
  local RL = require("rules.rail")
  local path = { "0702", "0802", "0902", "1002" }
  board(false)
  local ok, why = kessel.act{ kind = "move", units = { "g" }, path = path, rail_cut = "1002" }
  expect.refused(ok, why, "6.37", "all six rail cut markers are on the map")
  ok, why = kessel.act{ kind = "move", units = { "g" }, path = path, rail_cut = "1002", lift = "0302" }
  expect.refused(ok, why, "6.37", "a rail cut is reused by moving a unit over it: 0302 is not on this move's path")
  local ev = expect.accepted(kessel.act{ kind = "move", units = { "g" }, path = path, rail_cut = "1002", lift = "0802" })
  expect.truthy(B.note(ev, "railway cut at 1002 (lifted from 0802)"), B.all_notes(ev))
  expect.truthy(RL.cuts()["1002"], "the new cut")
  expect.falsy(RL.cuts()["0802"], "the cut moved over is lifted")
  expect.eq(#kessel.markers.all{ kind = "rail_cut", placed = true }, 6, "still six on the map")
  board(true)
  ev = expect.accepted(kessel.act{ kind = "move", units = { "g" }, path = path, rail_cut = "1002", lift = "0302" })
  expect.truthy(B.note(ev, "railway cut at 1002 (lifted from 0302)"), B.all_notes(ev))
  expect.falsy(RL.cuts()["0302"], "WBC09 #6: lifted from anywhere")
  expect.truthy(RL.cuts()["0802"], "the cut moved over stays")
end)

-- [9.71] [7.1] [10.2] A lone leader attacked: it defends with its rating, and on a D result it
-- retreats like any unit. Lakes in 0504, 0604 and 0605; a German infantry division in 0405 puts
-- 0404 and 0506 in its zone. (1) 0506 holds three rifles and a leader: the only retreat is into
-- that hex (friendly, so the zone does not bar it), which then holds five units, one over the four
-- allowed with a leader: the retreated leader is the excess and dies [7.1], and the German may
-- advance into 0505. (2) With 0506 a lake too, no retreat exists: choosing retreat, the German's
-- only pick is the empty path, and the leader dies (it had no line of supply either, so it defended
-- at half its rating [11.3]: 9 against 1, roll 6: D2).
kessel.test("case_9_71_lone_leader_retreats_into_a_full_hex_or_cannot_retreat", function()
  local lakes = { ["0504"] = "lake", ["0604"] = "lake", ["0605"] = "lake" }
  B.setup({ B.inf("i", "0405"), B.leader("L1", "0505", 3), B.rifle("r1", "0506", "2-2-6"), B.rifle("r2", "0506", "2-2-6"),
    B.rifle("r3", "0506", "2-2-6"), B.leader("L2", "0506", 2) }, { map = { columns = 10, rows = 10, terrain = lakes } })
  kessel.inject_dice{ 3 }
  local ev = expect.accepted(kessel.act{ kind = "attack", units = { "i" }, targets = { "0505" } })
  expect.truthy(B.note(ev, "attack 9 against defence 3 in 0505: odds 3-1, roll 3: D1"), B.all_notes(ev))
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  local paths = {}
  for _, a in ipairs(kessel.legal("german")) do paths[#paths + 1] = table.concat(a.path, ",") end
  expect.eq(table.concat(paths, " "), "0506", "0404 is in the German zone and empty; 0506 is friendly")
  ev = expect.accepted(kessel.act{ kind = "retreat", units = { "L1" }, path = { "0506" } })
  expect.truthy(B.note(ev, "L1 eliminated: retreated into an over-full hex (0506)"), B.all_notes(ev))
  expect.eq(B.where("L2"), "0506", "the leader already there stays")
  expect.eq(B.pending().kind, "advance")
  expect.accepted(kessel.act{ kind = "advance", units = { "i" }, path = { "0505" } })
  expect.eq(B.where("i"), "0505")

  lakes["0506"] = "lake"
  B.setup({ B.inf("i", "0405"), B.leader("L1", "0505", 3), B.leader("L2", "0808", 2) }, { map = { columns = 10, rows = 10, terrain = lakes } })
  kessel.inject_dice{ 6 }
  ev = expect.accepted(kessel.act{ kind = "attack", units = { "i" }, targets = { "0505" } })
  expect.truthy(B.note(ev, "attack 9 against defence 1 in 0505: odds 9-1, roll 6: D2"), B.all_notes(ev))
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  local legal = kessel.legal("german")
  expect.eq(#legal, 1)
  expect.eq(#legal[1].path, 0, "no retreat path exists")
  expect.accepted(kessel.act(legal[1]))
  expect.eq(B.where("L1"), "eliminated")
end)

-- [9.3] [12.2] [12.3] "Defender doubled if attacked solely across a river" looks at the units that
-- attack. A Soviet attack on a German 2-2-10 in 0403 from 0303 (a known 6-6-6, across a river
-- hexside) and 0304 (a face-down rifle, no river): the face-down rifle is revealed on commitment
-- as a 0-1-6 (it takes no part) or a 0-0-6 (removed); either way every unit that attacks is across
-- the river, so the defence is doubled: 6 against 4, 1-1 (roll 1: D1), not 6 against 2, 3-1. (The
-- engine judged the river by the hexes named in the attack before the reveal.) With a 4-4-6
-- revealed in 0304 the attack is not solely across the river: 10 against 2, 5-1.
kessel.test("case_9_3_river_doubling_counts_only_the_units_that_attack_after_the_reveal", function()
  local function attack(face)
    B.setup({ B.pz("g", "0403", "2-2-10"), B.rifle("a", "0303", "6-6-6"),
      { id = "h", name = "h", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0304" },
      B.leader("l", "0203", 5) },
      { step = "soviet_combat", map = { columns = 10, rows = 10, hexsides = { { "0303", "0403", "river" } } },
        pools = { rifle = { face } } })
    kessel.inject_dice{ 1, 1 }
    return expect.accepted(kessel.act{ kind = "attack", units = { "a", "h" }, targets = { "0403" } })
  end
  for _, face in ipairs{ "0-1-6", "0-0-6" } do
    local ev = attack(face)
    expect.truthy(B.note(ev, "0403: attacked solely across a river, doubled"), face .. ": " .. B.all_notes(ev))
    expect.truthy(B.note(ev, "attack 6 against defence 4 in 0403: odds 1-1, roll 1: D1"), face .. ": " .. B.all_notes(ev))
  end
  local ev = attack("4-4-6")
  expect.falsy(B.note(ev, "attacked solely across a river"), B.all_notes(ev))
  expect.truthy(B.note(ev, "attack 10 against defence 2 in 0403: odds 5-1, roll 1: D2"), B.all_notes(ev))
end)
