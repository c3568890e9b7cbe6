-- Situations from the reference texts, ninth tester pass (ASL round 9): each test rebuilds one
-- situation, names its case, and checks what the text says must happen.
local T = require("testing.cg")
local expect = T.expect

local function ctrl(side, hex) return { kind = "control", side = side, at = hex } end

-- a 14x12 map: German Setup Areas around C3 and C9, a British one around M6, German Entry Area A1
local function shift_field(units)
  T.setup{ step = "setup_areas", map = { columns = 14, rows = 12, tags = { strategic = { "C3", "C9", "M6" } }, areas = { A1 = { "A1" } } },
    markers = { ctrl("german", "C3"), ctrl("german", "C9"), ctrl("british", "M6") }, units = units,
    vars = { entry_areas = { german = { A1 = true } }, date = "day_i" } }
  while kessel.game.step().id ~= "shift" do T.resolve() end
end

-- A possessed Gun (the open item of round 8: only SW were handled as possessed). The text names
-- Guns beside SW at every step where Equipment moves with its possessor: an Encircled unit's
-- Equipment is left in the Location [9.6041]; before an Escape "each SW/Gun may be dropped", and
-- a Gun never goes along unless dm [9.606] [11.6063]; "A Gun can not be Shifted" [9.613]; RB's
-- clearing takes units and Equipment to the Retained box, a Gun in a Fortified Building Location
-- or Pillbox excepted [11.607]. Before, a Gun named as held (`possessed_by`) was none of these:
-- it kept pointing at a possessor that was Eliminated, escaped or Shifted away, and RB's clearing
-- passed it by, leaving it on the map.

-- [9.6041] an Encircled squad holding a Gun fails its 1TC: the Gun is left in the Location,
-- unpossessed; an unclaimed prisoner of that squad is Rearmed and may possess it
kessel.test("case_9.6041_an_eliminated_encircled_units_gun_is_left_unpossessed", function()
  T.setup{ step = "encirclement", units = {
    T.squad("g", "german", "4-6-7", "C5", { vars = { encircled = true } }),
    T.gun("pak", "german", "75L AT", "C5", { vars = { possessed_by = "g" } }),
    T.squad("h", "german", "4-6-7", "D5", { vars = { encircled = true } }),
    T.squad("p", "british", "6-4-8", "D5", { vars = { prisoner_of = "german", guarded_by = "h", unarmed = true } }),
    T.gun("pak2", "german", "75L AT", "D5", { vars = { possessed_by = "h" } }) } }
  kessel.inject_dice{ 6, 6, 6, 6 }
  local ev = T.resolve()
  expect.eq(T.unit("g").location, "eliminated")
  expect.eq(T.unit("pak").location, "map")
  expect.eq(T.unit("pak").hex, "C5")
  expect.eq(T.unit("pak").vars.possessed_by, nil, "left in the Location unpossessed")
  T.has_note(ev, "pak is left in C5 unpossessed")
  expect.eq(T.unit("h").location, "eliminated")
  expect.eq(T.unit("pak2").vars.possessed_by, "p", "the Rearmed prisoner possesses the Equipment its Guard dropped")
  T.replays()
end)

