-- Round 19 of the outside check against the refit-phase text: where what the RePh gives the
-- British on the map sets up (9.6152 Notes 1 and 3, 9.6102).
local T = require("testing.cg")
local expect = T.expect

-- ends steps until the RePh stands at `id`
local function on_to(id)
  local S = require("rules.sequence")
  for _ = 1, 30 do
    if S.current().id == id then return end
    T.resolve()
  end
  error("the RePh never reached " .. id)
end

-- British Setup Areas A (C3 C4 E20) and B (C19 C21), both non-Isolated, and C (H22) Isolated; the
-- German A (K5)
local AREAS = { hexes = { C3 = "british", C4 = "british", E20 = "british", C19 = "british", C21 = "british", H22 = "british", K5 = "german" },
  areas = { british = { { id = "A", hexes = { "C3", "C4", "E20" } }, { id = "B", hexes = { "C19", "C21" } },
    { id = "C", hexes = { "H22" }, isolated = true } }, german = { { id = "A", hexes = { "K5" } } } } }

local function of(kind, face)
  local out = {}
  for _, u in ipairs(kessel.units.all{ side = "british", type = kind }) do
    if face == nil or T.C.face_label(u) == face then out[#out + 1] = u end
  end
  table.sort(out, function(x, y) return x.id < y.id end)
  return out
end

-- [9.6152] Note 1: the Dawn reinforcements go to any non-Isolated British Setup Area the British pick;
-- Note 3: its Guns in non-Isolated British Setup Areas, in hexes numbered 20 or more. The
-- ruleset places them in the first such area (the squads in A's C3, the Guns in A's E20), and in
-- 9.620 the British set each up in any non-Isolated British Setup Area, the Guns in a hex numbered
-- 20 or more only; a unit of the scenario's own, Retained in A, still sets up in A alone, and no
-- reinforcement goes to the Isolated area C. Before, each reinforcement was held to area A (a
-- squad to C19 was refused as "not in Setup Area A"), and a Gun could be set up in C3.
kessel.test("case_9.6152_note_1_reinforcements_set_up_in_any_non_isolated_british_setup_area", function()
  T.setup{ map = { rows = 24 }, step = "reinforcements", vars = { date = "dawn", setup_areas = AREAS },
    units = { T.squad("own", "british", "6-4-8", "C4", { vars = { reph = { status = "retained", area = "A" } } }),
      T.squad("g1", "german", "4-6-7", "K5", { vars = { reph = { status = "retained", area = "A" } } }) } }
  T.resolve()
  local squads, guns, crews = of("squad", "6-4-8"), of("gun"), of("crew")
  expect.eq(#guns, 2)
  expect.eq(guns[1].hex, "E20", "Note 3: the first hex numbered 20 or more of a non-Isolated area")
  on_to("commencement")
  local s = squads[1].id == "own" and squads[2] or squads[1]
  expect.eq(s.hex, "C3")
  -- the query says where each may go
  expect.eq(kessel.queries.ask("reph_unit", { unit = s.id }).sets_up_in, "any non-Isolated british Setup Area (9.6152)")
  expect.eq(kessel.queries.ask("reph_unit", { unit = guns[1].id }).hex_min, 20)
  expect.eq(kessel.queries.ask("reph_unit", { unit = "own" }).sets_up_in, nil)
  local ev = expect.accepted(kessel.act{ kind = "set_up_retained", side = "british", unit = s.id, hex = "C19" })
  T.has_note(ev, s.id .. " sets up in C19 (from C3), in Setup Area B")
  expect.eq(T.unit(s.id).vars.reph.area, "B", "Retained in the area it set up in")
  local ok, r = kessel.act{ kind = "set_up_retained", side = "british", unit = s.id, hex = "H22" }
  expect.refused(ok, r, "9.6152", "H22 is in no non-Isolated british Setup Area, where " .. s.id .. " may set up (9.6152 Note 1)")
  ok, r = kessel.act{ kind = "set_up_retained", side = "british", unit = "own", hex = "C19" }
  expect.refused(ok, r, "9.62022", "C19 is not in Setup Area A, which own is Retained in")
  -- Note 3: a Gun in a hex numbered 20 or more of any non-Isolated area, never below 20
  ok, r = kessel.act{ kind = "set_up_retained", side = "british", unit = guns[1].id, hex = "C19" }
  expect.refused(ok, r, "9.6152", "Note 3: " .. guns[1].id .. ", a Gun, sets up in a hex numbered 20 or more, not in C19")
  ok, r = kessel.act{ kind = "set_up_retained", side = "british", unit = guns[1].id, hex = "C3" }
  expect.refused(ok, r, "9.6152", "not in C3")
  expect.accepted(kessel.act{ kind = "set_up_retained", side = "british", unit = guns[1].id, hex = "C21" })
  expect.eq(T.unit(guns[1].id).hex, "C21")
  -- the Guns' crews come under Note 1: any non-Isolated area, any hex of it
  expect.accepted(kessel.act{ kind = "set_up_retained", side = "british", unit = crews[1].id, hex = "C19" })
  -- the choices offered list the other area's Locations for a reinforcement, not for `own`
  local other
  for _, q in ipairs(squads) do if q.id ~= "own" and q.id ~= s.id then other = q.id end end
  local to_b, own_to_b = false, false
  for _, a in ipairs(kessel.legal("british")) do
    if a.kind == "set_up_retained" and a.hex == "C21" and a.unit == other then to_b = true end
    if a.kind == "set_up_retained" and a.hex == "C21" and a.unit == "own" then own_to_b = true end
  end
  expect.truthy(to_b, "a reinforcement is offered area B")
  expect.falsy(own_to_b, "a unit Retained in A is not")
  T.replays()
end)

-- [9.6102] The Walking Wounded MMC recovered go to any non-Isolated British Setup Area: placed
-- in the first (A), the British may set one up in B in 9.620. Before, it was held to A.
kessel.test("case_9.6102_walking_wounded_set_up_in_any_non_isolated_setup_area", function()
  T.setup{ map = { rows = 24 }, step = "wounded", vars = { date = "dawn", setup_areas = AREAS, walking_wounded = 1 },
    units = { T.squad("g1", "german", "4-6-7", "K5", { vars = { reph = { status = "retained", area = "A" } } }) } }
  T.resolve()
  local ww = of("squad")[1]
  expect.eq(ww.vars.reph.area, "A")
  on_to("commencement")
  expect.accepted(kessel.act{ kind = "set_up_retained", side = "british", unit = ww.id, hex = "C21" })
  expect.eq(T.unit(ww.id).vars.reph.area, "B")
  local ok, r = kessel.act{ kind = "set_up_retained", side = "british", unit = ww.id, hex = "H22" }
  expect.refused(ok, r, "9.6102", "H22 is in no non-Isolated british Setup Area, where " .. ww.id .. " may set up (9.6102)")
end)

-- [9.6183] A leader an RG received sets up with a unit of his own RG: set up
-- with his PzGren Pltn in its Setup Area (9.6178), he is not then set up again in a Location
-- without one, and the last squad of the RG with him does not leave him; with a squad of his RG
-- beside him elsewhere he goes. Before, `set_up_retained` took him, or them, anywhere in the area.
kessel.test("case_9.6183_an_rg_leader_stays_with_a_unit_of_his_rg_in_the_set_up", function()
  T.setup{ step = "rg_purchase", units = { T.squad("g1", "german", "4-6-7", "H8", { vars = { reph = { status = "retained", area = "A" } } }) },
    vars = { date = "day_i", cpp = { german = 20 },
      setup_areas = { hexes = { H8 = "german", H9 = "german", H10 = "german" },
        areas = { german = { { id = "A", hexes = { "H8", "H9", "H10" } } }, british = {} } } } }
  expect.accepted(kessel.act{ kind = "buy_rg", side = "german", rg = "I4", area = "A" })
  T.resolve()  -- 9.617
  kessel.inject_dice{ 3, 3, 1, 1, 1, 3, 3 }   -- Full; SW drs; leader DR 6 (an 8-1)
  T.resolve()  -- 9.618
  T.resolve()  -- 9.619
  local rec = kessel.game.var("rg_record")[1]
  local squads, leader = rec.units, nil
  for _, id in ipairs(rec.made) do if T.unit(id).type == "leader" then leader = id end end
  expect.truthy(#squads == 4 and leader, "a Full PzGren Pltn: four squads and a leader")
  -- one squad and the leader in H9, three squads in H10, the SW with the squad
  expect.accepted(kessel.act{ kind = "set_up_unit", side = "german", unit = squads[1], hex = "H9" })
  for i = 2, 4 do expect.accepted(kessel.act{ kind = "set_up_unit", side = "german", unit = squads[i], hex = "H10" }) end
  for _, id in ipairs(rec.made) do
    if T.unit(id).location == "pending" then expect.accepted(kessel.act{ kind = "set_up_unit", side = "german", unit = id, hex = "H9" }) end
  end
  local ok, r = kessel.act{ kind = "set_up_retained", side = "german", unit = leader, hex = "H8" }
  expect.refused(ok, r, "9.6183", leader .. " sets up with a unit of his RG: none is in H8")
  ok, r = kessel.act{ kind = "set_up_retained", side = "german", unit = squads[1], hex = "H8" }
  expect.refused(ok, r, "9.6183", squads[1] .. " is the last unit of its RG (I4) with " .. leader)
  -- g1, of no RG, goes where it likes; the leader joins the squads of his RG in H10
  expect.accepted(kessel.act{ kind = "set_up_retained", side = "german", unit = "g1", hex = "H9" })
  expect.accepted(kessel.act{ kind = "set_up_retained", side = "german", unit = leader, hex = "H10" })
  -- now alone of the RG in H9, the squad may go
  expect.accepted(kessel.act{ kind = "set_up_retained", side = "german", unit = squads[1], hex = "H8" })
  T.replays()
end)

-- [9.6152] Note 1 [A5.1]: the Night III reinforcements placed by the ruleset (the set-up of a unit
-- the British leave alone) keep the stacking limit — three squads and four SMC a Location — filling
-- the first non-Isolated British Setup Area's Locations in order, then the next non-Isolated
-- area's (Note 1 lets them set up in any), never the Isolated one; each Retained in the area it
-- stands in. Before, the eighteen squads and six leaders stood in one hex.
kessel.test("case_9.6152_note_1_reinforcements_are_placed_within_the_stacking_limit", function()
  local areas = { hexes = {}, areas = { british = { { id = "A", hexes = { "C3", "C4", "C5" } }, { id = "C", hexes = { "H2" }, isolated = true },
    { id = "B", hexes = { "F3", "F4", "F5", "F6" } } }, german = {} } }
  T.setup{ step = "reinforcements", vars = { date = "night_iii", setup_areas = areas } }
  local ev = T.resolve()
  local squads, smc, area = {}, {}, {}
  for _, u in ipairs(kessel.units.all{ side = "british", location = "map" }) do
    if u.type == "squad" then squads[u.hex] = (squads[u.hex] or 0) + 1 end
    if u.type == "leader" then smc[u.hex] = (smc[u.hex] or 0) + 1 end
    if u.type ~= "sw" then area[u.hex] = u.vars.reph.area end
  end
  for _, h in ipairs({ "C3", "C4", "C5", "F3", "F4", "F5" }) do expect.eq(squads[h], 3, h .. " holds three squads") end
  expect.eq(squads.F6, nil, "eighteen squads fill six Locations")
  expect.eq(squads.H2, nil, "none in the Isolated area")
  expect.eq(smc.C3, 4, "four SMC a Location")
  expect.eq(smc.C4, 2)
  expect.eq(area.C3, "A")
  expect.eq(area.F4, "B", "Retained in the area it stands in")
  expect.falsy(T.note(ev, "over the stacking limit"), "none over the limit")
  T.replays()
end)

-- [9.6178] [9.62022] [9.605 EX] An RG may be recorded for any friendly, non-Isolated Setup Area, an
-- upper-level one among them (the German first level of D9, a Location apart from the British
-- ground level, as Z15's in the 9.605 EX): its counters set up in that Location, at its level, and
-- the step ends once they have. A vehicle RG is refused such an area at purchase: a vehicle sets
-- up at ground level. Before, the RG's counters were refused every Location ("Setup Area B, which
-- the german no longer has") and 9.620 waited for them for good: the RePh could not end.
kessel.test("case_9.6178_an_rg_recorded_for_an_upper_level_setup_area_sets_up_there", function()
  T.setup{ step = "rg_purchase", map = { terrain = { D9 = "stone_building" } },
    units = { T.squad("g1", "german", "4-6-7", "H8", { vars = { reph = { status = "retained", area = "A" } } }),
      T.squad("b1", "british", "6-4-8", "D9", { vars = { reph = { status = "retained", area = "A" } } }) },
    vars = { date = "day_i", cpp = { german = 20 },
      setup_areas = { hexes = { H8 = "german", H9 = "german", D9 = "british" },
        areas = { german = { { id = "A", hexes = { "H8", "H9" } }, { id = "B", hexes = { "D9" }, level = 1 } },
          british = { { id = "A", hexes = { "D9" } } } } } } }
  local ok, r = kessel.act{ kind = "buy_rg", side = "german", rg = "V10", area = "B" }
  expect.refused(ok, r, "9.6178", "Setup Area B is the upper-level Location D9 level 1: the vehicles of V10 (StaffCar) set up at ground level")
  expect.accepted(kessel.act{ kind = "buy_rg", side = "german", rg = "I4", area = "B" })
  T.resolve()  -- 9.617
  T.resolve()  -- 9.618
  T.resolve()  -- 9.619
  local rec = kessel.game.var("rg_record")[1]
  local first = rec.units[1]
  local ev = expect.accepted(kessel.act{ kind = "set_up_unit", side = "german", unit = first, hex = "D9" })
  T.has_note(ev, first .. " (RG) sets up in D9 level 1")
  expect.eq(T.unit(first).hex, "D9")
  expect.eq(T.C.level(T.unit(first)), 1, "at the area's level, not on the British ground level")
  -- the rest as offered, until nothing of the RG waits; then the step ends
  for _ = 1, 20 do
    local offered = kessel.legal("german")
    local a
    for _, x in ipairs(offered) do if x.kind == "set_up_unit" then a = x; break end end
    if not a then break end
    expect.accepted(kessel.act(a))
  end
  for _, id in ipairs(rec.units) do expect.eq(T.C.level(T.unit(id)), 1, id .. " on the first level") end
  expect.accepted(kessel.act{ kind = "finish_setup", side = "german" })
  T.resolve()  -- 9.620
  expect.truthy(kessel.game.finished(), "the RePh is over")
  T.replays()
end)

-- [9.62022] [9.605] A Setup Area takes in every hex within two of a Strategic Location, the water
-- beside a bridge too; a water hex is no eligible Location for a unit or a new Fortification (no
-- unit enters it: the Enterable paths of 9.6052 and 9.613 are blocked there). A foxhole is neither
-- bought for nor set up in D9, the canal, nor offered there; a Retained unit does not set up there.
-- Before, all three were accepted, and the Pegasus Bridge campaign's computer player dug its Day
-- I foxholes in the Caen canal (J4, J5, J7, J8).
kessel.test("case_9.62022_nothing_sets_up_in_a_water_hex_of_a_setup_area", function()
  T.setup{ step = "fortifications", map = { terrain = { D9 = "water" } },
    units = { T.squad("b1", "british", "6-4-8", "D8", { vars = { reph = { status = "retained", area = "B" } } }) },
    vars = { date = "day_i", fpp = { british = 3 },
      setup_areas = { hexes = { D8 = "british", D9 = "british", D10 = "british" },
        areas = { british = { { id = "B", hexes = { "D8", "D9", "D10" } } }, german = {} } } } }
  local ok, r = kessel.act{ kind = "buy_fortification", side = "british", item = "foxhole_1s", hex = "D9" }
  expect.refused(ok, r, "9.62022", "D9 is water: no unit or Fortification sets up there")
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "british", item = "foxhole_1s", count = 2 })
  T.resolve()  -- 9.619
  for _, a in ipairs(kessel.legal("british")) do
    expect.truthy(a.hex ~= "D9", a.kind .. " is offered in the water hex D9")
  end
  ok, r = kessel.act{ kind = "set_up_fortification", side = "british", item = "foxhole_1s", hex = "D9" }
  expect.refused(ok, r, "9.62022", "D9 is water")
  ok, r = kessel.act{ kind = "set_up_retained", side = "british", unit = "b1", hex = "D9" }
  expect.refused(ok, r, "9.62022", "D9 is water")
  expect.accepted(kessel.act{ kind = "set_up_fortification", side = "british", item = "foxhole_1s", hex = "D10", count = 2 })
  expect.accepted(kessel.act{ kind = "set_up_retained", side = "british", unit = "b1", hex = "D10" })
  T.replays()
  -- the Dawn Guns' hex numbered 20 or more (9.6152 Note 3) is not the water of C21, and the
  -- squads placed by Note 1 pass over the water of C3
  T.setup{ map = { rows = 24, terrain = { C21 = "water", C3 = "water" } }, step = "reinforcements", vars = { date = "dawn",
    setup_areas = { hexes = {}, areas = { british = { { id = "A", hexes = { "C3", "C4", "C5", "C21", "C22" } } }, german = {} } } } }
  T.resolve()
  for _, u in ipairs(kessel.units.all{ side = "british", location = "map" }) do
    if u.type == "gun" then expect.eq(u.hex, "C22", "a Gun in the first dry hex numbered 20 or more") end
    if u.type == "squad" then expect.truthy(u.hex == "C4" or u.hex == "C5", u.id .. " in " .. u.hex) end
    expect.truthy(u.hex ~= "C3", u.id .. " (" .. u.type .. ") is placed in the water of C3")
  end
end)

-- [9.613] [9.62022] [A5.1] A group Shifted into a Setup Area is placed in its Locations with room,
-- three squads a Location, never in a water hex of it: the German area B around C9 takes in the
-- water of columns A and B (within two hexes of the Strategic Location), which come first in map
-- order. Before, the whole group went to the area's first hex: four squads in the water.
kessel.test("case_9.613_a_shifted_group_lands_within_the_limit_and_out_of_the_water", function()
  local water = {}
  for _, h in ipairs({ "A7", "A8", "A9", "A10", "A11", "B7", "B8", "B9", "B10", "B11" }) do water[h] = "water" end
  T.setup{ step = "setup_areas", map = { columns = 14, rows = 12, terrain = water, tags = { strategic = { "C3", "C9", "M6" } },
      areas = { A1 = { "A1" } } },
    markers = { { kind = "control", side = "german", at = "C3" }, { kind = "control", side = "german", at = "C9" },
      { kind = "control", side = "british", at = "M6" } },
    units = { T.squad("g1", "german", "4-6-7", "C3"), T.squad("g2", "german", "4-6-7", "C3"), T.squad("g3", "german", "4-6-7", "C3"),
      T.squad("g4", "german", "4-6-7", "C2") },
    vars = { entry_areas = { german = { A1 = true } }, date = "day_i" } }
  for _ = 1, 8 do T.resolve() end
  expect.eq(kessel.game.step().id, "shift")
  local b
  for _, a in ipairs(kessel.game.var("setup_areas").areas.german) do if a.hexes[1] ~= nil and a.id ~= T.unit("g1").vars.reph.area then b = a end end
  expect.eq(kessel.map.terrain(b.hexes[1]), "water", "the area's first hex is water")
  kessel.inject_dice{ 2, 2 }
  expect.accepted(kessel.act{ kind = "shift", side = "german", units = { "g1", "g2", "g3", "g4" }, to = b.id })
  local per = {}
  for _, id in ipairs({ "g1", "g2", "g3", "g4" }) do
    local u = T.unit(id)
    expect.eq(u.vars.reph.area, b.id)
    expect.truthy(kessel.map.terrain(u.hex) ~= "water", id .. " is placed in the water hex " .. u.hex)
    per[u.hex] = (per[u.hex] or 0) + 1
  end
  for h, n in pairs(per) do expect.truthy(n <= 3, h .. " holds " .. n .. " squads") end
  T.replays()
end)
