-- Situations from the reference texts, seventh tester pass (ASL round 7): each test rebuilds one
-- situation, names its case, and checks what the text says must happen.
local T = require("testing.cg")
local expect = T.expect

local function ctrl(side, hex) return { kind = "control", side = side, at = hex } end

-- [9.606] table, Final DR >= 12: "All units and Equipment Eliminated". The German squad in the
-- British area rolls 6+6 (+1 enemy area, +1 HS-equivalent = 14): it and both LMG it took are
-- Eliminated, with no 9.6061 dr (that dr is for a unit another result Eliminates). Before, each
-- LMG rolled, and a dr <= 3 left one on the map.
kessel.test("case_9.606_a_final_twelve_eliminates_all_units_and_equipment", function()
  T.setup{ step = "setup_areas", map = { columns = 16, rows = 9, tags = { strategic = { "C5", "N5" } }, areas = { P1 = { "P1", "P2" } } },
    markers = { ctrl("british", "C5"), ctrl("german", "N5") },
    units = { T.squad("gs", "german", "4-6-7", "B5"), T.sw("m1", "german", "LMG", "B5", { vars = { possessed_by = "gs" } }),
      T.sw("m2", "german", "LMG", "B5", { vars = { possessed_by = "gs" } }) },
    vars = { entry_areas = { german = { P1 = true } }, date = "day_i" } }
  T.resolve()
  kessel.inject_dice{ 6, 6, 1, 1 }
  local ok, ev = kessel.act{ kind = "escape", units = { "gs" } }
  expect.accepted(ok, ev)
  expect.eq(T.record(ev, "escape").result, "eliminated")
  expect.eq(T.unit("gs").location, "eliminated")
  expect.eq(T.unit("m1").location, "eliminated", "no dr: a dr of 1 would have left it")
  expect.eq(T.unit("m2").location, "eliminated")
  T.has_note(ev, "a Final DR >= 12 Eliminates all units and Equipment")
  T.replays()
end)

-- [9.6071] a manned, Immobile German tank with no functioning MA ends in the British Setup Area:
-- the British Capture it, and its Inherent crew is Captured too. The armor leader in it is with
-- its crew (he shares its fate, as in an Escape [9.606]): he is Captured with it. Before, he
-- stayed on the map, German, inside the British vehicle, and nothing more was done with him.
kessel.test("case_9.6071_an_armor_leader_in_a_captured_vehicle_is_captured_with_its_crew", function()
  T.setup{ step = "setup_areas", map = { tags = { strategic = { "E5", "H5" } } },
    markers = { ctrl("german", "E5"), ctrl("british", "H5") },
    units = { T.vehicle("wr", "german", "PzKpfw IVH", "H6", { vars = { immobile = true, ma_disabled = true } }),
      T.leader("al", "german", "9-1", "H6", { type = "armor_leader", vars = { in_vehicle = "wr" } }),
      T.squad("bs", "british", "6-4-8", "H5") } }
  T.resolve()  -- 9.605
  expect.eq(T.unit("al").vars.reph.status, T.unit("wr").vars.reph.status, "he shares the vehicle's status")
  T.resolve()  -- 9.606: no Escape for him, he is in the vehicle
  expect.eq(T.unit("al").location, "map")
  local ev = T.resolve()  -- 9.607
  expect.eq(T.unit("wr").side, "british")
  expect.eq(T.unit("wr").vars.captured, true)
  expect.eq(T.unit("al").location, "eliminated")
  T.has_note(ev, "Captured with its Inherent crew")
  T.replays()
end)