-- [9.606] a non-dm Gun never Escapes: the crew that held it escapes without it, and the Gun stays
-- where it was, unpossessed (9.6071 then gives it to the side whose Setup Area holds it); a dm
-- Gun goes along as PP (it counts toward the PP > IPC DRM). Both Guns are malfunctioned, so
-- neither makes its Location a Strategic Location (the chart of 9.6056)
kessel.test("case_9.606_a_non_dm_gun_stays_a_dm_gun_goes_along", function()
  T.setup{ step = "setup_areas", map = { columns = 16, rows = 9, tags = { strategic = { "C5", "N5" } }, areas = { P1 = { "P1", "P2" } } },
    markers = { ctrl("british", "C5"), ctrl("german", "N5") },
    vars = { entry_areas = { german = { P1 = true } }, date = "day_i" },
    units = { T.crew("c", "german", "B5"), T.gun("pak", "german", "75L AT", "B5", { vars = { possessed_by = "c", malfunctioned = true } }),
      T.crew("c2", "german", "B4"), T.gun("mtr", "german", "81mm MTR", "B4", { faces = { { weapon = "81mm MTR", dm = true, pp = 4 } },
        vars = { possessed_by = "c2", malfunctioned = true } }) } }
  T.resolve()
  expect.eq(kessel.game.step().id, "escape")
  expect.eq(T.unit("c").vars.reph.status, "must_escape")
  kessel.inject_dice{ 2, 3 }
  local ok, ev = kessel.act{ kind = "escape", units = { "c" }, side = "german" }
  expect.accepted(ok, ev)
  T.has_note(ev, "pak is a Gun that is not dm: it can never Escape; c leaves it unpossessed in B5")
  expect.truthy(T.unit("c").hex ~= "B5", "the crew escapes")
  expect.eq(T.unit("pak").hex, "B5")
  expect.eq(T.unit("pak").vars.possessed_by, nil)
  -- the dm mortar: 4 PP on a crew of IPC 2 is +2, and it goes where the crew goes
  kessel.inject_dice{ 2, 3 }
  ok, ev = kessel.act{ kind = "escape", units = { "c2" }, side = "german" }
  expect.accepted(ok, ev)
  local pp
  for _, m in ipairs(T.record(ev, "escape").modifiers) do if m.why:find("PP", 1, true) then pp = m.drm end end
  expect.eq(pp, 2, "the dm Gun's PP count")
  expect.eq(T.unit("mtr").vars.possessed_by, "c2")
  expect.eq(T.unit("mtr").hex, T.unit("c2").hex, "the dm Gun goes along")
  -- [9.6071] the Gun left in the British Setup Area is Captured by the British
  T.resolve()
  expect.eq(kessel.game.step().id, "equipment")
  T.resolve()
  expect.eq(T.unit("pak").side, "british")
  expect.eq(T.unit("pak").vars.captured, true)
  T.replays()
end)

-- [9.613] "A Gun can not be Shifted": a squad holding one Shifts without it; the Gun stays in its
-- Location (as 9.6055 keeps every Gun), unpossessed, and its PP (none for a Gun that is not dm)
-- do not count toward the portage limit
kessel.test("case_9.613_a_shifting_unit_leaves_its_gun", function()
  shift_field{ T.squad("g", "german", "4-6-7", "C3"),
    T.gun("pak", "german", "81mm MTR", "C3", { faces = { { weapon = "81mm MTR", dm = true, pp = 6 } }, vars = { possessed_by = "g" } }) }
  local ok, ev = kessel.act{ kind = "shift", units = { "g" }, to = "A1", side = "german" }
  expect.accepted(ok, ev)
  T.has_note(ev, "a Gun can not be Shifted: pak stays behind; g leaves it unpossessed in C3")
  expect.eq(T.unit("g").location, "pending", "the squad Shifts to Entry Area A1")
  expect.eq(T.unit("pak").location, "map")
  expect.eq(T.unit("pak").hex, "C3")
  expect.eq(T.unit("pak").vars.possessed_by, nil)
  T.replays()
end)

