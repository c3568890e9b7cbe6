-- Situations from the reference texts, eleventh tester pass (ASL round 11): the refit phase as its
-- users meet it. A scenario author's mistyped data (a unit, its Equipment, a marker, a record) is
-- refused when the scenario loads, naming the field and the case that reads it, where before it
-- loaded and was read as something else (or stopped a later step with a Lua error). The `check`
-- hook turns each problem into a load error; a problem about a unit points at its line.
local T = require("testing.cg")
local expect = T.expect

local function problems(fn)
  local out = {}
  for _, p in ipairs(fn()) do out[#out + 1] = type(p) == "table" and p.message or p end
  return table.concat(out, "\n")
end
local function has(text, want) expect.truthy(text:find(want, 1, true), "wanted: " .. want .. "\n got:\n" .. text) end

-- [9.607] [11.607] Equipment is possessed by a unit in its Location: a SW whose `possessed_by` names
-- no unit, itself, or a unit in another hex is refused, naming the unit (its line) and the field.
-- Before, the first two loaded as an unpossessed SW (cleared or scrounged at 11.607) and the third
-- as a SW held across the map.
kessel.test("case_11.607_a_sw_is_possessed_by_a_unit_in_its_location", function()
  local S = require("rules.sequence")
  T.setup{ module = "rb", step = "markers", vars = { date = "18oct" }, units = {
    T.squad("g1", "german", "4-6-7", "C3"), T.squad("g2", "german", "4-6-7", "H8"),
    T.sw("w1", "german", "LMG", "C3", { vars = { possessed_by = "zz" } }),
    T.sw("w2", "german", "LMG", "C3", { vars = { possessed_by = "w2" } }),
    T.sw("w3", "german", "LMG", "C3", { vars = { possessed_by = "g2" } }),
    T.sw("w4", "german", "LMG", "C3", { vars = { possessed_by = "g1" } }),
  } }
  local list = S.unit_problems()
  local text = problems(S.unit_problems)
  has(text, "[11.607] unit `w1`: possessed_by names `zz`, no unit of this scenario")
  has(text, "[11.607] unit `w2`: possessed_by names the unit itself")
  has(text, "[11.607] unit `w3`: possessed_by `g2`, which is in H8, not in its hex C3")
  expect.eq(#list, 3, text)
  expect.eq(list[1].unit, "w1")
  -- PB cites its own case
  T.setup{ step = "markers", vars = { date = "day_i" }, units = { T.sw("w1", "german", "LMG", "C3", { vars = { possessed_by = "zz" } }) } }
  has(problems(S.unit_problems), "[9.607] unit `w1`: possessed_by names `zz`")
end)

-- [9.611] [11.611] Replacement, Battle Hardening and the half-squads read a squad's face on the
-- squads chart of its nationality: a face no chart knows ("9-9-9", or a German squad given a
-- Russian face) is refused at load, listing the side's faces. Before it loaded, and a Shift or an
-- Equipment capture that rebuilds the squad from its chart stopped the game with a Lua error.
kessel.test("case_11.611_a_squad_face_is_on_its_sides_chart", function()
  local S = require("rules.sequence")
  T.setup{ module = "rb", step = "markers", vars = { date = "18oct" }, units = {
    T.squad("r1", "russian", "4-4-7", "C3"),
    { id = "r2", side = "russian", type = "squad", faces = { "9-9-9", "4-4-4" }, at = "C4" },
    { id = "g1", side = "german", type = "squad", faces = { "6-2-8", "3-2-8" }, at = "C5" },
    T.hs("r3", "russian", "5-2-7", "C6"),
  } }
  local text = problems(S.unit_problems)
  has(text, "[11.611] unit `r2`: the russian squad `9-9-9` is on no chart of the ruleset")
  has(text, "4-2-6, 4-4-7, 4-5-8, 5-2-7, 6-2-8")
  has(text, "[11.611] unit `g1`: the german squad `6-2-8` is on no chart")
  expect.eq(#S.unit_problems(), 2, text)
end)

-- [9.611] [9.614] [9.606] a leader's morale and DRM, a SW's weapon, Portage and Repair numbers are
-- what the steps read (Battle Hardening, Repair, Escape): a morale "x", a DRM of -5, a SW with no
-- weapon, a negative PP or a Repair number of 9 are refused, naming the unit.
kessel.test("case_9.611_9.614_leader_and_sw_faces_are_read", function()
  local S = require("rules.sequence")
  T.setup{ step = "markers", vars = { date = "day_i" }, units = {
    { id = "l1", side = "british", type = "leader", faces = { { morale = "x", drm = -1, label = "9-1" } }, at = "C3" },
    { id = "l2", side = "british", type = "leader", faces = { { morale = 9, drm = -5, label = "9-5" } }, at = "C3" },
    T.leader("l3", "british", "9-1", "C3"),
    { id = "w1", side = "british", type = "sw", faces = { { pp = 1, repair = 2 } }, at = "C3" },
    { id = "w2", side = "british", type = "sw", faces = { { weapon = "LMG", pp = -1, repair = 2 } }, at = "C3" },
    { id = "w3", side = "british", type = "sw", faces = { { weapon = "LMG", pp = 1, repair = 9 } }, at = "C3" },
    T.sw("w4", "british", "PIAT", "C3"),
  } }
  local text = problems(S.unit_problems)
  has(text, "[9.611] unit `l1`: the leader's morale is `x`, not a morale level (1 to 10)")
  has(text, "[9.611] unit `l2`: the leader's drm is `-5`, not a leadership DRM (-3 to +1)")
  has(text, "[9.614] unit `w1`: the SW names no weapon")
  has(text, "[9.606] unit `w2`: the LMG's pp is `-1`, not a Portage cost (0 or more)")
  has(text, "[9.614] unit `w3`: the LMG's repair is `9`, not a Repair number (0 to 6)")
  expect.eq(#S.unit_problems(), 5, text)
end)

-- [9.602] [11.6073] [9.605] a unit's flags are true or false and its Location level a whole
-- number from -1: `hidden = "yes"` (read as hidden), `level = "up"` (read as a level no Location
-- has) and `level = -3` are refused.
kessel.test("case_11.6073_unit_flags_and_levels_are_checked", function()
  local S = require("rules.sequence")
  T.setup{ module = "rb", step = "markers", vars = { date = "18oct" }, units = {
    T.squad("g1", "german", "4-6-7", "C3", { vars = { hidden = "yes" } }),
    T.squad("g2", "german", "4-6-7", "C4", { vars = { level = "up" } }),
    T.squad("g3", "german", "4-6-7", "C5", { vars = { level = -3 } }),
    T.squad("g4", "german", "4-6-7", "C6", { vars = { level = -1, hidden = true } }),
  } }
  local text = problems(S.unit_problems)
  has(text, "[11.602] unit `g1`: hidden is `yes`, not true or false")
  has(text, "[11.6057] unit `g2`: level is `up`, not a Location level")
  has(text, "[11.6057] unit `g3`: level is `-3`")
  expect.eq(#S.unit_problems(), 3, text)
end)

-- [11.6052] [9.605] a Control marker names the side that Controls its Location, one marker to a
-- Location; [11.6042] a minefield's strength is a whole number above 0; [11.6073] a Fortification
-- has an owner, its `hidden` is true or false. Before, a Control marker with no side, two in one
-- Location, a strength of -6 or "six", an owner-less mine loaded (a side-less marker Controls for
-- no one; a negative strength attacks nothing).
kessel.test("case_11.6052_11.6042_control_markers_and_minefields_are_checked", function()
  local S = require("rules.sequence")
  T.setup{ module = "rb", step = "markers", vars = { date = "18oct" }, valued = {
    { kind = "control", hex = "C3", value = { level = 0 } },
    { kind = "control", side = "german", hex = "C4" },
    { kind = "control", side = "russian", hex = "C4" },
    { kind = "control", side = "german", hex = "C5", value = { level = 1 } },
    { kind = "control", side = "russian", hex = "C5", value = { level = 0 } },
    { kind = "ap_mine", side = "russian", hex = "D3", value = { strength = -6 } },
    { kind = "ap_mine", side = "russian", hex = "D4", value = { strength = "six" } },
    { kind = "at_mine", hex = "D5", value = { strength = 6 } },
    { kind = "foxhole", side = "russian", hex = "D6", value = { hidden = "yes" } },
    { kind = "ap_mine", side = "russian", hex = "D7", value = { strength = 6, hidden = true } },
  } }
  local text = problems(S.marker_problems)
  has(text, "[11.6052] marker 0 (control in C3): a Control marker names the side that Controls the Location")
  has(text, "[11.6052] marker 2 (control in C4): a second Control marker in the Location (marker 1 is there)")
  has(text, "[11.6042] marker 5 (ap_mine in D3): the minefield's strength is `-6`, not a whole number above 0")
  has(text, "[11.6042] marker 6 (ap_mine in D4): the minefield's strength is `six`")
  has(text, "[11.6073] marker 7 (at_mine in D5): a Fortification names its owner")
  has(text, "[11.6073] marker 8 (foxhole in D6): hidden is `yes`, not true or false")
  -- the two Control markers of C5 are at two levels: two Locations
  expect.eq(#S.marker_problems(), 6, text)
end)

-- [11.606] an Isolated Area: its hexes, each in one area; its type, when the record gives one, is
-- A-D (11.605 reads it again from the units in the area). A hex listed in two areas, an area
-- with no hex, a type "Q" and a misspelt field are refused; before, a hex in two areas was
-- Isolated with the first while 11.6063's Escape read another.
kessel.test("case_11.606_an_isolated_area_record_is_checked", function()
  local S = require("rules.sequence")
  T.setup{ module = "rb", step = "markers", vars = { date = "18oct", isolated_areas = {
    { hexes = { "C3", "C4" } }, { hexes = { "C4", "D4" }, type = "B" }, { hexes = {} }, { hexes = { "H8" }, type = "Q" },
    { hexes = { "H9" }, hexs = { "H10" } } } } }
  local text = problems(S.record_problems)
  has(text, "[11.606] isolated_areas[2]: C4 is already in isolated_areas[1] (a hex is in one Isolated Area)")
  has(text, "[11.606] isolated_areas[3] lists no hex")
  has(text, "[11.606] isolated_areas[4] gives type `Q`: an Isolated Area is of type A, B, C or D")
  has(text, "[11.606] isolated_areas[5] has `hexs`, which is not read")
  expect.eq(#S.record_problems(), 4, text)
end)

-- [9.601] the ATTACKER of RePh Melee is a side of the campaign game; [11.6121] an RB scenario that
-- gives no date reads the declared default, PB's dawn, and the refusal says so.
kessel.test("case_9.601_11.6121_the_attacker_and_a_missing_rb_date", function()
  local S = require("rules.sequence")
  T.setup{ module = "rb", step = "markers", vars = { date = "dawn", attacker = "soviet" } }
  local text = problems(S.record_problems)
  has(text, "[9.601] attacker `soviet` is not a side of the RB campaign game (german, russian)")
  has(text, "a scenario that gives no date reads the default, PB's dawn: an RB scenario names the CG Day just played")
  T.setup{ step = "markers", vars = { date = "dawn", attacker = "british" } }
  expect.eq(#S.record_problems(), 0, problems(S.record_problems))
end)

-- [9.603] [9.608] a unit is in one place: a passenger in its vehicle's hex, a prisoner in its
-- Guard's Location; `prisoner_of` names the side holding the prisoner, not its own or another
-- unit. A Gun names its weapon and a vehicle its type [9.614] (Repair reads them).
kessel.test("case_9.603_9.608_a_unit_is_in_one_place", function()
  local S = require("rules.sequence")
  T.setup{ step = "markers", vars = { date = "day_i" }, units = {
    T.vehicle("v1", "german", "PzKpfw IVH", "K5"),
    T.squad("g9", "german", "4-6-7", "B5", { vars = { passenger_of = "v1" } }),
    T.squad("g1", "german", "4-6-7", "K5"),
    T.squad("p1", "british", "6-4-8", "C6", { vars = { prisoner_of = "german", guarded_by = "g1" } }),
    T.squad("p2", "british", "6-4-8", "K5", { vars = { prisoner_of = "british", guarded_by = "g1" } }),
    T.squad("p3", "british", "6-4-8", "K5", { vars = { prisoner_of = "german", guarded_by = "g1" } }),
    { id = "gn", side = "german", type = "gun", faces = { { foo = 1 } }, at = "K5" },
    { id = "v2", side = "german", type = "vehicle", faces = { { foo = 1 } }, at = "K5" },
  } }
  local text = problems(S.unit_problems)
  has(text, "[9.603] unit `g9`: passenger_of `v1`, which is in K5, not in its hex B5 (a passenger is in its vehicle's hex)")
  has(text, "[9.608] unit `p1`: guarded_by `g1`, which is in K5, not in its hex C6 (a prisoner is in its Guard's Location)")
  has(text, "[9.608] unit `p2`: prisoner_of is `british`: it names the side holding the prisoner (german)")
  has(text, "[9.614] unit `gn`: the Gun names no weapon")
  has(text, "[9.614] unit `v2`: the vehicle names no vehicle type")
  expect.eq(#S.unit_problems(), 5, text)
end)

-- The PB records an author writes: [9.616] only the German has CPP; [9.6052] an Eligible Entry
-- Area is an area of the map; [9.61741] an Entry Arrow costs +0 to +6 CPP and each German Eligible
-- Entry Area has a cost (a cost "x" stopped the computer player's RG purchase with a Lua error);
-- [9.62023] who sets up and moves first are sides; [9.6152] the CG is I, II or III; [9.6174] an RG
-- line's cost is not negative; [9.619] the Fortifications a side bought are items of the purchase
-- table, counted, dated and its own.
kessel.test("case_9.616_9.61741_9.619_the_pb_records_an_author_writes", function()
  local S = require("rules.sequence")
  T.setup{ step = "markers", map = { areas = { P1 = { "L1" }, A1 = { "A1" } } }, vars = { date = "day_i",
    cpp = { german = 3, british = 2 },
    entry_areas = { german = { P1 = true, ZZ = true }, british = { A1 = true } }, entry_costs = { P1 = "x", A7 = 9 },
    sets_up_first = "soviet", moves_first = 3, cg = "2",
    rg_record = { { id = "V3", date = "day_i", strength = "F", cost = -14 } },
    fortifications_british = { { item = "moat", count = 1 }, { item = "foxhole_1s", count = 0 }, { item = "foxhole_1s", side = "german" },
      { item = "foxhole_1s", date = "day9" }, { item = "foxhole_1s", hex = "Z99" }, { item = "foxhole_2s", count = 2, date = "day_i", hex = "C3" } },
    fortifications_german = 3 } }
  local text = problems(S.record_problems)
  has(text, "[9.616] scenario var `cpp` gives the british 2: in PB only the German has CPP")
  has(text, "[9.6052] entry_areas: the german Entry Area `ZZ` is no area of this map")
  has(text, "[9.61741] entry_costs: the cost of Entry Arrow `P1` is `x`, not a CPP cost modifier (+0 to +6)")
  has(text, "[9.61741] entry_costs: the cost of Entry Arrow `A7` is `9`")
  has(text, "[9.61741] entry_costs gives no cost for the German Entry Area `ZZ`")
  has(text, "[9.62023] sets_up_first `soviet` is not a side of the PB campaign game (german, british)")
  has(text, "[9.62023] moves_first `3` is not a side")
  has(text, "[9.6152] cg `2` is not a PB campaign game (I, II or III)")
  has(text, "[9.6174] rg_record[1] (V3): cost `-14` is not a CPP cost")
  has(text, "[9.619] fortifications_british[1]: no Fortification `moat` on the purchase table")
  has(text, "[9.619] fortifications_british[2] (foxhole_1s): count `0` is not a whole number above 0")
  has(text, "[9.619] fortifications_british[3] (foxhole_1s) is the german's purchase, in the british's record")
  has(text, "[9.619] fortifications_british[4] (foxhole_1s): `day9` is no CG Date")
  has(text, "[9.619] fortifications_british[5] (foxhole_1s): `Z99` is not a hex of this map")
  has(text, "[9.619] fortifications_german is `3`, not a list of Fortification purchases")
  expect.eq(#S.record_problems(), 15, text)
end)

-- A player who leaves out what a choice is about reads which parameters it needs and how the
-- action is written, with its case. Before: `hero_harden{ unit = "g1" }` said "no such Retained
-- Hero", `promote{}` "no such Retained leader", `remove_fortification{}` "no such Fortification on
-- the map", `repossess{}` "nil is no unpossessed SW or Gun on the map", `retain_set_dc{}` "nil is
-- no hidden Set DC", `deploy{}` "nil is not Retained", `buy_fortification{}` "no Fortification
-- `nil`", `mg_exchange{}` that "a Disabled, non-captured vehicular MG is repaired".
kessel.test("case_9.6_a_choice_that_names_nothing_says_what_it_needs", function()
  local cases = {
    { "pb", "melee", { kind = "climb_place" }, "[9.601] name `unit`: climb_place{ unit = <a unit on a Climb marker>" },
    { "pb", "equipment", { kind = "repossess" }, "[9.6071] name `unit` and `by`: repossess{ unit = <an unpossessed SW or Gun>" },
    { "pb", "prisoners", { kind = "prisoner", unit = "g1" }, "[9.608] name `choice`: prisoner{ unit = <a prisoner of an Isolated Guard>, choice = \"free\" or \"transfer\"" },
    { "rb", "prisoners", { kind = "prisoner" }, "or \"execute\" }" },
    { "pb", "hardening", { kind = "keep_hs" }, "[9.6111] name `unit`: keep_hs{ unit = <a Retained half-squad> }" },
    { "pb", "hardening", { kind = "hero_harden", unit = "g1" }, "[9.6112] name `hero`: hero_harden{ hero = <the Retained Hero>, unit = <the friendly MMC it Battle Hardens> }" },
    { "rb", "hardening", { kind = "promote", unit = "gl" }, "[11.6114] name `leader`: promote{ leader = <a Retained 8-0 or 8-1> }" },
    { "pb", "repair", { kind = "mg_exchange" }, "[9.61421] name `mg` and `lmg`: mg_exchange{" },
    { "pb", "shift", { kind = "deploy" }, "[9.613] name `unit`: deploy{ unit = <a full squad stacked with a leader> }" },
    { "pb", "rg_purchase", { kind = "buy_rg" }, "[9.6171] name `rg`: buy_rg{ rg = <an RG ID of the chart>" },
    { "pb", "fortifications", { kind = "buy_fortification" }, "[9.619] name `item`: buy_fortification{ item = <an item of the purchase table>" },
    { "rb", "fort_removal", { kind = "remove_fortification" }, "[11.615] name `marker`: remove_fortification{ marker = <the id of a Known" },
    { "rb", "equipment", { kind = "retain_set_dc" }, "[11.6073] name `unit`: retain_set_dc{ unit = <a hidden Set DC" },
  }
  for _, c in ipairs(cases) do
    T.setup{ module = c[1], step = c[2], vars = { date = c[1] == "pb" and "day_i" or "18oct" },
      units = { T.squad("g1", "german", "4-6-7", "C3"), T.leader("gl", "german", "8-0", "C3") } }
    c[3].side = "german"
    local ok, reasons = kessel.act(c[3])
    expect.falsy(ok, c[3].kind)
    local text = reasons and reasons[1] and reasons[1].message or tostring(reasons)
    has(text, c[4])
  end
end)

-- [9.613] [9.606] [9.61741] the group of a Shift or an Escape is a list of ids, and a Shift names
-- where it goes; an Entry Arrow the German has not got is refused listing his Arrows. Before,
-- `units = "g1"` read "name the shifting units" (it was named), a Shift with no `to` went on to
-- other refusals, and a wrong Arrow was refused with no list of those there are.
kessel.test("case_9.613_9.61741_a_group_is_a_list_and_the_arrows_are_listed", function()
  T.setup{ step = "shift", vars = { date = "day_i" }, units = { T.squad("g1", "german", "4-6-7", "C3") } }
  local ok, reasons = kessel.act{ kind = "shift", units = "g1", to = "P1", side = "german" }
  expect.falsy(ok)
  has(reasons[1].message, "[9.613] name the shifting units as a list, and the area they go to: shift{ units = { \"g1\", ... }, to = <a friendly Setup Area or Eligible Entry Area> } (units is `g1`)")
  ok, reasons = kessel.act{ kind = "shift", units = { "g1" }, side = "german" }
  expect.falsy(ok)
  has(reasons[1].message, "[9.613] name the area the group Shifts to")
  T.setup{ step = "escape", vars = { date = "day_i" }, units = { T.squad("g1", "german", "4-6-7", "C3") } }
  ok, reasons = kessel.act{ kind = "escape", units = "g1", side = "german" }
  expect.falsy(ok)
  has(reasons[1].message, "[9.606] name the escaping units as a list: escape{ units = { \"g1\", ... } } (a stack, or one vehicle) (units is `g1`)")
  T.setup{ step = "rg_purchase", vars = { date = "day_i", cpp = { german = 40 }, entry_costs = { P1 = 0, A7 = 2 } } }
  ok, reasons = kessel.act{ kind = "buy_rg", rg = "I4", entry = "Q1", side = "german" }
  expect.falsy(ok)
  has(reasons[1].message, "[9.61741] `Q1` is not a German Entry Arrow (the Arrows: A7, P1)")
end)

-- [11.6062 EXC] a type A or B Pocket whose Controlled adjacent Locations (No Man's Land ignored)
-- are all one side's is no Isolated Area: its Locations become non-Isolated and that side's. E5
-- holds a Russian leader alone (type B) between two German squads: it passes to the German (the
-- leader, in German ground, must Escape: our reading). K5 holds a Russian leader beside a Russian
-- Control marker: Russian, and the leader is home, not Isolated. H5 (type B) has a German and a Russian neighbour: No Man's Land, its SMC must Escape.
-- Before, every type A or B area became No Man's Land whatever surrounded it.
kessel.test("case_11.6062_a_pocket_surrounded_by_one_side_passes_to_it", function()
  T.setup{ module = "rb", step = "perimeter", vars = { date = "18oct",
      isolated_areas = { { hexes = { "E5" } }, { hexes = { "K5" } }, { hexes = { "H5" } }, { hexes = { "B8" }, pocket = false } } },
    units = { T.leader("rl", "russian", "8-0", "E5"), T.squad("g1", "german", "4-6-7", "E4"), T.squad("g2", "german", "4-6-7", "E6"),
      T.leader("rl2", "russian", "8-0", "H5"), T.squad("g3", "german", "4-6-7", "H4"), T.squad("r3", "russian", "4-4-7", "H6"),
      T.squad("g4", "german", "4-6-7", "B7"), T.leader("rl3", "russian", "9-1", "K5") },
    valued = { { kind = "control", side = "russian", hex = "K4" } } }
  local ev = T.resolve()
  T.has_note(ev, "[11.6062] Isolated Area 1 (E5): type B Pocket whose Controlled adjacent Locations are all the german's: its Locations become non-Isolated and pass to the german's Control")
  T.has_note(ev, "[11.6062] Isolated Area 2 (K5): type B Pocket whose Controlled adjacent Locations are all the russian's")
  T.has_note(ev, "[11.6061] Isolated Area 1: the russian SMC in it, now in german-Controlled ground, must attempt to Escape: rl (our reading)")
  T.has_note(ev, "Isolated Area 3 (H5): type B, becomes No Man's Land [11.6062]")
  T.has_note(ev, "Isolated Area 4 (B8): type A, becomes No Man's Land [11.6062]")
  local A = require("rules.areas")
  expect.eq(A.controller("E5", 0), "german")
  expect.eq(A.controller("K5", 0), "russian")
  expect.eq(A.controller("H5", 0), "russian", "rl2 occupies it")
  -- the receiving side's SMC is home; the other side's is enclosed in enemy ground (our reading)
  expect.eq(T.unit("rl3").vars.isolated, nil)
  expect.eq(T.unit("rl3").vars.must_escape, nil)
  expect.eq(T.unit("rl").vars.isolated, true)
  expect.eq(T.unit("rl").vars.must_escape, true)
  expect.eq(T.unit("rl2").vars.isolated, true)
  expect.eq(T.unit("rl2").vars.must_escape, true)
  -- the released areas keep their place, with no hex: no step finds them Isolated
  local areas = kessel.game.var("isolated_areas")
  expect.eq(#areas[1].hexes, 0)
  expect.eq(areas[1].released, "german")
  expect.eq(areas[1].released_hexes[1], "E5")
  expect.eq(areas[3].hexes[1], "H5")
  expect.eq(T.C.isolated_area(T.unit("rl3")), nil)
  -- the record the rules wrote passes the check (a campaign carries it)
  expect.eq(#require("rules.sequence").record_problems(), 0, table.concat(require("rules.sequence").record_problems(), "\n"))
  -- the rest of the RePh plays through: rl Escapes (or not) from German ground; E5 stays German
  -- through the clearing of 11.607 [11.6072]
  ev = T.resolve()
  T.has_note(ev, "rl")
  while kessel.game.step().id ~= "prisoners" do T.resolve() end
  expect.eq(A.controller("E5", 0), "german")
  while not kessel.game.finished() do T.resolve() end
  T.replays()
end)

-- [11.6059] "each friendly SMC still outside the friendly Perimeter Area is Eliminated": the
-- Perimeters are the players', so they declare such a SMC in step 11.605 and it is Eliminated as
-- the step ends, counted among the RePh losses. An MMC, a SMC in a listed Isolated Area (11.6061
-- decides) or a prisoner is refused; so is a declaration in PB or outside the step. Before,
-- 11.6059 was not applied and could not be asked for.
kessel.test("case_11.6059_a_smc_outside_its_perimeter_is_eliminated", function()
  T.setup{ module = "rb", step = "perimeter", vars = { date = "18oct", isolated_areas = { { hexes = { "H5" } } } },
    units = { T.leader("gl", "german", "8-0", "C3"), T.squad("g1", "german", "4-6-7", "C4"), T.leader("rl", "russian", "8-0", "H5"),
      T.sw("w1", "german", "LMG", "C3", { vars = { possessed_by = "gl" } }),
      T.leader("pl", "russian", "7-0", "C4", { vars = { prisoner_of = "german", guarded_by = "g1" } }) } }
  local offered = {}
  for _, a in ipairs(kessel.legal()) do if a.kind == "smc_outside_perimeter" then offered[#offered + 1] = a end end
  expect.eq(#offered, 1, "gl alone is offered")
  expect.eq(offered[1].unit, "gl")
  local ok, reasons = kessel.act{ kind = "smc_outside_perimeter", unit = "g1", side = "russian" }
  expect.refused(ok, reasons, "11.6059", "g1 is no SMC")
  ok, reasons = kessel.act{ kind = "smc_outside_perimeter", unit = "rl", side = "german" }
  expect.refused(ok, reasons, "11.6059", "rl is in Isolated Area 1 (H5), part of a Perimeter Area: 11.6061 decides")
  ok, reasons = kessel.act{ kind = "smc_outside_perimeter", unit = "pl", side = "german" }
  expect.refused(ok, reasons, "11.6059", "pl is a prisoner")
  ok, reasons = kessel.act{ kind = "smc_outside_perimeter", side = "german" }
  expect.refused(ok, reasons, "11.6059", "name `unit`: smc_outside_perimeter{ unit =")
  expect.accepted(kessel.act{ kind = "smc_outside_perimeter", unit = "gl", side = "russian" })
  ok, reasons = kessel.act{ kind = "smc_outside_perimeter", unit = "gl", side = "russian" }
  expect.refused(ok, reasons, "11.6059", "already")
  local ev = T.resolve()
  expect.eq(T.unit("gl").location, "eliminated")
  expect.eq(T.unit("g1").location, "map")
  T.has_note(ev, "a SMC outside its side's Perimeter Area")
  T.replays()
  -- PB has no Perimeter; RB outside the step
  T.setup{ step = "setup_areas", vars = { date = "day_i" }, units = { T.leader("gl", "german", "8-0", "C3") } }
  ok, reasons = kessel.act{ kind = "smc_outside_perimeter", unit = "gl" }
  expect.refused(ok, reasons, "11.6059", "is a Red Barricades RePh step")
  T.setup{ module = "rb", step = "escape", vars = { date = "18oct" }, units = { T.leader("gl", "german", "8-0", "C3") } }
  ok, reasons = kessel.act{ kind = "smc_outside_perimeter", unit = "gl" }
  expect.refused(ok, reasons, "11.6059", "this is done in RePh step 11.605")
end)

-- [11.611] [11.6073] [11.605] a half-squad's face is its squad's half-squad on the chart (a 2-9-7
-- recombined with nothing; with `squad_face` it must be that squad's); `set_dc` marks a DC SW
-- only; `reph` is the RePh's own record, a table; a wrong value shows as what it is, not as a
-- table's address ("the german value is `table: 0x…`").
kessel.test("case_11.611_11.6073_half_squads_set_dc_and_records_are_checked", function()
  local S = require("rules.sequence")
  T.setup{ module = "rb", step = "markers", vars = { date = "18oct", elr = { german = { x = 1 } } }, units = {
    { id = "r1", side = "russian", type = "squad", faces = { "4-4-7", "2-9-7" }, step = 1, at = "C3" },
    { id = "r2", side = "russian", type = "squad", faces = { "4-4-7", "2-2-7" }, step = 1, at = "C3", vars = { squad_face = "4-4-7" } },
    T.hs("r3", "russian", "4-4-7", "C3"),
    { id = "r4", side = "russian", type = "squad", faces = { "4-4-7", "2-3-7" }, step = 1, at = "C3" },
    T.squad("r5", "russian", "4-4-7", "C4", { vars = { set_dc = true, hidden = true } }),
    T.sw("w1", "german", "DC", "C5", { vars = { set_dc = true, hidden = true } }),
    T.squad("r6", "russian", "4-4-7", "C4", { vars = { reph = 3 } }),
  } }
  local text = problems(S.unit_problems)
  has(text, "[11.611] unit `r1`: the russian half-squad `2-9-7` is the half of no squad on the chart")
  has(text, "[11.611] unit `r2`: the half-squad face `2-2-7` is not the russian 4-4-7's half-squad (2-3-7)")
  has(text, "[11.6073] unit `r5`: set_dc marks a Set DC: a SW whose weapon is \"DC\"")
  has(text, "[11.605] unit `r6`: reph is `3`")
  expect.eq(#S.unit_problems(), 4, text)
  has(problems(S.record_problems), "[11.617] scenario var `elr`: the german value is `a table`, not a number")
end)

-- [11.608] a transfer names the unit taking the prisoner; [11.615] a marker is named by its id, a
-- number. Before, `choice = "transfer"` with no `to` read as if the unit named were unfit, and
-- `marker = "0"` read "no such Fortification on the map".
kessel.test("case_11.608_11.615_a_transfer_names_its_guard_and_a_marker_its_id", function()
  T.setup{ module = "rb", step = "prisoners", vars = { date = "18oct", isolated_areas = { { hexes = { "E5" } } } },
    units = { T.squad("g1", "german", "4-6-7", "E5", { vars = { isolated = true } }),
      T.squad("rp", "russian", "4-4-7", "E5", { vars = { prisoner_of = "german", guarded_by = "g1", isolated = true } }) } }
  local ok, reasons = kessel.act{ kind = "prisoner", unit = "rp", choice = "transfer", side = "german" }
  expect.refused(ok, reasons, "11.608", "name `to`: the friendly unit able to Guard, in the same Isolated Area as g1")
  T.setup{ module = "rb", step = "fort_removal", vars = { date = "18oct" }, valued = { { kind = "wire", side = "russian", hex = "F5" } } }
  ok, reasons = kessel.act{ kind = "remove_fortification", marker = "0", side = "german" }
  expect.refused(ok, reasons, "11.615", "marker is a marker's id, a number (marker = 0), not `0`")
end)

-- A problem about a scenario record or a marker points at it: `var =` (the error names that line of
-- [vars]) or `marker =` (the line of the marker's [[markers]] table), as a unit's problem points
-- at the unit. Before, only unit problems named a line: `kessel check` printed the others with no
-- line number.
kessel.test("check_problems_point_at_the_record_or_marker_they_are_about", function()
  local S = require("rules.sequence")
  local function about(list, field)
    local out = {}
    for _, p in ipairs(list) do
      expect.truthy(p[field] ~= nil, "no " .. field .. " in: " .. tostring(p.message))
      out[#out + 1] = tostring(p[field]) .. ": " .. p.message
    end
    return table.concat(out, "\n")
  end
  T.setup{ step = "markers", map = { areas = { P1 = { "L1" } } }, vars = { date = "day_i", next_date = "dusk",
    cpp = { german = 3, british = 2 }, entry_areas = { german = { P1 = true, ZZ = true } }, entry_costs = { P1 = 9 },
    sets_up_first = "soviet", cg = "2", attacker = "soviet", elr = { german = 3 },
    rg_record = { { id = "V3", date = "day_i", cost = -14 } }, fortifications_british = 3 } }
  local text = about(S.located_record_problems(), "var")
  has(text, "cpp: [9.616] scenario var `cpp` gives the british 2")
  has(text, "entry_areas: [9.6052] entry_areas: the german Entry Area `ZZ` is no area of this map")
  has(text, "entry_costs: [9.61741] entry_costs: the cost of Entry Arrow `P1` is `9`")
  has(text, "entry_costs: [9.61741] entry_costs gives no cost for the German Entry Area `ZZ`")
  has(text, "sets_up_first: [9.62023] sets_up_first `soviet`")
  has(text, "cg: [9.6152] cg `2`")
  has(text, "attacker: [9.601] attacker `soviet`")
  has(text, "next_date: [9.6121] next_date `dusk` is not the CG Date after `day_i`")
  has(text, "rg_record: [9.6174] rg_record[1] (V3): cost `-14`")
  has(text, "fortifications_british: [9.619] fortifications_british is `3`")
  has(text, "elr: [9.6] `elr` is a Red Barricades record")
  -- the messages alone, as before
  expect.eq(#S.record_problems(), #S.located_record_problems())
  T.setup{ module = "rb", step = "markers", vars = { date = "18oct", last_date = "17oct", booby_trap = "D", weather = "snow",
    scenario_winner = "soviet", elr = { german = 7 }, win_loss = { german = { loss = 2 } },
    isolated_areas = { { hexes = { "C3" }, type = "Q" } } } }
  text = about(S.located_record_problems(), "var")
  has(text, "last_date: [11.6121] last_date `17oct` comes before the scenario's date `18oct`")
  has(text, "booby_trap: [11.6123] booby_trap `D`")
  has(text, "weather: [11.618] weather `snow`")
  has(text, "scenario_winner: [11.6031] scenario_winner `soviet`")
  has(text, "elr: [11.617] scenario var `elr`: the german value 7 is above 5")
  has(text, "win_loss: [11.6142] scenario var `win_loss`: the german entry has `loss`")
  has(text, "isolated_areas: [11.606] isolated_areas[1] gives type `Q`")
  T.setup{ module = "rb", step = "markers", vars = { date = "18oct" }, valued = {
    { kind = "control", side = "german", hex = "C3" },
    { kind = "control", hex = "C4" },
    { kind = "ap_mine", side = "russian", hex = "D3", value = { strength = -6 } },
  } }
  text = about(S.marker_problems(), "marker")
  has(text, "1: [11.6052] marker 1 (control in C4): a Control marker names the side")
  has(text, "2: [11.6042] marker 2 (ap_mine in D3): the minefield's strength is `-6`")
  expect.eq(#S.marker_problems(), 2, text)
end)
