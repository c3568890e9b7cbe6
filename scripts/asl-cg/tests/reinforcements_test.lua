-- RePh 9.615 OB-Given Reinforcements and 9.620 Scenario Commencement.
local T = require("testing.cg")
local expect = T.expect

local AREAS = { hexes = {}, areas = { british = { { id = "A", hexes = { "C3" }, isolated = true }, { id = "B", hexes = { "H8", "H9" } } }, german = {} } }

-- [9.6152] Night III: 18 squads, six leaders, 5 LMG, 4 PIAT and 20 FPP; Note 1: they set up in
-- a non-Isolated British Setup Area, B (H8 H9), three squads and four SMC a Location [A5.1]: the
-- squads that find no room stay over the limit in H8, and a note says so
kessel.test("case_9.6152_night_iii_reinforcements", function()
  T.setup{ step = "reinforcements", vars = { date = "night_iii", setup_areas = AREAS } }
  local ev = T.resolve()
  local squads, leaders, sw = 0, 0, 0
  local at = { H8 = 0, H9 = 0 }
  for _, u in ipairs(kessel.units.all{ side = "british" }) do
    if u.type == "squad" then squads = squads + 1; at[u.hex] = at[u.hex] + 1; expect.eq(u.vars.airborne, true) end
    if u.type == "leader" then leaders = leaders + 1 end
    if u.type == "sw" then sw = sw + 1 end
  end
  expect.eq(squads, 18)
  expect.eq(at.H9, 3, "H9 takes three squads")
  expect.eq(at.H8, 15, "H8 its three and the twelve with no room")
  T.has_note(ev, "12 of them")
  T.has_note(ev, "are placed in H8 over the stacking limit")
  expect.eq(leaders, 6)
  expect.eq(sw, 9)
  expect.eq(T.C.fpp("british"), 20)
  expect.eq(T.record(ev, "reinforcements").area, "B")
  T.replays()
end)

-- [9.6152] Day II: the Entry Area is TT4, off-map; named faces (10-3, Sherman V (DD))
kessel.test("case_9.6152_day_ii_enters_at_tt4", function()
  T.setup{ step = "reinforcements", vars = { date = "day_ii" } }
  T.resolve()
  local tanks = kessel.units.all{ type = "vehicle", side = "british" }
  expect.eq(#tanks, 1)
  expect.eq(tanks[1].face.name, "Sherman V (DD)")
  expect.eq(tanks[1].location, "pending")
  expect.eq(tanks[1].vars.reph.area, "TT4")
  local top
  for _, l in ipairs(kessel.units.all{ type = "leader" }) do if l.face.label == "10-3" then top = l end end
  expect.truthy(top, "a 10-3")
  expect.eq(top.face.morale, 10)
end)

-- [9.6152] Note 2: nothing on Night II, Night III and Dawn in CG II
kessel.test("case_9.6152_note_2_cg_ii", function()
  T.setup{ step = "reinforcements", vars = { date = "dawn", cg = "II" } }
  T.resolve()
  expect.eq(#kessel.units.all(), 0)
end)

-- [9.6153] after Day II the British withdraw non-airborne, non-crew MMC with their SW/SMC
kessel.test("case_9.6153_withdrawal_after_day_ii", function()
  T.setup{ step = "reinforcements", vars = { date = "day_iii", previous_date = "day_ii" }, units = {
    T.squad("para", "british", "6-4-8", "C3", { vars = { airborne = true } }), T.squad("inf", "british", "4-5-7", "C4", { vars = { airborne = false } }),
    T.crew("crew", "british", "C5") } }
  T.resolve()
  expect.eq(T.unit("para").location, "map")
  expect.eq(T.unit("inf").location, "removed")
  expect.eq(T.unit("crew").location, "map")
end)

-- [9.62023] Dawn: the British set up first, the Germans move first; [9.62021] Isolated units get
-- Ammunition Shortage
kessel.test("case_9.62023_setup_move_table_and_9.62021", function()
  T.setup{ step = "commencement", vars = { date = "dawn" }, units = { T.squad("i", "german", "4-6-7", "C3", { vars = { isolated = true } }) } }
  local ev = T.resolve()
  expect.eq(kessel.game.var("sets_up_first"), "british")
  expect.eq(kessel.game.var("moves_first"), "german")
  expect.eq(T.unit("i").vars.ammo_shortage, true)
  T.has_note(ev, "[9.62021]")
  expect.truthy(kessel.game.finished(), "the RePh is over")
  for date, want in pairs({ night_ii = "german/german", day_ii = "german/british", day_i = "british/german" }) do
    T.setup{ step = "commencement", vars = { date = date } }
    T.resolve()
    expect.eq(kessel.game.var("sets_up_first") .. "/" .. kessel.game.var("moves_first"), want, date)
  end
end)
