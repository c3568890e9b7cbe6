-- Situations from the reference texts, thirteenth tester pass (ASL round 13).
local T = require("testing.cg")
local expect = T.expect

-- [11.609] [11.6097] every Location marked with a Blaze is fully consumed, not only the terrain
-- 11.6092-.6095 name: a Blaze in woods or grain goes (no terrain change is given for it), and the
-- Fortifications and Equipment there are Eliminated. Before, such a Blaze was taken off without a
-- note and the wire and LMG in it survived.
kessel.test("case_11.609_11.6097_a_blaze_in_woods_consumes_what_is_there", function()
  T.setup{ module = "rb", step = "blazes", map = { terrain = { D4 = "woods", G7 = "grain" } },
    markers = { { kind = "blaze", at = "D4" }, { kind = "blaze", at = "G7" } },
    valued = { { kind = "wire", side = "russian", hex = "D4", value = { owner = "russian" } },
      { kind = "foxhole", side = "russian", hex = "G7", value = { owner = "russian" } } },
    units = { T.sw("lmg", "russian", "LMG", "D4") } }
  local ev = T.resolve()
  T.has_note(ev, "[11.609] D4 (woods) is consumed by its Blaze")
  T.has_note(ev, "[11.6097] wire in D4 is Eliminated")
  T.has_note(ev, "[11.6097] lmg is Eliminated")
  expect.eq(T.unit("lmg").location, "eliminated")
  -- an Entrenchment survives [11.6097 EXC]; no fire is left in either hex
  local kinds = {}
  for _, m in ipairs(kessel.markers.all{ placed = true }) do kinds[#kinds + 1] = m.kind .. "@" .. m.hex end
  expect.eq(table.concat(kinds, ","), "foxhole@G7")
  T.replays()
end)

-- [11.6097] [11.6072] an AFV is Equipment in the RB text (11.6072's exception: its Elimination
-- makes a Wreck or Burnt-Out-Wreck): an Immobile AFV left on the map in a Blazing stone-rubble
-- Location is Eliminated, a Burnt-Out Wreck, and its loss counts for 11.616. [11.6096] an Isolated
-- AFV in a Location now Blazing likewise: before, it was made a wreck first and then Eliminated,
-- so its 3 CVP were never counted (a wreck is no new casualty).
kessel.test("case_11.6096_11.6097_an_afv_burnt_by_the_fire_is_a_counted_loss", function()
  T.setup{ module = "rb", step = "blazes", map = { terrain = { E6 = "stone_rubble", H6 = "wooden_building" } },
    markers = { { kind = "blaze", at = "E6" }, { kind = "flame", at = "H6" } },
    units = { T.vehicle("tk", "german", "PzKpfw IIIJ", "E6", { vars = { immobile = true } }),
      T.vehicle("tk2", "german", "PzKpfw IIIJ", "H6", { vars = { isolated = true } }) } }
  local ev = T.resolve()
  T.has_note(ev, "[11.6097] tk is Eliminated (Equipment in a Location the fire consumed; a Burnt-Out Wreck)")
  T.has_note(ev, "[11.6096] tk2 is Eliminated (Isolated in a Location now Blazing; a Burnt-Out Wreck)")
  T.has_note(ev, "new Blazes in none")
  expect.eq(T.unit("tk").location, "eliminated")
  expect.eq(T.unit("tk").vars.wreck, "burnt_out")
  expect.eq(T.unit("tk2").vars.wreck, "burnt_out")
  expect.eq(kessel.game.var("reph_cvp_lost").german, 6)
  T.replays()
end)
