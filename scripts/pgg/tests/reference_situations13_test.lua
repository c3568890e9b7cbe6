-- Situations from the reference material, examiner pass (round 11): leaders and zones of control
-- [8] [9.8] [10.2], reinforcement entry [14.3] with the terrain chart [6.7], and the thinly tested
-- cases of supply [11], interdiction [13], the South-Western Front [14.2], stacking [7] and victory
-- [15], each played through actions on a small board and compared with the rules text. Geometry of
-- the 10x10 map: odd columns N, NE = c+1 r-1, SE = c+1 r, S, SW = c-1 r, NW = c-1 r-1; even columns
-- NE = c+1 r, SE = c+1 r+1, SW = c-1 r+1, NW = c-1 r. So 0503 touches 0502 0602 0603 0504 0403
-- 0402, and 0403 touches 0402 0503 0504 0404 0304 0303.
local expect = kessel.expect
local B = require("testing.board10")
local attack, choose, retreat, advance, move, advances = B.attack, B.choose, B.retreat, B.advance, B.move, B.advances

-- [6.22] [9.8] [10.2] A leader enters an enemy ZOC only together with an attack-capable unit, and an
-- advance after combat is no exception: the advance ignores the ZOC's stop, not the leader's need
-- of an escort. Board: Soviet Combat Phase; s (2-2-6) and Lukin-like l (rating 3) in 0503 attack g
-- (2-2-10) in 0403, 2 + 2 (the leader's bonus capped at s's 2) against 2, 2-1, roll 2: D1. g retreats
-- to 0304 (0402 and 0404 are in the Soviet ZOC, 0303 holds h); 0403 is then in the ZOC of g and h.
-- l alone may not advance into 0403 (refused citing 6.22, and not listed); s alone, or s and l
-- together, may; l following s in a second advance action is alone in its advance and refused too.
-- Second board: the same attack rolls 1, D2, and g retreats 0304-0204: 0403 is out of every German
-- ZOC (h is gone from the board) and l may advance into it alone. The engine let a lone leader advance
-- into an enemy ZOC.
kessel.test("case_6_22_a_leader_advances_into_an_enemy_zoc_only_with_an_attack_capable_unit", function()
  B.setup({ B.pz("g", "0403", "2-2-10"), B.pz("h", "0303", "2-2-10"), B.rifle("s", "0503", "2-2-6"),
    B.leader("l", "0503", 3) }, { step = "soviet_combat" })
  kessel.inject_dice{ 2 }
  local ev = expect.accepted(attack({ "s", "l" }, { "0403" }))
  expect.truthy(B.note(ev, "odds 2-1, roll 2: D1"), B.all_notes(ev))
  expect.accepted(choose("retreat"))
  expect.accepted(retreat({ "g" }, { "0304" }))
  local p = B.pending()
  expect.eq(p and p.kind, "advance")
  expect.eq(advances("soviet"), "s,l>0403 s>0403", "no lone leader advance into the German ZOC on offer")
  local ok, why = advance({ "l" }, { "0403" })
  expect.refused(ok, why, "6.22", "in the zone of control of")
  expect.accepted(advance({ "s" }, { "0403" }))
  -- joining s afterwards is still a lone leader's advance
  ok, why = advance({ "l" }, { "0403" })
  expect.refused(ok, why, "6.22", "attack-capable")
  expect.eq(B.where("l"), "0503")

  -- together they go
  B.setup({ B.pz("g", "0403", "2-2-10"), B.pz("h", "0303", "2-2-10"), B.rifle("s", "0503", "2-2-6"),
    B.leader("l", "0503", 3) }, { step = "soviet_combat" })
  kessel.inject_dice{ 2 }
  expect.accepted(attack({ "s", "l" }, { "0403" }))
  expect.accepted(choose("retreat"))
  expect.accepted(retreat({ "g" }, { "0304" }))
  expect.accepted(advance({ "s", "l" }, { "0403" }))
  expect.eq(B.where("l"), "0403")
  expect.eq(B.where("s"), "0403")

  -- out of every German ZOC a leader may advance alone
  B.setup({ B.pz("g", "0403", "2-2-10"), B.rifle("s", "0503", "2-2-6"), B.leader("l", "0503", 3) },
    { step = "soviet_combat" })
  kessel.inject_dice{ 1 }
  ev = expect.accepted(attack({ "s", "l" }, { "0403" }))
  expect.truthy(B.note(ev, "odds 2-1, roll 1: D2"), B.all_notes(ev))
  expect.accepted(choose("retreat"))
  expect.accepted(retreat({ "g" }, { "0304", "0204" }))
  expect.truthy(advances("soviet"):find("l>0403", 1, true), advances("soviet"))
  expect.accepted(advance({ "l" }, { "0403" }))
  expect.eq(B.where("l"), "0403")
end)

