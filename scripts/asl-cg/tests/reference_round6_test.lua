-- Situations from the reference texts, sixth tester pass (ASL round 6): each test rebuilds one
-- situation, names its case, and checks what the text says must happen.
local T = require("testing.cg")
local expect = T.expect

-- [9.6152] Note 3 (Dawn): the two 57L AT Guns set up in a non-Isolated British Setup Area, in a
-- hex numbered 20 or more. Area A (rows 3-4) is the first non-Isolated area, where Note 1 sends
-- the rest; the Guns go to area B's hex numbered >= 20 (C21), not to A. Before, they were put
-- with the rest in A's C3.
kessel.test("case_9.6152_note_3_dawn_guns_set_up_in_hexes_numbered_20_or_more", function()
  local areas = { hexes = {}, areas = { british = { { id = "A", hexes = { "C3", "C4" } }, { id = "B", hexes = { "C19", "C21" } },
    { id = "C", hexes = { "H22" }, isolated = true } }, german = {} } }
  T.setup{ map = { rows = 24 }, step = "reinforcements", vars = { date = "dawn", setup_areas = areas } }
  local ev = T.resolve()
  local guns, squads = 0, 0
  for _, u in ipairs(kessel.units.all{ side = "british" }) do
    if u.type == "gun" then
      guns = guns + 1
      expect.eq(u.hex, "C21", "a Gun in a hex numbered >= 20")
      expect.eq(u.vars.reph.area, "B")
    elseif u.type == "squad" then
      squads = squads + 1
      -- Note 1: the first non-Isolated Setup Area, three squads a Location [A5.1]
      expect.eq(u.hex, squads <= 3 and "C3" or "C4", "Note 1: the first non-Isolated Setup Area")
    end
  end
  expect.eq(guns, 2)
  expect.eq(squads, 4)
  T.has_note(ev, "Note 3: the Guns set up in Setup Area B, in C21")
  expect.eq(T.record(ev, "reinforcements").guns, "B")
  T.replays()
end)

-- [9.6152] Note 3: no non-Isolated British Setup Area holds a hex numbered 20 or more (C22 is in
-- an Isolated one): Z28 becomes an Eligible Entry Area and the Guns are Manhandled on from it;
-- the rest still set up in area A (Note 1)
kessel.test("case_9.6152_note_3_no_hex_numbered_20_guns_enter_at_z28", function()
  local areas = { hexes = {}, areas = { british = { { id = "A", hexes = { "C3", "C4" } }, { id = "B", hexes = { "C22" }, isolated = true } },
    german = {} } }
  T.setup{ map = { rows = 24 }, step = "reinforcements", vars = { date = "dawn", setup_areas = areas } }
  local ev = T.resolve()
  for _, u in ipairs(kessel.units.all{ side = "british", type = "gun" }) do
    expect.eq(u.location, "pending", "off-map at the Entry Area")
    expect.eq(u.vars.reph.area, "Z28")
  end
  T.has_note(ev, "Z28 is an Eligible Entry Area and the Guns are Manhandled")
  for i, u in ipairs(kessel.units.all{ side = "british", type = "squad" }) do expect.eq(u.hex, i <= 3 and "C3" or "C4") end
end)

-- [9.6056] EXC British non-Airborne units/SW [9.6153]: after the Day II CG scenario, a Day II
-- reinforcement squad (not Airborne) with its LMG in the German Setup Area (I5) and one in No
-- Man's Land (F5) are not put through the chart: no Escape (which could leave the LMG on the map
-- for the Germans); they are withdrawn in 9.6153. An Airborne squad in the German area must still
-- Escape. Before, both non-Airborne squads had to attempt Escape.
kessel.test("case_9.6056_british_non_airborne_units_are_not_charted_after_day_ii", function()
  T.setup{ step = "setup_areas", map = { tags = { strategic = { "E5", "H5" } }, areas = { A9 = { "A9", "A10" }, L1 = { "L1" } } },
    markers = { { kind = "control", side = "german", at = "H5" }, { kind = "control", side = "british", at = "E5" } },
    vars = { date = "day_ii", entry_areas = { german = { A9 = true }, british = { L1 = true } } },
    units = { T.squad("inf", "british", "6-4-8", "I5", { vars = { airborne = false } }),
      T.sw("lmg", "british", "LMG", "I5", { vars = { possessed_by = "inf", airborne = false } }),
      T.squad("inf2", "british", "6-4-8", "F5", { vars = { airborne = false } }),
      T.squad("para", "british", "6-4-8", "I6") } }
  local ev = T.resolve()
  expect.eq(T.unit("inf").vars.reph.status, "to_withdraw")
  expect.eq(T.unit("inf2").vars.reph.status, "to_withdraw")
  expect.eq(T.unit("para").vars.reph.status, "must_escape", "an Airborne squad is charted as ever")
  T.has_note(ev, "inf is a British non-Airborne unit: the chart does not apply to it")
  -- 9.606: only the Airborne squad makes its compulsory Escape DR
  kessel.inject_dice{ 1, 1 }
  ev = T.resolve()
  local rec = T.record(ev, "escape")
  expect.eq(rec.units[1], "para")
  for _, e in ipairs(ev) do
    if e.event == "record" and e.kind == "escape" then expect.eq(e.fields.units[1], "para", "no Escape DR for a non-Airborne unit") end
  end
  expect.eq(T.unit("lmg").vars.possessed_by, "inf")
  -- on to 9.615: both are withdrawn with the LMG
  while kessel.game.step().id ~= "reinforcements" do T.resolve() end
  T.resolve()
  expect.eq(T.unit("inf").location, "removed")
  expect.eq(T.unit("inf2").location, "removed")
  expect.eq(T.unit("lmg").location, "removed")
  expect.eq(T.unit("para").location, "map")
end)

-- [9.6171] [9.619] a GM who types an RG or a Fortification the tables do not have is told what
-- they have: the refusal lists the RG IDs that may be bought and the purchase table's items (each
-- listed name is accepted by the table)
kessel.test("case_9.619_an_unknown_purchase_lists_what_the_tables_have", function()
  local P = require("rules.purchase")
  T.setup{ step = "rg_purchase", vars = { date = "day_i", cpp = { german = 30 }, entry_areas = { german = { A7 = true } } } }
  local ok, reasons = kessel.act{ kind = "buy_rg", side = "german", rg = "i4", entry = "A7" }
  local why = expect.refused(ok, reasons, "9.6171", "no RG `i4` on the RG chart")
  expect.truthy(why.message:find("I4, I5, V1", 1, true), why.message)
  expect.truthy(why.message:find("M1)", 1, true), why.message)
  expect.falsy(why.message:find("I1", 1, true), "an Initial-Scenario RG is not offered")
  T.setup{ step = "fortifications", vars = { date = "day_i", fpp = { british = 20 } } }
  ok, reasons = kessel.act{ kind = "buy_fortification", side = "british", item = "foxhole" }
  why = expect.refused(ok, reasons, "9.619", "no Fortification `foxhole`")
  for _, item in ipairs(P.FORT_ITEMS) do
    expect.truthy(why.message:find(item, 1, true), item)
    expect.truthy(pcall(kessel.tables.cell, "fortification_costs", item, "cost"), item .. " is a row of the table")
  end
end)