-- [11.607] RB clearing: a crew and the Gun it holds in a friendly-Controlled Location both go to
-- the Retained box; a Gun in a Fortified Building Location stays on the map [EXC], so its crew
-- leaves it there unpossessed; an Isolated crew and its Gun stay [11.6071]
kessel.test("case_11.607_a_possessed_gun_is_cleared_unless_fortified", function()
  T.setup{ module = "rb", step = "equipment", units = {
    T.crew("c", "german", "C5"), T.gun("pak", "german", "75L AT", "C5", { vars = { possessed_by = "c" } }),
    T.crew("f", "german", "E5"), T.gun("fort", "german", "75L AT", "E5", { vars = { possessed_by = "f", fortified = true } }),
    T.crew("i", "german", "G5", { vars = { isolated = true } }), T.gun("iso", "german", "75L AT", "G5", { vars = { possessed_by = "i" } }) } }
  local ev = T.resolve()
  expect.eq(T.unit("c").location, "pending")
  expect.eq(T.unit("pak").location, "pending", "the Gun goes to the Retained box with its crew")
  expect.eq(T.unit("pak").vars.reph.area, "retained_box")
  expect.eq(T.unit("f").location, "pending")
  expect.eq(T.unit("fort").location, "map", "a Gun in a Fortified Building Location is left on the map")
  expect.eq(T.unit("fort").vars.possessed_by, nil)
  T.has_note(ev, "fort is a Gun in a Fortified Building Location or Pillbox: it is left on the map; f leaves it unpossessed in E5")
  expect.eq(T.unit("i").location, "map")
  expect.eq(T.unit("iso").location, "map")
  expect.eq(T.unit("iso").vars.possessed_by, "i")
  T.replays()
end)

-- [11.6063] [11.6064] RB: an Isolated crew escapes; "Guns cannot accompany an Escaping unit [EXC:
-- if dm]": the 57L stays in its Isolated Location, the crew's dm mortar goes with it to the box
kessel.test("case_11.6063_guns_do_not_accompany_an_escapee_unless_dm", function()
  T.setup{ module = "rb", step = "escape", vars = { date = "18oct" }, units = {
    T.crew("c", "german", "C5", { vars = { isolated = true } }),
    T.gun("at", "german", "50L AT", "C5", { vars = { possessed_by = "c", isolated = true } }),
    T.gun("mtr", "german", "81mm MTR", "C5", { faces = { { weapon = "81mm MTR", dm = true, pp = 2 } }, vars = { possessed_by = "c", isolated = true } }) } }
  kessel.inject_dice{ 2, 3 }
  local ok, ev = kessel.act{ kind = "escape", units = { "c" }, side = "german" }
  expect.accepted(ok, ev)
  T.has_note(ev, "at is a Gun that is not dm: it can never Escape; c leaves it unpossessed in C5")
  expect.eq(T.unit("c").location, "pending")
  expect.eq(T.unit("mtr").location, "pending", "the dm Gun is portaged to the Retained box")
  expect.eq(T.unit("mtr").vars.isolated, nil)
  expect.eq(T.unit("at").location, "map")
  expect.eq(T.unit("at").vars.possessed_by, nil)
  T.replays()
end)

