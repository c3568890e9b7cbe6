-- Round 17 of the outside check against the refit-phase text: a Retained unit's set-up Location
-- (upper levels, Cellars, stacking), a unit hidden by the scenario, the "?" item's name, note b's
-- 50* MTR and RB's Strategic Guns/vehicles as declared options.
local T = require("testing.cg")
local expect = T.expect

-- a PB position at 9.619 (Day I, the British set up first) with British Setup Area B (D8 D9 D10:
-- the Chateau, D9 standing, D10 its rubble) and German Setup Area A (H8 H9)
local function day_i(units, extra)
  local vars = { date = "day_i",
    setup_areas = { hexes = { D8 = "british", D9 = "british", D10 = "british", H8 = "german", H9 = "german" },
      areas = { british = { { id = "B", hexes = { "D8", "D9", "D10" } } }, german = { { id = "A", hexes = { "H8", "H9" } } } } } }
  for k, v in pairs(extra or {}) do vars[k] = v end
  T.setup{ step = "fortifications", units = units, vars = vars,
    map = { terrain = { D9 = "stone_building", D10 = "stone_rubble" }, places = { { name = "Chateau", kind = "building", hexes = { "D9", "D10" } } } } }
  T.resolve()  -- 9.619: on to 9.620
end
local function kept(area) return { vars = { reph = { status = "retained", area = area } } } end

