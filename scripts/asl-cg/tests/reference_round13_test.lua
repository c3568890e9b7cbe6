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

-- [11.6063] [11.6065] a stack makes one Escape DR and leaves together: its Isolated Area is judged
-- again once the DR is resolved. Before, it was judged after each unit of the stack: a Russian
-- squad and its leader escaping from a type C Pocket made it type B for a moment (noted, and the
-- Pocket exception applied then to the leader still in it) and only then type A.
kessel.test("case_11.6065_a_stack_escaping_together_changes_its_area_once", function()
  T.setup{ module = "rb", step = "escape", vars = { date = "18oct", isolated_areas = { { hexes = { "E5" }, type = "C" } } },
    units = { T.squad("r1", "russian", "4-4-7", "E5", { vars = { isolated = true } }),
      T.leader("l1", "russian", "8-1", "E5", { vars = { isolated = true } }),
      T.squad("g1", "german", "4-6-7", "H5") } }
  kessel.inject_dice{ 3, 3 }
  local ev = T.expect.accepted(kessel.act{ kind = "escape", side = "russian", units = { "r1", "l1" } })
  T.has_note(ev, "[11.6065] an Escape changes Isolated Area 1 from type C to type A")
  expect.eq(T.note(ev, "to type B"), nil, "no passing type B")
  expect.eq(T.unit("r1").location, "pending")
  expect.eq(T.unit("l1").location, "pending")
  T.replays()
end)