-- [11.617] +2 per scenario completed "since the start of the CG or since the last Idle Day
-- (friendly side's choice)", -2 per Idle Day since the last-completed scenario. A German who had
-- counted three scenarios (`elr_scenarios`, carried from the last RePh) and now has one Idle Day
-- since the last scenario (11.6121: no scenario was generated, 11.612-.617 are played again) has
-- completed none since that Idle Day: 7 + 0 (20 Oct) - 2 (Idle Day) = 5, no +2 at all. Before,
-- the count went on to four (+8) for a scenario that was never played: Final 13, ELR lost.
kessel.test("case_11.617_an_idle_day_starts_the_scenario_count_again", function()
  T.setup{ module = "rb", step = "elr", vars = { date = "20oct", elr = { german = 3, russian = 3 },
    elr_scenarios = { german = 3, russian = 3 }, idle_days = { german = 1 } } }
  kessel.inject_dice{ 3, 4, 3, 4 }
  local ev = T.resolve()
  T.has_note(ev, "german ELR DR 7-2 = 5 (-2 Idle days): ELR 3 -> 3")
  expect.eq(kessel.game.var("elr_scenarios").german, 0, "the next RePh counts from the Idle Day")
  -- the Russian had no Idle Day: his count goes on, 3 + 1 = 4 scenarios, +8: 7 + 8 = 15, ELR 2
  T.has_note(ev, "russian ELR DR 7+8 = 15")
  expect.eq(kessel.game.var("elr").russian, 2)
  T.replays()
end)

-- [11.6137] RB restores the Depleted ammunition types of "each non-Captured, non-Isolated Retained
-- Gun (including vehicular-mounted)": a Gun's and a tank's main armament, not a SW mortar's (PB's
-- 9.61424 lets every weapon roll; RB names Guns). Before, the SW's WP was restored too.
kessel.test("case_11.6137_special_ammo_is_restored_to_guns_not_sw", function()
  T.setup{ module = "rb", step = "repair", vars = { date = "18oct" }, units = {
    T.gun("g", "russian", "76L", "C3", { vars = { depleted = { "APCR" } } }),
    T.vehicle("t", "german", "PzKpfw IIIJ", "C5"),
    T.sw("ma", "german", "50L", "C5", { vars = { vehicular = true, mounted_on = "t", depleted = { "APCR" } } }),
    T.sw("m", "german", "LtMTR", "C4", { vars = { depleted = { "WP" } } }),
    T.gun("gi", "german", "75L AT", "C6", { vars = { depleted = { "APCR" }, isolated = true } }) } }
  local ev = T.resolve()
  expect.eq(T.unit("g").vars.depleted, nil)
  expect.eq(T.unit("ma").vars.depleted, nil, "vehicular-mounted Gun")
  expect.eq(table.concat(T.unit("m").vars.depleted, ","), "WP", "a SW is no Gun")
  T.has_note(ev, "m is a SW, not a Gun: its depleted ammunition is not restored")
  expect.eq(table.concat(T.unit("gi").vars.depleted, ","), "APCR", "an Isolated Gun keeps its depletion")
  T.replays()
end)

-- [11.6142] the withdrawal dr is made for each platoon "that has had >= one AFV of its Pltn on the
-- map in at least one CG scenario", and a Withdrawn result Eliminates "each remaining non-Isolated
-- AFV ... of that platoon". German platoon 1: g1 fought (and was Eliminated in the scenario), g2
-- was kept in the Retained box all along; the platoon rolls a 6 and g2 is Eliminated with it.
-- Platoon 2, none of whose AFV has been on the map, makes no dr. Before, each AFV had to carry the
-- mark itself: g2 made no dr and outlived its platoon's Withdrawal
kessel.test("case_11.6142_a_platoon_that_fought_rolls_for_every_afv_of_it", function()
  T.setup{ module = "rb", step = "armor_withdrawal", vars = { date = "20oct" }, units = {
    T.vehicle("g1", "german", "PzKpfw IIIG", nil, { location = "eliminated", vars = { platoon = "1", platoon_on_map = true } }),
    T.vehicle("g2", "german", "PzKpfw IIIG", nil, { location = "pending", vars = { platoon = "1" } }),
    T.vehicle("g3", "german", "PzKpfw IIIG", nil, { location = "pending", vars = { platoon = "2" } }) } }
  kessel.inject_dice{ 6 }
  local ev = T.resolve()
  T.has_note(ev, "german makes the Secret withdrawal dr for Platoon 1")
  expect.falsy(T.note(ev, "Platoon 2"), "platoon 2 has had no AFV on the map: no dr")
  expect.eq(T.unit("g2").location, "eliminated", "the remaining AFV of the Withdrawn platoon")
  expect.eq(T.unit("g3").location, "pending")
  T.replays()
end)

