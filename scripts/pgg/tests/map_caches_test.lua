-- What the rules keep of the map (terrain lists, columns 01-02, the South-Western Front's hexes)
-- follows the map: two maps of the same size in one file, as a test file builds them, must not
-- share a list. (They were kept by size alone on maps of 1000 hexes and more.)
local expect = kessel.expect

local function inf(id, at) return { id = id, name = id, side = "german", type = "infantry", faces = { "9-9-7" }, at = at } end

-- a 40x25 map (1000 hexes), clear or with a swamp wall down column 03
local function big(units, map_extra, extra)
  local map = { columns = 40, rows = 25 }
  for k, v in pairs(map_extra or {}) do map[k] = v end
  local spec = { map = map, units = units, step = "german_movement", turn = 5 }
  for k, v in pairs(extra or {}) do spec[k] = v end
  kessel.setup(spec)
end
local function swamp_wall()
  local t = {}
  for r = 1, 25 do t[string.format("03%02d", r)] = "swamp" end
  return t
end

-- Rule 11.1 (a line may enter swamp but not go through it [6.7])
kessel.test("map_caches_terrain_lists_follow_the_map_not_its_size", function()
  local S = require("rules.supply")
  big{ inf("g", "0610") }
  expect.truthy(S.in_supply("g", "combat"), "clear map: 5 MP from the west edge")
  big({ inf("g", "0610") }, { terrain = swamp_wall() })
  local ok, why = S.in_supply("g", "combat")
  expect.falsy(ok, "the swamp wall of this map (same size as the last) stops the line: " .. tostring(why))
  big{ inf("g", "0610") }
  expect.truthy(S.in_supply("g", "combat"), "clear again: the wall was the other map's")
end)

-- Rule 11.1 [6.7]: a map changed in play (a variant's rule turning hexes to swamp with
-- kessel.emit.terrain) is another map for what the rules keep.
kessel.test("map_caches_terrain_lists_follow_a_map_changed_in_play", function()
  local S = require("rules.supply")
  big{ inf("g", "0610") }
  expect.truthy(S.in_supply("g", "combat"), "clear map")
  for r = 1, 25 do kessel.emit.terrain(string.format("03%02d", r), "swamp") end
  local ok, why = S.in_supply("g", "combat")
  expect.falsy(ok, "the wall laid in play stops the line: " .. tostring(why))
end)

-- Rule 6.4 (the columns are the printed ones: a map cut east of them has none)
kessel.test("map_caches_columns_01_02_follow_the_map", function()
  local M = require("rules.movement")
  big{ inf("g", "0610") }
  expect.eq(#M.columns_01_02(), 50, "columns 01 and 02 of a 40x25 map")
  big({ inf("g", "1620") }, { first_column = 14 })
  expect.eq(#M.columns_01_02(), 0, "a map starting at column 14 has neither")
end)

-- Rule 14.2 (the calls come in on south-edge railway hexes east of the area's first hex)
kessel.test("map_caches_swf_hexes_follow_the_map", function()
  local R = require("rules.reinforcements")
  big({ inf("g", "0610") }, { links = { { kind = "railway", path = { "2023", "2024", "2025" } } },
    areas = { Z = { "1025" } } })
  expect.eq(table.concat(R.swf_hexes(), ","), "2025", "the railway's south-edge hex")
  big({ inf("g", "0610") }, { links = { { kind = "railway", path = { "3023", "3024", "3025" } } },
    areas = { Z = { "1025" } } })
  expect.eq(table.concat(R.swf_hexes(), ","), "3025", "this map's railway, not the last one's")
end)

-- The computer player's memo of railway hexes and neighbours is kept per map as well.
kessel.test("map_caches_ai_rail_memo_follows_the_map", function()
  local Fr = require("ai.frame")
  big({ inf("g", "0610") }, { links = { { kind = "railway", path = { "2010", "2011" } } } })
  Fr.drop(); Fr.frame()
  expect.eq(Fr.is_rail("2010"), true, "on this map's railway")
  Fr.drop()
  big({ inf("g", "0610") }, { links = { { kind = "railway", path = { "3010", "3011" } } } })
  Fr.frame()
  expect.eq(Fr.is_rail("2010"), false, "no railway at 2010 on this map")
  Fr.drop()
end)
