-- RePh 9.617-9.619: RG purchase, strength, SW, leaders, fortifications (rules/purchase.lua).
local T = require("testing.cg")
local expect = T.expect

local ENTRY = { german = { A7 = true, J0 = true, U1 = true, KK1 = true } }
local function shop(cpp, extra)
  local vars = { date = "day_i", cpp = { german = cpp }, entry_areas = ENTRY }
  for k, v in pairs(extra or {}) do vars[k] = v end
  T.setup{ step = "rg_purchase", vars = vars }
end
local function buy(rg, entry) return kessel.act{ kind = "buy_rg", rg = rg, entry = entry or "A7" } end

-- [9.617] [9.6174] a PzGren Pltn costs 5 CPP at the A7 arrow; [9.6178] the record keeps #P and #R
kessel.test("case_9.617_buy_an_rg_and_record_it", function()
  shop(30)
  expect.accepted(buy("I4"))
  expect.eq(kessel.game.var("cpp").german, 25)
  local r = kessel.game.var("rg_record")[1]
  expect.eq(r.id, "I4")
  expect.eq(r.purchased, 1)
  expect.eq(r.remaining, 2)
  expect.eq(r.entry, "A7")
  T.replays()
end)

-- [9.617] the German allots CPP secretly: the British view has neither the CPP, nor the record,
-- nor what the purchase was; the German view has all of it; the truth replays
kessel.test("case_9.617_the_purchase_is_the_germans_secret", function()
  shop(30)
  expect.accepted(buy("I4"))
  local british = kessel.game.view("british", { log = true })
  expect.eq(british.vars.cpp, nil, "CPP are secret")
  expect.eq(british.vars.rg_record, nil, "the RG record is secret")
  local last = british.log[#british.log]
  expect.truthy(last.params_withheld, "the British do not see what was bought")
  expect.eq(last.action.rg, nil)
  local german = kessel.game.view("german", { log = true })
  expect.eq(german.vars.cpp.german, 25)
  expect.eq(german.vars.rg_record[1].id, "I4")
  expect.eq(german.log[#german.log].action.side, "german", "the German's decision [9.617]")
  expect.falsy(german.log[#german.log].params_withheld, "the German sees his own purchase")
  T.replays()
end)

-- [9.6183] the leader allotment DR is secret: the British see no die of it (not even that it was
-- made: with the strength and SW DRs and the counters made, one run of events withheld)
kessel.test("case_9.6183_the_leader_dr_is_secret", function()
  shop(30)
  expect.accepted(buy("I4"))
  T.resolve()   -- 9.617 done: on to 9.618, whose end makes the strength, SW and leader rolls
  T.resolve()
  local british = kessel.game.view("british", { log = true })
  local seen, withheld = 0, 0
  for _, e in ipairs(british.log[#british.log].events) do
    if e.event == "dice" and e.purpose == "rg_leader" then seen = seen + 1 end
    if e.event == "withheld" then withheld = withheld + 1 end
  end
  local leader = 0
  local german = kessel.game.view("german", { log = true }).log
  for _, e in ipairs(german[#german].events) do
    if e.event == "dice" and e.purpose == "rg_leader" then leader = leader + 1 end
  end
  expect.truthy(leader > 0, "a leader DR was made (the German reads it)")
  expect.eq(seen, 0, "no leader DR shows to the British")
  expect.truthy(withheld > 0, "the British see that something was withheld")
end)

-- [9.61741] each Entry Arrow adds its CPP cost: A7 +0, J0 +2, U1 +4, KK1 +6
kessel.test("case_9.61741_entry_arrow_costs", function()
  for arrow, extra in pairs({ A7 = 0, J0 = 2, U1 = 4, KK1 = 6 }) do
    shop(40)
    expect.accepted(buy("V4", arrow))
    expect.eq(kessel.game.var("cpp").german, 40 - 5 - extra, arrow)
  end
  shop(40)
  local ok, r = buy("V4", "B5")
  expect.refused(ok, r, "9.61741", "not a German Entry Arrow")
end)

-- [9.6175] at most the CG Date Max per date (PzGren Pltn: 2)
kessel.test("case_9.6175_cg_date_maximum", function()
  shop(40)
  expect.accepted(buy("I4"))
  expect.accepted(buy("I4"))
  local ok, r = buy("I4")
  expect.refused(ok, r, "9.6175", "at most 2 per CG Date")
end)

-- [9.6176] at most the CG Maximum over the CG (PzGren Pltn: 3); RG given in a scenario do not count
kessel.test("case_9.6176_cg_maximum", function()
  shop(40, { rg_record = { { date = "dawn", id = "I4", cost = 5 }, { date = "dawn", id = "I4", cost = 5 },
    { date = "dawn", id = "I4", cost = 0, given = true } } })
  expect.accepted(buy("I4"))
  local ok, r = buy("I4")
  expect.refused(ok, r, "9.6176", "at most 3 in the CG")
end)

-- [9.6174] not more than the CPP left; [9.6177] note a: I1-I3 are not for sale; [9.617] none at Night
kessel.test("case_9.617_refusals", function()
  shop(10)
  local ok, r = buy("V3")
  expect.refused(ok, r, "9.6174", "costs 14 CPP; 10 left")
  ok, r = buy("I1")
  expect.refused(ok, r, "9.6177", "cannot be purchased")
  ok, r = kessel.act{ kind = "buy_rg", rg = "I4" }
  expect.refused(ok, r, "9.6178", "record a Setup Area")
  shop(30, { date = "night_iii" })
  ok, r = buy("I4")
  expect.refused(ok, r, "9.617", "Night")
end)

-- [9.617] M1 Fortifications: 15 FPP for 1 CPP, no Entry Area needed
kessel.test("case_9.617_m1_gives_15_fpp", function()
  shop(3)
  expect.accepted(kessel.act{ kind = "buy_rg", rg = "M1" })
  expect.eq(T.C.fpp("german"), 15)
  expect.eq(kessel.game.var("cpp").german, 2)
end)

local function strength(rg, dice)
  shop(30)
  expect.accepted(buy(rg))
  T.resolve()
  kessel.inject_dice(dice)
  local ev = T.resolve()
  return kessel.game.var("rg_record")[1], ev
end

-- [9.6182 EX] a Full PzGren Pltn: MMG on dr <= 2 (2: yes), one LMG outright, 50mm MTR on dr <= 2
-- (3: no); [9.6181] strength DR 8 is Full; [9.6183] leader DR 7: 8-0
kessel.test("case_9.6182_example_full_pzgren_pltn", function()
  local rec = strength("I4", { 4, 4, 2, 3, 3, 4 })
  expect.eq(rec.strength, "F")
  expect.eq(rec.sw.MMG, 1)
  expect.eq(rec.sw.LMG, 1)
  expect.eq(rec.sw.LtMTR, nil)
  expect.eq(#rec.units, 4, "2 x 4-6-7 and 2 x 4-6-8")
  expect.eq(rec.leaders[1], "8-0")
  local sw = kessel.units.all{ type = "sw", side = "german" }
  expect.eq(#sw, 2)
  expect.eq(sw[1].vars.reph.area, "A7")
end)

-- [9.6182 EX] Depleted: the LMG on dr <= 4, the MMG and MTR on dr < 2; [9.6183] +1 leader DRM
kessel.test("case_9.6182_example_depleted_pzgren_pltn", function()
  local rec, ev = strength("I4", { 5, 5, 2, 4, 1, 3, 4 })
  expect.eq(rec.strength, "D")
  -- each note says what the dr gave and the leader DR its Final DR and column, for a GM to check
  T.has_note(ev, "I4 MMG: dr 2 (< 2 needed, a number in parentheses): not received")
  T.has_note(ev, "I4 LMG: dr 4 (<= 4 needed, Depleted): received")
  T.has_note(ev, "I4 leader DR 7+1 = 8 (Personnel column): 8-0")
  expect.eq(rec.sw.MMG, nil, "dr 2 is not < 2")
  expect.eq(rec.sw.LMG, 1)
  expect.eq(rec.sw.LtMTR, 1)
  expect.eq(#rec.units, 3)
  expect.eq(rec.leaders[1], "8-0", "7 + 1 = 8")
end)

-- [9.6183] an armor leader for a Med Tank Pltn (-1): Final 1 is a 10-2; a Coy rolls twice and a
-- Final 1 on the personnel column gives two leaders
kessel.test("case_9.6183_leader_allotment", function()
  local rec = strength("V3", { 3, 3, 1, 1 })
  expect.eq(rec.leaders[1], "10-2")
  expect.eq(kessel.units.all{ type = "armor_leader" }[1].face.drm, -2)
  rec = strength("I5", { 3, 3, 4, 1, 1, 6, 6 })
  expect.eq(table.concat(rec.leaders, ","), "10-2,8-1,6+1", "DR 2 - 1 = 1, then DR 12 - 1 = 11")
  expect.eq(#kessel.units.all{ type = "leader" }, 3)
end)

-- [9.619] FPP buy Fortifications; mines are British only; one SAN Increase per RePh; the rest
-- is forfeit
kessel.test("case_9.619_fortification_purchase", function()
  T.setup{ step = "fortifications", vars = { date = "day_i", fpp = { british = 25, german = 15 }, san = { british = 2, german = 2 } } }
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "british", item = "ap_mine", count = 4 })
  expect.eq(T.C.fpp("british"), 19)
  local ok, r = kessel.act{ kind = "buy_fortification", side = "german", item = "ap_mine" }
  expect.refused(ok, r, "9.619", "British only")
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "british", item = "san_increase" })
  expect.eq(kessel.game.var("san").british, 3)
  ok, r = kessel.act{ kind = "buy_fortification", side = "british", item = "san_increase" }
  expect.refused(ok, r, "9.619", "one SAN Increase")
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "german", item = "foxhole_3s" })
  local ev = T.resolve()
  T.has_note(ev, "forfeits")
  expect.eq(T.C.fpp("german"), 0)
end)

-- [9.619] HIP for at most 10% (FRU) of Retained squads by day; none for the German at Dusk
kessel.test("case_9.619_hip_limits", function()
  local units = {}
  for i = 1, 14 do units[i] = T.squad("b" .. i, "british", "6-4-8", "C3") end
  T.setup{ step = "fortifications", units = units, vars = { date = "day_i", fpp = { british = 20, german = 20 } } }
  -- 14 squads: 1.4, rounded up to 2
  local ok, r = kessel.act{ kind = "buy_fortification", side = "british", item = "hip_squad", count = 3 }
  expect.refused(ok, r, "9.619", "10%")
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "british", item = "hip_squad", count = 2 })
  ok, r = kessel.act{ kind = "buy_fortification", side = "british", item = "hip_squad" }
  expect.refused(ok, r, "9.619", "10%")
  T.setup{ step = "fortifications", vars = { date = "dusk", fpp = { german = 20 } } }
  ok, r = kessel.act{ kind = "buy_fortification", side = "german", item = "hip_smc" }
  expect.refused(ok, r, "9.619", "Dusk")
end)

-- [9.619] note c limits HIP "in a daytime Scenario": Dawn and Dusk are held to it as the Day dates
-- are, only the three Night CG Dates are not (our reading: the text counts three Night CG Dates
-- [9.617] and makes Dawn and Dusk no Night date [9.606] [9.61424]); 10 squads allow one
kessel.test("case_9.619_note_c_holds_at_dawn_and_dusk_not_at_night", function()
  local function squads(side)
    local units = {}
    for i = 1, 10 do units[i] = T.squad(side .. i, side, side == "british" and "6-4-8" or "4-6-7", "C3") end
    return units
  end
  for _, case in ipairs({ { "dawn", "german" }, { "dusk", "british" } }) do
    T.setup{ step = "fortifications", units = squads(case[2]), vars = { date = case[1], fpp = { british = 20, german = 20 } } }
    local ok, r = kessel.act{ kind = "buy_fortification", side = case[2], item = "hip_squad", count = 2 }
    expect.refused(ok, r, "9.619", "10%")
    expect.accepted(kessel.act{ kind = "buy_fortification", side = case[2], item = "hip_squad", count = 1 })
  end
  T.setup{ step = "fortifications", units = squads("british"), vars = { date = "night_iii", fpp = { british = 20 } } }
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "british", item = "hip_squad", count = 4 })
end)

-- [9.619] note e: one SAN Increase per RePh, also within one purchase (count 2 was charged 20 FPP
-- for +1 SAN); a count is a whole number of items, 1 or more (a negative count gave FPP, a
-- fractional one stopped the rules with a Lua error)
kessel.test("case_9.619_counts_and_one_san_increase", function()
  T.setup{ step = "fortifications", vars = { date = "day_i", fpp = { british = 20, german = 10 } } }
  local ok, r = kessel.act{ kind = "buy_fortification", side = "british", item = "san_increase", count = 2 }
  expect.refused(ok, r, "9.619", "one SAN Increase per RePh")
  ok, r = kessel.act{ kind = "buy_fortification", side = "german", item = "foxhole_1s", count = -5 }
  expect.refused(ok, r, "9.619", "whole number")
  ok, r = kessel.act{ kind = "buy_fortification", side = "german", item = "foxhole_1s", count = 1.5 }
  expect.refused(ok, r, "9.619", "whole number")
  expect.eq(T.C.fpp("german"), 10, "no FPP gained")
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "british", item = "ap_mine", count = 3 })
  expect.eq(T.C.fpp("british"), 15.5, "3 A-P factors at 1.5")
end)

-- [9.617] "The CPP expended, those remaining ... may all be kept secret": neither the 9.616 sum
-- (which holds the CPP left from earlier dates) nor the 9.617 "spent / left" note is readable in the
-- British view; the German reads both
kessel.test("case_9.617_cpp_spent_and_left_are_secret", function()
  T.setup{ step = "cpp", vars = { date = "day_i", cvp_lost = { german = 0, british = 0 }, cpp = { german = 7 } } }
  T.resolve()                                   -- 9.616: 7 + 32 + 0
  expect.accepted(kessel.act{ kind = "buy_rg", rg = "I4", entry = "A7" })
  T.resolve()                                   -- 9.617 ends: spent 5, left 34
  local function texts(side)
    local out = {}
    for _, entry in ipairs(kessel.game.view(side, { log = true }).log) do
      for _, e in ipairs(entry.events) do
        if e.event == "note" and e.text and e.text ~= "" then out[#out + 1] = e.text end
        if e.event == "record" and e.kind == "cpp" and e.fields then out[#out + 1] = "cpp record after " .. tostring(e.fields.after) end
      end
    end
    return table.concat(out, "\n")
  end
  local british, german = texts("british"), texts("german")
  expect.falsy(british:find("left 34", 1, true), british)
  expect.falsy(british:find("7 + 32", 1, true), british)
  expect.falsy(british:find("cpp record", 1, true), british)
  expect.truthy(british:find("CPP Base # for day_i: 32", 1, true), "the Base # is public")
  expect.truthy(german:find("CPP spent 5, left 34", 1, true), german)
  expect.truthy(german:find("German CPP 7 + 32 + 0 = 39", 1, true), german)
end)

-- [9.6202] [9.62022] [9.619] note f: what 9.619 buys is set up in 9.620. The British buy 4 A-P
-- mine factors and two 1S foxholes with no hex; 9.620 will not end until they are set up (the
-- German ending it is told only that the British are not done); mines are refused in C3 of the
-- Isolated area A and in the German area's H8, and go to D8 of area B; the foxholes go one to C3
-- (Isolated: allowed, only mines are barred) and one to D8. At the end of the step they are on the
-- map: one minefield of strength 4, hidden from the German, and two foxholes every side sees.
-- Before, a Fortification bought without a hex was never placed, so note f was never checked for
-- it, and one bought with a hex was not placed either.
kessel.test("case_9.62022_fortifications_bought_are_set_up_in_9.620", function()
  T.setup{ step = "fortifications", units = { T.squad("b", "british", "6-4-8", "D8"), T.squad("g", "german", "4-6-7", "H8") },
    vars = { date = "day_i", fpp = { british = 20 },
      setup_areas = { hexes = { C3 = "british", D8 = "british", H8 = "german" },
        areas = { british = { { id = "A", hexes = { "C3" }, isolated = true }, { id = "B", hexes = { "D8" } } },
          german = { { id = "A", hexes = { "H8" } } } } } } }
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "british", item = "ap_mine", count = 4 })
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "british", item = "foxhole_1s", count = 2 })
  T.resolve()  -- 9.619
  expect.eq(kessel.game.step().id, "commencement")
  local ok, r = kessel.act{ kind = "end_step", side = "german" }
  expect.refused(ok, r, "9.62022", "the british has not finished setting up its new Fortifications")
  expect.falsy(r[1].message:find("ap_mine", 1, true), "the German is not told what the British bought")
  ok, r = kessel.act{ kind = "end_step", side = "british" }
  expect.refused(ok, r, "9.62022", "ap_mine x4, foxhole_1s x2")
  ok, r = kessel.act{ kind = "set_up_fortification", side = "british", item = "ap_mine", hex = "C3" }
  expect.refused(ok, r, "9.619", "C3 is an Isolated Location: mines may not be set up there (note f)")
  ok, r = kessel.act{ kind = "set_up_fortification", side = "british", item = "ap_mine", hex = "H8" }
  expect.refused(ok, r, "9.62022", "H8 is in no british Setup Area")
  ok, r = kessel.act{ kind = "set_up_fortification", side = "british", item = "foxhole_1s", hex = "C3", count = 3 }
  expect.refused(ok, r, "9.62022", "count is a whole number from 1 to 2")
  -- the Isolated Locations first [9.62021], then the rest [9.62022]
  expect.accepted(kessel.act{ kind = "set_up_fortification", side = "british", item = "foxhole_1s", hex = "C3" })
  expect.accepted(kessel.act{ kind = "finish_setup", side = "british" })
  expect.accepted(kessel.act{ kind = "set_up_fortification", side = "british", item = "ap_mine", hex = "D8" })
  expect.accepted(kessel.act{ kind = "set_up_fortification", side = "british", item = "foxhole_1s", hex = "D8" })
  ok, r = kessel.act{ kind = "set_up_fortification", side = "british", item = "foxhole_1s", hex = "D8" }
  expect.refused(ok, r, "9.62022", "no foxhole_1s bought on this CG Date left to set up")
  T.resolve()  -- 9.620
  local mines = kessel.markers.all{ kind = "ap_mine", placed = true }
  expect.eq(#mines, 1)
  expect.eq(mines[1].hex, "D8")
  expect.eq(mines[1].value.strength, 4)
  local from = table.concat(kessel.markers.hidden_from(mines[1].id), ",")
  expect.truthy(from:find("german", 1, true) and not from:find("british", 1, true), from)
  local holes = {}
  for _, m in ipairs(kessel.markers.all{ kind = "foxhole", placed = true }) do
    holes[#holes + 1] = m.hex
    expect.eq(#kessel.markers.hidden_from(m.id), 0, "a foxhole is seen")
  end
  table.sort(holes)
  expect.eq(table.concat(holes, " "), "C3 D8")
  for _, f in ipairs(T.C.fortifications("british")) do expect.eq(f.placed, true, f.item) end
end)

-- [9.62022] a Fortification bought for a hex (buy_fortification{ hex }) is set up there when 9.620
-- ends, with no set-up action: British A-T mines bought for D8 are a minefield there, and the step
-- was never held up for them
kessel.test("case_9.62022_a_fortification_bought_for_a_hex_is_set_up_there", function()
  T.setup{ step = "fortifications", vars = { date = "day_i", fpp = { british = 6 },
    setup_areas = { hexes = { D8 = "british" }, areas = { british = { { id = "B", hexes = { "D8" } } }, german = {} } } } }
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "british", item = "at_mine", count = 2, hex = "D8" })
  T.resolve()  -- 9.619
  T.resolve()  -- 9.620
  local mines = kessel.markers.all{ kind = "at_mine", placed = true }
  expect.eq(#mines, 1)
  expect.eq(mines[1].hex, "D8")
  expect.eq(mines[1].value.strength, 2)
end)

-- [9.619] [9.62022] a foxhole or a minefield is set up in a ground-level Location. In a hex whose
-- first level is a British Setup Area and whose ground level the German's (the 9.605 EX's Z15), a
-- British foxhole bought for level 1 was accepted (the Setup Area checked at level 1), its level
-- dropped from the record, and set up at ground level, in the German Setup Area; now it is refused,
-- as is a set-up at level 1, and `level = 0` is read by the set-up (it had no such parameter)
kessel.test("case_9.62022_a_fortification_is_set_up_at_ground_level", function()
  local areas = { hexes = { C3 = "german", D8 = "british" },
    areas = { british = { { id = "A", hexes = { "C3" }, level = 1, isolated = true }, { id = "B", hexes = { "D8" } } },
      german = { { id = "A", hexes = { "C3" } } } } }
  T.setup{ step = "fortifications", units = { T.squad("b", "british", "6-4-8", "C3", { vars = { level = 1 } }),
      T.squad("g", "german", "4-6-7", "C3"), T.squad("b2", "british", "6-4-8", "D8") },
    vars = { date = "day_i", fpp = { british = 10 }, setup_areas = areas } }
  local ok, r = kessel.act{ kind = "buy_fortification", side = "british", item = "foxhole_1s", hex = "C3", level = 1 }
  expect.refused(ok, r, "9.619", "foxhole_1s is set up in a ground-level Location (level 0), not at level 1")
  ok, r = kessel.act{ kind = "buy_fortification", side = "british", item = "foxhole_1s", hex = "C3", level = 0 }
  expect.refused(ok, r, "9.62022", "C3 is in no british Setup Area")
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "british", item = "foxhole_2s" })
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "british", item = "ap_mine", count = 2 })
  T.resolve()  -- 9.619
  ok, r = kessel.act{ kind = "set_up_fortification", side = "british", item = "foxhole_2s", hex = "C3", level = 1 }
  expect.refused(ok, r, "9.62022", "foxhole_2s is set up in a ground-level Location (level 0), not at level 1")
  ok, r = kessel.act{ kind = "set_up_fortification", side = "british", item = "ap_mine", hex = "D8", level = -1 }
  expect.refused(ok, r, "9.62022", "ap_mine is set up in a ground-level Location (level 0), not at level -1")
  ok, r = kessel.act{ kind = "set_up_fortification", side = "british", item = "ap_mine", hex = "D8", level = "up" }
  expect.refused(ok, r, "9.62022", "level is a Location level")
  expect.accepted(kessel.act{ kind = "set_up_fortification", side = "british", item = "foxhole_2s", hex = "D8", level = 0 })
  expect.accepted(kessel.act{ kind = "set_up_fortification", side = "british", item = "ap_mine", hex = "D8" })
  T.resolve()  -- 9.620
  local holes = kessel.markers.all{ kind = "foxhole", placed = true }
  expect.eq(#holes, 1)
  expect.eq(holes[1].hex, "D8")
  expect.eq(holes[1].value.size, "2S")
  expect.eq(kessel.markers.all{ kind = "ap_mine", placed = true }[1].value.strength, 2)
end)