-- The moves on offer for `side` that take exactly `ids` (a sorted "a,b" list), as destinations.
local function move_dests(side, ids)
  local out, seen = {}, {}
  for _, a in ipairs(kessel.legal(side)) do
    if a.kind == "move" then
      local us = {}
      for _, id in ipairs(a.units or { a.unit }) do us[#us + 1] = id end
      table.sort(us)
      local dest = a.path[#a.path]
      if table.concat(us, ",") == ids and not seen[dest] then seen[dest] = true; out[#out + 1] = dest end
    end
  end
  table.sort(out)
  return out
end

-- [6.22] A leader joining a friendly stack that already stands in an enemy ZOC. The sources
-- have the leader enter an enemy ZOC only accompanied by (together with) an attack-capable unit,
-- and friendly units never lift an enemy ZOC for movement: a rifle already in the hex does not
-- escort a leader who arrives there alone. Board: Soviet Movement Phase, turn 7; g (4-4-10) in
-- 0303; r (2-2-6) in 0403, in g's ZOC; l (rating 3) and q (2-2-6) in 0603. l alone may go to 0503
-- (out of g's ZOC) but not on to 0403 (refused citing 6.22, and no such move listed); l and q moving
-- together enter 0403 (the move stops there [6.22]) and the hex then holds two rifles and the
-- leader, within the Soviet limit [7.1]. A leader entering the map as a reinforcement is held to
-- the same: alone he may not come on at an entry hex in an enemy ZOC, even onto a rifle there.
kessel.test("case_6_22_a_leader_joins_a_stack_in_an_enemy_zoc_only_with_an_escort_moving_in_with_it", function()
  local setup = function()
    B.setup({ B.pz("g", "0303", "4-4-10"), B.rifle("r", "0403", "2-2-6"), B.rifle("q", "0603", "2-2-6"),
      B.leader("l", "0603", 3) }, { step = "soviet_movement" })
  end
  setup()
  local ok, why = move({ "l" }, { "0503", "0403" })
  expect.refused(ok, why, "6.22", "attack-capable")
  ok, why = move({ "l" }, { "0403" })
  expect.refused(ok, why, "6.22", "attack-capable")
  local dests = table.concat(move_dests("soviet", "l"), " ")
  expect.falsy(dests:find("0403", 1, true), "no lone-leader move into 0403 on offer: " .. dests)
  expect.truthy(dests:find("0503", 1, true), "0503, out of g's ZOC, is on offer: " .. dests)
  expect.accepted(move({ "l", "q" }, { "0503", "0403" }))
  expect.eq(B.where("l"), "0403")
  expect.eq(B.where("q"), "0403")
  -- the move stopped in the ZOC [6.22]: nothing further this phase
  ok, why = move({ "l", "q" }, { "0404" })
  expect.refused(ok, why, "6.22", "may not leave it voluntarily")

  -- the same holds for a leader coming on as a reinforcement [14.3]: X is 1003, in the ZOC of g2
  -- in 0904 and already holding the rifle r2; the leader k alone may not enter there, with the
  -- rifle q2 entering beside him he may
  B.setup({ B.pz("g2", "0904", "4-4-10"), B.rifle("r2", "1003", "2-2-6"),
    B.leader("k", nil, 2, { enter = { turn = 7, area = "X" } }),
    B.rifle("q2", nil, "2-2-6", { enter = { turn = 7, area = "X" } }) },
    { map = { columns = 10, rows = 10, areas = { X = { "1003" } } }, step = "soviet_movement" })
  ok, why = move({ "k" }, { "1003" })
  expect.refused(ok, why, "6.22", "attack-capable")
  expect.accepted(move({ "k", "q2" }, { "1003" }))
  expect.eq(B.where("k"), "1003")
end)

-- [14.3] [6.7] [10.2] A unit entering the map where a road runs off it comes in along the road and
-- pays the road rate for the entry hex, as for any road hex it enters along the road: 1/2 MP for
-- motorized units and leaders, 1 for infantry and cavalry, instead of the hex's terrain. Board,
-- German Initial Movement Phase of turn 3: a road 0105-0205-0305 ends at 0105 on the west edge
-- (forest); another runs 0103-0104-0204 and so passes through the edge hex 0104. Entry area E holds
-- 0103-0106. A panzer regiment entering 0105 and driving to 0305 spends 1/2 + 1/2 + 1/2 (it paid
-- the forest's 2 before: 3); an infantry division 1 + 1 + 1; the cavalry 1 then 1 + 1; entering
-- 0106 (clear, no road) costs the panzer 1, and 0104 (a road passing along the edge, not leaving
-- the map) its forest's 2. Soviet side, turn 7: a road ends at 1005 on the east edge, area X: a
-- tank division and a leader enter for 1/2, a rifle division for 1.
kessel.test("case_14_3_entering_where_a_road_runs_off_the_map_costs_the_road_rate", function()
  local M = require("rules.movement")
  local map = { columns = 10, rows = 10,
    terrain = { ["0105"] = "forest", ["0104"] = "forest" },
    links = { { kind = "road", path = { "0105", "0205", "0305" } }, { kind = "road", path = { "0103", "0104", "0204" } },
      { kind = "road", path = { "1005", "0905", "0805" } } },
    areas = { E = { "0103", "0104", "0105", "0106" }, X = { "1004", "1005" } } }
  local function left(id) return M.mp_left(kessel.units.get(id)) end
  local german = function()
    B.setup({ B.pz("p", nil, "4-4-10", { enter = { turn = 3, area = "E" } }),
      B.pz("p2", nil, "4-4-10", { enter = { turn = 3, area = "E" } }),
      B.pz("p3", nil, "4-4-10", { enter = { turn = 3, area = "E" } }),
      B.inf("i", nil, { enter = { turn = 3, area = "E" } }),
      { id = "c", name = "c", side = "german", type = "cavalry", formation = "1 Cav",
        faces = { "4-4-5", "2-2-5" }, enter = { turn = 3, area = "E" } } },
      { map = map, step = "german_movement", turn = 3 })
  end
  german()
  expect.accepted(move({ "p" }, { "0105", "0205", "0305" }))
  expect.eq(left("p"), 8.5, "10 - 1/2 to enter along the road - 1/2 - 1/2")
  expect.accepted(move({ "i" }, { "0105", "0205", "0305" }))
  expect.eq(left("i"), 4, "7 - 1 - 1 - 1 (infantry pays 1 on roads)")
  expect.accepted(move({ "c" }, { "0105", "0205" }))
  expect.eq(left("c"), 3, "5 - 1 - 1 (cavalry pays 1 on roads)")
  expect.accepted(move({ "p2" }, { "0106" }))
  expect.eq(left("p2"), 9, "clear, no road: 1")
  expect.accepted(move({ "p3" }, { "0104" }))
  expect.eq(left("p3"), 8, "a road passing through an edge hex does not lead off the map: forest 2")

  B.setup({ { id = "t", name = "t", side = "soviet", type = "tank", faces = { "4-4-10" }, enter = { turn = 7, area = "X" } },
    B.leader("l", nil, 3, { enter = { turn = 7, area = "X" } }),
    B.rifle("r", nil, "2-2-6", { enter = { turn = 7, area = "X" } }) },
    { map = map, step = "soviet_movement", turn = 7 })
  expect.accepted(move({ "t" }, { "1005", "0905" }))
  expect.eq(left("t"), 9, "tank: 1/2 + 1/2")
  expect.accepted(move({ "l" }, { "1005" }))
  expect.eq(left("l"), 9.5, "leader: motorized on roads, 1/2")
  expect.accepted(move({ "r" }, { "1005" }))
  expect.eq(left("r"), 5, "rifle: 1")
end)

-- [11.13] with [11.1] and WBC09 #8: roads carry German supply across rivers for the road method
-- only; the 1977 errata's note to 11.13 has the twenty-MP method pay the river whatever the road.
-- Board (45 columns): a road along row 03 from the west edge (0103) to 4503; a panzer regiment g in
-- 4103, 40 road hexes from the edge: 40 x 1/2 = 20 MP, in supply by the MP method. A river across
-- the road between 1003 and 1103 adds the German 2 MP: 22, out of supply (the refusal of the
-- `supply` judgement cites 11.1). With 0103 tagged as the road-supply source g stands on a road
-- joined to it across the river and is in supply by the road method.
kessel.test("case_11_13_the_mp_method_pays_the_river_on_a_road_the_road_method_does_not", function()
  local S = require("rules.supply")
  local road = {}
  for c = 1, 45 do road[#road + 1] = string.format("%02d03", c) end
  local function board(river, source)
    kessel.setup{ map = { columns = 45, rows = 5, links = { { kind = "road", path = road } },
        hexsides = river and { { "1003", "1103", "river" } } or nil,
        tags = source and { road_supply_source = { "0103" } } or nil },
      units = { B.pz("g", "4103") }, step = "german_movement", turn = 5 }
  end
  board(false, false)
  local ok, why = S.in_supply("g", "combat")
  expect.truthy(ok, tostring(why))
  expect.truthy(why:find("20 MP from the west edge", 1, true), why)
  board(true, false)
  local ok2, why2, rule = S.in_supply("g", "combat")
  expect.falsy(ok2, "22 MP with the river: " .. tostring(why2))
  expect.eq(rule, "11.1")
  board(true, true)
  ok, why = S.in_supply("g", "combat")
  expect.truthy(ok, tostring(why))
  expect.truthy(why:find("road", 1, true), why)
end)

-- [6.22] [6.5] A unit that enters an enemy ZOC stops: its movement is over for the phase, and it
-- does not start again when that zone is taken away later in the phase by another stack's
-- overrun. The reference has units stop on entering an enemy ZOC and nothing start them again
-- (WBC09 #11 takes it that a unit's movement is concluded before another unit moves); only the
-- overrunners themselves go on after clearing a hex [6.5]. The engine let the stopped unit move
-- on with the MP it had left (rules25 pass: the strict reading of the rules24 pass's open
-- question). Board, German Initial Movement Phase: p (4-4-10) drives 0203-0303-0403-0404 (4 MP)
-- and stops in r's ZOC (r, a 1-1-6, in 0505); a further move is refused citing 6.22. q (8-8-10)
-- in 0605 overruns r (3 MP; 8 halved 4 against r's 1 halved out of supply to 1, 4-1, roll 1: D2);
-- r takes the loss and is gone, q must enter 0505 and may go on. p, in no enemy ZOC now, still
-- may not move, and no move is listed for it; a unit that started the phase in r's zone (s in
-- 0604, which entered nothing) may move once the zone is gone. In the Mechanized Movement Phase
-- p moves again.
kessel.test("case_6_22_a_unit_that_entered_an_enemy_zoc_stays_stopped_when_the_zone_is_overrun_away", function()
  B.setup({ B.pz("p", "0103", "4-4-10"), B.pz("q", "0605", "8-8-10"), B.pz("s", "0604", "2-2-10"),
    B.rifle("r", "0505", "1-1-6"), B.leader("l", "0909", 2) }, { step = "german_movement" })
  local M = require("rules.movement")
  expect.accepted(move({ "p" }, { "0203", "0303", "0403", "0404" }))
  local ok, why = move({ "p" }, { "0403" })
  expect.refused(ok, why, "6.22", "may not leave it voluntarily")
  kessel.inject_dice{ 1 }
  local ev = expect.accepted(kessel.act{ kind = "overrun", units = { "q" }, target = "0505" })
  expect.truthy(B.note(ev, "odds 4-1, roll 1: D2"), B.all_notes(ev))
  expect.accepted(choose("loss"))
  expect.eq(B.where("r"), "eliminated")
  expect.eq(B.where("q"), "0505", "the overrunners enter the cleared hex [6.5]")
  expect.eq(M.mp_left(kessel.units.get("p")), 6)
  ok, why = move({ "p" }, { "0403" })
  expect.refused(ok, why, "6.22", "entered an enemy zone of control")
  for _, a in ipairs(kessel.legal("german")) do
    expect.falsy(a.kind == "move" and a.units[1] == "p", "no move listed for p")
  end
  expect.accepted(move({ "q" }, { "0506" }))
  expect.accepted(move({ "s" }, { "0704" }))
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.step().id, "german_mech_movement")
  expect.accepted(move({ "p" }, { "0403" }))
end)