-- [9.61222] [9.6131] the German Controls the building in II13 (hexes II13 and II14) by occupation
-- alone (no Control marker) when 9.605 determines the Setup Areas: a squad in II13 (a Strategic
-- Location: 9.605 marks its Control) and, alone in II14, a wounded leader, who is evacuated in
-- 9.6101. II14 keeps its Control (9.6131: a vacated Setup Area stays the vacating side's;
-- A26.11), so in 9.612 the German SAN is still unadjusted. Before, 9.612 read the emptied hex as
-- uncontrolled and made the German SAN dr (6 + 2 = 8: SAN 6 -> 4).
kessel.test("case_9.61222_9.6131_ii13_vacated_after_9.605_stays_german", function()
  T.setup{ step = "setup_areas", map = { columns = 36, rows = 14, tags = { strategic = { "II13", "C3" } }, areas = { EA = { "HH12", "HH11" } },
      places = { { name = "II13", kind = "building", hexes = { "II13", "II14" } } }, terrain = { II13 = "stone_building", II14 = "stone_building" } },
    vars = { date = "day_i", san = { british = 2, german = 6 }, entry_areas = { german = { EA = true } } },
    units = { T.squad("g", "german", "4-6-7", "II13"), T.leader("gl", "german", "8-0", "II14", { vars = { wounded = true } }),
      T.squad("b", "british", "6-4-8", "C3") } }
  local ev = T.resolve()
  expect.eq(kessel.game.var("setup_areas").hexes.II14, "german")
  while kessel.game.step().id ~= "wounded" do T.resolve() end
  kessel.inject_dice{ 6 }   -- 6 + 0: evacuated
  T.resolve()
  expect.eq(T.unit("gl").location, "eliminated", "II14 is empty now")
  while kessel.game.step().id ~= "date_san" do T.resolve() end
  kessel.inject_dice{ 6 }   -- a German SAN dr, if one were made: 6 + 2 = 8, SAN 6 -> 4
  ev = T.resolve()
  expect.eq(kessel.game.var("date"), "day_ii")
  expect.eq(T.C.get_in("san", "german"), 6, "unadjusted: the Germans still Control II13")
  T.has_note(ev, "(vacated since 9.605, it stays German-Controlled: 9.6131): German SAN unadjusted")
end)

-- [11.607] [11.6072] [11.6073] [11.615] RB Control by occupation alone (no Control markers): a
-- Russian squad holds C5, D4 and E5. 11.607 clears them to the Retained box, but the Locations
-- stay Russian-Controlled: the unpossessed German LMG in C5 is Retained (Captured) by the
-- Russians, the hidden German minefield in C5 is revealed as Known, the hidden German Set DC in E5
-- is Eliminated, and in 11.615 the Russians may roll to remove the German wire in D4. Before, the
-- clearing emptied the Locations first: the LMG stayed German (its id sorting after the squad's),
-- the minefield and the DC stayed hidden, and the removal was refused "only in a friendly-
-- Controlled Location".
kessel.test("case_11.607_cleared_locations_keep_their_control", function()
  T.setup{ module = "rb", step = "equipment", vars = { date = "18oct" }, units = {
    T.squad("a", "russian", "4-4-7r", "C5"), T.squad("b", "russian", "4-4-7r", "D4"), T.squad("c", "russian", "4-4-7r", "E5"),
    T.sw("z_lmg", "german", "LMG", "C5"), T.sw("z_dc", "german", "DC", "E5", { vars = { hidden = true, set_dc = true } }) },
    valued = { { kind = "ap_mine", side = "german", hex = "C5", value = { strength = 6, hidden = true } },
      { kind = "wire", side = "german", hex = "D4", value = { fortification = true } } } }
  local ev = T.resolve()
  expect.eq(T.unit("a").location, "pending", "cleared to the Retained box")
  expect.eq(T.unit("z_lmg").side, "russian", "Retained (Captured) by the side Controlling C5 [11.6072]")
  expect.eq(T.unit("z_dc").location, "eliminated", "a hidden Set DC in an enemy-Controlled Location [11.6073]")
  T.has_note(ev, "in C5 is revealed as a Known minefield")
  while kessel.game.step().id ~= "fort_removal" do T.resolve() end
  local wire
  for _, m in ipairs(kessel.markers.all{ kind = "wire" }) do wire = m end
  kessel.inject_dice{ 1 }
  expect.accepted(kessel.act{ kind = "remove_fortification", side = "russian", marker = wire.id })
  T.replays()
end)

-- [11.6094] [11.6095] the formerly Isolated hexes of a building that burns down, and of a Factory
-- that is Gutted, become Controlled by the opponent. The Cafe (D4, D5) is a German Isolated Area
-- with a German Control marker in D4 and two Isolated German squads there; it burns down: both
-- squads are Eliminated and both hexes are the Russians' (one Control marker each, the German one
-- gone). The Factory (F5, F6) holds an Isolated Russian squad in F5 and is Gutted: F5 and F6 are
-- German-Controlled. Before, D4 got a Russian marker per Eliminated unit beside the German one
-- (which the Control lookup could read first), D5 none, and the Factory none.
kessel.test("case_11.6094_11.6095_formerly_isolated_hexes_pass_to_the_opponent", function()
  T.setup{ module = "rb", step = "blazes", map = { terrain = { D4 = "wooden_building", D5 = "wooden_building", F5 = "factory", F6 = "factory" },
      places = { { name = "Cafe", kind = "building", hexes = { "D4", "D5" } }, { name = "Works", kind = "building", hexes = { "F5", "F6" } } } },
    markers = { { kind = "control", side = "german", at = "D4" }, { kind = "blaze", at = "D5" }, { kind = "blaze", at = "F6" } },
    vars = { isolated_areas = { { hexes = { "D4", "D5" } }, { hexes = { "F5", "F6" } } } },
    units = { T.squad("g1", "german", "4-6-7", "D4", { vars = { isolated = true } }), T.squad("g2", "german", "4-6-7", "D4", { vars = { isolated = true } }),
      T.squad("r1", "russian", "4-4-7r", "F5", { vars = { isolated = true } }) } }
  T.resolve()
  local A = require("rules.areas")
  expect.eq(T.unit("g1").location, "eliminated")
  expect.eq(T.unit("g2").location, "eliminated")
  expect.eq(T.unit("r1").location, "eliminated")
  for _, h in ipairs({ "D4", "D5" }) do
    expect.eq(A.controller(h, 0), "russian", h)
    local n = 0
    for _, m in ipairs(kessel.markers.at(h)) do if m.kind == "control" and m.hex == h then n = n + 1; expect.eq(m.side, "russian", h) end end
    expect.eq(n, 1, "one Control marker in " .. h)
  end
  expect.eq(A.controller("F5", 0), "german")
  expect.eq(A.controller("F6", 0), "german")
end)