-- [9.62022] [9.605 EX] [9.6057] A Location is a hex and a level: an upper building level is one of
-- the hex's Locations, so a Retained unit sets up in one of a building hex of its Setup Area, its
-- SW with it at that level. A level of a hex that is no building (a burnt one's rubble, 9.6094,
-- among them), a Cellar (PB's text names none)
-- and an upper level for a vehicle are refused, naming why. Before, `level` was passed over in
-- silence: the unit went to the ground level, and one upstairs was brought down.
kessel.test("case_9.62022_a_retained_unit_sets_up_in_an_upper_level_location", function()
  day_i({ T.squad("b1", "british", "6-4-8", "D8", kept("B")), T.sw("lmg", "british", "LMG", "D8", { vars = { possessed_by = "b1" } }),
    T.vehicle("car", "british", "Carrier C", "D10", kept("B")) })
  local ok, r = kessel.act{ kind = "set_up_retained", side = "british", unit = "b1", hex = "D10", level = 1 }
  expect.refused(ok, r, "9.62022", "D10 is no building hex: its only Location is at ground level, not level 1")
  ok, r = kessel.act{ kind = "set_up_retained", side = "british", unit = "b1", hex = "D9", level = -1 }
  expect.refused(ok, r, "9.62022", "D9 has no Cellar: PB's text names none")
  ok, r = kessel.act{ kind = "set_up_retained", side = "british", unit = "car", hex = "D9", level = 1 }
  expect.refused(ok, r, "9.62022", "car is a vehicle: it sets up at ground level, not level 1")
  ok, r = kessel.act{ kind = "set_up_retained", side = "british", unit = "b1", hex = "D9", level = 1.5 }
  expect.refused(ok, r, "9.62022", "level is a Location level, a whole number")
  local ev = expect.accepted(kessel.act{ kind = "set_up_retained", side = "british", unit = "b1", hex = "D9", level = 1 })
  T.has_note(ev, "[9.62022] b1 sets up in D9 level 1 (from D8), in Setup Area B")
  expect.eq(T.unit("b1").hex, "D9")
  expect.eq(T.C.level(T.unit("b1")), 1, "b1 is on the first level")
  expect.eq(T.C.level(T.unit("lmg")), 1, "its LMG with it")
  ok, r = kessel.act{ kind = "set_up_retained", side = "british", unit = "b1", hex = "D9", level = 1 }
  expect.refused(ok, r, "9.62022", "b1 is in D9 level 1 already")
  -- and down again to the ground level of the same hex, its LMG too
  expect.accepted(kessel.act{ kind = "set_up_retained", side = "british", unit = "b1", hex = "D9" })
  expect.eq(T.C.level(T.unit("b1")), 0)
  expect.eq(T.C.level(T.unit("lmg")), 0)
  T.replays()
end)

-- [9.605 EX] [9.62022] An upper-level Location the other side Controls apart from its ground level
-- forms a Setup Area of its own (Z15's first level): it is no Location of the ground-level area,
-- so a unit Retained there does not set up in it; a unit Retained in such an upper-level area has
-- that one Location, and is told so. Before, the unit was told it was Retained in no Setup Area.
kessel.test("case_9.605_9.62022_an_upper_level_area_apart_is_its_own_location", function()
  day_i({ T.squad("b1", "british", "6-4-8", "D8", kept("B")), T.squad("g1", "german", "4-6-7", "D9", { vars = { level = 1,
    reph = { status = "retained", area = "B" } } }), T.squad("g2", "german", "4-6-7", "H8", kept("A")) }, {
    setup_areas = { hexes = { D8 = "british", D9 = "british", D10 = "british", H8 = "german", H9 = "german" },
      areas = { british = { { id = "B", hexes = { "D8", "D9", "D10" } } },
        german = { { id = "A", hexes = { "H8", "H9" } }, { id = "B", hexes = { "D9" }, level = 1 } } } } })
  local ok, r = kessel.act{ kind = "set_up_retained", side = "british", unit = "b1", hex = "D9", level = 1 }
  expect.refused(ok, r, "9.62022", "D9 level 1 is not in Setup Area B, which b1 is Retained in")
  expect.accepted(kessel.act{ kind = "set_up_retained", side = "british", unit = "b1", hex = "D9", level = 2 })
  expect.accepted(kessel.act{ kind = "finish_setup", side = "british" })
  ok, r = kessel.act{ kind = "set_up_retained", side = "german", unit = "g1", hex = "D9" }
  expect.refused(ok, r, "9.62022", "D9 is not in Setup Area B, which g1 is Retained in")
end)

-- [A5.1] [9.62022] [9.606] No set-up exceeds a side's stacking limit in a Location, each level its
-- own: three squads or their equivalent (a HS half of one) and four SMC (chapter A, the ruleset's
-- data, outside our text, which names Overstacking in 9.606). The other side's units and a
-- vehicle's crew are not counted. Before, a fourth squad was set up beside three.
kessel.test("case_9.62022_a_set_up_never_overstacks_a_location", function()
  local units = { T.squad("b1", "british", "6-4-8", "D8", kept("B")), T.hs("h1", "british", "6-4-8", "D8", kept("B")),
    T.leader("l5", "british", "8-0", "D8", kept("B")) }
  for i = 1, 3 do units[#units + 1] = T.squad("s" .. i, "british", "6-4-8", "D9", kept("B")) end
  for i = 1, 4 do units[#units + 1] = T.leader("l" .. i, "british", "7-0", "D10", kept("B")) end
  day_i(units)
  local ok, r = kessel.act{ kind = "set_up_retained", side = "british", unit = "b1", hex = "D9" }
  expect.refused(ok, r, "9.62022", "D9 would hold 4 squad-equivalents of the british, over the stacking limit of 3 squads a Location (A5.1")
  ok, r = kessel.act{ kind = "set_up_retained", side = "british", unit = "h1", hex = "D9" }
  expect.refused(ok, r, "9.62022", "D9 would hold 3.5 squad-equivalents of the british")
  ok, r = kessel.act{ kind = "set_up_retained", side = "british", unit = "l5", hex = "D10" }
  expect.refused(ok, r, "9.62022", "D10 would hold 5 SMC of the british, over the stacking limit of 4 SMC a Location")
  local offered = {}
  for _, a in ipairs(kessel.legal()) do
    if a.kind == "set_up_retained" then offered[#offered + 1] = a.unit .. ">" .. a.hex end
  end
  table.sort(offered)
  expect.eq(table.concat(offered, " "), "b1>D10 h1>D10 l1>D8 l1>D9 l2>D8 l2>D9 l3>D8 l3>D9 l4>D8 l4>D9 l5>D9 s1>D10 s1>D8 s2>D10 s2>D8 s3>D10 s3>D8",
    "no choice overstacks")
  expect.accepted(kessel.act{ kind = "set_up_retained", side = "british", unit = "l5", hex = "D9" })
  -- the first level of D9 is a Location of its own, with its own limit
  expect.accepted(kessel.act{ kind = "set_up_retained", side = "british", unit = "b1", hex = "D9", level = 1 })
end)

-- [9.602] [9.619] note b [9.62022] A unit the scenario hides (its `hidden`) is not one set up with
-- HIP bought in 9.619: each is refused a new Location naming what hid it. Before, both were "set up
-- hidden (HIP) already", the scenario's own too.
kessel.test("case_9.62022_a_unit_hidden_by_the_scenario_is_not_called_hip", function()
  day_i({ T.squad("b1", "british", "6-4-8", "D8", { vars = { hidden = true, reph = { status = "retained", area = "B" } }, hidden_from = true }),
    T.squad("b2", "british", "6-4-8", "D10", kept("B")) },
    { fpp = { british = 3 } })
  local ok, r = kessel.act{ kind = "set_up_retained", side = "british", unit = "b1", hex = "D9" }
  expect.refused(ok, r, "9.62022", "b1 is hidden by the scenario (its `hidden`), not with HIP bought in 9.619")
  -- one the side set up with HIP it bought is named so
  T.setup{ step = "fortifications", units = { T.squad("b1", "british", "6-4-8", "D8", kept("B")), T.squad("b2", "british", "6-4-8", "D10", kept("B")) },
    vars = { date = "day_i", fpp = { british = 3 },
      setup_areas = { hexes = { D8 = "british", D9 = "british", D10 = "british", H8 = "german" },
        areas = { british = { { id = "B", hexes = { "D8", "D9", "D10" } } }, german = { { id = "A", hexes = { "H8" } } } } } } }
  expect.accepted(kessel.act{ kind = "buy_fortification", side = "british", item = "hip_squad" })
  T.resolve()
  expect.accepted(kessel.act{ kind = "set_up_hip", side = "british", unit = "b1" })
  ok, r = kessel.act{ kind = "set_up_retained", side = "british", unit = "b1", hex = "D9" }
  expect.refused(ok, r, "9.619", "b1 is set up hidden with HIP already (note b)")
end)

-- [9.619] [9.602] The text's name for the purchase item is "?": the item is `question_mark`. Its
-- old name `dummy` (a Dummy in the text is a Dummy stack or cloaking counter, 9.602) is refused
-- naming the new one, at purchase and in a scenario's record of either CG; a record of a "?" is
-- refused as its purchase is. Before, a `fortifications_<side>` record of `dummy` passed the check.
kessel.test("case_9.619_the_question_mark_item_is_named_as_the_text_names_it", function()
  local S = require("rules.sequence")
  T.setup{ step = "fortifications", vars = { date = "day_i", fpp = { british = 3 } } }
  local ok, r = kessel.act{ kind = "buy_fortification", side = "british", item = "dummy" }
  expect.refused(ok, r, "9.619", "`dummy` is no longer an item: the text's \"?\" is item `question_mark`")
  for _, module in ipairs({ "pb", "rb" }) do
    local other = module == "pb" and "british" or "russian"
    T.setup{ module = module, step = module == "pb" and "fortifications" or "markers",
      vars = { date = module == "pb" and "day_i" or "18oct", ["fortifications_" .. other] = { { item = "dummy", date = module == "pb" and "day_i" or "18oct" } },
        fortifications_german = { { item = "question_mark" } } } }
    local text = table.concat((function()
      local out = {}
      for _, p in ipairs(S.record_problems()) do out[#out + 1] = type(p) == "table" and p.message or tostring(p) end
      return out
    end)(), "\n")
    expect.truthy(text:find("[9.619] fortifications_" .. other .. "[1]: `dummy` is no longer an item: the text's \"?\" is item `question_mark`", 1, true), module .. ": " .. text)
    expect.truthy(text:find("[9.619] fortifications_german[1]: a \"?\" (item question_mark) is priced at 1 FPP", 1, true), module .. ": " .. text)
  end
end)

-- [9.619] note b: "one 50* MTR SW per MMC" sets up hidden with a HIP unit beside what its IPC
-- carries. The text names the German light mortar a 50* MTR (9.6182 EX): `LtMTR`. Whether the
-- British 51 MTR is one, and whether the mortar goes beside the SW up to the IPC or only instead of
-- them, it does not say: the options `hip_mortar_51mm` (off) and `hip_mortar_beyond_ipc` (on), each
-- named in the note. Before, the reading was fixed in the code and named nowhere.
kessel.test("case_9.619_note_b_the_50_mtr_reading_is_a_declared_option", function()
  -- a squad (IPC 3) holding three LMG (1 PP each: its IPC) and a mortar beyond them
  local function play(side, weapon, options)
    local sq = side == "german" and "4-6-7" or "6-4-8"
    local at = side == "german" and "H8" or "D8"
    local units = { T.squad("u", side, sq, at, kept(side == "german" and "A" or "B")),
      T.sw("mtr", side, weapon, at, { vars = { possessed_by = "u" } }) }
    for i = 1, 3 do units[#units + 1] = T.sw("a" .. i, side, "LMG", at, { vars = { possessed_by = "u" } }) end
    T.setup{ step = "fortifications", options = options, units = units,
      vars = { date = "day_i", fpp = { british = 3, german = 3 },
        setup_areas = { hexes = { D8 = "british", D9 = "british", H8 = "german", H9 = "german" },
          areas = { british = { { id = "B", hexes = { "D8", "D9" } } }, german = { { id = "A", hexes = { "H8", "H9" } } } } } } }
    expect.accepted(kessel.act{ kind = "buy_fortification", side = side, item = "hip_squad" })
    T.resolve()
    local ev = expect.accepted(kessel.act{ kind = "set_up_hip", side = side, unit = "u" })
    local hidden = {}
    for _, id in ipairs({ "a1", "a2", "a3", "mtr" }) do
      if #kessel.units.hidden_from(id) > 0 then hidden[#hidden + 1] = id end
    end
    return table.concat(hidden, " "), ev
  end
  local got, ev = play("german", "LtMTR")
  expect.eq(got, "a1 a2 a3 mtr", "the German 50* MTR beside the SW its IPC carries")
  T.has_note(ev, "mtr beyond its IPC as its one 50* MTR (note b's 50* MTR read as the German LtMTR, beside the SW up to the IPC (options hip_mortar_51mm, hip_mortar_beyond_ipc))")
  got = play("german", "LtMTR", { hip_mortar_beyond_ipc = false })
  expect.eq(got, "a1 a2 a3", "read as instead of the SW: the mortar sets up in sight")
  got, ev = play("british", "51 MTR")
  expect.eq(got, "a1 a2 a3", "the British 51 MTR is not the text's 50* MTR by default")
  T.has_note(ev, "mtr beyond its IPC set up in sight, unpossessed (note b)")
  got, ev = play("british", "51 MTR", { hip_mortar_51mm = true })
  expect.eq(got, "a1 a2 a3 mtr", "read as a 50* MTR by the option")
  T.has_note(ev, "read as the German LtMTR or the British 51 MTR")
end)

-- [11.6051] [11.6052] [11.6062] RB's Strategic Locations are defined in its 11.2, outside our
-- text; whether a functioning Gun or a manned Immobile vehicle makes one, as PB's 9.605 "G" and "V"
-- do, is the option `rb_strategic_guns_vehicles` (off by default). On, a type B area keeps the
-- Control marker the rules made in the Location of its Gun; off, it goes with the area's others.
-- Before, the question was left open in a comment and no reading could be chosen.
kessel.test("case_11.6052_a_gun_as_a_strategic_location_is_a_declared_option", function()
  local function play(options)
    T.setup{ module = "rb", step = "perimeter", options = options,
      vars = { date = "18oct", isolated_areas = { { hexes = { "E5", "E6", "E7" } } } },
      units = { T.leader("gl", "german", "8-0", "E7"), T.gun("g", "russian", "45L AT", "E5") },
      valued = { { kind = "control", side = "russian", hex = "E5", value = { level = 0, made = "11.6062" } },
        { kind = "control", side = "russian", hex = "E6", value = { level = 0, made = "11.6062" } } } }
    T.resolve()
    expect.eq(kessel.game.var("isolated_areas")[1].type, "B")
    local left = {}
    for _, m in ipairs(kessel.markers.all{ kind = "control", placed = true }) do left[#left + 1] = m.hex end
    table.sort(left)
    return table.concat(left, " ")
  end
  expect.eq(play(), "", "off: a Gun makes no Strategic Location in RB")
  expect.eq(play({ rb_strategic_guns_vehicles = true }), "E5", "on: the Gun's Location keeps its Control")
end)

-- [9.62022] "Once the side setting up first has completed its setup, the other side follows": the
-- step does not end in a side's set-up turn; each side ends its own with finish_setup. Before,
-- the British (setting up first on Day I) ended the step with end_step, and the German, who had
-- Retained units to set up, never had his turn.
kessel.test("case_9.62022_the_step_does_not_end_in_a_sides_set_up_turn", function()
  day_i({ T.squad("b1", "british", "6-4-8", "D8", kept("B")), T.squad("g1", "german", "4-6-7", "H8", kept("A")) })
  expect.eq(kessel.queries.ask("deciding_side"), "british")
  local ok, r = kessel.act{ kind = "end_step", side = "british" }
  expect.refused(ok, r, "9.62022", "it is the british setting up its non-Isolated Locations [9.62022]: finish_setup{} ends that turn")
  for _, a in ipairs(kessel.legal()) do expect.truthy(a.kind ~= "end_step", "end_step is not offered in a set-up turn") end
  expect.accepted(kessel.act{ kind = "finish_setup", side = "british" })
  ok, r = kessel.act{ kind = "end_step", side = "british" }
  expect.refused(ok, r, "9.62022", "it is the german setting up its non-Isolated Locations")
  expect.accepted(kessel.act{ kind = "set_up_retained", side = "german", unit = "g1", hex = "H9" })
  expect.accepted(kessel.act{ kind = "finish_setup", side = "german" })
  T.resolve()
  expect.eq(T.unit("g1").hex, "H9", "the German had his turn")
  T.replays()
end)

-- [A5.1] [9.6178] [9.62022] An RG counter sets up within the stacking limit where its recorded
-- Setup Area has room; one whose area has none (here a one-hex area holding three squads) sets up
-- over it, noted, rather than wait off the map: the step waits for every RG counter, so the RePh
-- would never end (our reading: the text gives such an RG no other way in).
kessel.test("case_9.62022_an_rg_counter_with_no_room_in_its_area_sets_up_over_the_limit", function()
  local units = { T.squad("b1", "british", "6-4-8", "C3") }
  for i = 1, 3 do units[#units + 1] = T.squad("g" .. i, "german", "4-6-7", "H8") end
  T.setup{ step = "rg_purchase", units = units,
    vars = { date = "day_i", cpp = { german = 20 },
      setup_areas = { hexes = { H8 = "german", C3 = "british" },
        areas = { german = { { id = "A", hexes = { "H8" } } }, british = { { id = "A", hexes = { "C3" } } } } } } }
  expect.accepted(kessel.act{ kind = "buy_rg", side = "german", rg = "I4", area = "A" })
  T.resolve()  -- 9.617
  kessel.inject_dice{ 3, 3, 1, 1, 1, 3, 3 }
  T.resolve()  -- 9.618
  T.resolve()  -- 9.619
  local rec = kessel.game.var("rg_record")[1]
  local ok, ev = kessel.act{ kind = "set_up_unit", side = "german", unit = rec.units[1], hex = "H8" }
  expect.accepted(ok, ev)
  T.has_note(ev, rec.units[1] .. " (RG) sets up in H8 over the stacking limit: no Location of its Setup Area has room for it (A5.1)")
  for _ = 1, 20 do
    local a = nil
    for _, x in ipairs(kessel.legal()) do if x.kind == "set_up_unit" then a = x; break end end
    if not a then break end
    expect.accepted(kessel.act(a))
  end
  expect.eq(#kessel.units.all{ side = "german", location = "pending" }, 0, "every RG counter is on the map")
  T.resolve()  -- 9.620 ends
  expect.eq(T.unit(rec.units[1]).hex, "H8")
end)
