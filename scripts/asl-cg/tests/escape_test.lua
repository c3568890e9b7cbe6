-- RePh 9.606 Escape (PB) and 11.6063 Escape from Isolation (RB) (rules/escape.lua).
local T = require("testing.cg")
local expect = T.expect
local X = require("rules.escape")

local function ctrl(side, hex) return { kind = "control", side = side, at = hex } end

-- a 16x9 map: British area around C5, German area around N5 with the German Entry Area P1
local function open_field(units)
  T.setup{ step = "setup_areas", map = { columns = 16, rows = 9, tags = { strategic = { "C5", "N5" } }, areas = { P1 = { "P1", "P2" } } },
    markers = { ctrl("british", "C5"), ctrl("german", "N5") }, units = units,
    vars = { entry_areas = { german = { P1 = true } }, date = "day_i" } }
  T.resolve()
  expect.eq(kessel.game.step().id, "escape")
end

-- [9.6061 EX] the German squad in a British Setup Area: Original 6, +1 enemy area, +1 per
-- HS-equivalent over one: Final 8, it Escapes into the German Setup Area
kessel.test("case_9.6061_example_squad_in_enemy_area_escapes", function()
  open_field{ T.squad("gs", "german", "4-6-7", "B5"), T.vehicle("kw", "german", "Kfz 1", "B6", { vars = { unarmed = true } }) }
  kessel.inject_dice{ 3, 3 }
  local ok, ev = kessel.act{ kind = "escape", units = { "gs" } }
  expect.accepted(ok, ev)
  local r = T.record(ev, "escape")
  expect.eq(r.drm, 2)
  expect.eq(r.final, 8)
  expect.eq(r.result, "escapes")
  expect.eq(T.unit("gs").vars.reph.area, "A", "Retained into German Setup Area A")
  expect.eq(kessel.game.var("setup_areas").hexes[T.unit("gs").hex], "german")
  T.replays()
end)