-- [9.608] a freed prisoner is Retained into the nearest friendly Setup/Eligible-Entry Area "in
-- shortest path of contiguous, Enterable Locations": unlike an Escape [9.6061] it does not avoid
-- enemy Setup-Area Locations. The British prisoner in F5 is freed by its Isolated German Guard;
-- the German area holds every hex within two of F5 but F4 and F3. British area B (F8) is three
-- hexes away through two German hexes, area A (F1) four hexes away through Uncontrolled Territory:
-- B is the nearest. Before, the Escape path was used and the prisoner went to A.
kessel.test("case_9.608_a_freed_prisoner_takes_the_shortest_path", function()
  local hexes, german = {}, {}
  T.setup{ step = "prisoners", units = {
    T.squad("gi", "german", "4-6-7", "F5", { vars = { isolated = true, reph = { status = "isolated", area = "A" } } }),
    T.squad("p", "british", "6-4-8", "F5", { vars = { prisoner_of = "german", guarded_by = "gi", unarmed = true } }) } }
  for _, h in ipairs(kessel.map.hexes()) do hexes[h] = "ut" end
  for _, h in ipairs(kessel.hex.range("F5", 2)) do
    if h ~= "F4" and h ~= "F3" then hexes[h] = "german"; german[#german + 1] = h end
  end
  hexes.F1, hexes.F8 = "british", "british"
  kessel.emit.var("setup_areas", { hexes = hexes, ctrl = {}, areas = {
    german = { { id = "A", hexes = german, isolated = true } },
    british = { { id = "A", hexes = { "F1" }, isolated = false }, { id = "B", hexes = { "F8" }, isolated = false } } } })
  local ok, ev = kessel.act{ kind = "prisoner", side = "german", unit = "p", choice = "free" }
  expect.accepted(ok, ev)
  expect.eq(T.unit("p").hex, "F8", "the nearest area by the shortest path")
  expect.eq(T.unit("p").vars.reph.area, "B")
  T.has_note(ev, "[9.608] p is Retained into the nearest friendly area: Setup Area B")
  expect.eq(T.note(ev, "escapes to"), nil, "a freed prisoner does not escape")
end)

-- [9.6058] before Night II, a German unit on a No Move counter begins Night II where it ended
-- Night I: it may not Shift to another area in 9.613 (nor is the Shift offered); one on a
-- free-movement hex (D3) may. Two Refit Phases later (before Dawn: the Night III date has taken
-- the No Move counters off in 9.602), the same unit may Shift again: its mark is decided anew in
-- 9.605. Before, the mark was set and nothing read it: the Shift was accepted.
kessel.test("case_9.6058_a_no_move_unit_may_not_shift_before_night_ii", function()
  local function ctrl(side, hex) return { kind = "control", side = side, at = hex } end
  local function play(date, no_move)
    T.setup{ step = "setup_areas", map = { columns = 14, rows = 12, tags = { strategic = { "C3", "C9", "M6" }, free_movement = { "D3" } },
        areas = { A1 = { "A1" }, N12 = { "N12" } } },
      markers = { ctrl("german", "C3"), ctrl("german", "C9"), ctrl("british", "M6") },
      vars = { entry_areas = { german = { A1 = true, N12 = true } }, date = date },
      units = { T.squad("g", "german", "4-6-7", "C3", { vars = { no_move = no_move, fixed = true } }),
        T.squad("f", "german", "4-6-7", "D3", { vars = { no_move = no_move } }) } }
    while kessel.game.step().id ~= "shift" do T.resolve() end
  end
  play("night_i", true)
  expect.eq(T.unit("g").vars.fixed, true)
  local ok, r = kessel.act{ kind = "shift", side = "german", units = { "g" }, to = "A1" }
  expect.refused(ok, r, "9.6058", "No Move")
  for _, a in ipairs(kessel.legal("german")) do
    if a.kind == "shift" then
      for _, id in ipairs(a.units) do expect.truthy(id ~= "g", "a Shift of g is not offered") end
    end
  end
  expect.accepted(kessel.act{ kind = "shift", side = "german", units = { "f" }, to = "A1" })
  -- a later RePh: no No Move counter (9.602 took it off before Night III), an old mark
  play("night_iii", nil)
  expect.eq(T.unit("g").vars.fixed, nil, "decided anew in 9.605")
  expect.accepted(kessel.act{ kind = "shift", side = "german", units = { "g" }, to = "A1" })
end)

-- [9.6121] [11.6121] a CG Date a GM could mistype ("Day I", "day1", "Oct 18") is refused by
-- `kessel check` (the `check` hook) with the dates the module has; before, it passed and the RePh
-- kept the date unchanged, with no CPP Base # [9.6161]
kessel.test("case_9.6121_a_date_not_on_the_list_is_refused_at_check", function()
  local S = require("rules.sequence")
  T.setup{ step = "markers", vars = { date = "Day I", next_date = "day2", san = { british = 4, german = 2 } } }
  local text = table.concat(S.record_problems(), "\n")
  expect.truthy(text:find("[9.6121] date `Day I` is not a CG Date of the PB campaign game (night_i, night_ii, night_iii, dawn, day_i, day_ii, day_iii, dusk)", 1, true), text)
  expect.truthy(text:find("next_date `day2`", 1, true), text)
  T.setup{ module = "rb", step = "markers", vars = { date = "Oct 18", previous_date = "17oct" } }
  text = table.concat(S.record_problems(), "\n")
  expect.truthy(text:find("[11.6121] date `Oct 18` is not a CG Date of the RB campaign game (17oct, 18oct ... 15nov)", 1, true), text)
  expect.falsy(text:find("previous_date", 1, true), "17oct is a date")
  T.setup{ step = "markers", vars = { date = "day_i", last_date = "dusk" } }
  expect.eq(#S.record_problems(), 0)
end)

-- [9.6102] the Walking Wounded MMC recovered are placed in a non-Isolated British Setup Area, and
-- are Retained there like any unit of it: they may Shift with the others of that area in 9.613
-- [9.613], and a Hero of that area may Battle Harden one [9.6112]. Before, they were placed in
-- the area's first hex with no Setup Area recorded, so a Shift of theirs was refused ("Retained in
-- one Setup or Entry Area").
kessel.test("case_9.6102_walking_wounded_are_retained_in_their_setup_area", function()
  local function ctrl(side, hex) return { kind = "control", side = side, at = hex } end
  T.setup{ step = "setup_areas", map = { columns = 14, rows = 12, tags = { strategic = { "C3", "C9", "M6" } }, areas = { L1 = { "L1" } } },
    markers = { ctrl("british", "C3"), ctrl("british", "C9"), ctrl("german", "M6") },
    vars = { entry_areas = { british = { L1 = true } }, date = "day_i", walking_wounded = 1 },
    units = { T.squad("b", "british", "6-4-8", "C3") } }
  while kessel.game.step().id ~= "shift" do T.resolve() end
  local ww
  for _, u in ipairs(kessel.units.all{ side = "british", type = "squad" }) do if u.vars.ww then ww = u end end
  expect.truthy(ww, "a WW squad is recovered")
  expect.eq(ww.vars.reph.area, T.unit("b").vars.reph.area, "Retained in the Setup Area it is placed in")
  kessel.inject_dice{ 1, 1 }
  local ok, ev = kessel.act{ kind = "shift", side = "british", units = { "b", ww.id }, to = "B" }
  expect.accepted(ok, ev)
end)

-- [9.606] [9.608] a prisoner is no unit that Escapes: its fate is 9.608's. A British squad stayed
-- Isolated in the last RePh (its record says so) and was Captured in the scenario since; in this
-- RePh's 9.606 it may not attempt Escape, and none is offered. Before, 9.605 left the old record
-- on a prisoner, and the British could roll its Escape.
kessel.test("case_9.606_a_prisoner_does_not_escape", function()
  local function ctrl(side, hex) return { kind = "control", side = side, at = hex } end
  T.setup{ step = "setup_areas", map = { columns = 14, rows = 12, tags = { strategic = { "C3", "M6" } }, areas = { L1 = { "L1" }, A1 = { "A1" } } },
    markers = { ctrl("german", "C3"), ctrl("british", "M6") },
    vars = { entry_areas = { british = { L1 = true }, german = { A1 = true } }, date = "day_i" },
    units = { T.squad("g", "german", "4-6-7", "C3"),
      T.squad("p", "british", "6-4-8", "C3", { vars = { prisoner_of = "german", guarded_by = "g", unarmed = true,
        reph = { status = "isolated", area = "B", why = "9.6052" } } }) } }
  T.resolve()
  expect.eq(kessel.game.step().id, "escape")
  local ok, r = kessel.act{ kind = "escape", side = "british", units = { "p" } }
  expect.refused(ok, r, "9.606", "p is a prisoner")
  for _, a in ipairs(kessel.legal("british")) do expect.truthy(a.kind ~= "escape", "no Escape offered for a prisoner") end
  T.resolve()
  expect.eq(T.unit("p").vars.prisoner_of, "german", "still a prisoner for 9.608")
  expect.eq(T.unit("p").hex, "C3")
end)

-- [9.606] [9.613] a free Deploy is made before an Escape (9.606) or a Shift (9.613): typed in
-- another step, the refusal names both steps (it named 9.613 only, though a Deploy in 9.606 is
-- accepted)
kessel.test("case_9.606_9.613_a_deploy_out_of_its_steps_names_both", function()
  T.setup{ step = "rg_purchase", vars = { date = "day_i" }, units = { T.squad("g", "german", "4-6-7", "C3"), T.leader("gl", "german", "8-0", "C3") } }
  local ok, r = kessel.act{ kind = "deploy", side = "german", unit = "g" }
  expect.refused(ok, r, "9.606", "in RePh step 9.606 (before an Escape) or 9.613 (before a Shift)")
  T.setup{ step = "escape", vars = { date = "day_i" }, units = { T.squad("g", "german", "4-6-7", "C3", { vars = { reph = { status = "must_escape" } } }),
    T.leader("gl", "german", "8-0", "C3") } }
  expect.accepted(kessel.act{ kind = "deploy", side = "german", unit = "g" })
end)

-- [9.606] [9.613] [9.601] a GM who names a unit twice in an Escape stack, a Shift group, a drop
-- list or a Melee's Eliminated list is refused: the unit would count twice (an Escape of g1, g1
-- took +3 "HS-equivalents > one HS" instead of +1 for one squad, and Replaced and Reduced it
-- twice by Random Selection; a Shift rolled its casualty dr twice)
kessel.test("case_9.606_9.613_a_unit_named_twice_is_refused", function()
  T.setup{ step = "escape", vars = { date = "day_i" }, units = {
    T.squad("g1", "german", "4-6-7", "C5", { vars = { isolated = true, reph = { status = "isolated", area = "B" } } }),
    T.sw("m", "german", "LMG", "C5", { vars = { possessed_by = "g1" } }) } }
  local ok, r = kessel.act{ kind = "escape", side = "german", units = { "g1", "g1" } }
  expect.refused(ok, r, "9.606", "g1 is named twice")
  ok, r = kessel.act{ kind = "escape", side = "german", units = { "g1" }, drop = { "m", "m" } }
  expect.refused(ok, r, "9.606", "m is named twice in drop")
  local X = require("rules.escape")
  expect.eq((X.drm({ T.unit("g1") })), 3, "one squad: +1 HS-equivalent, +2 Isolated")
  T.setup{ step = "shift", vars = { date = "day_i" }, units = { T.squad("g", "german", "4-6-7", "C3", { vars = { reph = { status = "retained", area = "A" } } }) } }
  ok, r = kessel.act{ kind = "shift", side = "german", units = { "g", "g" }, to = "B" }
  expect.refused(ok, r, "9.613", "g is named twice")
  T.setup{ step = "melee", units = { T.squad("g", "german", "4-6-7", "C3"), T.squad("b", "british", "6-4-8", "C3") } }
  ok, r = kessel.act{ kind = "melee_outcome", hex = "C3", eliminated = { "b", "b" } }
  expect.refused(ok, r, "9.601", "b is named twice")
end)

-- [9.601] [9.62023] the ATTACKER of RePh Melee is the side that moved first in the scenario: after
-- a Day II scenario (British move first) the British; after Dawn (Germans move first) the
-- Germans; a scenario's own `attacker` is taken as given. Before, it was the German whatever the
-- date. The notes name it for the GM.
kessel.test("case_9.601_the_attacker_is_the_side_that_moved_first", function()
  local function melee(vars)
    T.setup{ step = "melee", vars = vars, units = { T.squad("g", "german", "4-6-7", "C3"), T.squad("b", "british", "6-4-8", "C3") } }
    local ok, ev = kessel.act{ kind = "melee_outcome", hex = "C3", eliminated = { "g" } }
    expect.accepted(ok, ev)
    local note = T.has_note(ev, "Melee in C3 resolved")
    local rec = T.record(T.resolve(), "melee")
    return rec.attacker, note.text
  end
  local who, text = melee({ date = "day_ii" })
  expect.eq(who, "british")
  expect.truthy(text:find("the ATTACKER: the british", 1, true), text)
  expect.eq((melee({ date = "dawn" })), "german")
  expect.eq((melee({ date = "day_ii", attacker = "german" })), "german")
end)

-- [9.6053] a unit in Uncontrolled Territory is Retained into the nearest friendly Setup or Eligible
-- Entry Area "and its portaged/possessed/towed Equipment" with it: the MMG of the squad in G9 goes
-- with it into the German Setup Area, the LMG of the squad in A2 with it off-map into Entry Area
-- A1. Before, the SW stayed behind in Uncontrolled Territory, still marked as held.
kessel.test("case_9.6053_equipment_is_retained_with_its_possessor", function()
  T.setup{ step = "setup_areas", map = { columns = 14, rows = 12, tags = { strategic = { "C9", "M6" } }, areas = { A1 = { "A1" } } },
    markers = { { kind = "control", side = "german", at = "C9" }, { kind = "control", side = "british", at = "M6" } },
    vars = { entry_areas = { german = { A1 = true } }, date = "day_i" },
    units = { T.squad("g", "german", "4-6-7", "G9"), T.sw("m", "german", "MMG", "G9", { vars = { possessed_by = "g" } }),
      T.squad("g2", "german", "4-6-7", "A2"), T.sw("m2", "german", "LMG", "A2", { vars = { possessed_by = "g2" } }) } }
  T.resolve()
  local g, m = T.unit("g"), T.unit("m")
  expect.eq(g.vars.reph.status, "retained")
  expect.truthy(g.hex ~= "G9", "g is moved into the Setup Area")
  expect.eq(m.location, "map")
  expect.eq(m.hex, g.hex, "its MMG goes with it")
  expect.eq(T.unit("g2").location, "pending", "Retained off-map in Entry Area A1")
  expect.eq(T.unit("g2").vars.reph.area, "A1")
  expect.eq(T.unit("m2").location, "pending", "its LMG goes with it")
  T.replays()
end)

-- [9.6042] [9.6101] [9.6112] [9.601] [11.6096] the SW of a unit Eliminated in the RePh: the text
-- names its fate for an Encircled unit (left unpossessed, 9.6041) and an escapee (9.6061), and is
-- silent elsewhere; we leave it unpossessed in the unit's Location (as 9.6041 and the 9.613 reading
-- do), so 9.6071 and the next scenario see it. An evacuated wounded leader's LMG, a Hero's LMG
-- (Eliminated to Battle Harden a squad), the LMG of a HS Casualty Reduced by an A-P minefield NTC
-- and of a squad Eliminated in Melee are left unpossessed where they were; the SW of an Isolated
-- unit confined to a Location now Blazing is Isolated Equipment there and is Eliminated with it
-- [11.6096]. Before, each SW stayed "held" by a unit no longer in play.
kessel.test("case_9.6101_9.6112_the_sw_of_an_eliminated_unit_is_left_unpossessed", function()
  local function held(id) return T.unit(id).vars.possessed_by end
  -- 9.6101: evacuated
  T.setup{ step = "wounded", vars = { date = "day_i" }, units = { T.leader("gl", "german", "8-0", "C3", { vars = { wounded = true } }),
    T.sw("l1", "german", "LMG", "C3", { vars = { possessed_by = "gl" } }) } }
  kessel.inject_dice{ 6 }
  local ev = T.resolve()
  expect.eq(T.unit("gl").location, "eliminated")
  expect.eq(held("l1"), nil)
  expect.eq(T.unit("l1").location, "map")
  expect.eq(T.unit("l1").hex, "C3")
  T.has_note(ev, "l1 is left unpossessed in C3")
  -- 9.6112: a Hero Eliminated to Battle Harden
  T.setup{ step = "hardening", vars = { date = "day_i" }, units = { T.hero("bh", "british", "C3", { vars = { reph = { status = "retained", area = "A" } } }),
    T.squad("b", "british", "6-4-8", "C3", { vars = { reph = { status = "retained", area = "A" } } }),
    T.sw("l2", "british", "LMG", "C3", { vars = { possessed_by = "bh" } }) } }
  T.resolve()
  expect.eq(T.unit("bh").location, "eliminated")
  expect.eq(held("l2"), nil)
  -- 9.6042: a HS Casualty Reduced (Eliminated) by the NTC
  T.setup{ step = "encirclement", vars = { date = "day_i" }, markers = { { kind = "ap_mine", side = "german", at = "D4" } },
    units = { T.hs("h", "british", "6-4-8", "D4"), T.sw("l3", "british", "LMG", "D4", { vars = { possessed_by = "h" } }) } }
  kessel.inject_dice{ 6, 6 }
  T.resolve()
  expect.eq(T.unit("h").location, "eliminated")
  expect.eq(held("l3"), nil)
  -- 9.601: Eliminated in Melee
  T.setup{ step = "melee", units = { T.squad("g", "german", "4-6-7", "C3"), T.squad("b", "british", "6-4-8", "C3"),
    T.sw("l4", "german", "LMG", "C3", { vars = { possessed_by = "g" } }) } }
  expect.accepted(kessel.act{ kind = "melee_outcome", hex = "C3", eliminated = { "g" } })
  expect.eq(held("l4"), nil)
  -- 11.6096: an Isolated unit and its SW, confined to a Location now Blazing
  T.setup{ module = "rb", step = "blazes", vars = { date = "18oct" }, map = { terrain = { C3 = "woods" } }, markers = { { kind = "flame", at = "C3" } },
    units = { T.squad("iso", "german", "4-6-7", "C3", { vars = { isolated = true } }), T.sw("l5", "german", "LMG", "C3", { vars = { possessed_by = "iso" } }) } }
  T.resolve()
  expect.eq(T.unit("iso").location, "eliminated")
  expect.eq(T.unit("l5").location, "eliminated", "Isolated Equipment confined to the Blazing Location")
end)