-- [9.6053] [9.6056 chart] [9.605] an Immobile, unarmed German Kfz 1 (it has no MA at all, so it is
-- a vehicle "without functioning MA") in Uncontrolled Territory F5: it becomes abandoned, has no
-- crew to leave it, and stays in place unpossessed [9.6072]; its hex is no Strategic Location,
-- so F5 stays Uncontrolled Territory. Before, it counted as an Immobile vehicle with functioning
-- MA: F5 became a German Strategic Location and the German Setup Area grew around it, and the car
-- was "Isolated, may attempt Escape".
kessel.test("case_9.6053_an_immobile_unarmed_vehicle_has_no_functioning_ma", function()
  T.setup{ step = "setup_areas", map = { tags = { strategic = { "C5", "J5" } } },
    markers = { ctrl("german", "C5"), ctrl("british", "J5") },
    units = { T.vehicle("kw", "german", "Kfz 1", "F5", { vars = { immobile = true, unarmed = true } }),
      T.squad("g", "german", "4-6-7", "C5"), T.squad("b", "british", "6-4-8", "J5") } }
  local ev = T.resolve()
  expect.eq(kessel.game.var("setup_areas").hexes.F5, "ut", "no Strategic Location: Uncontrolled Territory")
  expect.eq(T.unit("kw").vars.abandoned, true)
  expect.eq(T.unit("kw").vars.reph.status, "abandoned")
  expect.eq(#kessel.units.all{ type = "crew" }, 0, "an unarmed car has no crew")
  T.has_note(ev, "kw (Immobile, no MA) is abandoned")
  T.replays()
end)

-- [9.606] only a Personnel or Mobile-vehicle unit attempts Escape: an Immobile German tank (MA
-- functioning) in an Isolated German Setup Area stays, Retained there (the chart); its Escape is
-- neither offered nor accepted. Before, it was told it "may attempt Escape", was offered one,
-- and an "escapes" result drove it out of the area.
kessel.test("case_9.606_an_immobile_vehicle_does_not_escape", function()
  T.setup{ step = "setup_areas", map = { tags = { strategic = { "C5", "J5" } } },
    markers = { ctrl("german", "C5"), ctrl("british", "J5") },
    units = { T.vehicle("pz", "german", "PzKpfw IVH", "C6", { vars = { immobile = true } }),
      T.squad("g", "german", "4-6-7", "C5"), T.squad("b", "british", "6-4-8", "J5") } }
  local ev = T.resolve()
  expect.eq(T.unit("pz").vars.reph.status, "isolated")
  T.has_note(ev, "pz (vehicle, not Mobile) is Isolated in Setup Area A: it stays")
  for _, a in ipairs(kessel.legal("german")) do
    if a.kind == "escape" then expect.eq(a.units[1] ~= "pz", true, "no Escape offered to the Immobile tank") end
  end
  local ok, r = kessel.act{ kind = "escape", units = { "pz" }, side = "german" }
  expect.refused(ok, r, "9.606", "pz is Immobile: only a Personnel or Mobile-vehicle unit attempts Escape")
  T.resolve()  -- 9.606 ends
  expect.eq(T.unit("pz").hex, "C6")
end)

-- a GM who types a unit that is not there: the refusal says no unit of that id is in play (it
-- said only "zz9 is not Retained", as for an Eliminated unit); an Eliminated one is said to be so
kessel.test("case_9.606_9.613_a_unit_that_is_not_there_is_named_as_such", function()
  T.setup{ step = "escape", units = { T.squad("g", "german", "4-6-7", "C5"), T.leader("gl", "german", "8-0", "C5"),
    T.squad("gx", "german", "4-6-7", nil, { location = "eliminated" }) } }
  local ok, r = kessel.act{ kind = "deploy", unit = "zz9", side = "german" }
  expect.refused(ok, r, "9.606", "zz9 is not Retained: no unit of that id is in play")
  ok, r = kessel.act{ kind = "deploy", unit = "gx", side = "german" }
  expect.refused(ok, r, "9.606", "gx is not Retained: it is eliminated")
end)

-- [9.613] a Shift is a Personnel or Mobile-vehicle unit's: an abandoned (otherwise Mobile) German
-- Marder Retained in its Setup Area is Equipment with no crew, and may not Shift to the Entry
-- Area; the squad beside it may. Before, the empty vehicle drove off to A1.
kessel.test("case_9.613_an_abandoned_vehicle_does_not_shift", function()
  T.setup{ step = "setup_areas", map = { columns = 14, rows = 12, tags = { strategic = { "C3", "M6" } }, areas = { A1 = { "A1" } } },
    markers = { ctrl("german", "C3"), ctrl("british", "M6") },
    units = { T.squad("g", "german", "4-6-7", "C3"), T.vehicle("md", "german", "Marder", "C4", { vars = { abandoned = true } }),
      T.squad("b", "british", "6-4-8", "M6") },
    vars = { entry_areas = { german = { A1 = true } }, date = "day_i" } }
  for _ = 1, 8 do T.resolve() end
  expect.eq(kessel.game.step().id, "shift")
  local ok, r = kessel.act{ kind = "shift", units = { "md" }, to = "A1", side = "german" }
  expect.refused(ok, r, "9.613", "md is not Personnel or a Mobile vehicle (it is abandoned)")
  -- the Shifts offered leave it out (a group with it in would be refused)
  local offered = 0
  for _, a in ipairs(kessel.legal("german")) do
    if a.kind == "shift" then
      offered = offered + 1
      for _, id in ipairs(a.units) do expect.eq(id ~= "md", true, "the abandoned Marder is not offered") end
    end
  end
  expect.eq(offered > 0, true, "the squad's Shift is offered")
  expect.accepted(kessel.act{ kind = "shift", units = { "g" }, to = "A1", side = "german" })
  expect.eq(T.unit("md").hex, "C4")
end)

-- [9.619] note c: HIP for at most 10% (FRU) of a side's Retained Infantry squads. Ten British
-- squads and an eleventh held prisoner by an Isolated German Guard (9.608 left it his): the
-- prisoner is not Retained by the British, so ten squads allow one HIP squad, not two. Before,
-- the prisoner counted and two were allowed. HS and SMC bought with HIP are not limited by note c
-- (it names squads: our reading).
kessel.test("case_9.619_a_squad_held_prisoner_is_not_counted_for_hip", function()
  local units = {}
  for i = 1, 10 do units[i] = T.squad("b" .. i, "british", "6-4-8", "C3") end
  units[11] = T.squad("bp", "british", "6-4-8", "H8", { vars = { prisoner_of = "german", guarded_by = "g", unarmed = true } })
  units[12] = T.squad("g", "german", "4-6-7", "H8", { vars = { isolated = true } })
  units[13] = T.hs("bh1", "british", "6-4-8", "C3")
  units[14] = T.hs("bh2", "british", "4-5-8", "C3")
  T.setup{ step = "fortifications", units = units, vars = { date = "day_i", fpp = { british = 20 } } }
  local ok, r = kessel.act{ kind = "buy_fortification", side = "british", item = "hip_squad", count = 2 }
  expect.refused(ok, r, "9.619", "10% (FRU) of 10 Retained squads in daytime: 1")
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "british", item = "hip_squad" })
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "british", item = "hip_hs", count = 2 })
end)