-- [11.6065] "If the Escape of a unit(s) changes the type of an Isolated Area 11.6061-.6062 must be
-- consulted again to determine the effects on remaining unit(s)": a German squad and 8-0 make a
-- type C area (Ammunition Shortage for both [11.6061]); the squad escapes, the area is type B, and
-- the leader left there must Escape and no longer has the Shortage type C gave him. Before, he
-- kept it. A unit with a Shortage of its own from an earlier Day keeps that one (11.6139 lifts a
-- Shortage from non-Isolated units only).
kessel.test("case_11.6065_an_area_no_longer_type_c_gives_no_ammunition_shortage", function()
  T.setup{ module = "rb", step = "perimeter", vars = { date = "18oct", isolated_areas = { { hexes = { "C5" } } } },
    units = { T.squad("g", "german", "4-6-7", "C5"), T.leader("l", "german", "8-0", "C5"),
      T.leader("o", "german", "7-0", "C5", { vars = { ammo_shortage = true, ammo_shortage_day = "17oct" } }) },
    markers = { ctrl("german", "C5") } }
  T.resolve()
  expect.eq(T.unit("l").vars.ammo_shortage, true, "type C")
  kessel.inject_dice{ 2, 3 }
  local ok, ev = kessel.act{ kind = "escape", units = { "g" }, side = "german" }
  expect.accepted(ok, ev)
  expect.eq(kessel.game.var("isolated_areas")[1].type, "B")
  expect.eq(T.unit("l").vars.must_escape, true)
  expect.eq(T.unit("l").vars.ammo_shortage, nil, "type B: no Ammunition Shortage")
  T.has_note(ev, "[11.6065] Isolated Area 1 is now type B: no Ammunition Shortage for l")
  expect.eq(T.unit("o").vars.ammo_shortage, true, "a Shortage of its own, from an earlier Day, stays")
  T.replays()
end)

-- [9.6053] a Personnel unit in Uncontrolled Territory is Retained into the nearest friendly area
-- "and its portaged/possessed/towed Equipment": the malfunctioned Gun a crew holds there (a Gun that
-- is not functioning makes no Strategic Location of its hex) goes with it. Before, the Gun stayed
-- in the Uncontrolled-Territory hex, still named as held by the crew that had left.
kessel.test("case_9.6053_a_possessed_gun_is_retained_with_its_crew", function()
  T.setup{ step = "setup_areas", map = { columns = 14, rows = 12, tags = { strategic = { "C9", "M6" } }, areas = { A1 = { "A1" } } },
    markers = { ctrl("german", "C9"), ctrl("british", "M6") },
    vars = { entry_areas = { german = { A1 = true } }, date = "day_i" },
    units = { T.crew("c", "german", "G9"), T.gun("pak", "german", "75L AT", "G9", { vars = { possessed_by = "c", malfunctioned = true } }) } }
  T.resolve()
  local c, pak = T.unit("c"), T.unit("pak")
  expect.eq(c.vars.reph.status, "retained")
  expect.truthy(c.hex ~= "G9", "the crew is moved into the Setup Area")
  expect.eq(pak.hex, c.hex, "its Gun goes with it")
  expect.eq(pak.vars.possessed_by, "c")
  T.replays()
end)