-- [9.6141c] [9.6142] a vehicle's mounted Weapons go with it: the Marder under Recall is
-- Eliminated, and its malfunctioned vehicular MG with it, so 9.6142 makes no repair dr for that
-- MG and says nothing of it. Before, the MG stayed Retained on the map, "mounted" on an
-- Eliminated vehicle, and 9.6142 noted it stayed malfunctioned for want of a crew.
kessel.test("case_9.6141_a_vehicles_mounted_weapons_go_with_it", function()
  T.setup{ step = "repair", vars = { date = "day_i" }, units = {
    T.vehicle("a", "german", "Marder", "C3", { vars = { recall = true } }),
    T.sw("amg", "german", "MG", "C3", { vars = { vehicular = true, mounted_on = "a", malfunctioned = true } }) } }
  local ev = T.resolve()
  expect.eq(T.unit("a").location, "eliminated")
  expect.eq(T.unit("amg").location, "eliminated", "mounted on a, it goes with it")
  T.has_note(ev, "amg (mounted on a) is Eliminated with it")
  expect.eq(T.note(ev, "amg makes no repair dr"), nil)
end)

-- [9.606] [9.6071] [9.613] a vehicle's mounted Weapons go where it goes: the German tank in the
-- British Setup Area (B5) Escapes into the German Setup Area, its MG with it, and in 9.6071 the MG
-- is not Equipment of the British area (it is no unpossessed SW); a Shifted tank likewise takes
-- its MG. Before, the MG stayed in B5 and 9.6071 had the British Capture it.
kessel.test("case_9.606_9.6071_a_vehicles_mounted_weapons_go_where_it_goes", function()
  local function ctrl(side, hex) return { kind = "control", side = side, at = hex } end
  T.setup{ step = "setup_areas", map = { columns = 16, rows = 9, tags = { strategic = { "C5", "N5" } }, areas = { P1 = { "P1", "P2" } } },
    markers = { ctrl("british", "C5"), ctrl("german", "N5") },
    vars = { entry_areas = { german = { P1 = true } }, date = "day_i" },
    units = { T.vehicle("pz", "german", "PzKpfw IVH", "B5"), T.sw("pzmg", "german", "MG", "B5", { vars = { vehicular = true, mounted_on = "pz" } }),
      T.vehicle("pz2", "german", "PzKpfw IVH", "N6"), T.sw("pz2mg", "german", "MG", "N6", { vars = { vehicular = true, mounted_on = "pz2" } }) } }
  T.resolve()
  kessel.inject_dice{ 2, 3 }
  local ok, ev = kessel.act{ kind = "escape", side = "german", units = { "pz" } }
  expect.accepted(ok, ev)
  expect.eq(T.record(ev, "escape").result, "escapes")
  expect.eq(T.unit("pzmg").hex, T.unit("pz").hex, "the MG goes with its tank")
  ev = T.resolve()   -- 9.606 ends
  ev = T.resolve()   -- 9.607
  expect.eq(T.unit("pzmg").side, "german", "not Captured")
  expect.eq(T.unit("pzmg").vars.captured, nil)
  expect.eq(T.note(ev, "pzmg"), nil, "9.6071 has nothing to say of a mounted Weapon")
  while kessel.game.step().id ~= "shift" do T.resolve() end
  kessel.inject_dice{ 1, 1 }
  expect.accepted(kessel.act{ kind = "shift", side = "german", units = { "pz2" }, to = "P1" })
  expect.eq(T.unit("pz2mg").location, T.unit("pz2").location, "the MG goes with its tank")
end)

