-- Round 21: an outside checker's situations from the two refit-phase texts, written from the docs
-- (docs/second-system.md, docs/lua-api.md, `kessel info`) before reading the ruleset. The first
-- test is the one difference found in the rules; the rest are situations that agreed with the
-- text and that no earlier test covered.
local T = require("testing.cg")
local expect = T.expect
local S = require("rules.sequence")

local function rb(spec) spec.module = "rb"; T.setup(spec) end
-- a position at 11.605 with one listed Isolated Area, resolved to the Escape step
local function isolated(hexes, units, vars)
  vars = vars or {}
  vars.date = vars.date or "18oct"
  vars.isolated_areas = { { hexes = hexes } }
  rb{ step = "perimeter", vars = vars, units = units }
  T.resolve()
  expect.eq(kessel.game.step().id, "escape", "at 11.6063")
end
local function escape(units, side, dice)
  kessel.inject_dice(dice)
  return expect.accepted(kessel.act{ kind = "escape", units = units, side = side })
end
local function walk_to(id) while kessel.game.step().id ~= id do T.resolve() end end
-- the two sides' rear units, so neither side's Perimeter is empty
local function rear() return T.squad("g9", "german", "4-6-7", "K5"), T.squad("r9", "russian", "4-4-7", "B5") end

-- [11.602] [11.6073] A scenario that hides a unit or a Fortification the engine's way
-- (`hidden_from`, as docs/second-system.md says ASL's hidden Fortifications are) has them hidden
-- to the rules too: the set-up marks them (`S.adopt_engine_hiding`, run by the `setup` hook), so
-- 11.602 places the hidden squad on-map in view of the other side, and 11.6073 makes the minefield
-- in a Location the other side Controls a Known one. Before, only the ruleset's own marks (var
-- `hidden`, value `hidden`) were read: the squad stayed hidden from the German through the RePh
-- and the minefield stayed hidden, not Known.
kessel.test("case_11.602_11.6073_a_unit_or_fortification_hidden_from_a_side_is_a_hidden_one", function()
  local g9, r9 = rear()
  rb{ step = "markers", units = { g9, r9, T.squad("r2", "russian", "4-4-7", "H5", { hidden_from = "german" }) },
    markers = { { kind = "ap_mine", side = "russian", at = "K5", value = { strength = 6 }, hidden_from = "german" } } }
  local marked = S.adopt_engine_hiding()
  expect.eq(#marked, 2, "the squad and the minefield are marked hidden")
  expect.eq(T.unit("r2").vars.hidden, true, "r2 is a hidden unit")
  T.resolve()
  expect.eq(T.unit("r2").vars.concealed, true, "11.602: placed on-map concealed")
  expect.eq(#kessel.units.hidden_from("r2"), 0, "11.602: r2 is placed on-map, in the German's view")
  walk_to("prisoners")
  local m = kessel.markers.all()[1]
  expect.truthy(m.value.known, "11.6073: the minefield in a German-Controlled Location is Known")
  expect.falsy(m.value.hidden, "and no longer hidden")
end)

-- [11.6072] [11.6135] A Russian LMG the German had Captured, left unpossessed in a Location the
-- Russian Controls, is Retained by the Russian as his own again: not a Captured Weapon, so 11.6135
-- makes no dr for it. Before, it was marked Captured by its own side (original_side russian) and
-- 11.6135 could Eliminate it.
kessel.test("case_11.6072_a_retaken_weapon_is_its_owners_again", function()
  local g9, r9 = rear()
  rb{ step = "equipment", units = { g9, r9, T.sw("cmg", "german", "LMG", "B5", { vars = { captured = true, original_side = "russian" } }) } }
  local ev = T.resolve()
  T.has_note(ev, "cmg is Retained again by its own side, by the russian")
  local w = T.unit("cmg")
  expect.eq(w.side, "russian", "the Russian's")
  expect.falsy(w.vars.captured, "not Captured"); expect.falsy(w.vars.original_side, "no other owner")
  walk_to("repair")
  kessel.inject_dice{ 6, 6, 6, 6 }
  T.resolve()
  expect.eq(T.unit("cmg").location, "pending", "no Captured dr Eliminates it")
end)

-- [9.6071] PB: the same in a British Setup Area: a British LMG the German had Captured is the
-- British's own again. Before, it was "Captured" by the British with original_side german.
kessel.test("case_9.6071_a_retaken_weapon_is_its_owners_again", function()
  T.setup{ map = { tags = { strategic = { "C5", "J5" } } }, step = "setup_areas", vars = { date = "dawn" },
    units = { T.squad("g1", "german", "4-6-7", "J5"), T.squad("b1", "british", "6-4-8", "C5"),
      T.sw("cmg", "german", "LMG", "C6", { vars = { captured = true, original_side = "british" } }) } }
  walk_to("prisoners")
  local w = T.unit("cmg")
  expect.eq(w.side, "british", "Retained by the British")
  expect.falsy(w.vars.captured, "their own, not Captured")
end)

-- [11.6041] A prisoner Rearmed when its Guard fails the Encirclement 1TC takes the Guard's LMG:
-- the LMG is then the Russian's, Captured (A20.551), so it goes where he goes and 11.6135 rolls for
-- it. Before, it stayed the German's while a Russian held it, and escaped with him into the
-- Russian's Retained box as a German LMG.
kessel.test("case_11.6041_a_rearmed_prisoner_holds_the_guards_sw_as_captured", function()
  local g9, r9 = rear()
  rb{ step = "encirclement", units = { g9, r9, T.squad("g1", "german", "4-6-7", "G5", { vars = { encircled = true } }),
    T.squad("rp", "russian", "4-4-7", "G5", { vars = { prisoner_of = "german", guarded_by = "g1" } }),
    T.sw("lmg", "german", "LMG", "G5", { vars = { possessed_by = "g1" } }) } }
  kessel.inject_dice{ 6, 6 }
  local ev = T.resolve()
  T.has_note(ev, "rp takes lmg dropped by its Guard (Captured)")
  local w = T.unit("lmg")
  expect.eq(w.vars.possessed_by, "rp", "held by the Rearmed prisoner")
  expect.eq(w.side, "russian", "the Russian's")
  expect.eq(w.vars.captured, true, "Captured"); expect.eq(w.vars.original_side, "german", "from the German")
end)

-- [11.6072] [9.6071] A scenario that gives a Russian squad a German LMG must give it as the
-- Russian's, Captured: `kessel check` refuses the LMG left the German's (the state the Rearmed
-- prisoner above was left in), naming the fields; the Captured one passes.
kessel.test("case_11.6072_equipment_the_enemy_holds_is_given_as_captured", function()
  local function problems()
    local out = {}
    for _, p in ipairs(S.unit_problems()) do out[#out + 1] = p.message end
    return table.concat(out, "\n")
  end
  rb{ step = "markers", units = { T.squad("r1", "russian", "4-4-7", "B5"), T.sw("lmg", "german", "LMG", "B5", { vars = { possessed_by = "r1" } }) } }
  local text = problems()
  expect.truthy(text:find("[11.6072] unit `lmg`: possessed_by `r1`, a russian unit: Equipment the enemy holds is his, Captured", 1, true), text)
  rb{ step = "markers", units = { T.squad("r1", "russian", "4-4-7", "B5"),
    T.sw("lmg", "russian", "LMG", "B5", { vars = { possessed_by = "r1", captured = true, original_side = "german" } }) } }
  expect.eq(problems(), "", "a Captured LMG is fine")
end)

-- [11.6063] An Original DR of 2 always Escapes (with Heat of Battle), even with the +2 Encircled
-- and the +1 of a squad's two HS (Final 5)
kessel.test("case_11.6063_an_original_two_escapes_whatever_the_drm", function()
  local g9, r9 = rear()
  isolated({ "H5" }, { T.squad("g2", "german", "4-6-7", "H5", { vars = { encircled = true } }), T.squad("r2", "russian", "4-4-7", "H4"), g9, r9 })
  local ev = escape({ "g2" }, "german", { 1, 1 })
  local r = T.record(ev, "escape")
  expect.eq(r.result, "escapes", "Original 2")
  expect.eq(T.unit("g2").vars.heat_of_battle, true, "Heat of Battle")
  expect.eq(T.unit("g2").location, "pending", "Retained")
end)

-- [11.6063] A lone SMC: -1 (lone surviving SMC), his own leadership DRM NA (a 9-2, DR 9: Final 8)
kessel.test("case_11.6063_a_lone_leader_has_minus_one_not_his_own_drm", function()
  local g9, r9 = rear()
  isolated({ "H5" }, { T.leader("gl", "german", "9-2", "H5"), T.squad("r2", "russian", "4-4-7", "H4"), g9, r9 })
  local r = T.record(escape({ "gl" }, "german", { 4, 5 }), "escape")
  expect.eq(r.drm, -1, "only the lone SMC's -1")
  expect.eq(r.result, "escapes", "Final 8")
end)

-- [11.6063] A stack's leader DRM applies: a 9-1 with a squad (2 HS: +1), DR 8: Final 8, no Replacement
kessel.test("case_11.6063_the_leader_of_an_escaping_stack_lends_his_drm", function()
  local g9, r9 = rear()
  isolated({ "H5" }, { T.squad("g2", "german", "4-6-7", "H5"), T.leader("gl", "german", "9-1", "H5"), T.squad("r2", "russian", "4-4-7", "H4"), g9, r9 })
  local r = T.record(escape({ "g2", "gl" }, "german", { 4, 4 }), "escape")
  expect.eq(r.drm, 0, "-1 leader, +1 HS")
  expect.eq(r.result, "escapes", "Final 8")
  expect.eq(T.unit("g2").vars.squad_face, "4-6-7", "not Replaced")
end)

-- [11.6063] Final 11: Escapes, Replaced then Casualty Reduced (a 4-6-7: a 4-4-7's half-squad)
kessel.test("case_11.6063_eleven_replaces_then_reduces", function()
  local g9, r9 = rear()
  isolated({ "H5" }, { T.squad("g2", "german", "4-6-7", "H5"), T.squad("r2", "russian", "4-4-7", "H4"), g9, r9 })
  local r = T.record(escape({ "g2" }, "german", { 5, 5 }), "escape")
  expect.eq(r.final, 11, "DR 10 +1")
  local u = T.unit("g2")
  expect.eq(u.vars.squad_face, "4-4-7", "Replaced")
  expect.eq(u.step, 1, "then Casualty Reduced")
  expect.eq(u.location, "pending", "and Retained")
end)

-- [11.6063] An AFV's Escape: the Russian -1, the HS +1 and the Encircled +2 are NA to it (*);
-- Final 10: Abandoned, its crew Escapes
kessel.test("case_11.6063_an_afv_escape_takes_no_infantry_drm", function()
  local g9, r9 = rear()
  isolated({ "H5" }, { T.vehicle("t", "russian", "T-34", "H5", { vars = { encircled = true } }), T.squad("g2", "german", "4-6-7", "H4"), g9, r9 })
  local r = T.record(escape({ "t" }, "russian", { 5, 5 }), "escape")
  expect.eq(r.drm, 0, "no DRM for this AFV")
  expect.eq(r.result, "abandoned_crew_escapes", "Final 10")
  expect.eq(T.unit("t").vars.abandoned, true, "left Abandoned in its hex")
  expect.eq(T.unit("t").hex, "H5", "in its current hex")
end)

-- [11.6041] An Encircled prisoner takes no 1TC; its Encircled Guard does
kessel.test("case_11.6041_an_encircled_prisoner_takes_no_task_check", function()
  rb{ step = "encirclement", units = { T.squad("g1", "german", "4-6-7", "G5", { vars = { encircled = true } }),
    T.squad("rp", "russian", "4-4-7", "G5", { vars = { encircled = true, prisoner_of = "german", guarded_by = "g1" } }) } }
  kessel.inject_dice{ 1, 1, 6, 6 }
  local ev = T.resolve()
  local checks = 0
  for _, e in ipairs(ev) do if e.event == "record" and e.kind == "task_check" then checks = checks + 1; expect.eq(e.fields.unit, "g1", "the Guard's 1TC") end end
  expect.eq(checks, 1, "one 1TC only")
  expect.eq(T.unit("rp").location, "map", "the prisoner stays")
end)

-- [11.6059] [11.6062] A type B Isolated Area (a German leader alone) is No Man's Land, which no
-- side Controls: the `setup_area` query says so while the leader, who must Escape [11.6061], still
-- stands there. Before, it named the German as its controller.
kessel.test("case_11.6062_a_type_b_area_is_no_mans_land_controlled_by_nobody", function()
  local g9, r9 = rear()
  isolated({ "H5" }, { T.leader("gl", "german", "8-0", "H5"), g9, r9 })
  local q = kessel.queries.ask("setup_area", { hex = "H5" })
  expect.eq(q.type, "B", "SMC only")
  expect.eq(q.class, "nml", "No Man's Land")
  expect.eq(q.controller, nil, "un-Controlled")
  expect.eq(kessel.queries.ask("reph_unit", { unit = "gl" }).must_escape, true, "the leader must Escape")
end)

-- [11.6062] A type D Isolated Area: each side Controls the Locations it holds
kessel.test("case_11.6062_a_type_d_area_is_controlled_by_each_side_where_it_stands", function()
  local g9, r9 = rear()
  isolated({ "H5", "H6" }, { T.squad("g2", "german", "4-6-7", "H5"), T.squad("r2", "russian", "4-4-7", "H6"), g9, r9 })
  local a, b = kessel.queries.ask("setup_area", { hex = "H5" }), kessel.queries.ask("setup_area", { hex = "H6" })
  expect.eq(a.type, "D", "MMC of both sides")
  expect.eq(a.controller, "german", "H5")
  expect.eq(b.controller, "russian", "H6")
end)

-- [11.6061] In a type C Isolated Area each enemy SMC must attempt Escape
kessel.test("case_11.6061_an_enemy_smc_in_a_type_c_area_must_escape", function()
  local g9, r9 = rear()
  isolated({ "H5" }, { T.squad("g2", "german", "4-6-7", "H5"), T.leader("rl", "russian", "8-0", "H5"), g9, r9 })
  local q = kessel.queries.ask("reph_unit", { unit = "rl" })
  expect.eq(q.area_type, "C", "German MMC only")
  expect.eq(q.must_escape, true, "the Russian leader must Escape")
  expect.falsy(kessel.queries.ask("reph_unit", { unit = "g2" }).must_escape, "the German squad need not")
end)

-- [11.607 EXC] An Immobile vehicle is left on the map when the map is cleared
kessel.test("case_11.607_an_immobile_vehicle_is_left_on_the_map", function()
  local g9, r9 = rear()
  rb{ step = "equipment", units = { g9, r9, T.vehicle("tank", "german", "PzIIIH", "K6", { vars = { immobile = true } }) },
    markers = { { kind = "control", side = "german", at = "K6" } } }
  T.resolve()
  expect.eq(T.unit("tank").hex, "K6", "stays where it is")
  expect.eq(T.unit("g9").location, "pending", "a squad is cleared to the box")
end)

-- [11.6091] A Burning Wreck in woods: its Blaze passes to the woods (then consumed, 11.609) and
-- it becomes a Burnt-Out Wreck
kessel.test("case_11.6091_a_burning_wreck_becomes_burnt_out", function()
  local g9, r9 = rear()
  rb{ map = { terrain = { E3 = "woods" } }, step = "blazes",
    units = { g9, r9, T.vehicle("w", "german", "PzIIIH", "E3", { vars = { wreck = "burning" } }) },
    markers = { { kind = "blaze", at = "E3", value = { wreck = "w" } } } }
  local ev = T.resolve()
  T.has_note(ev, "[11.6091] w: its Blaze passes to the terrain of E3")
  expect.eq(T.unit("w").vars.wreck, "burnt_out", "Burnt-Out Wreck")
end)

-- [11.6095] [11.6097] A newly-Gutted Factory: its Equipment is Eliminated, its Fortification is not
kessel.test("case_11.6095_a_gutted_factory_keeps_its_fortification_not_its_equipment", function()
  local g9, r9 = rear()
  rb{ map = { terrain = { H3 = "factory" } }, step = "blazes", units = { g9, r9, T.sw("lmg", "german", "LMG", "H3") },
    markers = { { kind = "blaze", at = "H3" }, { kind = "wire", at = "H3" } } }
  T.resolve()
  expect.eq(kessel.map.terrain("H3"), "factory", "not rubbled")
  expect.eq(T.unit("lmg").location, "eliminated", "Equipment Eliminated")
  local wire = false
  for _, m in ipairs(kessel.markers.at("H3")) do if m.kind == "wire" then wire = true end end
  expect.truthy(wire, "the wire stays")
end)

-- [11.6111] Three Retained same HS: two Recombine, one HS is left (one of each HS type)
kessel.test("case_11.6111_three_half_squads_make_a_squad_and_a_half_squad", function()
  local _, r9 = rear()
  rb{ step = "hardening", vars = { date = "18oct", scenario_winner = "russian" },
    units = { T.hs("h1", "german", "4-6-7", "K5"), T.hs("h2", "german", "4-6-7", "K6"), T.hs("h3", "german", "4-6-7", "K7"), r9 } }
  kessel.inject_dice{ 6, 6, 6, 6, 6, 6, 6, 6 }
  T.resolve()
  local squads, hs = 0, 0
  for _, id in ipairs{ "h1", "h2", "h3" } do
    local u = T.unit(id)
    if u.location == "map" then if u.step == 0 then squads = squads + 1 else hs = hs + 1 end end
  end
  expect.eq(squads, 1, "one squad"); expect.eq(hs, 1, "one HS")
end)

-- [11.6113] The leader Battle Hardening DR is for a Retained Infantry leader: a German DR 5 (the
-- 8-1 row) leaves an armor leader 8-1 as he is, and no Infantry leader is there to harden
kessel.test("case_11.6113_the_dr_does_not_harden_an_armor_leader", function()
  local _, r9 = rear()
  rb{ step = "hardening", vars = { date = "18oct", scenario_winner = "russian" },
    units = { T.leader("al", "german", "8-1", "K5", { type = "armor_leader" }), T.squad("g1", "german", "4-6-7", "K5"), r9 } }
  kessel.inject_dice{ 6, 6, 6, 6, 2, 3, 6, 6 }
  local ev = T.resolve()
  expect.eq(T.record(ev, "leader_hardening").rolled, "8-1", "the 8-1 row")
  expect.eq(T.unit("al").face.label, "8-1", "the armor leader is not hardened")
end)

-- [11.6114] A wounded 8-0 is not promoted out of the ranks, however many squads there are
kessel.test("case_11.6114_a_wounded_leader_is_not_promoted", function()
  local units = { T.leader("gl", "german", "8-0", "K5", { vars = { wounded = true } }), T.squad("r9", "russian", "4-4-7", "B5") }
  for i = 1, 8 do units[#units + 1] = T.squad("g" .. i, "german", "4-6-7", "K" .. i) end
  rb{ step = "hardening", vars = { date = "18oct", scenario_winner = "russian" }, units = units }
  local ok, r = kessel.validate{ kind = "promote", leader = "gl", side = "german" }
  expect.refused(ok, r, "11.6114", "unwounded")
end)

-- [11.6114] The Russian limit is one leader per eight squad-equivalents: an 8-1 and 16 squads may
-- become an 8-0 and a 7-0
kessel.test("case_11.6114_the_russian_limit_is_one_leader_per_eight", function()
  local units = { T.leader("rl", "russian", "8-1", "B5"), T.squad("g9", "german", "4-6-7", "K5") }
  for i = 1, 16 do units[#units + 1] = T.squad("r" .. i, "russian", "4-4-7", "B" .. ((i % 8) + 1)) end
  rb{ step = "hardening", vars = { date = "18oct", scenario_winner = "german" }, units = units }
  expect.accepted(kessel.act{ kind = "promote", leader = "rl", side = "russian" })
  expect.eq(T.unit("rl").face.label, "8-0", "the 8-1 becomes an 8-0")
end)

-- [11.6132] [11.6141] In RB a German MA that fails its repair dr is Disabled and its AFV Recalled;
-- 11.6141 then Eliminates the Mobile non-Isolated AFV
kessel.test("case_11.6132_11.6141_a_disabled_ma_recalls_and_eliminates_the_afv", function()
  local g9, r9 = rear()
  rb{ step = "repair", units = { g9, r9, T.vehicle("tank", "german", "PzIIIH", nil, { location = "pending" }),
    { id = "ma", side = "german", type = "sw", location = "pending", faces = { { weapon = "MA", pp = 0, repair = 0 } },
      vars = { malfunctioned = true, mounted_on = "tank", main_armament = true } } } }
  kessel.inject_dice{ 6, 6, 6, 6 }
  T.resolve()
  expect.eq(T.unit("ma").vars.disabled, true, "Disabled")
  expect.eq(T.unit("tank").vars.recall, true, "Recalled")
  kessel.inject_dice{ 1, 1, 1 }
  T.resolve()
  expect.eq(T.unit("tank").location, "eliminated", "11.6141")
end)

-- [11.6139] A non-Isolated unit's Ammunition Shortage is lifted
kessel.test("case_11.6139_a_non_isolated_units_shortage_is_lifted", function()
  local _, r9 = rear()
  rb{ step = "repair", units = { T.squad("g1", "german", "4-6-7", "K5", { vars = { ammo_shortage = true } }), r9 } }
  T.resolve()
  expect.falsy(T.unit("g1").vars.ammo_shortage, "lifted")
end)

-- [11.615] A roadblock is rolled for only by the side Controlling both Locations of its hexside
kessel.test("case_11.615_a_roadblock_needs_both_locations", function()
  rb{ step = "fort_removal", units = { T.squad("g1", "german", "4-6-7", "G5"), T.squad("r1", "russian", "4-4-7", "G6") },
    markers = { { kind = "roadblock", at = "G5", other = "G6" } } }
  local ok, r = kessel.validate{ kind = "remove_fortification", marker = 0, side = "german" }
  expect.refused(ok, r, "11.615", "both its Locations")
end)

-- [11.615] Wire in a Front Line Location (+2): dr 2 is No Effect; ADJACENT to one (+1): Eliminated
kessel.test("case_11.615_front_line_and_adjacent_drm", function()
  local g9, r9 = rear()
  rb{ map = { tags = { front_line = { "G6" } } }, step = "fort_removal", units = { g9, r9 },
    markers = { { kind = "wire", at = "G6" }, { kind = "wire", at = "G7" },
      { kind = "control", side = "german", at = "G6" }, { kind = "control", side = "german", at = "G7" } } }
  kessel.inject_dice{ 2, 2 }
  local a = expect.accepted(kessel.act{ kind = "remove_fortification", marker = 0, side = "german" })
  T.has_note(a, "+2 in a Front Line Location")
  local b = expect.accepted(kessel.act{ kind = "remove_fortification", marker = 1, side = "german" })
  T.has_note(b, "+1 ADJACENT to a Front Line Location")
  local left = {}
  for _, m in ipairs(kessel.markers.all()) do if m.kind == "wire" and m.hex then left[m.hex] = true end end
  expect.truthy(left.G6, "2 +2 = 4: No Effect"); expect.falsy(left.G7, "2 +1 = 3: Eliminated")
end)

-- [11.618] EC +1 after a Dry day: dr 5 is Dry again
kessel.test("case_11.618_a_dry_day_makes_the_next_drier", function()
  local _, r9 = rear()
  rb{ step = "weather", vars = { date = "20oct", weather = "clear", ec = "dry" }, units = { r9 } }
  kessel.inject_dice{ 4, 4, 5 }
  T.resolve()
  expect.eq(kessel.game.var("ec"), "dry", "dr 5 +1 = 6")
end)
