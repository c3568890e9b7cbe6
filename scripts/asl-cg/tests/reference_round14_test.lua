-- Round 14 of the outside check against the refit-phase text: readings judged again, and the
-- corners of the RePh sequence they touch.
local T = require("testing.cg")
local expect = T.expect

-- [11.6142] [11.6143] a Withdrawn result Eliminates the platoon's remaining non-Isolated AFV and
-- the armor leaders that entered with it; an Isolated Mobile AFV of it is not Withdrawn, and the
-- armor leader inside it stays with it (he shares his AFV's fate). Before, he was Eliminated out of
-- the AFV the Withdrawal had spared, which then rolled for Recall with nobody of his in it. One
-- in the withdrawn AFV goes with it; one of another platoon riding in it too.
kessel.test("case_11.6143_the_armor_leader_in_an_isolated_afv_stays_with_it", function()
  local pl = { platoon = "P1", platoon_on_map = true }
  T.setup{ module = "rb", step = "armor_withdrawal", vars = { date = "18oct" },
    units = {
      T.vehicle("t1", "russian", "T-34", "C4", { vars = pl }),
      T.vehicle("t2", "russian", "T-34", "H5", { vars = { platoon = "P1", platoon_on_map = true, isolated = true } }),
      { id = "al1", side = "russian", type = "armor_leader", faces = { { morale = 9, drm = -1, label = "9-1" } }, at = "H5",
        vars = { platoon = "P1", in_vehicle = "t2" } },
      { id = "al2", side = "russian", type = "armor_leader", faces = { { morale = 8, drm = 0, label = "8-0" } }, at = "C4",
        vars = { platoon = "P2", in_vehicle = "t1" } },
      { id = "al3", side = "russian", type = "armor_leader", faces = { { morale = 8, drm = 0, label = "8-0" } }, at = "C6",
        vars = { platoon = "P1" } },
    } }
  kessel.inject_dice{ 6 }
  local ev = T.resolve()
  expect.eq(T.unit("t1").location, "eliminated")
  expect.eq(T.unit("t2").location, "map")
  expect.eq(T.unit("t2").vars.withdraw_pending, true)
  expect.eq(T.unit("al1").location, "map", "in the Isolated AFV the Withdrawal spares")
  expect.eq(T.unit("al1").vars.in_vehicle, "t2")
  T.has_note(ev, "[11.6143] al1 (armor leader of Platoon P1) is in the Isolated t2, which is not Withdrawn: he stays with it")
  expect.eq(T.unit("al2").location, "eliminated", "of another platoon, in the withdrawn t1")
  expect.eq(T.unit("al3").location, "eliminated", "entered with P1, outside any Isolated AFV")
end)

-- [11.6063] footnote 2 of the RB Escape table Eliminates "a unit that would become Disrupted"; PB's
-- [9.606] also names "a crew". RB's does not, and RB's ELR, by which a unit is Replaced, is its
-- non-crew Infantry's [11.617]: a crew picked for "Replaced" Escapes as it is. Before, RB
-- Eliminated it as PB does. PB still does.
kessel.test("case_11.6063_a_crew_is_not_replaced_in_rb", function()
  T.setup{ module = "rb", step = "escape", vars = { date = "18oct" },
    units = { T.crew("gc", "german", "C5", { vars = { isolated = true } }) } }
  kessel.inject_dice{ 5, 4 }   -- 9, no DRM: Escapes, Replaced
  local ok, ev = kessel.act{ kind = "escape", units = { "gc" } }
  expect.accepted(ok, ev)
  expect.eq(T.record(ev, "escape").result, "replaced")
  expect.eq(T.unit("gc").location, "pending", "Escaped to the Retained box")
  expect.eq(T.unit("gc").type, "crew")
  T.has_note(ev, "gc is a crew: it is not Replaced")

  T.setup{ step = "escape", vars = { date = "day_i" },
    units = { T.crew("gc", "german", "C5", { vars = { reph = { status = "must_escape", area = "nml" } } }) } }
  kessel.inject_dice{ 5, 4 }
  ok, ev = kessel.act{ kind = "escape", units = { "gc" } }
  expect.accepted(ok, ev)
  expect.eq(T.record(ev, "escape").result, "replaced")
  expect.eq(T.unit("gc").location, "eliminated", "PB's footnote 2 names a crew")
end)

-- [9.613] a Shift path is traced "from any friendly-Controlled hex of that Setup Area": a hex the
-- side Controls by occupation is one, not only its Strategic Locations. Here the German area around
-- C3 is cut by the river in column D; g holds E3, east of it, from where Uncontrolled Territory
-- leads to the area around J3; the path is the area's, so c in C3 goes with g's group. Before, the
-- path could start only from C3 (the area's Strategic Location), so the Shift was refused; and a
-- Setup Area with no friendly Strategic Location let it start from any of its hexes, Controlled
-- or not.
kessel.test("case_9.613_the_shift_path_starts_from_a_friendly_controlled_hex", function()
  local water = {}
  for r = 1, 12 do water["D" .. r] = "water" end
  T.setup{ step = "setup_areas", map = { columns = 14, rows = 12, terrain = water, tags = { strategic = { "C3", "J3" } },
      areas = { A1 = { "A1" }, N12 = { "N12" } } },
    markers = { { kind = "control", side = "german", at = "C3" }, { kind = "control", side = "german", at = "J3" } },
    units = { T.squad("g", "german", "4-6-7", "E3"), T.squad("c", "german", "4-6-7", "C3") },
    vars = { entry_areas = { german = { A1 = true, N12 = true } }, date = "day_i" } }
  for _ = 1, 8 do T.resolve() end
  expect.eq(kessel.game.step().id, "shift")
  local st = kessel.game.var("setup_areas")
  expect.eq(st.hexes.E3, "german")
  expect.eq(st.hexes.F3, "ut")
  expect.eq(T.unit("g").vars.reph.area, T.unit("c").vars.reph.area, "one Setup Area across the river")
  -- the path is the area's, not each unit's: c, west of the river, goes with g's group
  kessel.inject_dice{ 3, 3 }
  local ok, ev = kessel.act{ kind = "shift", units = { "g", "c" }, to = "B" }
  expect.accepted(ok, ev)
  expect.eq(T.record(ev, "shift").result, "shifted")
  expect.eq(T.unit("g").vars.reph.area, "B")
  expect.eq(T.unit("c").vars.reph.area, "B")
end)

-- [11.607] the map is cleared of non-Isolated units/Equipment in friendly-Controlled Locations;
-- [11.6059] No Man's Land hexes are Controlled by no side; [11.6072] Equipment is Retained by the
-- side Controlling its Location. Loose Equipment in a hex the players record as No Man's Land
-- (`no_mans_land`, outside both Perimeter Areas [11.6051]) is therefore not cleared, and no side
-- Retains it: it stays on the map unpossessed, and 11.6132 rolls no repair dr for it. Before, it
-- went to its owner's Retained box. Elsewhere, an un-Controlled Location is still taken as its
-- owner's (the Perimeters are not drawn here); a Location a side Controls Captures it.
kessel.test("case_11.607_equipment_in_no_mans_land_is_not_cleared", function()
  local S = require("rules.sequence")
  T.setup{ module = "rb", step = "equipment", vars = { date = "18oct", no_mans_land = { "F5", "F6" } },
    units = {
      T.sw("nml", "german", "LMG", "F5", { vars = { malfunctioned = true } }),
      T.sw("own", "german", "LMG", "C3"),
      T.sw("cap", "russian", "LMG", "H5"), T.squad("g", "german", "4-6-7", "H5"),
    } }
  expect.eq(#S.record_problems(), 0, table.concat(S.record_problems(), "\n"))
  expect.eq(kessel.queries.ask("setup_area", { hex = "F5" }).class, "nml")
  local ev = T.resolve()
  T.has_note(ev, "[11.6072] nml is in No Man's Land (F5): no side Controls its Location, so it is not cleared and no side Retains it")
  expect.eq(T.unit("nml").location, "map")
  expect.eq(T.unit("nml").side, "german")
  expect.eq(T.unit("own").location, "pending", "an un-Controlled Location off the record: its owner's box")
  expect.eq(T.unit("cap").side, "german", "Captured in a German-Controlled Location")
  expect.eq(T.unit("cap").location, "pending")
  -- on to 11.613: the Equipment nobody Retains makes no repair dr
  local repaired = false
  for _ = 1, 8 do
    if kessel.game.step().id == "armor_withdrawal" then break end
    for _, e in ipairs(T.resolve()) do
      if e.event == "note" and e.text:find("nml repair dr", 1, true) then repaired = true end
    end
  end
  expect.eq(kessel.game.step().id, "armor_withdrawal")
  expect.falsy(repaired, "no repair dr for Equipment no side Retains")
  expect.eq(T.unit("nml").location, "map")
  expect.eq(T.unit("nml").vars.malfunctioned, true)
end)

-- [11.6051] the No Man's Land record is checked: hexes of the map, each once, none in a listed
-- Isolated Area; a PB game has no such record
kessel.test("case_11.6051_the_no_mans_land_record_is_checked", function()
  local S = require("rules.sequence")
  T.setup{ module = "rb", step = "markers", vars = { date = "18oct", no_mans_land = { "F5", "F5", "Z99" },
    isolated_areas = { { hexes = { "C3" } } } } }
  local text = table.concat(S.record_problems(), "\n")
  expect.truthy(text:find("[11.6051] no_mans_land names F5 twice", 1, true), text)
  expect.truthy(text:find("[11.6051] no_mans_land: `Z99` is not a hex of this map", 1, true), text)
  T.setup{ module = "rb", step = "markers", vars = { date = "18oct", no_mans_land = { "C3" }, isolated_areas = { { hexes = { "C3" } } } } }
  text = table.concat(S.record_problems(), "\n")
  expect.truthy(text:find("[11.6051] no_mans_land: C3 is in isolated_areas[1]", 1, true), text)
  T.setup{ step = "markers", vars = { date = "day_i", no_mans_land = { "C3" } } }
  text = table.concat(S.record_problems(), "\n")
  expect.truthy(text:find("`no_mans_land` is a Red Barricades record (11.6051)", 1, true), text)
end)

-- [11.6113] a heroic leader Battle Hardens and loses his heroic status; the side's leader DR then
-- hardens "a Retained Infantry leader" of the grade rolled. The once-per-RePh limit is written for
-- MMC only [11.6112], so the leader who just hardened may be the one the DR picks, and harden
-- again (our reading, judged again in round 14 and kept): the heroic 8-0 becomes an 8-1, and a
-- German DR of 5 (8-1) takes him to 9-1.
kessel.test("case_11.6113_a_leader_hardened_as_heroic_may_be_picked_by_the_dr", function()
  T.setup{ module = "rb", step = "hardening", vars = { date = "18oct" }, units = {
    T.leader("hl", "german", "8-0", "C3", { vars = { heroic = true } }), T.leader("r70", "russian", "7-0", "H8") } }
  -- MMC DRs 12 and 12 (none), German leader DR 5 (8-1), Russian DR 12 (6+1: not Retained, so the
  -- lowest-grade leader r70 hardens)
  kessel.inject_dice{ 6, 6, 6, 6, 3, 2, 6, 6 }
  local ev = T.resolve()
  T.has_note(ev, "hl Battle Hardens from 8-0 to 8-1")
  T.has_note(ev, "hl Battle Hardens from 8-1 to 9-1")
  expect.eq(T.unit("hl").face.label, "9-1")
  expect.eq(T.unit("hl").vars.heroic, nil)
  expect.eq(T.unit("r70").face.label, "8-0")
end)

-- [11.608] prisoners executed: Massacre (A20.4) is in effect "during the next CG scenario". The flag
-- ends with that scenario: the next RePh's first step takes it off. Before, it stayed set for
-- good, so a campaign carrying it kept every later scenario under Massacre.
kessel.test("case_11.608_a_massacre_lasts_one_cg_scenario", function()
  T.setup{ module = "rb", step = "prisoners", vars = { date = "18oct" }, units = {
    T.squad("gi", "german", "4-6-7", "H5", { vars = { isolated = true } }),
    T.squad("p", "russian", "4-4-7r", "H5", { vars = { prisoner_of = "german", guarded_by = "gi" } }) } }
  expect.accepted(kessel.act{ kind = "prisoner", unit = "p", choice = "execute" })
  expect.eq(kessel.game.var("massacre"), true)
  -- the next CG scenario is played under it; its RePh begins with 11.602
  T.setup{ module = "rb", step = "markers", vars = { date = "19oct", massacre = true } }
  local ev = T.resolve()
  T.has_note(ev, "[11.608] the Massacre (A20.4) of the CG scenario just played ends with it")
  expect.falsy(require("rules.common").var("massacre"))
  -- none in effect: nothing said
  T.setup{ module = "rb", step = "markers", vars = { date = "19oct" } }
  ev = T.resolve()
  expect.eq(T.note(ev, "Massacre"), nil)
end)

-- [11.6062] a type A or B Isolated Area becomes No Man's Land, so loose Equipment there is
-- Retained by no side [11.6072] either (11.6071 leaves it on the map): no 11.6132 repair dr for
-- it. A Strategic Location of such an area keeps its Control [11.6051], and the side Controlling
-- it Retains (Captures) the Equipment in it. Before, the Equipment in the area was its owner's, and
-- a malfunctioned SW rolled for repair (+1 Isolated).
kessel.test("case_11.6062_11.6072_equipment_in_a_type_a_area_is_nobodys", function()
  T.setup{ module = "rb", step = "perimeter", vars = { date = "18oct", isolated_areas = { { hexes = { "J8", "J9" } } } },
    map = { tags = { strategic = { "J9" } } },
    markers = { { kind = "control", side = "russian", at = "J9" } },
    units = { T.sw("lmg", "german", "LMG", "J8", { vars = { malfunctioned = true } }),
      T.sw("mmg", "german", "MMG", "J9") } }
  local ev = T.resolve()
  T.has_note(ev, "Isolated Area 1 (J8 J9): type A, becomes No Man's Land [11.6062]")
  local repaired = false
  for _ = 1, 10 do
    if kessel.game.step().id == "armor_withdrawal" then break end
    local e = T.resolve()
    for _, x in ipairs(e) do
      if x.event == "note" and x.text:find("lmg repair dr", 1, true) then repaired = true end
    end
    if kessel.game.step().id == "prisoners" then
      T.has_note(e, "[11.6072] lmg is in No Man's Land (J8)")
      expect.eq(T.unit("mmg").side, "russian", "Captured by the side Controlling its Strategic Location")
      expect.eq(T.unit("mmg").vars.captured, true)
    end
  end
  expect.eq(kessel.game.step().id, "armor_withdrawal")
  expect.falsy(repaired, "no repair dr for Equipment no side Retains")
  expect.eq(T.unit("lmg").location, "map")
  expect.eq(T.unit("lmg").side, "german")
  expect.eq(T.unit("lmg").vars.malfunctioned, true)
end)

-- [11.6143] an Isolated Mobile AFV of a platoon forced to Withdraw is not Withdrawn but rolls for
-- Recall in the next scenario; "If, at scenario end, such a non-Isolated AFV is still on-map, it is
-- then Eliminated (it is not Retained for the next scenario unless still Isolated)". The next RePh
-- judges it once Isolation is settled (after the Escapes): t1, no longer Isolated, is Eliminated
-- with the armor leader in it; t2, in a listed Isolated Area, is Retained and keeps its mark.
-- Before, the mark was set and never read: t1 went to the Retained box in 11.607.
kessel.test("case_11.6143_a_spared_afv_not_isolated_at_scenario_end_is_eliminated", function()
  T.setup{ module = "rb", step = "perimeter", vars = { date = "19oct", isolated_areas = { { hexes = { "H5" } } } },
    units = {
      T.vehicle("t1", "german", "PzKpfw IIIJ", "C4", { vars = { platoon = "G1", withdraw_pending = true, isolated = true, isolated_day = "18oct" } }),
      { id = "al", side = "german", type = "armor_leader", faces = { { morale = 9, drm = -1, label = "9-1" } }, at = "C4",
        vars = { platoon = "G2", in_vehicle = "t1" } },
      T.vehicle("t2", "german", "PzKpfw IIIJ", "H5", { vars = { platoon = "G1", withdraw_pending = true, isolated = true, isolated_day = "18oct" } }),
    } }
  T.resolve()   -- 11.605-.606: H5 is a type C area this Day; C4 is in none
  expect.eq(T.unit("t1").vars.isolated, nil)
  expect.eq(T.unit("t2").vars.isolated, true)
  local ev = T.resolve()   -- 11.6063-.6065
  T.has_note(ev, "[11.6143] t1 is Eliminated (of a Withdrawn platoon, no longer Isolated at the end of its scenario)")
  T.has_note(ev, "[11.6143] t2 (of a Withdrawn platoon) is still Isolated: it is Retained")
  expect.eq(T.unit("t1").location, "eliminated")
  expect.eq(T.unit("al").location, "eliminated", "the armor leader in it goes with it")
  expect.eq(T.unit("t2").location, "map")
  expect.eq(T.unit("t2").vars.withdraw_pending, true)
end)