-- [9.6071] [9.61422] a vehicle Captured in a Setup Area is Captured with its mounted Weapons: 9.61422
-- treats its MG as a captured Weapon (an abandoned vehicle has no Inherent crew, so no dr is made
-- and the MG is kept; the vehicle keeps a functioning Weapon and is no wreck); RB [11.6072]
-- likewise. (It was Captured before too, but as a loose piece of Equipment of the area: the same
-- rule that had the British Capture the MG an escaping German tank left behind. This guards the
-- capture now that a mounted Weapon is part of its vehicle.)
kessel.test("case_9.6071_a_captured_vehicle_is_captured_with_its_weapons", function()
  local function ctrl(side, hex) return { kind = "control", side = side, at = hex } end
  T.setup{ step = "setup_areas", map = { columns = 16, rows = 9, tags = { strategic = { "C5", "N5" } }, areas = { P1 = { "P1", "P2" } } },
    markers = { ctrl("british", "C5"), ctrl("german", "N5") },
    vars = { entry_areas = { german = { P1 = true } }, date = "day_i" },
    units = { T.vehicle("kw", "german", "SPW 251/1", "B5", { vars = { abandoned = true } }),
      T.sw("kwmg", "german", "MG", "B5", { vars = { vehicular = true, mounted_on = "kw" } }), T.squad("b", "british", "6-4-8", "C5") } }
  while kessel.game.step().id ~= "equipment" do T.resolve() end
  T.resolve()
  expect.eq(T.unit("kw").side, "british")
  expect.eq(T.unit("kwmg").side, "british", "Captured with its vehicle")
  expect.eq(T.unit("kwmg").vars.captured, true)
  while kessel.game.step().id ~= "repair" do T.resolve() end
  local ev = T.resolve()
  T.has_note(ev, "kwmg (captured) makes no dr and is kept: no Inherent crew in its vehicle")
  expect.eq(T.unit("kw").vars.wreck, nil, "it has a functioning Weapon")
  -- RB: an AFV cleared from a Russian-Controlled Location is Captured with its MG
  T.setup{ module = "rb", step = "equipment", vars = { date = "18oct" }, markers = { ctrl("russian", "C5") },
    units = { T.vehicle("t", "german", "PzKpfw IIIG", "C5", { vars = { abandoned = true } }),
      T.sw("tmg", "german", "MG", "C5", { vars = { vehicular = true, mounted_on = "t" } }) } }
  T.resolve()
  expect.eq(T.unit("t").side, "russian")
  expect.eq(T.unit("tmg").side, "russian")
  expect.eq(T.unit("tmg").location, T.unit("t").location, "cleared with its AFV")
end)

-- [11.607] [11.6072] an Immobile vehicle is left on the map, and Equipment left on the map is
-- Retained by the side Controlling its Location: an abandoned, Immobile German AFV (with its MG) in
-- a Russian-Controlled Location is Captured by the Russians where it stands. Before, only the
-- Equipment cleared to the Retained box changed hands; the AFV left on the map stayed German.
kessel.test("case_11.6072_equipment_left_on_the_map_goes_to_the_controller", function()
  T.setup{ module = "rb", step = "equipment", vars = { date = "18oct" }, markers = { { kind = "control", side = "russian", at = "C5" } },
    units = { T.vehicle("t", "german", "PzKpfw IIIG", "C5", { vars = { abandoned = true, immobile = true } }),
      T.sw("tmg", "german", "MG", "C5", { vars = { vehicular = true, mounted_on = "t" } }) } }
  local ev = T.resolve()
  expect.eq(T.unit("t").location, "map", "an Immobile vehicle is left on the map [11.607]")
  expect.eq(T.unit("t").side, "russian", "Retained (Captured) by the side Controlling C5 [11.6072]")
  expect.eq(T.unit("t").vars.captured, true)
  expect.eq(T.unit("tmg").side, "russian")
  T.has_note(ev, "t is Retained (Captured) by the russian")
end)

