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