-- [11.6065] an Escape DR that Eliminates the only MMC of a type C area changes its type as an
-- Escape does: the German squad dies (Final DR 12) and the area, with only a Russian SMC left in
-- it, is type B (No Man's Land: the German Control the type C gave goes; our reading). Before, the
-- area stayed type C, its Locations the dead squad's side's.
kessel.test("case_11.6065_a_unit_eliminated_escaping_changes_its_area_type", function()
  T.setup{ module = "rb", step = "perimeter", vars = { date = "18oct", isolated_areas = { { hexes = { "E5" } } } },
    units = { T.squad("g1", "german", "4-6-7", "E5"), T.leader("rl", "russian", "7-0", "E5"),
      T.squad("g2", "german", "4-6-7", "H5"), T.squad("r2", "russian", "4-4-7", "B2") } }
  local ev = T.resolve()
  T.has_note(ev, "Isolated Area 1 (E5): type C, Controlled by the german")
  kessel.inject_dice{ 6, 6 }
  ev = T.expect.accepted(kessel.act{ kind = "escape", side = "german", units = { "g1" } })
  expect.eq(T.unit("g1").location, "eliminated")
  T.has_note(ev, "[11.6065] an Escape changes Isolated Area 1 from type C to type B")
  expect.eq(kessel.game.var("isolated_areas")[1].type, "B")
  for _, m in ipairs(kessel.markers.all{ kind = "control", placed = true }) do
    expect.truthy(not (m.hex == "E5" and m.side == "german"), "the German Control of E5 is gone")
  end
  T.replays()
end)

-- [11.605] [11.606] the declared queries answer for an RB game too: `setup_area` gives a hex's
-- Isolated Area, its type (A/B: No Man's Land; C/D: Isolated) and who Controls it, `reph_unit` a
-- unit's Isolated Area and type. Before, `setup_area` said `determined = false` for every RB hex
-- (RB has no Setup Areas) and `reph_unit` "not classified yet" for an Isolated unit.
kessel.test("case_11.606_the_queries_answer_for_an_rb_game", function()
  T.setup{ module = "rb", step = "perimeter", vars = { date = "18oct", isolated_areas = { { hexes = { "E5", "F5" } }, { hexes = { "J8" } } } },
    units = { T.squad("g1", "german", "4-6-7", "E5"), T.squad("g2", "german", "4-6-7", "B2"), T.squad("r1", "russian", "4-4-7", "H2"),
      T.leader("rl", "russian", "8-0", "J8") } }
  local before = kessel.queries.ask("setup_area", { hex = "E5" })
  expect.eq(before.determined, false)
  T.resolve()
  local e5 = kessel.queries.ask("setup_area", { hex = "F5" })
  expect.eq(e5.determined, true)
  expect.eq(e5.isolated_area, 1)
  expect.eq(e5.type, "C")
  expect.eq(e5.class, "isolated")
  expect.eq(e5.controller, "german")
  local j8 = kessel.queries.ask("setup_area", { hex = "J8" })
  expect.eq(j8.type, "B")
  expect.eq(j8.class, "nml")
  expect.eq(kessel.queries.ask("setup_area", { hex = "B2" }).class, "not isolated")
  local g1 = kessel.queries.ask("reph_unit", { unit = "g1" })
  expect.eq(g1.isolated, true)
  expect.eq(g1.isolated_area, 1)
  expect.eq(g1.status, "in Isolated Area 1 (type C)")
  expect.eq(g1.rule, "11.606")
  expect.eq(kessel.queries.ask("reph_unit", { unit = "rl" }).must_escape, true)
  expect.eq(kessel.queries.ask("reph_unit", { unit = "g2" }).status, "in no Isolated Area")
end)

-- [11.6142] the withdrawal dr is made for the non-Isolated, non-Dug-In part of a platoon, and a
-- Withdrawn result Eliminates "each remaining non-Isolated AFV" of it, a Dug-In one too; a
-- platoon whose non-Isolated AFV are all Dug-In makes no dr. Before, a Dug-In AFV was no part of
-- its platoon at all: it survived the Withdrawal of the platoon it fought with.
kessel.test("case_11.6142_a_dug_in_afv_goes_with_its_withdrawn_platoon", function()
  T.setup{ module = "rb", step = "armor_withdrawal", vars = { date = "18oct" },
    units = { T.vehicle("t1", "german", "PzKpfw IIIJ", "C3", { vars = { platoon = "1", platoon_on_map = true, dug_in = true } }),
      T.vehicle("t2", "german", "PzKpfw IIIJ", "D3", { vars = { platoon = "1", platoon_on_map = true } }),
      T.vehicle("t3", "german", "PzKpfw IIIJ", "E3", { vars = { platoon = "2", platoon_on_map = true, dug_in = true } }) } }
  kessel.inject_dice{ 6 }
  local ev = T.resolve()
  T.has_note(ev, "Platoon 1 withdrawal dr 6+0: withdrawn")
  T.has_note(ev, "the german Platoon 2 is all Isolated or Dug-In: no withdrawal dr")
  expect.eq(T.unit("t1").location, "eliminated")
  expect.eq(T.unit("t2").location, "eliminated")
  expect.eq(T.unit("t3").location, "map")
  T.replays()
end)

-- [9.617] [11.619] in an RB game a PB purchase is refused saying where RB has it: its RG and
-- Fortification purchases belong to RePh steps 11.619-11.625, which our text does not give (played
-- by the players in the last step); before, the refusal said "the Red Barricades RePh has none".
-- [9.601] our RB text begins at 11.602, so the refusal of a Melee outcome says that much only.
-- [9.608] a PB refusal of an unknown prisoner choice names PB's two choices, not RB's execution.
kessel.test("case_9.617_9.608_refusals_say_what_each_module_has", function()
  T.setup{ module = "rb", step = "markers", vars = { date = "18oct" }, units = { T.squad("g1", "german", "4-6-7", "C3") } }
  local ok, r = kessel.act{ kind = "buy_rg", side = "german", rg = "I4", entry = "A7" }
  expect.refused(ok, r, "11.619", "in Red Barricades this belongs to RePh steps 11.619-11.625, which our text does not give")
  ok, r = kessel.act{ kind = "buy_fortification", side = "german", item = "foxhole_1s", count = 1, hex = "C3" }
  expect.refused(ok, r, "11.621", "RePh steps 11.619-11.625, which our text does not give (Fortification purchase, 11.621)")
  ok, r = kessel.act{ kind = "set_up_fortification", side = "german", item = "foxhole_1s", hex = "C3" }
  expect.refused(ok, r, "11.624", "(set-up, 11.624: wind, 11.6241; Isolated Areas, 11.6242)")
  ok, r = kessel.act{ kind = "melee_outcome", side = "german", hex = "C3" }
  expect.refused(ok, r, "9.601", "our Red Barricades text (11.602-11.618) has no such step")
  ok, r = kessel.act{ kind = "shift", side = "german", units = { "g1" }, to = "A" }
  expect.refused(ok, r, "9.613", "the Red Barricades RePh has none")
  T.setup{ step = "prisoners", vars = { date = "dawn" },
    units = { T.squad("g1", "german", "4-6-7", "C3", { vars = { isolated = true } }),
      T.squad("b1", "british", "6-4-8", "C3", { vars = { prisoner_of = "german", guarded_by = "g1", unarmed = true } }) } }
  ok, r = kessel.act{ kind = "prisoner", side = "german", unit = "b1", choice = "shoot" }
  expect.refused(ok, r, "9.608", "choice is free or transfer, not `shoot`")
end)

-- [11.607 EXC] a Gun or an AFV in a Pillbox or a Fortified Building Location is left on the map:
-- the Location's marker says so (a `pillbox` in the hex, a `fortified_building` at the unit's
-- level), as the unit's own mark `fortified` does. Before, only the mark counted: the Gun in the
-- pillbox and the AFV in the Fortified Building Location went to the Retained box.
kessel.test("case_11.607_a_gun_in_a_pillbox_is_left_on_the_map", function()
  T.setup{ module = "rb", step = "equipment", vars = { date = "18oct" },
    valued = { { kind = "pillbox", side = "german", hex = "E5", value = { owner = "german" } },
      { kind = "fortified_building", side = "german", hex = "G5", value = { owner = "german", level = 0 } } },
    units = { T.crew("c1", "german", "E5"), T.gun("atg", "german", "PaK 38", "E5", { vars = { possessed_by = "c1" } }),
      T.vehicle("tk", "german", "PzKpfw IIIJ", "G5"), T.squad("g1", "german", "4-6-7", "H5") } }
  local ev = T.resolve()
  expect.eq(T.unit("atg").location, "map")
  expect.eq(T.unit("atg").vars.possessed_by, nil)
  expect.eq(T.unit("c1").location, "pending")
  expect.eq(T.unit("tk").location, "map")
  expect.eq(T.unit("g1").location, "pending")
  T.has_note(ev, "atg is a Gun in a Fortified Building Location or Pillbox: it is left on the map; c1 leaves it unpossessed in E5")
  T.replays()
end)

-- [11.6073] "Each still hidden Fortification, including all Fortified Building Locations ... in
-- Locations currently Controlled by its purchaser's opponent, is placed on-map": a hidden
-- `fortified_building` marker is a Fortification too; [11.6097] a Blaze Eliminates it.
kessel.test("case_11.6073_11.6097_a_fortified_building_location_is_a_fortification", function()
  T.setup{ module = "rb", step = "equipment", vars = { date = "18oct" },
    valued = { { kind = "fortified_building", side = "russian", hex = "E5", value = { owner = "russian", hidden = true } } },
    units = { T.squad("g1", "german", "4-6-7", "E5") } }
  local ev = T.resolve()
  T.has_note(ev, "[11.6073] fortified_building in E5 is revealed")
  T.setup{ module = "rb", step = "blazes", map = { terrain = { E5 = "stone_building" } },
    markers = { { kind = "blaze", at = "E5" } },
    valued = { { kind = "fortified_building", side = "russian", hex = "E5", value = { owner = "russian" } } } }
  ev = T.resolve()
  T.has_note(ev, "[11.6097] fortified_building in E5 is Eliminated")
end)

-- [11.6071] [11.6072] Equipment in an Isolated Area is not cleared from the map, but it is
-- "Equipment left on-map" and so Retained by the side Controlling its Location: an unpossessed
-- German LMG in a Russian type C area is Captured by the Russians where it lies. Before, Isolated
-- Equipment was passed over and stayed German.
kessel.test("case_11.6072_isolated_equipment_goes_to_the_side_controlling_its_location", function()
  T.setup{ module = "rb", step = "perimeter", vars = { date = "18oct", isolated_areas = { { hexes = { "E5", "F5" } } } },
    units = { T.squad("r1", "russian", "4-4-7", "E5"), T.sw("glmg", "german", "LMG", "F5"), T.sw("rlmg", "russian", "LMG", "E5"),
      T.squad("g2", "german", "4-6-7", "B2"), T.squad("r2", "russian", "4-4-7", "J9") } }
  T.resolve()   -- 11.605: type C, the Russians'
  T.resolve()   -- 11.6063
  local ev = T.resolve()   -- 11.607
  T.has_note(ev, "[11.6072] glmg is Retained (Captured) by the russian where it stands")
  local lmg = T.unit("glmg")
  expect.eq(lmg.side, "russian")
  expect.eq(lmg.vars.captured, true)
  expect.eq(lmg.vars.original_side, "german")
  expect.eq(lmg.location, "map")
  expect.eq(T.unit("rlmg").side, "russian")
  expect.eq(T.unit("r1").location, "map")
  expect.eq(T.unit("g2").location, "pending")
  T.replays()
end)

-- [11.616] "-y As per CG scenario Balance provision (11.32)": the scenario var `balance_drm` is
-- that DRM as the provision gives it (negative values allowed, as `kessel check` lets them be). A
-- -1 balance DRM lowers the Final DR by one; before, the var was negated and raised it.
kessel.test("case_11.616_the_balance_drm_applies_as_given", function()
  T.setup{ module = "rb", step = "cpp", vars = { date = "20oct", balance_drm = { russian = -1 }, cpp = { german = 0, russian = 0 } } }
  kessel.inject_dice{ 3, 3, 3, 3 }
  local ev = T.resolve()
  T.has_note(ev, "russian CPP: DR 6-1 = 5 (-1 CG balance (11.32)): +16")
  T.has_note(ev, "german CPP: DR 6+0 = 6: +16")
end)

-- [11.6114] one promotion out of the ranks per RePh: the mark a promotion leaves holds its CG Day,
-- so a campaign that carries it does not bar the next RePh's promotion or leader Battle Hardening
-- DR. Before, the mark was a plain `true` and stayed for good.
kessel.test("case_11.6114_a_promotion_bars_only_its_own_reph", function()
  local squads = {}
  for i = 1, 8 do squads[i] = T.squad("g" .. i, "german", "4-6-7", "C3") end
  squads[#squads + 1] = T.leader("l8", "german", "8-0", "C3")
  squads[#squads + 1] = T.leader("l9", "german", "8-0", "C3")
  for i = 9, 16 do squads[#squads + 1] = T.squad("g" .. i, "german", "4-6-7", "C3") end
  T.setup{ module = "rb", step = "hardening", vars = { date = "18oct", promoted = { german = "17oct" } }, units = squads }
  T.expect.accepted(kessel.act{ kind = "promote", side = "german", leader = "l8" })
  local ok, r = kessel.act{ kind = "promote", side = "german", leader = "l9" }
  expect.refused(ok, r, "11.6114", "one promotion per RePh")
  local ev = T.resolve()
  T.has_note(ev, "german promoted out of the ranks: no leader Battle Hardening DR")
  T.note(ev, "russian makes its Secret leader Battle Hardening DR")
end)

-- [11.6112] the DR gives the number of Retained Infantry non-crew MMC "eligible for Battle
-- Hardening"; which of them harden is the owner's: `harden_order{ units }` names them best first.
-- Before, the ruleset always picked them itself (non-elite with a better face first, then by id).
kessel.test("case_11.6112_the_owner_names_the_mmc_that_harden", function()
  T.setup{ module = "rb", step = "hardening", vars = { date = "18oct" },
    units = { T.squad("g1", "german", "4-6-7", "C3"), T.squad("g2", "german", "4-4-7", "C4"), T.squad("g3", "german", "4-6-7", "C5"),
      T.squad("r1", "russian", "4-4-7", "H3"), T.crew("gc", "german", "C6") } }
  local ok, r = kessel.act{ kind = "harden_order", side = "german", units = { "gc" } }
  expect.refused(ok, r, "11.6112", "gc is no Infantry non-crew MMC")
  ok, r = kessel.act{ kind = "harden_order", side = "russian", units = { "g3" } }
  expect.refused(ok, r, "11.6112", "only its owner (german) decides about g3")
  T.expect.accepted(kessel.act{ kind = "harden_order", side = "german", units = { "g3", "g2" } })
  -- German DR 2+2 = 4: one MMC; Russian DR 6+6 -1 = 11: none; leader DRs 6+6 each
  kessel.inject_dice{ 2, 2, 6, 6, 6, 6, 6, 6 }
  local ev = T.resolve()
  T.has_note(ev, "german MMC Battle Hardening DR 4+0 = 4: 1 MMC")
  expect.eq(T.unit("g3").vars.squad_face, "4-6-8")
  expect.eq(T.unit("g1").vars.squad_face, "4-6-7")
  expect.eq(T.unit("g2").vars.squad_face, "4-4-7")
  expect.eq(kessel.game.var("harden_order"), nil)
  ok, r = kessel.act{ kind = "harden_order", side = "german", units = { "g1" } }
  expect.refused(ok, r, "11.6112")
end)

-- [11.615] only a Known Fortification is rolled for; a Fortification hidden from the side asking
-- is no marker to it, refused in the words an unknown id gets. Before, the Russian asking about the
-- German's hidden minefield was told "only Known Fortifications are removed": that a hidden
-- Fortification was there.
kessel.test("case_11.615_a_hidden_fortification_is_no_marker_to_the_other_side", function()
  T.setup{ module = "rb", step = "fort_removal", vars = { date = "18oct" },
    valued = { { kind = "ap_mine", side = "german", hex = "E5", value = { owner = "german", strength = 6, hidden = true } } },
    units = { T.squad("r1", "russian", "4-4-7", "E5") } }
  local id = kessel.markers.all{ placed = true }[1].id
  local ok, r = kessel.act{ kind = "remove_fortification", side = "russian", marker = id }
  expect.refused(ok, r, "11.615", "no such Fortification on the map")
  ok, r = kessel.act{ kind = "remove_fortification", side = "russian", marker = id + 7 }
  expect.refused(ok, r, "11.615", "no such Fortification on the map")
end)

-- [11.6142] the -1 for a win:loss ratio of 1:2 or worse (from the second completed CG scenario)
-- is named in the note; a record of no wins and no losses (left unfilled) is no such ratio: before,
-- 0:0 counted as 1:2 or worse and took the -1.
kessel.test("case_11.6142_the_win_loss_drm_is_named_and_needs_a_loss", function()
  T.setup{ module = "rb", step = "armor_withdrawal",
    vars = { date = "20oct", win_loss = { russian = { wins = 1, losses = 2, completed = 3 }, german = { completed = 3 } } },
    units = { T.vehicle("t1", "russian", "T-34", "C4", { vars = { platoon = "P1", platoon_on_map = true } }),
      T.vehicle("t2", "german", "PzKpfw IIIJ", "H4", { vars = { platoon = "G1", platoon_on_map = true } }) } }
  kessel.inject_dice{ 6, 6 }
  local ev = T.resolve()
  T.has_note(ev, "Platoon P1 withdrawal dr 6-1: retained (-1 the russian win:loss ratio 1:2 is 1:2 or worse, 3 CG scenarios completed)")
  T.has_note(ev, "Platoon G1 withdrawal dr 6+0: withdrawn")
  expect.eq(T.unit("t1").location, "map")
  expect.eq(T.unit("t2").location, "eliminated")
end)

-- [11.6031] [11.6142] the scenario just completed joins each side's CG record once its winner is
-- determined, so the AFV Withdrawal drm reads it: a Russian record of 1:1 after one scenario,
-- with this one lost, is 1:2 after two, and the -1 applies (the record given was left as it was,
-- and the drm never counted this scenario).
kessel.test("case_11.6142_the_scenario_just_completed_joins_the_win_loss_record", function()
  T.setup{ module = "rb", step = "victory_rally",
    vars = { date = "20oct", scenario_winner = "german",
      win_loss = { russian = { wins = 1, losses = 1, completed = 1 }, german = { wins = 1, losses = 1, completed = 1 } } } }
  local ev = T.resolve()
  T.has_note(ev, "[11.6142] CG record after 2 CG scenarios completed (wins:losses): german 2:1, russian 1:2")
  local rec = kessel.game.var("win_loss")
  expect.eq(rec.russian.losses, 2)
  expect.eq(rec.russian.completed, 2)
  expect.eq(rec.german.wins, 2)
  -- a scenario without a recorded winner is completed, won and lost by nobody
  T.setup{ module = "rb", step = "victory_rally", vars = { date = "20oct" } }
  ev = T.resolve()
  T.has_note(ev, "[11.6142] CG record after 1 CG scenario completed (wins:losses): german 0:0, russian 0:0")
  -- and the Withdrawal dr reads the record as it now stands
  T.setup{ module = "rb", step = "armor_withdrawal",
    vars = { date = "20oct", win_loss = rec },
    units = { T.vehicle("t1", "russian", "T-34", "C4", { vars = { platoon = "P1", platoon_on_map = true } }) } }
  kessel.inject_dice{ 6 }
  ev = T.resolve()
  T.has_note(ev, "Platoon P1 withdrawal dr 6-1: retained (-1 the russian win:loss ratio 1:2 is 1:2 or worse, 2 CG scenarios completed)")
end)
