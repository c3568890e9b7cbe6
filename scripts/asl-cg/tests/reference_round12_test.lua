-- Situations from the reference texts, twelfth tester pass (ASL round 12): what a player of each
-- module is shown and told, step by step.
local T = require("testing.cg")
local expect = T.expect

local function walk_steps()
  local seen = {}
  while not kessel.game.finished() do
    local s = kessel.game.step()
    seen[#seen + 1] = string.format("%d %s [%s]", s.index, s.name, s.rule)
    T.resolve()
  end
  return table.concat(seen, "\n")
end

-- [11.6] a Red Barricades RePh is walked under the step titles and case numbers of the RB text
-- (11.602-11.618, then the players' 11.619-11.625), counted among the RB steps only. Before, the
-- one `refit` sequence held both modules' steps under the PB titles and cases: an RB game was at
-- "Encirclement, Minefields, Bog and Shock [9.604]" (RB's 11.604 has no Bog or Shock sub-step:
-- 11.6131 makes those), "Equipment Possession and Hidden Fortifications [9.607]" for 11.607's
-- Clearing the Map, and at step 5 of 27 where it was at its third, the editor's step line and
-- `kessel info` saying so.
kessel.test("case_11.6_the_rb_steps_carry_the_rb_titles_and_cases", function()
  T.setup{ module = "rb", main = true, vars = { date = "18oct" } }
  expect.accepted(kessel.act{ kind = "start_refit" })
  expect.eq(kessel.game.step().mode, "refit_rb")
  expect.eq(walk_steps(), table.concat({
    "0 Marker Removal [11.602]",
    "1 Victory Determination and Rally [11.603]",
    "2 Encirclement and Minefields [11.604]",
    "3 Perimeter Determination and Isolation [11.605]",
    "4 Escape from Isolation [11.6063]",
    "5 Clearing the Map [11.607]",
    "6 Prisoners [11.608]",
    "7 Extinguishing Blazes [11.609]",
    "8 Wounded Leaders [11.610]",
    "9 Battle Hardening and Promotion [11.611]",
    "10 New CG Day and SAN Adjustment [11.612]",
    "11 Equipment Repair and Replenishment [11.613]",
    "12 Armor Withdrawal [11.614]",
    "13 Fortification Removal [11.615]",
    "14 CPP Replenishment [11.616]",
    "15 ELR Loss/Gain [11.617]",
    "16 Weather and EC Determination [11.618]",
    "17 RePh steps 11.619-11.625 (not in our text): scenario generated, or an Idle Day [11.619]",
  }, "\n"))
  T.replays()
end)

-- [9.6] a Pegasus Bridge RePh is walked under its own titles and cases, counted among the PB steps
-- (9.601-9.620: twenty). Before, the RB-only steps sat among them, so 9.604 was the fifth step of 27.
kessel.test("case_9.6_the_pb_steps_are_counted_among_the_pb_steps", function()
  T.setup{ main = true, vars = { date = "dawn", cpp = { german = 0 } } }
  expect.accepted(kessel.act{ kind = "start_refit" })
  expect.eq(kessel.game.step().mode, "refit")
  local text = walk_steps()
  expect.truthy(text:find("3 Encirclement, Minefields, Bog and Shock [9.604]", 1, true), text)
  expect.truthy(text:find("19 Scenario Commencement [9.620]", 1, true), text)
  expect.eq(select(2, text:gsub("\n", "")) + 1, 20, text)
end)

-- [11.6] a choice made in the wrong RB step names the RB step's title with its case
kessel.test("case_11.6_a_refusal_names_the_rb_step", function()
  T.setup{ module = "rb", step = "markers", vars = { date = "18oct" },
    units = { T.squad("g1", "german", "4-6-7", "C3", { vars = { isolated = true } }) } }
  local ok, r = kessel.act{ kind = "escape", side = "german", units = { "g1" } }
  expect.refused(ok, r, "11.6063", "RePh step 11.6063 (Escape from Isolation), not now")
end)

-- [11.6] a position set up in the other module's sequence (an RB game put at the PB `refit`
-- sequence, as `kessel.setup{ mode = "refit" }` did for both) is refused naming the sequence its
-- RePh is, not left to walk PB steps
kessel.test("case_11.6_an_rb_position_in_the_pb_sequence_is_told_which_is_its_own", function()
  kessel.setup{ map = { columns = 6, rows = 6, numbering = "letters", default = "open" }, mode = "refit", step = "markers",
    options = { module = "rb" }, vars = { scenario_ended = true, date = "18oct" }, turn = 1, last_turn = 1 }
  local ok, r = kessel.act{ kind = "end_step" }
  expect.refused(ok, r, "11.6", "this RB game stands in the PB sequence `refit`: its RePh is the sequence `refit_rb`")
  ok, r = kessel.act{ kind = "start_refit" }
  expect.refused(ok, r, "11.6", "its RePh is the sequence `refit_rb`")
end)

-- [11.6057 EX] the Germans Control the ground and 2nd levels of building E5, the Russians the 1st
-- level, with an MMC there: the 1st and 2nd levels are one Pocket, apart from the ground level. An
-- Isolated Area of the players' record may now name its Location levels (`levels = { 1, 2 }`, the
-- "circled level-number" of the reduced map): it is type C (Russian MMC only), its Locations are
-- Russian-Controlled, the Russian squad is Isolated with Ammunition Shortage, and the German squad
-- at ground level is no part of it (cleared to the Retained box in 11.607). Before, a record named
-- hexes only: listing E5 made the whole hex one type D area (the German squad Isolated, with
-- Ammunition Shortage, left on the map), `levels` was refused at check as "not read", and leaving
-- E5 out left the Russian squad non-Isolated, cleared off the map.
kessel.test("case_11.6057_an_upper_level_pocket_is_its_own_isolated_area", function()
  local S = require("rules.sequence")
  local A = require("rules.areas")
  T.setup{ module = "rb", step = "perimeter", map = { tags = { strategic = { "E5" } } },
    vars = { date = "18oct", isolated_areas = { { hexes = { "E5" }, levels = { 1, 2 } } } },
    units = { T.squad("g1", "german", "4-6-7", "E5"), T.squad("r1", "russian", "4-4-7r", "E5", { vars = { level = 1 } }) },
    valued = { { kind = "control", side = "german", hex = "E5", value = { level = 2 } } } }
  expect.eq(#S.record_problems(), 0, table.concat(S.record_problems(), "\n"))
  local ev = T.resolve()
  T.has_note(ev, "Isolated Area 1 (E5, levels 1, 2): type C, Controlled by the russian")
  expect.eq(T.unit("r1").vars.isolated, true)
  expect.eq(T.unit("r1").vars.ammo_shortage, true)
  expect.eq(T.unit("g1").vars.isolated, nil, "the ground level is no part of the upper-level Pocket")
  expect.eq(T.unit("g1").vars.ammo_shortage, nil)
  expect.eq(A.controller("E5", 2), "russian", "each Location of a type C area is its occupier's [11.6062]")
  expect.eq(A.controller("E5", 0), "german")
  -- 11.607: the German squad is cleared to the Retained box, the Isolated Russian stays
  T.resolve()   -- 11.6063
  T.resolve()   -- 11.607
  expect.eq(T.unit("g1").location, "pending")
  expect.eq(T.unit("r1").location, "map")
  T.replays()
end)

-- [11.6057] a level record is checked: whole numbers, none repeated, and a hex's Location in one
-- Isolated Area only (a ground-level area and an upper-level Pocket may share the hex)
kessel.test("case_11.6057_an_isolated_area_level_record_is_checked", function()
  local S = require("rules.sequence")
  T.setup{ module = "rb", step = "perimeter", vars = { date = "18oct", isolated_areas = {
    { hexes = { "E5" }, levels = { 1, 2 } }, { hexes = { "E5", "E6" } }, { hexes = { "E5" }, levels = { 2 } },
    { hexes = { "F5" }, levels = { "up" } }, { hexes = { "F6" }, levels = {} } } } }
  local text = table.concat(S.record_problems(), "\n")
  expect.truthy(text:find("isolated_areas[3]: E5 level 2 is already in isolated_areas[1]", 1, true), text)
  expect.truthy(text:find("isolated_areas[4] gives levels `up`", 1, true), text)
  expect.truthy(text:find("isolated_areas[5] gives no level", 1, true), text)
  expect.eq(#S.record_problems(), 3, text)
end)

-- [11.6057] [11.6062 EXC] an upper-level Pocket holding only a Russian SMC (type B) whose
-- Controlled ADJACENT Locations (the German ground level below it; none above) are all German is
-- no Isolated Area: it passes to the German, and the Russian SMC in it must Escape (as in a type C
-- area, our reading). The ground level keeps its own Control.
kessel.test("case_11.6057_11.6062_an_upper_level_pocket_surrounded_by_one_side_passes_to_it", function()
  local A = require("rules.areas")
  T.setup{ module = "rb", step = "perimeter",
    vars = { date = "18oct", isolated_areas = { { hexes = { "E5" }, levels = { 1 } } } },
    units = { T.squad("g1", "german", "4-6-7", "E5"), T.leader("rl", "russian", "8-0", "E5", { vars = { level = 1 } }) } }
  local ev = T.resolve()
  T.has_note(ev, "Isolated Area 1 (E5, level 1): type B Pocket whose Controlled adjacent Locations are all the german's")
  expect.eq(A.controller("E5", 1), "german")
  expect.eq(T.unit("rl").vars.must_escape, true)
  expect.eq(T.unit("g1").vars.isolated, nil)
end)

-- [9.606] [11.6063] "+x (Armor-)Leader/Hero DRM": the DRM of the leader escaping with a stack, as
-- printed, whatever its sign: a 6+1 (a result of the 9.6183 leader table) gives +1; the best
-- leader of the stack counts (a 9-1 with a 6+1: -1). Before, only a DRM below 0 was applied, so a
-- 6+1 escaped with his squad at no cost, and a wound made a 6+1 a 0 leader (a wound makes a DRM
-- one worse, never worse than 0 in the ruleset's reading of A17.2: it never makes it better). The
-- Encirclement 1TC and the minefield NTC, where the leader's DRM "may"/"can" apply at the owner's
-- choice [9.6041] [9.6042], take none worse than 0.
kessel.test("case_9.606_11.6063_a_leaders_positive_drm_counts_in_an_escape", function()
  local X = require("rules.escape")
  local function leader_drm(module, ...)
    T.setup{ module = module, step = "escape", vars = { date = module == "rb" and "18oct" or "day_i" }, units = { ... } }
    local ids = {}
    for _, u in ipairs({ ... }) do ids[#ids + 1] = T.unit(u.id) end
    local _, mods = X.drm(ids)
    for _, m in ipairs(mods) do if m.why:find("leader DRM", 1, true) then return m.drm, m.why end end
    return 0
  end
  expect.eq(leader_drm("pb", T.squad("g1", "german", "4-6-7", "C3"), T.leader("gl", "german", "6+1", "C3")), 1, "a 6+1")
  expect.eq(leader_drm("pb", T.squad("g1", "german", "4-6-7", "C3"), T.leader("gl", "german", "6+1", "C3", { vars = { wounded = true } })),
    1, "a wound does not make a 6+1 better")
  expect.eq(leader_drm("pb", T.squad("g1", "german", "4-6-7", "C3"), T.leader("gl", "german", "9-1", "C3", { vars = { wounded = true } })),
    0, "a wounded 9-1: one worse")
  expect.eq(leader_drm("pb", T.squad("g1", "german", "4-6-7", "C3"), T.leader("gl", "german", "6+1", "C3"),
    T.leader("gm", "german", "9-1", "C3")), -1, "the best leader of the stack")
  expect.eq(leader_drm("rb", T.squad("g1", "german", "4-6-7", "C3"), T.leader("gl", "german", "6+1", "C3")), 1, "RB: a 6+1")
  expect.eq(leader_drm("pb", T.leader("gl", "german", "6+1", "C3")), 0, "NA to a leader alone")
end)

-- [9.6151] OB-given reinforcements "may only enter/set-up as specified", whenever they enter: the
-- Day II reinforcements (Entry Area TT4) held off-map through Day III may not Shift to another
-- Entry Area in the next RePh [9.613]; the British units Retained there that are no reinforcements
-- still may. Before, a Shift of theirs to TT14 was accepted (and offered), so they could enter
-- where the table does not send them.
kessel.test("case_9.6151_an_entry_area_reinforcement_does_not_shift_elsewhere", function()
  local S = require("rules.sequence")
  T.setup{ step = "reinforcements", map = { areas = { TT4 = { "L1", "L2" }, TT14 = { "L8", "L9" } } },
    vars = { date = "day_ii", previous_date = "day_i", entry_areas = { british = { TT4 = true, TT14 = true } } },
    units = { T.squad("b9", "british", "6-4-8", nil, { vars = { reph = { status = "retained", area = "TT4" } } }) } }
  T.resolve()
  local arrived
  for _, u in ipairs(kessel.units.all{ side = "british", type = "squad" }) do
    if u.id ~= "b9" then arrived = arrived or u end
  end
  expect.eq(arrived.location, "pending")
  expect.eq(arrived.vars.reph.area, "TT4")
  -- the next RePh, after Day III: 9.613
  kessel.emit.var("previous_date", "day_iii")
  kessel.emit.var("date", "dusk")
  kessel.emit.clock(kessel.game.turn(), S.index("shift"))
  local ok, r = kessel.act{ kind = "shift", side = "british", units = { arrived.id }, to = "TT14" }
  expect.refused(ok, r, "9.6151", "enters only at Entry Area TT4")
  for _, a in ipairs(kessel.legal("british")) do
    for _, id in ipairs(a.kind == "shift" and a.units or {}) do expect.truthy(id ~= arrived.id, "not offered: " .. id) end
  end
  expect.accepted(kessel.act{ kind = "shift", side = "british", units = { "b9" }, to = "TT14" })
end)

-- [11.6041] [11.6042] in RB the leader's DRM applies to the Encirclement 1TC and the A-P minefield
-- NTC ("Leader DRM apply"), a 6+1's +1 too; PB lets it apply at the owner's choice ("may apply",
-- "can apply" [9.6041] [9.6042]), so there a positive DRM is never taken. Before, RB left out a
-- 6+1's +1 as PB does.
kessel.test("case_11.6041_11.6042_the_leader_drm_applies_in_rb", function()
  local function checks(module)
    T.setup{ module = module, step = "encirclement", vars = { date = module == "rb" and "18oct" or "day_i" },
      units = { T.squad("g1", "german", "4-6-7", "C5", { vars = { encircled = true } }), T.leader("gl", "german", "6+1", "C5"),
        T.squad("g2", "german", "4-6-7", "F5"), T.leader("gm", "german", "6+1", "F5") },
      valued = { { kind = "ap_mine", side = "russian", hex = "F5", value = { strength = 6 } } } }
    kessel.inject_dice{ 1, 1, 1, 1, 1, 1, 1, 1 }
    return T.resolve()
  end
  local ev = checks("rb")
  T.has_note(ev, "g1 takes a 1TC (Encircled): DR 2+2 = 4 vs morale 7: passes (+1 1TC, +1 leader)")
  T.has_note(ev, "g2 takes a NTC (A-P minefield): DR 2+1 = 3 vs morale 7: passes (+1 leader)")
  ev = checks("pb")
  T.has_note(ev, "g1 takes a 1TC (Encircled): DR 2+1 = 3 vs morale 7: passes (+1 1TC)")
  T.has_note(ev, "g2 takes a NTC (A-P minefield): DR 2+0 = 2 vs morale 7: passes")
end)

-- [9.601] RePh Melee allows "any/all normal CCPh activities associated with Melee (i.e., attack,
-- Capture, Withdrawal, etc.)": a Withdrawal is reported with the Melee's outcome, `withdrawn = {
-- { unit, to } }`, to an ADJACENT Location (a hex next to the Melee's; A11 itself is the players'),
-- the unit taking its SW along. Before, `withdrawn` was not read: the report was accepted, the unit
-- stayed in the Melee, and the same Melee came first again.
kessel.test("case_9.601_a_withdrawal_from_melee_is_reported", function()
  T.setup{ step = "melee", vars = { date = "day_i" }, units = {
    T.squad("b1", "british", "6-4-8", "C3"), T.squad("g1", "german", "4-6-7", "C3"),
    T.sw("gw", "german", "LMG", "C3", { vars = { possessed_by = "g1" } }) } }
  local ok, r = kessel.act{ kind = "melee_outcome", hex = "C3", withdrawn = { { unit = "g1", to = "C6" } } }
  expect.refused(ok, r, "9.601", "Withdraws to an ADJACENT Location")
  ok, r = kessel.act{ kind = "melee_outcome", hex = "C3", withdrawn = { { unit = "g1", to = "C4" } }, eliminated = { "g1" } }
  expect.refused(ok, r, "9.601", "g1")
  local ev
  ok, ev = kessel.act{ kind = "melee_outcome", hex = "C3", withdrawn = { { unit = "g1", to = "C4" } } }
  expect.accepted(ok, ev)
  T.has_note(ev, "g1 Withdraws from the Melee in C3 to C4")
  expect.eq(T.unit("g1").hex, "C4")
  expect.eq(T.unit("gw").hex, "C4", "its SW goes along")
  expect.eq(#require("rules.melee").melee_locations(), 0)
  T.replays()
end)

-- [9.6] [11.6] a parameter none of a choice's rules reads is refused once the step's own checks
-- pass, naming it and the parameters the choice reads, citing the step's case. Before, it was
-- passed over in silence: a Fortification bought with `at` for `hex` was bought with no hex, an
-- Escape's `dropped` (for `drop`) kept the SW, a promotion's `choice` was taken as if meant.
kessel.test("case_9.6_a_parameter_no_rule_reads_is_refused", function()
  T.setup{ step = "fortifications", vars = { date = "day_i", fpp = { british = 10 } } }
  local ok, r = kessel.act{ kind = "buy_fortification", side = "british", item = "foxhole_1s", at = "C3" }
  expect.refused(ok, r, "9.619", "buy_fortification has no parameter `at` (it reads item, count, hex, level)")
  expect.eq(kessel.game.var("fpp_british"), nil, "nothing bought")
  T.setup{ module = "rb", step = "escape", vars = { date = "18oct" }, units = {
    T.squad("g1", "german", "4-6-7", "C3", { vars = { isolated = true } }), T.sw("w", "german", "LMG", "C3", { vars = { possessed_by = "g1" } }) } }
  ok, r = kessel.act{ kind = "escape", side = "german", units = { "g1" }, dropped = { "w" } }
  expect.refused(ok, r, "11.6063", "escape has no parameter `dropped` (it reads units, drop, must)")
  T.setup{ module = "rb", step = "hardening", vars = { date = "18oct" }, units = {
    T.leader("gl", "german", "8-0", "C3"), T.squad("g1", "german", "4-6-7", "C3"), T.squad("g2", "german", "4-6-7", "C3"),
    T.squad("g3", "german", "4-6-7", "C3"), T.squad("g4", "german", "4-6-7", "C3"), T.squad("g5", "german", "4-6-7", "C3"),
    T.squad("g6", "german", "4-6-7", "C3"), T.squad("g7", "german", "4-6-7", "C3"), T.squad("g8", "german", "4-6-7", "C3") } }
  ok, r = kessel.act{ kind = "promote", side = "german", leader = "gl", choice = "8-0_and_7-0" }
  expect.refused(ok, r, "11.6114", "promote has no parameter `choice` (it reads leader)")
  expect.accepted(kessel.act{ kind = "promote", side = "german", leader = "gl" })
end)

-- [11.6114] the two leaders of a promotion out of the ranks are Retained where the exchanged one
-- was: after 11.607's clearing, both in the Retained box (the new one had no Retained area)
kessel.test("case_11.6114_both_leaders_of_a_promotion_are_retained_in_the_box", function()
  local box = { status = "retained", area = "retained_box" }
  local units = { T.leader("gl", "german", "8-1", nil, { vars = { reph = box } }) }
  for i = 1, 8 do units[#units + 1] = T.squad("g" .. i, "german", "4-6-7", nil, { vars = { reph = box } }) end
  T.setup{ module = "rb", step = "hardening", vars = { date = "18oct" }, units = units }
  local ok, ev = kessel.act{ kind = "promote", side = "german", leader = "gl" }
  expect.accepted(ok, ev)
  local made
  for _, u in ipairs(kessel.units.all{ type = "leader" }) do if u.id ~= "gl" then made = u end end
  expect.eq(T.unit("gl").face.label, "8-0")
  expect.eq(made.face.label, "7-0")
  expect.eq(made.location, "pending")
  expect.eq(made.vars.reph and made.vars.reph.area, "retained_box")
end)

-- [11.6057] [11.6063] from an upper-level Pocket, the friendly-Controlled, non-Isolated ground
-- level of the escapee's own hex is ADJACENT to it: the Escape DR takes both "<= 2 hexes" and
-- "adjacent" DRM (our reading; a ground-level area's own hex is not counted)
kessel.test("case_11.6057_11.6063_the_ground_level_below_an_upper_pocket_is_adjacent", function()
  T.setup{ module = "rb", step = "escape",
    vars = { date = "18oct", isolated_areas = { { hexes = { "E5" }, levels = { 1 } } } },
    units = { T.squad("r2", "russian", "4-4-7r", "E5"),
      T.squad("r1", "russian", "4-4-7r", "E5", { vars = { level = 1, isolated = true } }) } }
  kessel.inject_dice{ 3, 3 }
  local ok, ev = kessel.act{ kind = "escape", side = "russian", units = { "r1" } }
  expect.accepted(ok, ev)
  T.has_note(ev, "-1 adjacent to a friendly-Controlled non-Isolated hex (E5 ground level)")
  T.has_note(ev, "r1: Escape DR 6-2 = 4")
end)

-- [9.613] the Shift DRM are those of the path the group traces, which may be of any length: "-1 If
-- that entire path can be traced on road hexes" holds when a road path exists, not only when the
-- shortest path is a road, and the "+1 per five Uncontrolled-Territory hexes" counts along the path
-- the group traces (the owner's choice: the one giving the lowest DRM). Here the straight way from
-- Setup Area A to B crosses 12 Uncontrolled-Territory hexes (+2); a road bends north through 12
-- as well, a hex longer: -1 + 2 = +1. Before, only the shortest path was read, so the road was
-- never found (+2).
kessel.test("case_9.613_the_road_path_may_be_longer_than_the_shortest", function()
  local function ctrl(side, hex) return { kind = "control", side = side, at = hex } end
  local road = { "B3", "B2" }
  for _, c in ipairs({ "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R" }) do road[#road + 1] = c .. "2" end
  T.setup{ step = "setup_areas", map = { columns = 20, rows = 5, tags = { strategic = { "B3", "S3" } },
      links = { { kind = "road", path = road } }, areas = { T1 = { "T1" } } },
    markers = { ctrl("german", "B3"), ctrl("german", "S3") }, units = { T.squad("g", "german", "4-6-7", "B3") },
    vars = { date = "day_i", entry_areas = { german = { T1 = true } } } }
  for _ = 1, 8 do T.resolve() end
  expect.eq(kessel.game.step().id, "shift")
  kessel.inject_dice{ 3, 3 }
  local ok, ev = kessel.act{ kind = "shift", side = "german", units = { "g" }, to = "B" }
  expect.accepted(ok, ev)
  local rec = T.record(ev, "shift")
  expect.eq(rec.drm, 1, table.concat(rec.modifiers or {}, ", "))
end)

-- the parameter check re-declares each choice: it keeps the order the choices are listed in
-- (`kessel.legal`, `kessel info`), which second-system.md's play.lua relies on (it takes the last
-- choice offered: in 9.617 a German RG purchase, not `end_step`)
kessel.test("case_9.6_the_choices_keep_their_order", function()
  T.setup{ step = "rg_purchase", vars = { date = "day_i", cpp = { german = 30 }, entry_areas = { german = { A1 = true } } },
    map = { areas = { A1 = { "A1" } } } }
  local offered = kessel.legal("german")
  expect.eq(offered[1].kind, "end_step")
  expect.eq(offered[#offered].kind, "buy_rg")
end)