-- [9.6061] a unit that survives its Escape is Retained into the nearest friendly Setup Area or
-- Eligible Entry Area; an Isolated friendly Setup Area is one too. The German squad in the British
-- area escapes; the only German area (around C3) is Isolated, and there is no German Entry Area:
-- it is Retained into that area, Isolated there (9.62021 then applies). Before, it "escaped to
-- nowhere" and stayed in the British Setup Area.
kessel.test("case_9.6061_an_escapee_may_be_retained_into_an_isolated_area", function()
  T.setup{ step = "setup_areas", map = { columns = 14, rows = 12, tags = { strategic = { "C3", "M6" } } },
    markers = { { kind = "control", side = "german", at = "C3" }, { kind = "control", side = "british", at = "M6" } },
    vars = { date = "day_i" }, units = { T.squad("g", "german", "4-6-7", "L6") } }
  T.resolve()
  expect.eq(T.unit("g").vars.reph.status, "must_escape")
  kessel.inject_dice{ 1, 2 }
  local ok, ev = kessel.act{ kind = "escape", side = "german", units = { "g" } }
  expect.accepted(ok, ev)
  local g = T.unit("g")
  expect.eq(kessel.game.var("setup_areas").hexes[g.hex], "german", "in the German Setup Area now")
  expect.eq(g.vars.reph.status, "isolated")
  expect.eq(g.vars.isolated, true)
  T.has_note(ev, "g escapes to Setup Area A, which is Isolated")
end)

-- [11.6131] the Immobilization Removal dr takes "+x Per armor leader DRM": a 9-1 armor leader in the
-- Isolated, Immobile AFV gives -1 (the armor leader an Escape DR counts too [11.6063]): dr 2 + 1
-- Isolated - 1 = 2 repairs it. Before, only a vehicle var `armor_leader_drm` was read and the armor
-- leader in the AFV was ignored (2 + 1 = 3: no change).
kessel.test("case_11.6131_the_armor_leader_in_the_afv_modifies_the_repair_dr", function()
  T.setup{ module = "rb", step = "repair", vars = { date = "19oct" }, units = {
    T.vehicle("t", "german", "PzKpfw IIIG", "C5", { vars = { immobile = true, isolated = true } }),
    T.leader("al", "german", "9-1", "C5", { type = "armor_leader", vars = { in_vehicle = "t" } }) } }
  kessel.inject_dice{ 2 }   -- 2 + 1 Isolated - 1 armor leader = 2: Mobile
  local ev = T.resolve()
  T.has_note(ev, "t Immobilization repair dr 2+0: becomes Mobile")
  T.has_note(ev, "-1 armor leader")
  expect.eq(T.unit("t").vars.immobile, nil)
end)