-- [9.6101] [9.6113] a German heroic, wounded 8-1 held prisoner by an Isolated British Guard (9.608
-- left him the Guard's) is no Retained leader of the German: he makes no wound dr and does not
-- Battle Harden; the German's own wounded leader rolls. Before, the prisoner rolled (and could be
-- "evacuated") and hardened to a 9-1 in British hands.
kessel.test("case_9.6101_9.6113_a_leader_held_prisoner_is_not_retained", function()
  T.setup{ step = "wounded", units = {
      T.leader("gp", "german", "8-1", "H8", { vars = { heroic = true, wounded = true, prisoner_of = "british", guarded_by = "b", unarmed = true } }),
      T.squad("b", "british", "6-4-8", "H8", { vars = { isolated = true } }),
      T.leader("gl", "german", "8-0", "C3", { vars = { wounded = true } }) },
    vars = { date = "day_i" } }
  kessel.inject_dice{ 3 }
  local ev = T.resolve()  -- 9.610
  T.has_note(ev, "gl (wounded): dr 3")
  expect.eq(T.note(ev, "gp (wounded)"), nil, "no wound dr for the prisoner")
  expect.eq(T.unit("gp").location, "map")
  T.resolve()  -- 9.611
  expect.eq(T.unit("gp").face.label, "8-1", "no Battle Hardening in British hands")
  expect.eq(T.unit("gp").vars.heroic, true)
end)

