-- RePh 9.613 Shift (rules/shift.lua).
local T = require("testing.cg")
local expect = T.expect

local function ctrl(side, hex) return { kind = "control", side = side, at = hex } end
-- German areas around C3 (A) and C9 (B), German Entry Area A1 next to A, British strategic M6
local function field(units, extra)
  local spec = { step = "setup_areas", map = { columns = 14, rows = 12, tags = { strategic = { "C3", "C9", "M6" } },
      areas = { A1 = { "A1" }, N12 = { "N12" } } },
    markers = { ctrl("german", "C3"), ctrl("german", "C9"), ctrl("british", "M6") }, units = units,
    vars = { entry_areas = { german = { A1 = true, N12 = true } }, date = "day_i" } }
  for k, v in pairs(extra or {}) do spec[k] = v end
  T.setup(spec)
  for _ = 1, 8 do T.resolve() end
  expect.eq(kessel.game.step().id, "shift")
end

-- [9.613] a Shift to an Entry Area adjacent to the Setup Area needs no DR
kessel.test("case_9.613_shift_to_adjacent_entry_area_is_automatic", function()
  field{ T.squad("g", "german", "4-6-7", "C3") }
  local ok, ev = kessel.act{ kind = "shift", units = { "g" }, to = "A1" }
  expect.accepted(ok, ev)
  for _, e in ipairs(ev) do expect.truthy(e.event ~= "dice", "no DR") end
  expect.eq(T.unit("g").location, "pending")
  expect.eq(T.unit("g").vars.reph.area, "A1")
end)

-- [9.613] to another Setup Area: a DR; <= 8 Shifted; the group moves with its SW
kessel.test("case_9.613_shift_between_setup_areas", function()
  field{ T.squad("g", "german", "4-6-7", "C3"), T.leader("l", "german", "8-0", "C3"), T.sw("mg", "german", "LMG", "C3", { vars = { possessed_by = "g" } }) }
  kessel.inject_dice{ 4, 4 }
  local ok, ev = kessel.act{ kind = "shift", units = { "g", "l" }, to = "B" }
  expect.accepted(ok, ev)
  expect.eq(T.record(ev, "shift").result, "shifted")
  expect.eq(T.unit("g").vars.reph.area, "B")
  expect.eq(kessel.game.var("setup_areas").hexes[T.unit("g").hex], "german")
  expect.eq(T.unit("mg").hex, T.unit("g").hex)
  -- one attempt per CG Date
  local ok2, r2 = kessel.act{ kind = "shift", units = { "g" }, to = "A" }
  expect.refused(ok2, r2, "9.613", "already tried")
end)

-- [9.613] 9-10 No Shift; 11 Shifted with Casualties (dr >= 4 per unit); >= 12 all Eliminated
kessel.test("case_9.613_shift_table_results", function()
  -- three groups, each from one area to another (units going from and to the same areas are one group)
  field{ T.squad("a", "german", "4-6-7", "C3"), T.squad("b", "german", "4-6-7", "C9"),
    T.squad("c", "german", "4-6-7", "C3") }
  kessel.inject_dice{ 5, 4 }
  expect.accepted(kessel.act{ kind = "shift", units = { "a" }, to = "B" })
  expect.eq(T.unit("a").vars.reph.area, "A", "No Shift")
  kessel.inject_dice{ 5, 6, 4 }
  expect.accepted(kessel.act{ kind = "shift", units = { "b" }, to = "A" })
  expect.eq(T.unit("b").step, 1, "Shifted with Casualties: reduced")
  expect.eq(T.unit("b").vars.reph.area, "A")
  kessel.inject_dice{ 6, 6 }
  expect.accepted(kessel.act{ kind = "shift", units = { "c" }, to = "N12" })
  expect.eq(T.unit("c").location, "eliminated")
end)

-- [9.613] a Gun can not Shift; an Isolated area can not receive units; a path must exist
kessel.test("case_9.613_refusals", function()
  field{ T.gun("pak", "german", "75L AT", "C3"), T.squad("g", "german", "4-6-7", "C3") }
  local ok, r = kessel.act{ kind = "shift", units = { "pak" }, to = "B" }
  expect.refused(ok, r, "9.613", "Gun")
  ok, r = kessel.act{ kind = "shift", units = { "g" }, to = "Q" }
  expect.refused(ok, r, "9.613", "no friendly Setup Area")
end)

-- [9.613] SW over the portage limit must be dropped before a Shift
kessel.test("case_9.613_portage_limit", function()
  field{ T.leader("l", "german", "8-0", "C3"), T.sw("mg", "german", "MMG", "C3", { vars = { possessed_by = "l" } }) }
  local ok, r = kessel.act{ kind = "shift", units = { "l" }, to = "B" }
  expect.refused(ok, r, "9.613", "more than its limit of 2")
end)

-- [9.613] +1 per five Uncontrolled-Territory hexes along the path
kessel.test("case_9.613_long_path_drm", function()
  T.setup{ step = "setup_areas", map = { columns = 20, rows = 5, tags = { strategic = { "B3", "S3" } }, areas = { T1 = { "T1" } } },
    markers = { ctrl("german", "B3"), ctrl("german", "S3") }, units = { T.squad("g", "german", "4-6-7", "B3") },
    vars = { date = "day_i", entry_areas = { german = { T1 = true } } } }
  for _ = 1, 8 do T.resolve() end
  kessel.inject_dice{ 3, 3 }
  local ok, ev = kessel.act{ kind = "shift", units = { "g" }, to = "B" }
  expect.accepted(ok, ev)
  expect.eq(T.record(ev, "shift").drm, 2, "12 Uncontrolled-Territory hexes between D and Q")
end)

-- [9.6131] a Setup Area left empty by a Shift stays Controlled by the side that left it
kessel.test("case_9.6131_vacated_setup_area", function()
  field{ T.squad("g", "german", "4-6-7", "C9") }
  kessel.inject_dice{ 2, 2 }
  local ok, ev = kessel.act{ kind = "shift", units = { "g" }, to = "A" }
  expect.accepted(ok, ev)
  T.has_note(ev, "[9.6131]")
  expect.eq(kessel.game.var("setup_areas").hexes.C9, "german", "still a German Setup Area")
end)

-- [9.613] all units Shifting from the same area to the same area go as a single group: a second
-- group from A to B the same CG Date is refused; another destination is not
kessel.test("case_9.613_one_group_per_origin_and_destination", function()
  field{ T.squad("a", "german", "4-6-7", "C3"), T.squad("b", "german", "4-6-7", "C3") }
  kessel.inject_dice{ 2, 2 }
  expect.accepted(kessel.act{ kind = "shift", units = { "a" }, to = "B" })
  local ok, r = kessel.act{ kind = "shift", units = { "b" }, to = "B" }
  expect.refused(ok, r, "9.613", "single group")
  expect.accepted(kessel.act{ kind = "shift", units = { "b" }, to = "A1" })
end)
