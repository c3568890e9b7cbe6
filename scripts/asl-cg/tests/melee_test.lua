-- RePh 9.601-9.603 and RB 11.602-11.603 (rules/melee.lua).
local T = require("testing.cg")
local expect = T.expect
local M = require("rules.melee")

-- [9.6011] Melees are listed in alphanumeric order (A1, B16, B17, C19), AA after Z
kessel.test("case_9.6011_melee_locations_in_alphanumeric_order", function()
  expect.truthy(M.hex_before("A1", "B16"))
  expect.truthy(M.hex_before("B16", "B17"))
  expect.truthy(M.hex_before("B17", "C19"))
  expect.truthy(M.hex_before("Z9", "AA1"))
  expect.truthy(not M.hex_before("C19", "B17"))
  T.setup{ units = {
    T.squad("g1", "german", "4-6-7", "C9"), T.squad("b1", "british", "6-4-8", "C9"),
    T.squad("g2", "german", "4-6-7", "B10"), T.squad("b2", "british", "6-4-8", "B10"),
    T.squad("g3", "german", "4-6-7", "B2"), T.squad("b3", "british", "6-4-8", "B2", { vars = { level = 1 } }),
  } }
  local ev = T.resolve()
  local f = T.record(ev, "melee")
  expect.eq(table.concat(f.locations, ","), "B10,C9", "B2 holds no Melee: the enemies are on different levels")
  T.has_note(ev, "A11 is not part of this ruleset")
end)

-- [9.6011] reported outcomes must follow the order; [9.601] the units are revealed and unpinned
kessel.test("case_9.601_melee_outcomes_in_order_reveal_and_unpin", function()
  T.setup{ units = {
    T.squad("g1", "german", "4-6-7", "C9", { vars = { pinned = true, concealed = true } }), T.squad("b1", "british", "6-4-8", "C9"),
    T.squad("g2", "german", "4-6-7", "B10"), T.squad("b2", "british", "6-4-8", "B10"),
  } }
  local ok, reasons = kessel.act{ kind = "melee_outcome", hex = "C9", eliminated = { "b1" } }
  expect.refused(ok, reasons, "9.6011", "B10 comes first")
  expect.accepted(kessel.act{ kind = "melee_outcome", hex = "B10", eliminated = { "b2" } })
  expect.accepted(kessel.act{ kind = "melee_outcome", hex = "C9", eliminated = { "b1" } })
  expect.eq(T.unit("b1").location, "eliminated")
  expect.eq(T.unit("g1").vars.pinned, nil)
  expect.eq(T.unit("g1").vars.concealed, nil)
  local ok2, r2 = kessel.act{ kind = "melee_outcome", hex = "C9" }
  expect.refused(ok2, r2, "9.601", "no Melee")
  T.replays()
end)

-- [9.601] a climbing unit goes where its owner says, or by default where it started
kessel.test("case_9.601_climb_marker_placement", function()
  T.setup{ units = {
    T.squad("g1", "german", "4-6-7", "C9", { vars = { climb = { from = 0, to = 1 } } }),
    T.squad("g2", "german", "4-6-7", "C8", { vars = { climb = { from = 0, to = 1 } } }),
  } }
  expect.accepted(kessel.act{ kind = "climb_place", unit = "g1", reached = true })
  expect.eq(T.unit("g1").vars.level, 1)
  T.resolve()
  expect.eq(T.unit("g2").vars.level, 0)
  expect.eq(T.unit("g2").vars.climb, nil)
end)

-- [9.602] the listed markers leave the map; hidden units are placed on-map
kessel.test("case_9.602_marker_removal", function()
  T.setup{ step = "markers", units = {
    T.squad("g1", "german", "4-6-7", "C9", { vars = { dm = true, cx = true, hidden = true } }),
    T.squad("b1", "british", "6-4-8", "D9", { vars = { fanatic = true } }),
  }, markers = { { kind = "smoke", at = "C9" }, { kind = "sniper", side = "german", at = "E5" }, { kind = "control", side = "german", at = "C9" },
    { kind = "no_move", side = "german", at = "C9" } }, vars = { next_date = "night_iii" } }
  local ev = T.resolve()
  expect.eq(#kessel.markers.all{ kind = "smoke", placed = true }, 0)
  expect.eq(#kessel.markers.all{ kind = "sniper", placed = true }, 0)
  expect.eq(#kessel.markers.all{ kind = "no_move", placed = true }, 0, "No Move goes before Night III")
  expect.eq(#kessel.markers.all{ kind = "control", placed = true }, 1, "Control markers stay")
  expect.eq(T.unit("g1").vars.dm, nil)
  expect.eq(T.unit("g1").vars.hidden, nil)
  expect.eq(T.unit("b1").vars.fanatic, nil)
  expect.eq(T.record(ev, "markers_removed").smoke, 1)
end)

-- [9.602] No Move counters stay unless the next date is Night III
kessel.test("case_9.602_no_move_stays_before_other_dates", function()
  T.setup{ step = "markers", markers = { { kind = "no_move", side = "german", at = "C9" } }, vars = { next_date = "night_ii" } }
  T.resolve()
  expect.eq(#kessel.markers.all{ kind = "no_move", placed = true }, 1)
end)

-- [11.602] RB also removes radios and field phones; a hidden Set DC may stay hidden
kessel.test("case_11.602_rb_radios_removed_set_dc_stays_hidden", function()
  T.setup{ module = "rb", step = "markers", units = {
    T.sw("r1", "russian", "radio", "C9"), T.sw("dc", "german", "DC", "D4", { vars = { hidden = true, set_dc = true } }),
    T.squad("g1", "german", "4-6-7", "C8", { vars = { hidden = true } }),
  } }
  T.resolve()
  expect.eq(T.unit("r1").location, "removed")
  expect.eq(T.unit("dc").vars.hidden, true)
  expect.eq(T.unit("g1").vars.concealed, true, "placed on-map concealed")
end)

-- [9.603] broken units rally without a DR; passengers unload into the vehicle's Location
kessel.test("case_9.603_rally_and_unloading", function()
  T.setup{ step = "rally", units = {
    T.squad("g1", "german", "4-6-7", "C9", { vars = { broken = true } }),
    T.vehicle("sdkfz", "german", "SPW 251/1", "E5"),
    T.squad("g2", "german", "4-6-7", nil, { vars = { passenger_of = "sdkfz" } }),
  } }
  local ev = T.resolve()
  expect.eq(T.unit("g1").vars.broken, nil)
  expect.eq(T.unit("g2").hex, "E5")
  T.has_note(ev, "CG-Scenario End has occurred")
  T.replays()
end)

-- [11.6031] the scenario winner is recorded before rally
kessel.test("case_11.6031_victory_determination_then_rally", function()
  T.setup{ module = "rb", step = "victory_rally", units = { T.squad("r", "russian", "4-4-7r", "C9", { vars = { broken = true } }) },
    vars = { scenario_winner = "russian" } }
  local ev = T.resolve()
  expect.eq(T.record(ev, "victory").winner, "russian")
  expect.eq(T.unit("r").vars.broken, nil)
end)