-- [11.606] [11.6062] the type of an Isolated Area counts MMC and vehicles, not a wreck: an area
-- holding only a Russian burnt-out wreck is type A and becomes No Man's Land (it was type C,
-- Controlled by the Russians); a German squad Guarding a Russian prisoner squad and a Russian
-- prisoner leader make a type C German area (it was type D), and the prisoner leader is no enemy
-- SMC that must Escape (he was made to roll) — his fate is 11.608's.
kessel.test("case_11.606_a_wreck_or_a_prisoner_does_not_make_the_area_type", function()
  T.setup{ module = "rb", step = "perimeter", vars = { date = "18oct", isolated_areas = { { hexes = { "J5" } }, { hexes = { "C3", "C4" } } } },
    units = { T.vehicle("wr", "russian", "T-34 M43", "J5", { vars = { wreck = "burnt_out" } }),
      T.squad("g", "german", "4-6-7", "C3"),
      T.squad("rp", "russian", "4-4-7r", "C3", { vars = { prisoner_of = "german", guarded_by = "g", unarmed = true } }),
      T.leader("rlp", "russian", "8-0", "C4", { vars = { prisoner_of = "german", guarded_by = "g", unarmed = true } }) },
    markers = { ctrl("russian", "J5") } }
  local ev = T.resolve()
  local areas = kessel.game.var("isolated_areas")
  expect.eq(areas[1].type, "A", "a wreck is no vehicle of a side")
  expect.eq(areas[2].type, "C", "the prisoners are the Guard's")
  -- the area becomes No Man's Land, but J5's Control marker marks a Strategic Location, which
  -- never is: it stays Russian (round 10 [11.6051]; it was removed)
  expect.eq(#kessel.markers.all{ kind = "control", side = "russian", placed = true }, 1, "J5, a Strategic Location, keeps its Control")
  expect.eq(T.unit("rlp").vars.must_escape, nil)
  T.has_note(ev, "Isolated Area 2 (C3 C4): type C, Controlled by the german")
  T.resolve()  -- 11.6063: no Escape DR for the prisoner
  expect.eq(T.unit("rlp").location, "map")
end)

-- [9.6056] [9.609] a wreck is no unit of a side: a German burnt-out wreck in the British Setup Area
-- makes no Escape DR, lets no crew out, is not Captured [9.6071], and does not Control its
-- Location (9.605). Before, it "must attempt Escape", an Eliminated result created a German crew
-- that escaped, and an Abandoned one was Captured by the British.
kessel.test("case_9.6056_a_wreck_makes_no_escape_and_is_not_captured", function()
  T.setup{ step = "setup_areas", map = { tags = { strategic = { "C5", "H5", "H7" } } },
    markers = { ctrl("german", "C5"), ctrl("british", "H5") },
    units = { T.vehicle("wr", "german", "PzKpfw IVH", "H6", { vars = { wreck = "burnt_out" } }),
      T.vehicle("wr2", "german", "PzKpfw IVH", "H7", { vars = { wreck = "burnt_out", immobile = true } }),
      T.squad("g", "german", "4-6-7", "C5"), T.squad("b", "british", "6-4-8", "H5") } }
  T.resolve()  -- 9.605
  expect.eq(T.unit("wr").vars.reph.status, "wreck")
  expect.eq(require("rules.areas").controller("H7", 0), nil, "a wreck Controls nothing")
  local ok, r = kessel.act{ kind = "escape", units = { "wr" }, side = "german" }
  expect.refused(ok, r, "9.606", "wr is a wreck: it does not Escape")
  local ev = T.resolve()  -- 9.606
  expect.eq(T.record(ev, "escape"), nil, "no Escape DR")
  expect.eq(#kessel.units.all{ type = "crew" }, 0)
  T.resolve()  -- 9.607
  expect.eq(T.unit("wr").side, "german", "not Captured")
  expect.eq(T.unit("wr").vars.captured, nil)
  expect.eq(T.unit("wr").location, "map")
end)

-- [11.607] a wreck is not cleared to the Retained box, nor Retained by the side Controlling its
-- Location (it was cleared with the units); [11.6063] one in an Isolated Area makes no Escape
kessel.test("case_11.607_a_wreck_stays_on_the_map", function()
  T.setup{ module = "rb", step = "perimeter", vars = { date = "18oct", isolated_areas = { { hexes = { "J5", "J6" } } } },
    units = { T.vehicle("wi", "russian", "T-34 M43", "J5", { vars = { wreck = "burnt_out" } }), T.squad("r", "russian", "4-4-7r", "J6"),
      T.vehicle("wc", "german", "PzKpfw IVH", "C5", { vars = { wreck = "burnt_out" } }), T.squad("r2", "russian", "4-4-7r", "C5") } }
  T.resolve()  -- 11.605-.606
  for _, a in ipairs(kessel.legal("russian")) do
    if a.kind == "escape" then expect.eq(a.units[1] ~= "wi", true, "no Escape offered to the wreck") end
  end
  T.resolve()  -- 11.6063
  T.resolve()  -- 11.607
  expect.eq(T.unit("wc").location, "map", "the wreck stays")
  expect.eq(T.unit("wc").side, "german")
  expect.eq(T.unit("r2").location, "pending", "the squad is cleared")
end)

-- [9.6142] the malfunctioned MG mounted on a burnt-out wreck is no Retained Weapon to repair: no
-- dr (one was made, and the MG of a wreck could be "repaired")
kessel.test("case_9.6142_no_repair_dr_for_the_weapon_of_a_wreck", function()
  T.setup{ step = "repair", vars = { date = "day_i" },
    units = { T.vehicle("wr", "german", "PzKpfw IVH", "C5", { vars = { wreck = "burnt_out" } }),
      T.sw("mg", "german", "MG", "C5", { vars = { mounted_on = "wr", vehicular = true, malfunctioned = true } }),
      T.squad("g", "german", "4-6-7", "C5") } }
  local ev = T.resolve()
  expect.eq(T.record(ev, "weapon_repair"), nil, "no repair dr")
  expect.eq(T.unit("mg").vars.malfunctioned, true)
end)

-- [9.6041] EXC: the Encircled Vulnerable crew of an Immobile German vehicle takes its 1TC with the
-- DRM of the 9-1 armor leader in it ("leadership DRM may apply"), who makes no 1TC of his own
-- and shares the crew's fate (our reading, as in an Escape). DR 8 +1 -1 = 8 vs morale 7: fails,
-- the crew and the armor leader are Eliminated, the vehicle abandoned. Before, he rolled apart
-- (one DR each), lent nothing, and stayed in the abandoned vehicle.
kessel.test("case_9.6041_an_armor_leader_in_an_encircled_immobile_vehicle", function()
  T.setup{ step = "encirclement", units = {
    T.vehicle("v", "german", "PzKpfw IVH", "C3", { vars = { encircled = true, immobile = true, crew_morale = 7 } }),
    T.leader("al", "german", "9-1", "C3", { type = "armor_leader", vars = { in_vehicle = "v", encircled = true } }) } }
  kessel.inject_dice{ 4, 4, 1, 1 }
  local ev = T.resolve()
  T.has_note(ev, "v's Vulnerable crew takes a 1TC: DR 8+1-1 armor leader = 8 vs morale 7: fails")
  expect.eq(T.unit("v").vars.abandoned, true)
  expect.eq(T.unit("al").location, "eliminated")
  expect.eq(T.note(ev, "al takes"), nil, "no 1TC of his own")
end)

-- [9.6042] an NTC is for each Infantry unit in an A-P minefield hex: the armor leader inside a
-- Mobile tank there takes none (he goes with the tank's mine attack, noted for the GM); a wreck
-- there gets no mine-attack note. Before, he took an NTC as if on foot.
kessel.test("case_9.6042_an_armor_leader_in_a_vehicle_takes_no_ntc", function()
  T.setup{ step = "encirclement", units = {
      T.vehicle("v", "german", "PzKpfw IVH", "C3"),
      T.leader("al", "german", "9-1", "C3", { type = "armor_leader", vars = { in_vehicle = "v" } }),
      T.vehicle("wr", "german", "PzKpfw IVH", "C3", { vars = { wreck = "burnt_out" } }),
      T.squad("g", "german", "4-6-7", "C3") },
    valued = { { kind = "ap_mine", side = "british", hex = "C3", value = { strength = 6 } } } }
  kessel.inject_dice{ 3, 3 }
  local ev = T.resolve()
  T.has_note(ev, "g takes a NTC")
  expect.eq(T.note(ev, "al takes"), nil, "no NTC for the armor leader in the tank")
  T.has_note(ev, "v in a minefield: its mine attack")
  expect.eq(T.note(ev, "wr in a minefield"), nil)
end)

-- [9.613] a German tank with a 9-1 armor leader in it Shifts from Setup Area A to B. Final DR 12:
-- "All units, Inherent crews and Equipment Eliminated", the armor leader too. Then a second
-- tank, Shifted with Casualties (DR 11), is Eliminated on dr 5 and its crew survives its CS DR:
-- the armor leader in it leaves with the crew and arrives in B. Before, each armor leader was
-- left behind, alone, in Setup Area A.
kessel.test("case_9.613_an_armor_leader_shares_his_vehicles_shift", function()
  T.setup{ step = "setup_areas", map = { columns = 14, rows = 12, tags = { strategic = { "C3", "C9", "M6" } }, areas = { A1 = { "A1" } } },
    markers = { ctrl("german", "C3"), ctrl("german", "C9"), ctrl("british", "M6") },
    units = { T.vehicle("t1", "german", "PzKpfw IVH", "C3"), T.leader("a1", "german", "9-1", "C3", { type = "armor_leader", vars = { in_vehicle = "t1" } }),
      T.vehicle("t2", "german", "PzKpfw IVH", "C9", { vars = { cs = 7 } }), T.leader("a2", "german", "8-1", "C9", { type = "armor_leader", vars = { in_vehicle = "t2" } }),
      T.squad("g", "german", "4-6-7", "C3"), T.squad("g9", "german", "4-6-7", "C9"), T.squad("b", "british", "6-4-8", "M6") },
    vars = { date = "day_i", entry_areas = { german = { A1 = true } } } }
  for _ = 1, 8 do T.resolve() end
  expect.eq(kessel.game.step().id, "shift")
  kessel.inject_dice{ 6, 6 }
  expect.accepted(kessel.act{ kind = "shift", units = { "t1" }, to = "B", side = "german" })
  expect.eq(T.unit("t1").location, "eliminated")
  expect.eq(T.unit("a1").location, "eliminated", "all units and Inherent crews")
  kessel.inject_dice{ 5, 6, 5, 2, 2 }  -- DR 11: casualties; dr 5: t2 Eliminated; CS DR 4 < 7
  expect.accepted(kessel.act{ kind = "shift", units = { "t2" }, to = "A", side = "german" })
  expect.eq(T.unit("t2").location, "eliminated")
  expect.eq(T.unit("a2").location, "map")
  expect.eq(T.unit("a2").vars.reph.area, "A", "with the surviving crew")
  expect.eq(T.unit("a2").vars.in_vehicle, nil)
end)

-- [11.6063] the Escape DRM "-1 if <= 2 hexes from a friendly-Controlled non-Isolated hex" and "-1
-- if adjacent" are found on the map when the players give no count: the Russian squad Isolated
-- in J5 is adjacent to K5, held by a non-Isolated Russian squad: -1 Russian, -1 within two, -1
-- adjacent, +1 squad = -2. Another in C5 has a Russian Control marker two hexes off (C7): -1
-- within two only. Before, without the var `friendly_distance` both DRM were left out.
kessel.test("case_11.6063_friendly_controlled_hexes_near_the_escapee_are_found", function()
  T.setup{ module = "rb", step = "escape", vars = { date = "18oct", isolated_areas = { { hexes = { "J5" } }, { hexes = { "C5" } } } },
    units = { T.squad("r", "russian", "4-4-7r", "J5", { vars = { isolated = true } }), T.squad("rk", "russian", "4-4-7r", "K5"),
      T.squad("rc", "russian", "4-4-7r", "C5", { vars = { isolated = true } }) },
    markers = { ctrl("russian", "C7") } }
  kessel.inject_dice{ 4, 4 }
  local ok, ev = kessel.act{ kind = "escape", units = { "r" }, side = "russian" }
  expect.accepted(ok, ev)
  expect.eq(T.record(ev, "escape").drm, -2)
  T.has_note(ev, "adjacent to a friendly-Controlled non-Isolated hex (K5)")
  kessel.inject_dice{ 4, 4 }
  ok, ev = kessel.act{ kind = "escape", units = { "rc" }, side = "russian" }
  expect.accepted(ok, ev)
  expect.eq(T.record(ev, "escape").drm, -1, "-1 Russian, -1 within two hexes, +1 squad")
end)

-- [9.6141b] "+1 if in a Front-Line hex": PB does not define the Front Line; read as a hex of the
-- vehicle's own Setup Area next to No Man's Land or the enemy's Setup Area. An immobilized German
-- tank in E5 (German area, next to the No-Man's-Land hex F5) rolls with +1; one in B5 (deep in
-- the area) with none; both have +1 for their Isolated area. Before, the +1 needed a var no scenario sets and was never applied.
kessel.test("case_9.6141_the_front_line_drm_is_found_on_the_map", function()
  T.setup{ step = "setup_areas", map = { tags = { strategic = { "C5", "H5" } } },
    markers = { ctrl("german", "C5"), ctrl("british", "H5") },
    units = { T.vehicle("tf", "german", "PzKpfw IVH", "E5", { vars = { immobile = true } }),
      T.vehicle("tb", "german", "PzKpfw IVH", "B5", { vars = { immobile = true } }),
      T.squad("g", "german", "4-6-7", "C5"), T.squad("b", "british", "6-4-8", "H5") },
    vars = { date = "day_i" } }
  T.resolve()  -- 9.605
  expect.eq(kessel.game.var("setup_areas").hexes.F5, "nml")
  while kessel.game.step().id ~= "repair" do T.resolve() end
  kessel.inject_dice{ 2, 2 }
  local ev = T.resolve()
  T.has_note(ev, "tf Immobilization repair dr 2+2: no change")
  T.has_note(ev, "in a Front-Line hex")
  T.has_note(ev, "tb Immobilization repair dr 2+1: no change")
end)

-- [9.619] [9.62022] a Fortification bought for a hex sets up in a Setup Area of the buyer: British
-- A-P mines for the German area's H8 or the No-Man's-Land hex E5, a German foxhole for the British
-- area's C3, are refused; mines for the British area's C4 are bought. Before, all were accepted.
kessel.test("case_9.62022_a_fortification_sets_up_in_its_sides_setup_area", function()
  T.setup{ step = "fortifications", vars = { date = "day_i", fpp = { british = 20, german = 20 },
    setup_areas = { hexes = { C3 = "british", C4 = "british", H8 = "german", E5 = "nml" },
      areas = { british = { { id = "A", hexes = { "C3", "C4" } } }, german = { { id = "A", hexes = { "H8" } } } } } } }
  local ok, r = kessel.act{ kind = "buy_fortification", item = "ap_mine", hex = "H8", side = "british" }
  expect.refused(ok, r, "9.62022", "H8 is in no british Setup Area")
  ok, r = kessel.act{ kind = "buy_fortification", item = "ap_mine", hex = "E5", side = "british" }
  expect.refused(ok, r, "9.62022", "E5 is in no british Setup Area")
  ok, r = kessel.act{ kind = "buy_fortification", item = "foxhole_1s", hex = "C3", side = "german" }
  expect.refused(ok, r, "9.62022", "C3 is in no german Setup Area")
  expect.accepted(kessel.act{ kind = "buy_fortification", item = "ap_mine", hex = "C4", side = "british" })
  expect.accepted(kessel.act{ kind = "buy_fortification", item = "foxhole_1s", hex = "H8", side = "german" })
end)

-- [11.6142] [11.616] a platoon's burnt-out wreck is no "remaining AFV": a Withdrawn result (dr 6)
-- Eliminates the platoon's Mobile tank, not the wreck, and the German CVP lost in this RePh count
-- the tank alone (3). Before, the wreck was Eliminated too and counted 3 CVP more for the CPP DRM.
kessel.test("case_11.6142_a_wreck_is_no_remaining_afv_of_its_platoon", function()
  local pl = { platoon = "1", platoon_on_map = true }
  T.setup{ module = "rb", step = "armor_withdrawal", vars = { date = "19oct" },
    units = { T.vehicle("t1", "german", "PzKpfw IVH", "C3", { vars = pl }),
      T.vehicle("wr", "german", "PzKpfw IVH", "C4", { vars = { platoon = "1", platoon_on_map = true, wreck = "burnt_out" } }) } }
  kessel.inject_dice{ 6 }
  T.resolve()
  expect.eq(T.unit("t1").location, "eliminated")
  expect.eq(T.unit("wr").location, "map", "the wreck stays")
  expect.eq(kessel.game.var("reph_cvp_lost").german, 3)
end)

-- [9.6056 chart] a crewed, Immobile German tank with functioning MA in Bypass of the Strategic
-- Location E5, which a British squad holds: the British Capture it in 9.6071, its Inherent crew
-- too (the chart's "in Bypass of enemy-Controlled Strategic Location"). A vehicle in Bypass does
-- not occupy the building Location, so E5 is British. Before, the tank "stayed in place", German,
-- and its presence left E5 to nobody's Control.
kessel.test("case_9.6056_an_immobile_vehicle_in_bypass_of_an_enemy_strategic_location_is_captured", function()
  T.setup{ step = "setup_areas", map = { tags = { strategic = { "B5", "E5" } } },
    units = { T.vehicle("pz", "german", "PzKpfw IVH", "E5", { vars = { immobile = true, bypass = true } }),
      T.squad("b", "british", "6-4-8", "E5"), T.squad("g", "german", "4-6-7", "B5") } }
  local ev = T.resolve()  -- 9.605
  expect.eq(kessel.game.var("setup_areas").ctrl.E5, "british")
  T.has_note(ev, "pz (Immobile, in Bypass of the british-Controlled Strategic Location E5)")
  T.resolve()  -- 9.606
  ev = T.resolve()  -- 9.607
  expect.eq(T.unit("pz").side, "british")
  expect.eq(T.unit("pz").vars.captured, true)
  T.has_note(ev, "pz's Inherent crew is Captured too")
  -- alone in Bypass of an empty hex, a crewed Immobile tank with MA holds the Strategic Location it
  -- makes (the chart's "in any other Location")
  T.setup{ step = "setup_areas", map = { tags = { strategic = { "B5", "J5" } } },
    units = { T.vehicle("pz", "german", "PzKpfw IVH", "E5", { vars = { immobile = true, bypass = true } }),
      T.squad("b", "british", "6-4-8", "J5"), T.squad("g", "german", "4-6-7", "B5") } }
  T.resolve()
  expect.eq(kessel.game.var("setup_areas").ctrl.E5, "german")
  expect.eq(T.unit("pz").vars.reph.status ~= "enemy_area", true)
end)

-- [9.602] item 6: hidden entrenchments are placed on-map with the hidden units and Equipment;
-- other still-hidden Fortifications need not be: a hidden German foxhole in C3 is shown to the
-- British, a hidden German A-P minefield in C4 stays hidden. Before, the foxhole stayed hidden
-- (until 9.6073 in a British area, for good in a German one). RB's 11.602 reveals none.
kessel.test("case_9.602_hidden_entrenchments_are_placed_on_the_map", function()
  T.setup{ step = "markers", valued = {
    { kind = "foxhole", side = "german", hex = "C3", value = { hidden = true, fortification = true, squads = 1 } },
    { kind = "ap_mine", side = "german", hex = "C4", value = { hidden = true, fortification = true, strength = 6 } } } }
  local function seen(kind)
    for _, m in ipairs(kessel.game.view("british").markers) do if m.kind == kind then return true end end
    return false
  end
  expect.eq(seen("foxhole"), false)
  local ev = T.resolve()
  T.has_note(ev, "foxhole in C3 (hidden) is placed on the map")
  expect.eq(seen("foxhole"), true, "the British see the foxhole")
  expect.eq(seen("ap_mine"), false, "the minefield stays hidden")
  T.setup{ module = "rb", step = "markers", valued = {
    { kind = "foxhole", side = "german", hex = "C3", value = { hidden = true, fortification = true, squads = 1 } } } }
  T.resolve()
  local shown = false
  for _, m in ipairs(kessel.game.view("russian").markers) do if m.kind == "foxhole" then shown = true end end
  expect.eq(shown, false, "RB: still-hidden Fortifications need not be revealed [11.602]")
end)

-- [11.615] "Only one attempt may be made per item per Location per completion of this RePh step":
-- wire the Germans failed to remove in the 18 October RePh (the campaign carried the marker) may
-- be rolled for again in the 19 October RePh, once. Before, the mark stayed and every later RePh
-- refused it as already tried.
kessel.test("case_11.615_one_attempt_per_completion_of_the_step", function()
  T.setup{ module = "rb", step = "fort_removal", vars = { date = "19oct" },
    markers = { ctrl("german", "C3") }, valued = { { kind = "wire", side = "russian", hex = "C3", value = { removal_tried = "18oct" } } } }
  local wire
  for _, m in ipairs(kessel.markers.all{ kind = "wire" }) do wire = m.id end
  kessel.inject_dice{ 5 }
  expect.accepted(kessel.act{ kind = "remove_fortification", side = "german", marker = wire })
  local ok, r = kessel.act{ kind = "remove_fortification", side = "german", marker = wire }
  expect.refused(ok, r, "11.615", "one attempt")
end)

-- [9.608] a freed unarmed MMC is Replaced by a Green/Conscript MMC "of the same size": a freed
-- German crew (an MMC of half-squad size) becomes a 4-3-6's half-squad. Before, the note said it
-- was Replaced by a 4-3-6 and the crew stayed a crew.
kessel.test("case_9.608_a_freed_crew_is_replaced_by_a_conscript_half_squad", function()
  T.setup{ step = "prisoners", map = { tags = { strategic = { "C5", "J5" } } },
    units = { T.squad("b", "british", "6-4-8", "H5", { vars = { isolated = true } }),
      T.crew("gc", "german", "H5", { vars = { prisoner_of = "british", guarded_by = "b", unarmed = true } }),
      T.squad("g", "german", "4-6-7", "C5") },
    vars = { date = "day_i", setup_areas = { hexes = { C5 = "german", H5 = "british" }, ctrl = {},
      areas = { german = { { id = "A", hexes = { "C5" } } }, british = { { id = "A", hexes = { "H5" }, isolated = true } } } } } }
  local ok, ev = kessel.act{ kind = "prisoner", unit = "gc", choice = "free", side = "british" }
  expect.accepted(ok, ev)
  T.has_note(ev, "gc is freed and Replaced by a 4-3-6 half-squad")
  expect.eq(T.unit("gc").type, "squad")
  expect.eq(T.unit("gc").step, 1)
  expect.eq(T.C.squad_face(T.unit("gc")), "4-3-6")
end)

-- a GM's typo in the scenario records: a negative CVP, SAN or CPP count is refused at `kessel
-- check`, citing the case (a German `cvp_lost = -20` passed and made 9.6162 compare against a
-- negative loss), and the RB winner's leader-hardening DRM is 0, -1 or -2 [11.6113]
kessel.test("case_9.6_negative_counts_in_the_scenario_records_are_refused", function()
  local S = require("rules.sequence")
  T.setup{ step = "markers", vars = { date = "dawn", cvp_lost = { german = -20, british = 4 }, san = { british = -3 }, cpp = { german = -1 } } }
  local text = table.concat(S.record_problems(), "\n")
  expect.truthy(text:find("[9.6162] scenario var `cvp_lost`: the german value -20 is below zero", 1, true), text)
  expect.truthy(text:find("[9.6122] scenario var `san`: the british value -3 is below zero", 1, true), text)
  expect.truthy(text:find("[9.616] scenario var `cpp`: the german value -1 is below zero", 1, true), text)
  T.setup{ module = "rb", step = "markers", vars = { date = "18oct", leader_hardening_drm = { german = -3 }, balance_drm = { russian = -2 } } }
  text = table.concat(S.record_problems(), "\n")
  expect.truthy(text:find("[11.6113] scenario var `leader_hardening_drm`: the german value -3 is not 0, -1 or -2", 1, true), text)
  expect.falsy(text:find("balance_drm", 1, true), "a balance DRM may be negative")
end)

-- [9.6152] the Dusk allotment, counter by counter as the table gives it (TT14): ten 4-5-8, fifteen
-- 4-5-7, a 2-2-8 crew, five leaders, two dm HMG and two dm MMG (the HMG and MMG were made
-- assembled: the table lists them dismantled), four LMG, two 51 MTR, four PIAT, fourteen
-- vehicles, a 57L AT Gun and 10 FPP
kessel.test("case_9.6152_the_dusk_allotment", function()
  T.setup{ step = "reinforcements", vars = { date = "dusk" } }
  local ev = T.resolve()
  local n = {}
  for _, u in ipairs(kessel.units.all{ side = "british" }) do
    local k = u.type == "sw" and u.face.weapon or (u.type == "vehicle" and u.face.name) or (u.type == "gun" and u.face.weapon)
      or (u.type == "squad" and T.C.squad_face(u)) or (u.face and u.face.label) or u.type
    n[k] = (n[k] or 0) + 1
  end
  expect.eq(n["4-5-8"], 10)
  expect.eq(n["4-5-7"], 15)
  expect.eq(n.crew, 1)
  expect.eq(n["dm HMG"], 2)
  expect.eq(n["dm MMG"], 2)
  expect.eq(n.HMG, nil)
  expect.eq(n.LMG, 4)
  expect.eq(n["51 MTR"], 2)
  expect.eq(n.PIAT, 4)
  expect.eq(n["Churchill VII"], 6)
  expect.eq(n["Stuart V(a)"], 3)
  expect.eq(n["Carrier C"], 3)
  expect.eq(n["57L AT"], 1)
  expect.eq(n["7-0"], 2)
  expect.eq(T.record(ev, "reinforcements").fpp, 10)
  expect.eq(T.record(ev, "reinforcements").area, "TT14")
end)

-- [9.6152] Notes 1 and 3 (Dawn): the two 2-2-8 crews of the 57L AT Guns arrive with the Guns (Note
-- 1 lets them set up in any non-Isolated British Setup Area; Guns Manhandled on from Z28 need
-- them there). Before, they were put with the squads in Setup Area A, the Guns in B.
kessel.test("case_9.6152_the_dawn_gun_crews_arrive_with_their_guns", function()
  local areas = { hexes = {}, areas = { british = { { id = "A", hexes = { "C3", "C4" } }, { id = "B", hexes = { "C19", "C21" } } }, german = {} } }
  T.setup{ map = { rows = 24 }, step = "reinforcements", vars = { date = "dawn", setup_areas = areas } }
  T.resolve()
  local crews = 0
  for _, u in ipairs(kessel.units.all{ side = "british", type = "crew" }) do
    crews = crews + 1
    expect.eq(u.hex, "C21", "with the Guns")
    expect.eq(u.vars.reph.area, "B")
  end
  expect.eq(crews, 2)
  -- no Setup Area with a hex numbered 20 or more: Guns and crews enter at Z28
  T.setup{ map = { rows = 24 }, step = "reinforcements", vars = { date = "dawn",
    setup_areas = { hexes = {}, areas = { british = { { id = "A", hexes = { "C3" } } }, german = {} } } } }
  T.resolve()
  for _, u in ipairs(kessel.units.all{ side = "british", type = "crew" }) do
    expect.eq(u.location, "pending")
    expect.eq(u.vars.reph.area, "Z28")
  end
end)

-- [9.61421] a bad input: the LMG Eliminated for a vehicular MG must be a Retained one. A GM who
-- names an LMG already Eliminated (here in an earlier step) is refused; so is an MG on a wreck.
-- Before, the Eliminated LMG paid for the repair.
kessel.test("case_9.61421_an_eliminated_lmg_pays_for_nothing", function()
  local area = { vars = { reph = { status = "retained", area = "A" } } }
  T.setup{ step = "repair", vars = { date = "day_i" }, units = {
    T.vehicle("pz", "german", "PzKpfw IVH", "C3", area),
    T.sw("cmg", "german", "MG", "C3", { vars = { vehicular = true, disabled = true, mounted_on = "pz" } }),
    T.sw("gone", "german", "LMG", nil, { location = "eliminated", vars = { reph = { status = "retained", area = "A" } } }),
    T.vehicle("wr", "german", "PzKpfw IVH", "C3", { vars = { wreck = "burnt_out", reph = { status = "retained", area = "A" } } }),
    T.sw("wmg", "german", "MG", "C3", { vars = { vehicular = true, disabled = true, mounted_on = "wr" } }),
    T.sw("lmg", "german", "LMG", "C3", area) } }
  local ok, r = kessel.act{ kind = "mg_exchange", mg = "cmg", lmg = "gone", side = "german" }
  expect.refused(ok, r, "9.61421", "gone is not Retained (it is eliminated)")
  ok, r = kessel.act{ kind = "mg_exchange", mg = "wmg", lmg = "lmg", side = "german" }
  expect.refused(ok, r, "9.61421", "wmg is on no Retained AFV")
  expect.accepted(kessel.act{ kind = "mg_exchange", mg = "cmg", lmg = "lmg", side = "german" })
  -- [9.6111] likewise a HS kept apart for a MTR must be a Retained one
  T.setup{ step = "hardening", vars = { date = "day_i" }, units = {
    T.sw("mtr", "british", "51 MTR", "C3"), T.hs("gh", "british", "6-4-8", nil, { location = "eliminated" }) } }
  ok, r = kessel.act{ kind = "keep_hs", unit = "gh", side = "british" }
  expect.refused(ok, r, "9.6111", "gh is not Retained: it is eliminated")
  -- [9.6112] and a Hero hardens a Retained MMC, not one Eliminated or held prisoner
  T.setup{ step = "hardening", vars = { date = "day_i" }, units = { T.hero("bh", "british", "C3"),
    T.squad("bx", "british", "6-4-8", nil, { location = "eliminated" }),
    T.squad("bp", "british", "6-4-8", "C3", { vars = { prisoner_of = "german", guarded_by = "g" } }), T.squad("g", "german", "4-6-7", "C3") } }
  ok, r = kessel.act{ kind = "hero_harden", hero = "bh", unit = "bx", side = "british" }
  expect.refused(ok, r, "9.6112", "bx is no MMC the british Retains")
  ok, r = kessel.act{ kind = "hero_harden", hero = "bh", unit = "bp", side = "british" }
  expect.refused(ok, r, "9.6112", "bp is no MMC the british Retains")
end)

-- [9.606] table, "Escapes; Replaced" (Final 9): Replacement is an MMC's. A lone German 8-0 in
-- the British Setup Area (Original 9, -1 lone unwounded SMC, +1 enemy area = 9) escapes, not
-- Replaced; in a stack of a 4-6-7 and a 9-1, Random Selection is among the MMC: the squad is
-- Replaced by a 4-4-7 (a 9-1 with it). Before, the lone leader was Eliminated "instead" (footnote 2 is for a
-- crew or a unit that would become Disrupted), and Random Selection could pick the leader.
kessel.test("case_9.606_an_smc_is_not_replaced", function()
  T.setup{ step = "setup_areas", map = { columns = 16, rows = 9, tags = { strategic = { "C5", "N5" } }, areas = { P1 = { "P1", "P2" } } },
    markers = { ctrl("british", "C5"), ctrl("german", "N5") },
    units = { T.leader("gl", "german", "8-0", "B5"), T.squad("gs", "german", "4-6-7", "B6"), T.leader("gl2", "german", "9-1", "B6") },
    vars = { entry_areas = { german = { P1 = true } }, date = "day_i" } }
  T.resolve()
  kessel.inject_dice{ 4, 5 }
  local ok, ev = kessel.act{ kind = "escape", units = { "gl" }, side = "german" }
  expect.accepted(ok, ev)
  expect.eq(T.record(ev, "escape").final, 9)
  expect.eq(T.unit("gl").location, "map", "the leader escapes")
  expect.eq(T.unit("gl").vars.reph.area, "A")
  T.has_note(ev, "an SMC is not Replaced")
  -- squad and leader: +1 enemy area, +1 HS-equivalent, -1 leader = +1; Original 8 = 9
  kessel.inject_dice{ 4, 4 }
  ok, ev = kessel.act{ kind = "escape", units = { "gs", "gl2" }, side = "german" }
  expect.accepted(ok, ev)
  expect.eq(T.record(ev, "escape").final, 9)
  expect.eq(T.C.squad_face(T.unit("gs")), "4-4-7", "the squad is Replaced")
  expect.eq(T.unit("gl2").location, "map")
  expect.eq(T.note(ev, "Random Selection"), nil, "one MMC: no Random Selection")
end)