-- [9.6061 EX] the unarmed Kuebelwagen: Original 7, +1 unarmed, +1 enemy area = 9: Abandoned; an
-- unarmed truck has no crew, so it is simply left; [9.6071] the British then Capture it
kessel.test("case_9.6061_example_kuebelwagen_abandoned_then_captured", function()
  open_field{ T.vehicle("kw", "german", "Kfz 1", "B6", { vars = { unarmed = true } }) }
  kessel.inject_dice{ 3, 4 }
  local ok, ev = kessel.act{ kind = "escape", units = { "kw" } }
  expect.accepted(ok, ev)
  expect.eq(T.record(ev, "escape").final, 9)
  expect.eq(T.unit("kw").vars.abandoned, true)
  expect.eq(#kessel.units.all{ type = "crew" }, 0, "no crew leaves an unarmed truck")
  T.resolve()  -- 9.606 ends
  T.resolve()  -- 9.607
  expect.eq(T.unit("kw").side, "british")
  expect.eq(T.unit("kw").vars.captured, true)
end)

-- [9.6061 EX] the Isolated German squad in No Man's Land: Original 8, +1 HS, +2 Isolated = 11:
-- Replaced, then Casualty Reduced: one 2-3-7
kessel.test("case_9.6061_example_isolated_squad_in_nml_replaced_then_reduced", function()
  local water = {}
  for r = 1, 9 do water["H" .. r] = "water" end
  T.setup{ step = "setup_areas", map = { columns = 16, rows = 9, terrain = water, tags = { strategic = { "C3", "F3" } },
      areas = { P1 = { "P1", "P2" } } },
    markers = { ctrl("german", "C3"), ctrl("british", "F3") },
    units = { T.squad("gz", "german", "4-6-7", "E3"), T.vehicle("tank", "german", "PzKpfw IVH", "D3") },
    vars = { entry_areas = { german = { P1 = true } }, date = "day_i" } }
  T.resolve()
  expect.eq(kessel.game.var("setup_areas").hexes.E3, "nml")
  expect.eq(T.unit("gz").vars.isolated, true)
  kessel.inject_dice{ 4, 4 }
  local ok, ev = kessel.act{ kind = "escape", units = { "gz" } }
  expect.accepted(ok, ev)
  local r = T.record(ev, "escape")
  expect.eq(r.drm, 3)
  expect.eq(r.result, "replaced_reduced")
  local gz = T.unit("gz")
  expect.eq(gz.step, 1)
  expect.eq(T.C.face_label(gz), "2-3-7")
  -- the tank: Original 5 +2 Isolated = 7, Escapes
  kessel.inject_dice{ 2, 3 }
  local _, ev2 = kessel.act{ kind = "escape", units = { "tank" } }
  expect.eq(T.record(ev2, "escape").final, 7)
  expect.eq(T.record(ev2, "escape").result, "escapes")
end)

-- [9.606] proximity: -2 next to a friendly Setup Area, -1 two hexes away; leader DRM for a stack
kessel.test("case_9.606_drm_proximity_and_leader", function()
  open_field{ T.squad("a", "german", "4-6-7", "A1"), T.leader("l", "german", "9-2", "A1"), T.squad("b", "german", "4-6-7", "A2") }
  -- put them back in Uncontrolled Territory near the German area (9.6053 had moved them into it)
  kessel.emit.move("a", { "J5" }); kessel.emit.move("l", { "J5" }); kessel.emit.move("b", { "K4" })
  local total, mods = X.drm({ T.unit("a"), T.unit("l") })
  -- J5 is two hexes from the German area (L column): -1; leader -2; squad +1
  expect.eq(total, -2, "mods: " .. #mods)
  local t2 = X.drm({ T.unit("b") })
  expect.eq(t2, -1, "adjacent -2, squad +1")
end)

-- [9.606] only units in No Man's Land, an enemy area, or Isolated may try; once only
kessel.test("case_9.606_who_may_escape", function()
  open_field{ T.squad("home", "german", "4-6-7", "N6"), T.squad("gs", "german", "4-6-7", "B5") }
  local ok, reasons = kessel.act{ kind = "escape", units = { "home" } }
  expect.refused(ok, reasons, "9.606", "may not attempt Escape")
  kessel.inject_dice{ 1, 1 }
  expect.accepted(kessel.act{ kind = "escape", units = { "gs" } })
  ok, reasons = kessel.act{ kind = "escape", units = { "gs" } }
  expect.refused(ok, reasons, "9.606", "may not")
end)

-- [9.606] a unit that must Escape and did not try does so at the end of the step; [9.6062]
-- Encircled markers are removed
kessel.test("case_9.606_compulsory_escape_at_end_of_step_and_9.6062", function()
  open_field{ T.squad("gs", "german", "4-6-7", "B5", { vars = { encircled = true } }) }
  kessel.inject_dice{ 6, 6 }
  local ev = T.resolve()
  local r = T.record(ev, "escape")
  expect.eq(r.drm, 4, "+1 enemy area +1 HS +2 Encircled")
  expect.eq(T.unit("gs").location, "eliminated", "Final 16: Eliminated")
  T.has_note(ev, "[9.6062]")
end)

-- [9.606] Original 2: Escapes with Heat of Battle; portage over the limit is dropped first
kessel.test("case_9.606_original_two_heat_of_battle_and_portage", function()
  open_field{ T.squad("gs", "german", "4-6-7", "B5"), T.sw("hmg", "german", "HMG", "B5", { vars = { possessed_by = "gs" } }),
    T.sw("lmg", "german", "LMG", "B5", { vars = { possessed_by = "gs" } }) }
  kessel.inject_dice{ 1, 1 }
  local ok, ev = kessel.act{ kind = "escape", units = { "gs" } }
  expect.accepted(ok, ev)
  expect.eq(T.unit("gs").vars.heat_of_battle, true)
  expect.eq(T.unit("lmg").vars.possessed_by, nil, "5 + 1 PP is over the limit of 5: the LMG is dropped")
  expect.eq(T.unit("hmg").vars.possessed_by, "gs")
  expect.eq(T.unit("hmg").hex, T.unit("gs").hex, "it goes along")
end)

-- [9.6061] a unit Eliminated escaping loses its Equipment on a dr >= 4, else leaves it behind:
-- a crew Replaced (Final 9) is Eliminated instead (footnote 2), and each SW it took gets the dr
kessel.test("case_9.6061_equipment_of_eliminated_escapee", function()
  open_field{ T.crew("gc", "german", "B5"), T.sw("m1", "german", "LMG", "B5", { vars = { possessed_by = "gc" } }),
    T.sw("m2", "german", "LMG", "B5", { vars = { possessed_by = "gc" } }) }
  kessel.inject_dice{ 4, 4, 5, 2 }  -- 8 + 1 enemy area = 9: Replaced, a crew is Eliminated instead
  local ok, ev = kessel.act{ kind = "escape", units = { "gc" } }
  expect.accepted(ok, ev)
  expect.eq(T.record(ev, "escape").final, 9)
  expect.eq(T.unit("gc").location, "eliminated")
  expect.eq(T.unit("m1").location, "eliminated")
  expect.eq(T.unit("m2").location, "map")
  expect.eq(T.unit("m2").vars.possessed_by, nil)
end)

-- [9.606] vehicle table: 10 is Eliminated with the crew escaping as a new crew counter
kessel.test("case_9.606_vehicle_eliminated_crew_escapes", function()
  open_field{ T.vehicle("pz", "german", "PzKpfw IVH", "B5") }
  kessel.inject_dice{ 4, 5 }  -- 9 + 1 enemy area = 10
  local ok, ev = kessel.act{ kind = "escape", units = { "pz" } }
  expect.accepted(ok, ev)
  expect.eq(T.unit("pz").location, "eliminated")
  local crews = kessel.units.all{ type = "crew" }
  expect.eq(#crews, 1)
  expect.eq(crews[1].vars.reph.status, "retained")
  T.replays()
end)

-- [11.6063] RB: Russian -1, adjacent to a friendly-Controlled non-Isolated hex -2 in all; the
-- escapee goes to the Retained box
kessel.test("case_11.6063_rb_escape_table_and_drm", function()
  T.setup{ module = "rb", step = "escape", units = { T.squad("r", "russian", "4-4-7r", "C5", { vars = { isolated = true } }),
    T.squad("r2", "russian", "4-4-7r", "D5", { vars = { isolated = true } }) },
    vars = { friendly_distance = { r = 1 } } }
  local total = X.drm({ T.unit("r") })
  expect.eq(total, -2, "-1 Russian, -1 within 2, -1 adjacent, +1 squad")
  kessel.inject_dice{ 5, 5 }  -- 10 - 2 = 8
  local ok, ev = kessel.act{ kind = "escape", units = { "r" } }
  expect.accepted(ok, ev)
  expect.eq(T.unit("r").location, "pending")
  expect.eq(T.unit("r").vars.reph.area, "retained_box")
  local r = T.record(ev, "escape")
  expect.eq(r.result, "escapes")
  kessel.inject_dice{ 6, 5 }  -- 11 - 1 + 1 = 11: replaced then reduced
  local _, ev2 = kessel.act{ kind = "escape", units = { "r2" } }
  expect.eq(T.record(ev2, "escape").result, "replaced_reduced")
end)

-- [9.606] "Each squad stacked with a leader may freely Deploy": before the Escape the squad splits
-- into two half-squads, and each half Escapes with its own DR (a HS has no +1 for HS-equivalents)
kessel.test("case_9.606_squad_with_a_leader_deploys_before_escape", function()
  open_field{ T.squad("gs", "german", "4-6-7", "B5"), T.leader("gl", "german", "8-0", "B5") }
  local ok, ev = kessel.act{ kind = "deploy", unit = "gs" }
  expect.accepted(ok, ev)
  T.has_note(ev, "[9.606] gs (stacked with leader gl) freely Deploys")
  expect.eq(T.unit("gs").step, 1)
  local other
  for _, u in ipairs(kessel.units.all{ side = "german", type = "squad" }) do if u.id ~= "gs" then other = u end end
  expect.eq(other.hex, "B5")
  kessel.inject_dice{ 3, 3 }
  ok, ev = kessel.act{ kind = "escape", units = { "gs" } }
  expect.accepted(ok, ev)
  expect.eq(T.record(ev, "escape").drm, 1, "+1 enemy Setup Area only: one HS")
  local r
  ok, r = kessel.act{ kind = "deploy", unit = other.id }
  expect.refused(ok, r, "9.606", "not a full squad")
end)

-- [11.6063] RB: "One German squad stacked with each leader may freely Deploy": with one leader, the
-- first German squad may, a second may not; a Russian squad may not
kessel.test("case_11.6063_one_german_squad_per_leader_deploys", function()
  T.setup{ module = "rb", step = "escape", vars = { date = "18oct" }, units = {
    T.squad("g1", "german", "4-6-7", "C5", { vars = { isolated = true } }), T.squad("g2", "german", "4-6-7", "C5", { vars = { isolated = true } }),
    T.leader("gl", "german", "8-0", "C5", { vars = { isolated = true } }),
    T.squad("r", "russian", "4-4-7r", "H5", { vars = { isolated = true } }), T.leader("rl", "russian", "8-0", "H5", { vars = { isolated = true } }) } }
  local ok, ev = kessel.act{ kind = "deploy", unit = "g1" }
  expect.accepted(ok, ev)
  T.has_note(ev, "[11.6063] g1 (stacked with leader gl) freely Deploys")
  local r
  ok, r = kessel.act{ kind = "deploy", unit = "g2" }
  expect.refused(ok, r, "11.6063", "one German squad per leader")
  ok, r = kessel.act{ kind = "deploy", unit = "r" }
  expect.refused(ok, r, "11.6063", "only a German squad")
  T.replays()
end)
