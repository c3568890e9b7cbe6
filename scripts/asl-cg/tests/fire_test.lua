-- RePh 9.609 / 11.609 Extinguishing Flames and Blazes (rules/fire.lua): map changes as events.
local T = require("testing.cg")
local expect = T.expect

-- [9.6092] Blazing wooden rubble becomes shellholes; a vehicle there a Burnt-Out wreck
kessel.test("case_9.6092_wooden_rubble_to_shellholes", function()
  T.setup{ step = "blazes", map = { terrain = { C3 = "wooden_rubble" } }, markers = { { kind = "blaze", at = "C3" } },
    units = { T.vehicle("pz", "german", "PzKpfw IVH", "C3") } }
  local ev = T.resolve()
  expect.eq(kessel.map.terrain("C3"), "shellholes")
  expect.eq(#kessel.markers.all{ kind = "blaze", placed = true }, 0)
  expect.eq(T.unit("pz").vars.wreck, "burnt_out")
  T.has_note(ev, "[9.6092]")
  T.replays()
end)

-- [9.6093] stone rubble stays
kessel.test("case_9.6093_stone_rubble_stays", function()
  T.setup{ step = "blazes", map = { terrain = { C3 = "stone_rubble" } }, markers = { { kind = "flame", at = "C3" } } }
  T.resolve()
  expect.eq(kessel.map.terrain("C3"), "stone_rubble")
  expect.eq(#kessel.markers.all{ kind = "flame", placed = true }, 0)
end)

-- [9.6094] a building with a Blaze in any Location is rubbled in all its hexes; [9.6095] its
-- Fortifications, Equipment and Isolated units are Eliminated
kessel.test("case_9.6094_building_rubbled_and_9.6095_eliminations", function()
  T.setup{ step = "blazes", map = { terrain = { D4 = "wooden_building", D5 = "wooden_building", F4 = "stone_building" },
      places = { { name = "Cafe", kind = "building", hexes = { "D4", "D5" } } } },
    markers = { { kind = "blaze", at = "D4" }, { kind = "foxhole", at = "D5" } },
    units = { T.sw("mg", "german", "MMG", "D5"), T.squad("iso", "british", "6-4-8", "D5", { vars = { isolated = true } }),
      T.squad("ok", "british", "6-4-8", "D4") } }
  T.resolve()
  expect.eq(kessel.map.terrain("D4"), "wooden_rubble")
  expect.eq(kessel.map.terrain("D5"), "wooden_rubble", "the whole building")
  expect.eq(kessel.map.terrain("F4"), "stone_building")
  expect.eq(T.unit("mg").location, "eliminated")
  expect.eq(T.unit("iso").location, "eliminated")
  expect.eq(T.unit("ok").location, "map")
  expect.eq(#kessel.markers.all{ kind = "foxhole", placed = true }, 0)
  T.replays()
  kessel.undo()
  expect.eq(kessel.map.terrain("D5"), "wooden_building", "undo gives the map back")
end)

-- [9.6091] a Burning Wreck becomes Burnt-Out and, in a building, sets it Blazing (then rubbled)
kessel.test("case_9.6091_burning_wreck_in_a_building", function()
  T.setup{ step = "blazes", map = { terrain = { E5 = "stone_building" } },
    units = { T.vehicle("w", "german", "PzKpfw IVH", "E5", { vars = { wreck = "burning" } }),
      T.vehicle("w2", "german", "PzKpfw IVH", "G5", { vars = { wreck = "burning" } }) } }
  local ev = T.resolve()
  expect.eq(kessel.map.terrain("E5"), "stone_rubble")
  expect.eq(T.unit("w").location, "eliminated", "a wreck in a building just rubbled is Eliminated")
  expect.eq(T.unit("w2").vars.wreck, "burnt_out")
  T.has_note(ev, "[9.6091]")
end)

-- [11.6096 EX] a Blaze at ground level in W10 and a Flame at level 1 in X10 (hexes of building
-- W10): the building becomes stone rubble, the Flame drops to the rubble and becomes a Blaze, and
-- Blazes spread to W10, X9 and X11
kessel.test("case_11.6096_example_w10_flame_spread", function()
  local terrain = { W10 = "stone_building", X10 = "stone_building", V10 = "stone_building", X9 = "woods", X11 = "brush" }
  T.setup{ module = "rb", step = "blazes", map = { columns = 26, rows = 14, terrain = terrain,
      places = { { name = "W10", kind = "building", hexes = { "V10", "W10", "X10" } } } },
    markers = { { kind = "blaze", at = "W10" } }, valued = { { kind = "flame", hex = "X10", value = { level = 1 } } } }
  local ev = T.resolve()
  for _, h in ipairs({ "V10", "W10", "X10" }) do expect.eq(kessel.map.terrain(h), "stone_rubble", h) end
  local blazes = {}
  for _, m in ipairs(kessel.markers.all{ kind = "blaze", placed = true }) do blazes[#blazes + 1] = m.hex end
  table.sort(blazes)
  expect.eq(table.concat(blazes, ","), "W10,X10,X11,X9")
  expect.eq(#kessel.markers.all{ kind = "flame", placed = true }, 0)
  expect.eq(table.concat(T.record(ev, "fires").spread, ","), "W10,X11,X9")
end)

-- [11.6092] [11.6095] RB: brush burns to shellholes; a Factory is Gutted, not rubbled
kessel.test("case_11.6092_brush_and_11.6095_factory_gutted", function()
  T.setup{ module = "rb", step = "blazes", map = { terrain = { C3 = "brush", F5 = "factory" } },
    markers = { { kind = "blaze", at = "C3" }, { kind = "blaze", at = "F5" } },
    units = { T.squad("iso", "german", "4-6-7", "F5", { vars = { isolated = true } }) } }
  T.resolve()
  expect.eq(kessel.map.terrain("C3"), "shellholes")
  expect.eq(kessel.map.terrain("F5"), "factory")
  expect.eq(kessel.map.tags("F5")[1], "gutted")
  expect.eq(T.unit("iso").location, "eliminated")
end)

-- [11.609] only Blazes count in RB: a Flame alone is not extinguished but becomes a Blaze
kessel.test("case_11.609_rb_flames_are_not_extinguished", function()
  T.setup{ module = "rb", step = "blazes", map = { terrain = { C3 = "wooden_building" } }, markers = { { kind = "flame", at = "C3" } } }
  T.resolve()
  expect.eq(kessel.map.terrain("C3"), "wooden_building")
  expect.eq(#kessel.markers.all{ kind = "blaze", placed = true } >= 1, true)
end)

-- [11.6094] RB: an Isolated unit confined to a building that burns down is Eliminated and the
-- opponent Controls the rubble; [11.6093] an Isolated unit in Blazing stone rubble stays
kessel.test("case_11.6094_isolated_in_a_burned_building", function()
  T.setup{ module = "rb", step = "blazes", map = { terrain = { C3 = "wooden_building", F3 = "stone_rubble" } },
    markers = { { kind = "blaze", at = "C3" }, { kind = "blaze", at = "F3" } },
    units = { T.squad("iso", "german", "4-6-7", "C3", { vars = { isolated = true } }),
      T.squad("iso2", "german", "4-6-7", "F3", { vars = { isolated = true } }) } }
  T.resolve()
  expect.eq(kessel.map.terrain("C3"), "wooden_rubble")
  expect.eq(T.unit("iso").location, "eliminated")
  expect.eq(require("rules.areas").controller("C3", 0), "russian")
  expect.eq(T.unit("iso2").location, "map")
end)