-- [9.606] [9.6061] [9.613] an armor leader in a vehicle shares its Escape: the vehicle's DR takes
-- his DRM (-1 for a 9-1), he makes no Escape DR of his own (none is offered, none is forced at the
-- step's end), and he goes where the vehicle goes; if the crew escapes from an Abandoned vehicle,
-- he leaves with it; a Shifted vehicle takes him along. Before, 9.605 classed him as a lone SMC
-- in the enemy area: he had to make his own Escape DR and stayed behind when his tank escaped.
kessel.test("case_9.606_an_armor_leader_escapes_with_his_vehicle", function()
  local function ctrl(side, hex) return { kind = "control", side = side, at = hex } end
  local function field()
    T.setup{ step = "setup_areas", map = { columns = 16, rows = 9, tags = { strategic = { "C5", "N5" } }, areas = { P1 = { "P1", "P2" } } },
      markers = { ctrl("british", "C5"), ctrl("german", "N5") }, vars = { entry_areas = { german = { P1 = true } }, date = "day_i" },
      units = { T.vehicle("pz", "german", "PzKpfw IVH", "B5"), T.leader("al", "german", "9-1", "B5", { type = "armor_leader", vars = { in_vehicle = "pz" } }),
        T.vehicle("pz2", "german", "PzKpfw IVH", "N6"), T.leader("al2", "german", "8-1", "N6", { type = "armor_leader", vars = { in_vehicle = "pz2" } }) } }
    T.resolve()
  end
  field()
  expect.eq(T.unit("pz").vars.reph.status, "must_escape")
  local ok, r = kessel.act{ kind = "escape", side = "german", units = { "al" } }
  expect.refused(ok, r, "9.606")
  for _, a in ipairs(kessel.legal("german")) do
    if a.kind == "escape" then expect.truthy(a.units[1] ~= "al", "no Escape of his own is offered") end
  end
  kessel.inject_dice{ 3, 3 }   -- 6 + 1 enemy area - 1 armor leader = 6: Escapes
  local ev
  ok, ev = kessel.act{ kind = "escape", side = "german", units = { "pz" } }
  expect.accepted(ok, ev)
  expect.eq(T.record(ev, "escape").final, 6)
  expect.eq(T.unit("al").hex, T.unit("pz").hex, "he goes with his tank")
  ev = T.resolve()   -- 9.606 ends: no compulsory Escape DR for him
  expect.eq(T.record(ev, "escape"), nil)
  expect.eq(T.unit("al").location, "map")
  -- a Shift takes him along
  while kessel.game.step().id ~= "shift" do T.resolve() end
  kessel.inject_dice{ 1, 1 }
  expect.accepted(kessel.act{ kind = "shift", side = "german", units = { "pz2" }, to = "P1" })
  expect.eq(T.unit("al2").location, T.unit("pz2").location)
  -- 9: Abandoned, the crew escapes: he leaves with the crew
  field()
  kessel.inject_dice{ 4, 5 }   -- 9 + 1 - 1 = 9
  ok, ev = kessel.act{ kind = "escape", side = "german", units = { "pz" } }
  expect.accepted(ok, ev)
  T.has_note(ev, "al (armor leader) leaves pz with its crew")
  expect.eq(T.unit("al").vars.in_vehicle, nil)
  expect.eq(kessel.game.var("setup_areas").hexes[T.unit("al").hex], "german")
end)

-- [11.607] an Immobile AFV is left on the map, and the armor leader in it with it; a Mobile one is
-- cleared to the Retained box with him. Before, the armor leader was cleared on his own and left
-- his Immobile AFV on the map.
kessel.test("case_11.607_an_armor_leader_stays_or_goes_with_his_afv", function()
  T.setup{ module = "rb", step = "equipment", vars = { date = "18oct" }, units = {
    T.vehicle("t1", "german", "PzKpfw IIIG", "C5", { vars = { immobile = true } }),
    T.leader("a1", "german", "9-1", "C5", { type = "armor_leader", vars = { in_vehicle = "t1" } }),
    T.vehicle("t2", "german", "PzKpfw IIIG", "D5"),
    T.leader("a2", "german", "8-1", "D5", { type = "armor_leader", vars = { in_vehicle = "t2" } }) } }
  T.resolve()
  expect.eq(T.unit("t1").location, "map")
  expect.eq(T.unit("a1").location, "map", "stays in his Immobile AFV")
  expect.eq(T.unit("t2").location, "pending")
  expect.eq(T.unit("a2").location, "pending", "cleared with his AFV")
  expect.eq(T.unit("a2").vars.reph.area, "retained_box")
end)

-- [9.6152] Day I's row gives 15 FPP and no units ("N/A" Entry Area): the note says so, rather than
-- "0 British reinforcement counters ... in Setup Area A" (an area the row does not name)
kessel.test("case_9.6152_a_date_of_fpp_only_is_noted_as_such", function()
  T.setup{ step = "reinforcements", vars = { date = "day_i", setup_areas = { hexes = {}, areas = { british = { { id = "A", hexes = { "C3" } } }, german = {} } } } }
  local ev = T.resolve()
  T.has_note(ev, "[9.6152] no British reinforcement units for day_i; 15 FPP")
  expect.eq(T.note(ev, "0 British reinforcement counters"), nil)
  expect.eq(T.C.fpp("british"), 15)
end)

-- [9.606] [11.6063] "+1 Per PP > IPC being carried ... (a stacked leader may combine to increase a
-- MMC's IPC)": a squad (IPC 3) with an HMG (5 PP) escaping alone takes +2; stacked with a leader
-- who carries nothing (IPC 1), +1. Before, the leader's IPC was not combined: +2 either way.
kessel.test("case_9.606_a_stacked_leader_combines_his_ipc", function()
  local X = require("rules.escape")
  local function pp_drm(units)
    local _, mods = X.drm(units)
    for _, m in ipairs(mods) do if m.why:find("PP carried", 1, true) then return m.drm end end
    return 0
  end
  T.setup{ step = "escape", vars = { date = "day_i" }, units = { T.squad("g", "german", "4-6-7", "C5"), T.leader("gl", "german", "8-0", "C5"),
    T.sw("h", "german", "HMG", "C5", { vars = { possessed_by = "g" } }) } }
  expect.eq(pp_drm({ T.unit("g") }), 2, "alone: 5 - 3")
  expect.eq(pp_drm({ T.unit("g"), T.unit("gl") }), 1, "with the leader: 5 - (3 + 1)")
  T.setup{ module = "rb", step = "escape", vars = { date = "18oct" }, units = { T.squad("g", "german", "4-6-7", "C5"), T.leader("gl", "german", "8-0", "C5"),
    T.sw("h", "german", "HMG", "C5", { vars = { possessed_by = "g" } }), T.sw("l", "german", "LMG", "C5", { vars = { possessed_by = "gl" } }) } }
  expect.eq(pp_drm({ T.unit("g"), T.unit("gl") }), 2, "a leader carrying his own LMG has no IPC to spare")
end)

-- [9.6051] a manned Immobile vehicle without functioning MA in No Man's Land is abandoned and its
-- crew must attempt Escape; the armor leader in it leaves with the crew and, in No Man's Land,
-- must attempt Escape too (classed once). Without this he would have stayed "in" the abandoned
-- vehicle, sharing its fate: left in place.
kessel.test("case_9.6051_an_armor_leader_leaves_an_abandoned_vehicle_with_its_crew", function()
  T.setup{ step = "setup_areas", map = { tags = { strategic = { "E5", "H5" } } },
    markers = { { kind = "control", side = "german", at = "E5" }, { kind = "control", side = "british", at = "H5" } },
    units = { T.vehicle("wr", "german", "PzKpfw IVH", "F5", { vars = { immobile = true, ma_disabled = true } }),
      T.leader("al", "german", "9-1", "F5", { type = "armor_leader", vars = { in_vehicle = "wr" } }) } }
  local ev = T.resolve()
  expect.eq(T.unit("wr").vars.abandoned, true)
  expect.eq(T.unit("al").vars.in_vehicle, nil)
  expect.eq(T.unit("al").vars.reph.status, "must_escape")
  local n = 0
  for _, e in ipairs(ev) do if e.event == "note" and e.text:find("al is in No Man's Land", 1, true) then n = n + 1 end end
  expect.eq(n, 1, "classed once")
end)

-- [11.6111] Isolated HS Recombine with other Isolated HS "allowed to set up in the same Isolated
-- Location(s)": two Russian 2-3-7 HS in J5 and J6, both of Isolated Area 1 (J5, J6, K5), may set
-- up in the same Locations and Recombine; one in another Isolated Area does not. Before, only HS
-- in one hex did.
kessel.test("case_11.6111_isolated_hs_of_one_isolated_area_recombine", function()
  T.setup{ module = "rb", step = "hardening", vars = { date = "18oct", isolated_areas = { { hexes = { "J5", "J6", "K5" } }, { hexes = { "C3" } } } },
    units = { T.hs("r1", "russian", "4-4-7r", "J5", { vars = { isolated = true } }), T.hs("r2", "russian", "4-4-7r", "J6", { vars = { isolated = true } }),
      T.hs("r3", "russian", "4-4-7r", "C3", { vars = { isolated = true } }) } }
  kessel.inject_dice{ 6, 6, 6, 6, 6, 6, 6, 6 }
  local ev = T.resolve()
  T.has_note(ev, "r1 and r2 Recombine into a squad")
  expect.eq(T.unit("r1").step, 0)
  expect.eq(T.unit("r2").location, "removed")
  expect.eq(T.unit("r3").step, 1, "another Isolated Area")
end)

-- [9.61425] Low Ammo comes off each non-captured, non-Isolated German vehicle "in a German
-- Setup/Entry Area": one abandoned in No Man's Land (F5) keeps it; one in the German area (C5)
-- and one off-map in an Entry Area lose it. Before, every German vehicle lost it.
kessel.test("case_9.61425_low_ammo_only_in_a_german_setup_or_entry_area", function()
  T.setup{ step = "repair", vars = { date = "day_i", setup_areas = { hexes = { C5 = "german", F5 = "nml" }, ctrl = {},
      areas = { german = { { id = "A", hexes = { "C5" } } }, british = {} } } },
    units = { T.vehicle("a", "german", "Marder", "C5", { vars = { low_ammo = true, reph = { status = "retained", area = "A" } } }),
      T.vehicle("b", "german", "Marder", "F5", { vars = { low_ammo = true, abandoned = true, reph = { status = "abandoned" } } }),
      T.vehicle("c", "german", "Marder", nil, { vars = { low_ammo = true, reph = { status = "retained", area = "A7" } } }) } }
  T.resolve()
  expect.eq(T.unit("a").vars.low_ammo, nil)
  expect.eq(T.unit("b").vars.low_ammo, true, "in No Man's Land")
  expect.eq(T.unit("c").vars.low_ammo, nil, "off-map in its Entry Area")
end)

-- [9.6141] the vehicle steps are made "for each vehicle in a friendly-Setup/Eligible-Entry Area": a
-- stunned German vehicle abandoned in No Man's Land (F5) makes no stun recovery dr (which could
-- Eliminate it); one in the German area (C5) does. Before, both rolled.
kessel.test("case_9.6141_only_vehicles_in_a_friendly_area_are_repaired", function()
  T.setup{ step = "repair", vars = { date = "day_i", setup_areas = { hexes = { C5 = "german", F5 = "nml" }, ctrl = {},
      areas = { german = { { id = "A", hexes = { "C5" } } }, british = {} } } },
    units = { T.vehicle("a", "german", "Marder", "C5", { vars = { stun = true } }),
      T.vehicle("b", "german", "Marder", "F5", { vars = { stun = true, abandoned = true } }) } }
  kessel.inject_dice{ 6, 6 }
  local ev = T.resolve()
  T.has_note(ev, "a stun recovery dr 6+1: eliminated")
  expect.eq(T.note(ev, "b stun recovery"), nil)
  expect.eq(T.unit("b").location, "map")
end)