-- [9.61421] [11.6133] the exchange is for "a disabled ... vehicular MG" ("AFV MG"): an LMG
-- Eliminated repairs an MG, never a Disabled main-armament Gun. Before, a Disabled 75L was
-- repaired by an LMG (in PB and RB alike), and its Recall went on.
kessel.test("case_9.61421_11.6133_only_an_mg_is_repaired_by_an_lmg", function()
  local area = { vars = { reph = { status = "retained", area = "A" } } }
  for _, module in ipairs({ "pb", "rb" }) do
    local case = module == "pb" and "9.61421" or "11.6133"
    T.setup{ module = module, step = "repair", vars = { date = module == "pb" and "day_i" or "18oct" }, units = {
      T.vehicle("pz", "german", "PzKpfw IVH", "C3", area),
      T.sw("ma", "german", "75L", "C3", { vars = { vehicular = true, main_armament = true, disabled = true, mounted_on = "pz" } }),
      T.sw("cmg", "german", "CMG", "C3", { vars = { vehicular = true, disabled = true, mounted_on = "pz" } }),
      T.sw("lmg", "german", "LMG", "C3", area) } }
    -- only the MG's exchange is listed: a Disabled Gun's was listed and then refused
    local listed = {}
    for _, a in ipairs(kessel.legal()) do
      if a.kind == "mg_exchange" then listed[#listed + 1] = a.mg end
    end
    expect.eq(table.concat(listed, ","), "cmg")
    local ok, r = kessel.act{ kind = "mg_exchange", mg = "ma", lmg = "lmg", side = "german" }
    expect.refused(ok, r, case, "ma (75L) is no MG")
    expect.accepted(kessel.act{ kind = "mg_exchange", mg = "cmg", lmg = "lmg", side = "german" })
    expect.eq(T.unit("cmg").vars.disabled, nil)
  end
  -- a face's declared kind decides over its name: a coaxial gun whose name lacks "MG" but is
  -- declared an MG is repaired, a weapon named "…MG…" declared a gun is not
  T.setup{ module = "pb", step = "repair", vars = { date = "day_i" }, units = {
    T.vehicle("pz", "german", "PzKpfw IVH", "C3", area),
    { id = "coax", side = "german", type = "sw", at = "C3", faces = { { weapon = "7.92 coax", kind = "mg", pp = 0, repair = 2 } },
      vars = { vehicular = true, disabled = true, mounted_on = "pz" } },
    { id = "mgun", side = "german", type = "sw", at = "C3", faces = { { weapon = "20MG cannon", kind = "gun", pp = 0, repair = 2 } },
      vars = { vehicular = true, disabled = true, mounted_on = "pz" } },
    T.sw("lmg", "german", "LMG", "C3", area) } }
  local ok, r = kessel.act{ kind = "mg_exchange", mg = "mgun", lmg = "lmg", side = "german" }
  expect.refused(ok, r, "9.61421", "mgun (20MG cannon) is no MG")
  expect.accepted(kessel.act{ kind = "mg_exchange", mg = "coax", lmg = "lmg", side = "german" })
end)

-- [11.6097] "Each Fortification/Equipment ... in a non-Factory terrain Blaze Location ... is
-- Eliminated [EXC: Entrenchment and Pillbox, though all Equipment therein is Eliminated]": in a
-- burning brush hex the foxhole, trench, A-T ditch and pillbox stay, the wire goes, and so does the
-- Gun. Before, only a marker named `entrenchment` was an Entrenchment: the foxhole was Eliminated
-- and the trench and A-T ditch were left as no Fortification at all.
kessel.test("case_11.6097_every_entrenchment_survives_a_blaze", function()
  T.setup{ module = "rb", step = "blazes", map = { terrain = { C3 = "brush" } },
    markers = { { kind = "blaze", at = "C3" }, { kind = "foxhole", side = "german", at = "C3" }, { kind = "trench", side = "german", at = "C3" },
      { kind = "at_ditch", side = "german", at = "C3" }, { kind = "pillbox", side = "german", at = "C3" }, { kind = "wire", side = "german", at = "C3" } },
    units = { T.gun("pak", "german", "75L AT", "C3") } }
  local ev = T.resolve()
  for _, k in ipairs({ "foxhole", "trench", "at_ditch", "pillbox" }) do
    expect.eq(#kessel.markers.all{ kind = k, placed = true }, 1, k .. " is an Entrenchment or Pillbox: it stays")
  end
  expect.eq(#kessel.markers.all{ kind = "wire", placed = true }, 0)
  T.has_note(ev, "wire in C3 is Eliminated")
  expect.eq(T.unit("pak").location, "eliminated", "all Equipment therein is Eliminated")
  T.replays()
end)

-- [11.615] "Attempts may be made to Eliminate any Known wire/minefield/Entrenchment - (including an
-- A-T Ditch)": a trench is an Entrenchment. Before, "trench is not removed in this step".
-- [9.605] a trench is an Entrenchment, which the map marks "E" among the Strategic Locations: the
-- German squad in its trench in G6 Controls a Strategic Location, with a German Setup Area round
-- it (without the trench G6 is no Strategic Location and the squad has no Setup Area).
kessel.test("case_11.615_9.605_a_trench_is_an_entrenchment", function()
  T.setup{ module = "rb", step = "fort_removal", vars = { date = "18oct" },
    markers = { ctrl("german", "C3"), { kind = "trench", side = "russian", at = "C3" } } }
  kessel.inject_dice{ 3 }
  local trench = kessel.markers.all{ kind = "trench", placed = true }[1].id
  local ok, ev = kessel.act{ kind = "remove_fortification", side = "german", marker = trench }
  expect.accepted(ok, ev)
  T.has_note(ev, "trench in C3: removal dr 3+0: eliminated")
  expect.eq(#kessel.markers.all{ kind = "trench", placed = true }, 0)
  T.setup{ step = "setup_areas", vars = { date = "day_i" }, map = { columns = 14, rows = 12 },
    markers = { { kind = "trench", side = "german", at = "G6" } }, units = { T.squad("g", "german", "4-6-7", "G6") } }
  local areas = require("rules.areas")
  expect.truthy(areas.strategic()["G6@0"], "an Entrenchment makes a Strategic Location")
  T.resolve()
  expect.eq(kessel.game.var("setup_areas").hexes["G7"], "german")
end)

-- [9.6073] [11.6073] each still-hidden Fortification in the opponent's Setup Area (RB: a Location
-- the opponent Controls) is placed on-map: a hidden German trench and pillbox are Fortifications
-- by their kind, whatever their value says. Before, only a marker flagged `fortification = true`
-- or a minefield counted: these stayed hidden from the British for good.
kessel.test("case_9.6073_11.6073_a_hidden_fortification_is_one_by_its_kind", function()
  T.setup{ step = "equipment", vars = { date = "day_i" }, map = { columns = 16, rows = 9, tags = { strategic = { "C5", "N5" } } },
    markers = { ctrl("british", "C5"), ctrl("german", "N5") },
    valued = { { kind = "pillbox", side = "german", hex = "C4", value = { hidden = true } } } }
  -- 9.605 is not played in this position: the British Setup Area is stored by hand
  local hexes = {}
  for _, h in ipairs(kessel.hex.range("C5", 2)) do hexes[h] = "british" end
  kessel.emit.var("setup_areas", { areas = { british = { { id = "A", hexes = kessel.hex.range("C5", 2) } }, german = {} }, hexes = hexes })
  local ev = T.resolve()
  T.has_note(ev, "pillbox in C4 is revealed")
  expect.eq(kessel.markers.all{ kind = "pillbox" }[1].value.hidden, nil)
  T.setup{ module = "rb", step = "equipment", vars = { date = "18oct" }, markers = { ctrl("russian", "D4") },
    valued = { { kind = "trench", side = "german", hex = "D4", value = { hidden = true } } } }
  ev = T.resolve()
  T.has_note(ev, "trench in D4 is revealed")
  expect.eq(kessel.markers.all{ kind = "trench" }[1].value.controlled_by, "russian")
end)

-- [11.6063] RB has no portage limit for an Escape: "+1 Per PP > IPC being carried" is what excess
-- PP cost. An Isolated German squad with an HMG (5 PP) and an LMG (1 PP) escapes with both, at +3
-- (6 PP - IPC 3). PB's 9.606 limits an MMC to five PP (the squad must drop the LMG first). Before,
-- RB dropped the LMG too.
kessel.test("case_11.6063_rb_sets_no_portage_limit_on_an_escape", function()
  T.setup{ module = "rb", step = "escape", vars = { date = "18oct" }, units = {
    T.squad("g", "german", "4-6-7", "C5", { vars = { isolated = true } }),
    T.sw("hmg", "german", "HMG", "C5", { vars = { possessed_by = "g", isolated = true } }),
    T.sw("lmg", "german", "LMG", "C5", { vars = { possessed_by = "g", isolated = true } }) } }
  kessel.inject_dice{ 1, 1 }
  local ok, ev = kessel.act{ kind = "escape", units = { "g" }, side = "german" }
  expect.accepted(ok, ev)
  local pp
  for _, m in ipairs(T.record(ev, "escape").modifiers) do if m.why:find("PP", 1, true) then pp = m.drm end end
  expect.eq(pp, 3)
  expect.eq(T.unit("lmg").vars.possessed_by, "g", "no LMG dropped")
  expect.eq(T.unit("lmg").location, "pending")
  -- PB: the same squad must drop what is over five PP
  T.setup{ step = "escape", vars = { date = "day_i" }, units = {
    T.squad("e", "german", "4-6-7", "C5", { vars = { reph = { status = "must_escape" } } }),
    T.sw("h2", "german", "HMG", "C5", { vars = { possessed_by = "e" } }), T.sw("l2", "german", "LMG", "C5", { vars = { possessed_by = "e" } }) } }
  kessel.inject_dice{ 1, 1 }
  ok, ev = kessel.act{ kind = "escape", units = { "e" } }
  expect.accepted(ok, ev)
  T.has_note(ev, "e drops l2 (over its portage limit)")
end)

-- [9.6071] "Each unpossessed/abandoned Equipment piece in a Setup Area may remain unpossessed ... or
-- may be automatically repossessed ... by Personnel Retained in that Setup Area": the German crew
-- in its Setup Area takes the Gun left there, and the German squad the British LMG lying in the
-- German area (Captured by the German as 9.607 ends, then his squad's). A British unit may not take
-- Equipment in the German area; a SW already held is no unpossessed one; RB has no such choice.
-- Before, nothing could possess an unpossessed Gun or SW again in the RePh.
kessel.test("case_9.6071_equipment_in_a_setup_area_may_be_repossessed", function()
  T.setup{ step = "setup_areas", vars = { date = "day_i" }, map = { columns = 16, rows = 9, tags = { strategic = { "C5", "N5" } } },
    markers = { ctrl("british", "C5"), ctrl("german", "N5") },
    units = { T.crew("c", "german", "N4"), T.gun("pak", "german", "75L AT", "N6", { vars = { malfunctioned = true } }),
      T.squad("g", "german", "4-6-7", "M5"), T.sw("blmg", "british", "LMG", "O5"),
      T.sw("held", "german", "MMG", "M5", { vars = { possessed_by = "g" } }),
      T.squad("b", "british", "6-4-8", "C4") } }
  while kessel.game.step().id ~= "equipment" do T.resolve() end
  local ok, r = kessel.act{ kind = "repossess", unit = "pak", by = "b", side = "british" }
  expect.refused(ok, r, "9.6071", "pak is not in Setup Area")
  ok, r = kessel.act{ kind = "repossess", unit = "held", by = "c", side = "german" }
  expect.refused(ok, r, "9.6071", "held is no unpossessed SW or Gun on the map")
  ok, r = kessel.act{ kind = "repossess", unit = "pak", by = "c", side = "british" }
  expect.refused(ok, r, "9.6071", "only its owner (german) decides about c")
  expect.accepted(kessel.act{ kind = "repossess", unit = "pak", by = "c", side = "german" })
  expect.accepted(kessel.act{ kind = "repossess", unit = "blmg", by = "g", side = "german" })
  local ev = T.resolve()
  expect.eq(T.unit("pak").vars.possessed_by, "c")
  expect.eq(T.unit("blmg").side, "german", "Captured by the side holding the area")
  expect.eq(T.unit("blmg").vars.possessed_by, "g")
  T.has_note(ev, "blmg is repossessed by g")
  T.replays()
  T.setup{ module = "rb", step = "equipment", vars = { date = "18oct" }, units = { T.crew("c", "german", "C5"), T.gun("pak", "german", "75L AT", "C5") } }
  ok, r = kessel.act{ kind = "repossess", unit = "pak", by = "c", side = "german" }
  expect.refused(ok, r, "9.6071", "Pegasus Bridge rule")
end)