-- [11.6142] a Captured AFV is "part thereof" of its own platoon, not of the captor's platoon of
-- the same number: the Russians roll once for their platoon 1 (T-34) and once for the German
-- platoon 1 they Captured a Panzer of. The captured part Withdrawn takes no Russian armor leader
-- of their own platoon 1 with it. Before, both were one Russian platoon 1: one dr, and a
-- Withdrawal would have taken the Russian armor leader too.
kessel.test("case_11.6142_a_captured_afv_is_part_of_its_own_platoon", function()
  T.setup{ module = "rb", step = "armor_withdrawal", vars = { date = "20oct" }, units = {
    T.vehicle("r1", "russian", "T-34", "H3", { vars = { platoon = "1", platoon_on_map = true } }),
    T.leader("ral", "russian", "9-1", "H3", { type = "armor_leader", vars = { platoon = "1", in_vehicle = "r1" } }),
    T.vehicle("cap", "russian", "PzKpfw IIIG", "H5", { vars = { platoon = "1", platoon_on_map = true, captured = true, original_side = "german" } }) } }
  kessel.inject_dice{ 6, 1 }   -- the captured German platoon 1: Withdrawn; the Russian platoon 1: Retained
  local ev = T.resolve()
  T.has_note(ev, "russian makes the Secret withdrawal dr for Platoon 1 (Captured german)")
  local n = 0
  for _, e in ipairs(ev) do if e.event == "note" and e.text:find("russian makes the Secret withdrawal dr", 1, true) then n = n + 1 end end
  expect.eq(n, 2, "two platoons, two dr")
  expect.eq(T.unit("r1").location, "map")
  expect.eq(T.unit("cap").location, "eliminated")
  expect.eq(T.unit("ral").location, "map", "the Russian armor leader stays with his own platoon")
end)

-- [9.6061 EX] [9.6131] the Isolated British squad in the first-level Location of Z15 (here F6) may
-- Escape; "despite being vacant, that Location would still be British-Controlled": when it
-- escapes, the note says its Setup Area is vacated and stays British-Controlled (a Shift said so;
-- an Escape did not), and the Control is kept.
kessel.test("case_9.6131_an_escape_that_vacates_its_setup_area_is_noted", function()
  T.setup{ step = "setup_areas", map = { tags = { strategic = { "F6", "K3" } }, areas = { L1 = { "L1", "L2" } } },
    units = { T.squad("b", "british", "6-4-8", "F6", { vars = { level = 1 } }), T.squad("g", "german", "4-6-7", "F6"),
      T.squad("b2", "british", "6-4-8", "K3") },
    vars = { entry_areas = { british = { L1 = true }, german = { L1 = true } } },
    valued = { { kind = "control", side = "british", hex = "F6", value = { level = 1 } }, { kind = "control", side = "german", hex = "F6", value = { level = 0 } } } }
  T.resolve()
  expect.eq(T.unit("b").vars.reph.status, "isolated")
  kessel.inject_dice{ 1, 1 }
  local ok, ev = kessel.act{ kind = "escape", side = "british", units = { "b" } }
  expect.accepted(ok, ev)
  local area
  for _, x in ipairs(kessel.game.var("setup_areas").areas.british) do if x.level == 1 then area = x.id end end
  T.has_note(ev, "[9.6131] Setup Area " .. area .. " is vacated and stays british-Controlled")
  expect.eq(require("rules.areas").controller("F6", 1), "british", "its Control marker stays")
end)

-- [9.606] [11.6063] an Escape is a Personnel or vehicle unit's: a SW goes with the unit holding it
-- (or is dropped). In an Isolated Area the RB RePh marks every counter Isolated, SW too; an Escape
-- of a SW alone was offered (to `--ai random` as well) and accepted, the SW relocating by itself.
kessel.test("case_11.6063_a_sw_does_not_escape_alone", function()
  T.setup{ module = "rb", step = "perimeter", vars = { date = "18oct", isolated_areas = { { hexes = { "J5" } } } },
    units = { T.squad("r", "russian", "4-4-7r", "J5"), T.sw("m", "russian", "LMG", "J5", { vars = { possessed_by = "r" } }), T.sw("m2", "russian", "LMG", "J5") } }
  T.resolve()
  for _, a in ipairs(kessel.legal("russian")) do
    if a.kind == "escape" then expect.eq(a.units[1], "r", "only the squad is offered an Escape") end
  end
  local ok, r = kessel.act{ kind = "escape", side = "russian", units = { "m2" } }
  expect.refused(ok, r, "11.6063", "m2 is a SW")
  T.setup{ step = "escape", vars = { date = "day_i" }, units = { T.sw("m3", "german", "LMG", "C5", { vars = { reph = { status = "isolated", area = "B" }, isolated = true } }) } }
  ok, r = kessel.act{ kind = "escape", side = "german", units = { "m3" } }
  expect.refused(ok, r, "9.606", "m3 is a SW")
end)

-- [9.605] "A Control marker must be removed (or flipped over) if the Controlling side loses Control
-- of that Location": a British Control marker left in C3, which the Germans now hold alone, is no
-- British Control; the Location is the Germans' (their Setup Area forms around it), and the stale
-- marker is flipped and noted. A marker still decides an empty Location and a disputed one.
-- Before, the marker was read first: C3 stayed British with only Germans in it.
kessel.test("case_9.605_a_control_marker_of_a_side_that_lost_the_location_is_flipped", function()
  T.setup{ step = "setup_areas", map = { columns = 14, rows = 12, tags = { strategic = { "C3", "H8", "M4" } } },
    markers = { { kind = "control", side = "british", at = "C3" }, { kind = "control", side = "british", at = "H8" }, { kind = "control", side = "german", at = "M4" } },
    units = { T.squad("g", "german", "4-6-7", "C3"), T.squad("g2", "german", "4-6-7", "M4"), T.squad("b2", "british", "6-4-8", "M4") } }
  local A = require("rules.areas")
  expect.eq(A.controller("C3", 0), "german", "held by the Germans alone")
  expect.eq(A.controller("H8", 0), "british", "empty: the marker decides")
  expect.eq(A.controller("M4", 0), "german", "disputed: the marker decides")
  local ev = T.resolve()
  expect.eq(kessel.game.var("setup_areas").hexes.C3, "german")
  T.has_note(ev, "C3: the british Control marker is flipped: the german hold it alone")
  for _, m in ipairs(kessel.markers.at("C3")) do if m.kind == "control" then expect.eq(m.side, "german") end end
end)

-- [11.6052] the same in RB: a German Control marker in C5, which the Russians hold alone, is
-- flipped when the Perimeters are determined (11.605)
kessel.test("case_11.6052_a_stale_control_marker_is_flipped", function()
  T.setup{ module = "rb", step = "perimeter", vars = { date = "18oct" }, markers = { { kind = "control", side = "german", at = "C5" } },
    units = { T.squad("r", "russian", "4-4-7r", "C5") } }
  local ev = T.resolve()
  T.has_note(ev, "[11.6052] C5: the german Control marker is flipped: the russian hold it alone")
  for _, m in ipairs(kessel.markers.at("C5")) do if m.kind == "control" then expect.eq(m.side, "russian") end end
end)

-- [9.605] [9.6131] each side's Control of a Strategic Location it holds by occupation alone is
-- marked at 9.605 (a Control marker, which a campaign carries with the map's markers), so that a
-- Location its last unit leaves stays its side's: the German squad alone in C3 Shifts away in
-- 9.613; C3 is still German-Controlled, and Setup Areas determined now (as the next RePh would)
-- still form around it. Before, an empty C3 with no marker was nobody's: the next RePh would have
-- made it Uncontrolled Territory.
kessel.test("case_9.6131_a_vacated_strategic_location_keeps_its_control", function()
  T.setup{ step = "setup_areas", map = { columns = 14, rows = 12, tags = { strategic = { "C3", "C9", "M6" } }, areas = { A1 = { "A1" } } },
    markers = { { kind = "control", side = "german", at = "C9" }, { kind = "control", side = "british", at = "M6" } },
    vars = { entry_areas = { german = { A1 = true } }, date = "day_i" },
    units = { T.squad("g", "german", "4-6-7", "C3") } }
  local ev = T.resolve()
  T.has_note(ev, "Control markers placed in the Strategic Locations held by occupation: C3 (german)")
  while kessel.game.step().id ~= "shift" do T.resolve() end
  kessel.inject_dice{ 1, 1 }
  expect.accepted(kessel.act{ kind = "shift", side = "german", units = { "g" }, to = "A1" })
  expect.eq(T.unit("g").location, "pending")
  local A = require("rules.areas")
  expect.eq(A.controller("C3", 0), "german", "vacated, still German-Controlled [9.6131]")
  expect.eq(A.compute().hexes.C3, "german", "the next RePh's Setup Areas form around it")
end)
