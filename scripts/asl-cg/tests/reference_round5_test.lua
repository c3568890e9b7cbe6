-- Situations from the reference texts, fifth tester pass (ASL round 5): each test rebuilds one
-- situation, names its case, and checks what the text says must happen.
local T = require("testing.cg")
local expect = T.expect

-- a squad as a scenario file gives it: its two faces, no `squad_face` variable
local function plain_squad(id, side, face, hs, at, vars)
  return { id = id, side = side, type = "squad", faces = { face, hs }, at = at, vars = vars or {} }
end

-- [11.6112] a Russian 4-4-7 is first-line: when the MMC Battle Hardening DR picks it, it takes the
-- Russian better face (4-5-8), not the German second-line 4-4-7's (4-6-7): squad data are keyed by
-- nationality (the side), then face
kessel.test("case_11.6112_a_russian_4_4_7_hardens_by_russian_data", function()
  T.setup{ module = "rb", step = "hardening", vars = { date = "18oct" }, units = {
    plain_squad("r1", "russian", "4-4-7", "2-3-7", "C6"), plain_squad("g1", "german", "4-4-7", "2-3-7", "H6") } }
  kessel.inject_dice{ 1, 1, 1, 1, 6, 6, 6, 6 }   -- German 2: two MMC; Russian 2 - 1 = 1: three MMC
  local ev = T.resolve()
  T.has_note(ev, "r1 Battle Hardens from 4-4-7 to 4-5-8")
  T.has_note(ev, "g1 Battle Hardens from 4-4-7 to 4-6-7")
  expect.eq(T.C.face_label(T.unit("r1")), "4-5-8")
  expect.eq(T.C.face_label(T.unit("g1")), "4-6-7")
end)

-- [11.6063] "Escapes, Replaced": a Russian 4-5-8 is Replaced by a Russian 4-4-7 (A19.13), not by
-- the British 4-5-7 of the same face; a Russian 4-4-7 by a 4-2-6 Conscript, not a German 4-3-6
kessel.test("case_11.6063_replacement_follows_the_nationality", function()
  T.setup{ module = "rb", step = "escape", vars = { date = "18oct" }, units = {
    plain_squad("r1", "russian", "4-5-8", "2-4-8", "C5", { isolated = true }),
    plain_squad("r2", "russian", "4-4-7", "2-3-7", "H5", { isolated = true }) } }
  for _, id in ipairs({ "r1", "r2" }) do
    kessel.inject_dice{ 5, 4 }   -- 9 - 1 Russian + 1 squad = 9: Escapes, Replaced
    local ok, ev = kessel.act{ kind = "escape", units = { id } }
    expect.accepted(ok, ev)
    expect.eq(T.record(ev, "escape").result, "replaced", id)
  end
  expect.eq(T.C.face_label(T.unit("r1")), "4-4-7")
  expect.eq(T.C.face_label(T.unit("r2")), "4-2-6")
  T.replays()
end)

local BAD = { 5, "zz", {}, { 5 }, { "zz" }, true, -1, 0, 1.5, "C5", { "g1", "b1" }, "g1", "b1", "gs", { x = 1 }, "german", "russian", "british", { "C5" }, 1e300, 0/0 }
local BASE = {
  { "pb", "escape", { kind = "escape", units = { "g1" }, drop = { "gsw" } } },
  { "pb", "rg_purchase", { kind = "buy_rg", side = "german", rg = "I4", entry = "A7" } },
  { "pb", "fortifications", { kind = "buy_fortification", side = "british", item = "ap_mine", count = 2, hex = "H5", level = 0 } },
  { "pb", "fortifications", { kind = "buy_fortification", side = "german", item = "hip_squad", count = 1 } },
  { "pb", "commencement", { kind = "set_up_fortification", side = "british", item = "ap_mine", hex = "H5", count = 1, level = 0 } },
  { "pb", "shift", { kind = "shift", units = { "b1" }, to = "A" } },
  { "pb", "hardening", { kind = "hero_harden", hero = "bh", unit = "b1" } },
  { "pb", "hardening", { kind = "keep_hs", unit = "b1" } },
  { "rb", "hardening", { kind = "promote", leader = "gl" } },   -- the leader says which exchange (11.6114): no `choice`
  { "pb", "prisoners", { kind = "prisoner", unit = "p1", choice = "free" } },
  { "pb", "repair", { kind = "mg_exchange", mg = "vmg", lmg = "glmg" } },
  { "pb", "melee", { kind = "climb_place", unit = "gc", reached = true }, true },
  { "pb", "melee", { kind = "melee_outcome", hex = "H5", eliminated = { "gm" }, captured = { { unit = "b1", guard = "gx" } } } },
  { "rb", "fort_removal", { kind = "remove_fortification", side = "german", marker = 0 } },
  { "rb", "equipment", { kind = "retain_set_dc", unit = "dc" } },
  { "pb", "equipment", { kind = "repossess", unit = "glmg", by = "g1" } },
  { "pb", "escape", { kind = "deploy", unit = "g1" } },
  { "rb", "scenario_generation", { kind = "idle_day", side = "german", attack_chit = { german = true }, bought = { russian = { first_line = 1 } } } },
}
local function units(mod, climber)
  local other = mod == "pb" and "british" or "russian"
  return { T.squad("g1", "german", "4-6-7", "C5", { vars = { isolated = true, reph = { status = "isolated", area = "B" } } }),
    T.squad("gc", "german", "4-6-7", "C6", { vars = { climb = climber and { from = 0, to = 1 } or nil } }), T.leader("gl", "german", "8-0", "C5"),
    T.sw("gsw", "german", "LMG", "C5", { vars = { possessed_by = "g1" } }), T.sw("bm", other, "51 MTR", "H5"),
    T.sw("vmg", "german", "MG", "C6", { vars = { vehicular = true, disabled = true, mounted_on = "gv" } }), T.sw("glmg", "german", "LMG", "C6"),
    T.sw("dc", "german", "DC", "C6", { vars = { set_dc = true, hidden = true } }),
    T.hs("b1", other, mod == "pb" and "6-4-8" or "4-4-7", "H5"), T.hero("bh", other, "H5"), T.sw("bs", other, "LMG", "H5"),
    T.vehicle("gv", "german", "PzKpfw IVH", "C6"), T.squad("gm", "german", "4-6-7", "H5"), T.squad("gx", "german", "4-6-7", "H5"),
    T.squad("p1", other, mod == "pb" and "4-5-8" or "4-4-7", "C5", { vars = { prisoner_of = "german", guarded_by = "g1" } }) }
end
-- [9.6] [11.6] what a GM could type wrong: each RePh choice taken in its step with one parameter
-- replaced by a value of the wrong kind (a number, a table, a boolean, NaN, a huge count, an id of
-- the wrong unit, a side's name) or an unknown extra one. Each is a refusal naming its case, or an
-- accepted action; never a Lua error (before: an Entry Arrow `true`, a count of 1e300, a prisoner
-- freed before any Setup Area was determined stopped the rules with one). An unknown extra
-- parameter on a base action that is otherwise valid is refused, naming it (round 12: it was
-- accepted and passed over: rules/params.lua)
local function C_keys(t) local out = {} for k in pairs(t) do out[#out + 1] = k end table.sort(out) return out end
kessel.test("case_9.6_wrong_parameters_are_refusals_citing_a_case", function()
  local bad, acc, extra_named = {}, 0, {}
  for _, b in ipairs(BASE) do
    local mod, step, base, climber = b[1], b[2], b[3], b[4]
    local fields = {}
    for k in pairs(base) do if k ~= "kind" then fields[#fields + 1] = k end end
    fields[#fields + 1] = "extra"
    table.sort(fields)
    local fresh = true
    for _, f in ipairs(fields) do
      for _, v in ipairs(BAD) do
        if f == "side" and type(v) ~= "string" then goto continue end
        if fresh then T.setup{ module = mod, step = step, vars = { date = mod == "pb" and "day_i" or "18oct", cpp = { german = 30 }, fpp = { german = 10, british = 10 },
          fortifications_british = { { side = "british", item = "ap_mine", count = 2, date = "day_i", cost = 3 } } }, units = units(mod, climber),
          markers = { { kind = "wire", side = "russian", at = "C6" }, { kind = "control", side = "german", at = "C6" } } } end
        fresh = false
        do
          local a = {}
          for k, x in pairs(base) do a[k] = x end
          a[f] = v
          local ok, r, why = pcall(kessel.act, a)
          local key = mod .. " " .. step .. " " .. base.kind .. " " .. f .. "=" .. (type(v) == "table" and "table" or tostring(v))
          -- NaN never reaches the rules: the engine refuses a number with no JSON form itself
          local engine_refused_nan = v ~= v and tostring(r):find("which is not finite", 1, true)
          if not ok then
            if not engine_refused_nan then bad[#bad + 1] = key .. ": ERROR " .. tostring(r):match("[^\n]*") end
          elseif r == true then
            fresh = true; acc = acc + 1
            if f == "extra" then bad[#bad + 1] = key .. ": an unknown parameter was accepted" end
          elseif type(why) == "table" then
            for _, x in ipairs(why) do
              if not x.rule then bad[#bad + 1] = key .. ": no rule: " .. tostring(x.message) end
              if f == "extra" and tostring(x.message):find("has no parameter `extra`", 1, true) then extra_named[key:match("^(.-) extra=")] = true end
            end
          end
        end
        ::continue::
      end
    end
  end
  expect.eq(#bad, 0, table.concat(bad, "\n"))
  -- the unknown parameter is named once the step's own checks pass (an accepted one is in `bad`)
  expect.truthy(#C_keys(extra_named) >= 12, "`extra` named: " .. table.concat(C_keys(extra_named), ", "))
  expect.truthy(acc > 10, "wrong values the rules take as valid are accepted")
end)

-- [11.6063] footnote 2: "A unit that would become Disrupted is Eliminated instead": a Russian 4-2-6
-- is a Conscript, with no lower quality to be Replaced by (it escaped as a 4-2-6 before); the LMG
-- it took along is then Eliminated on a dr >= 4, else left in its Location [9.6061] (it stayed
-- possessed by the dead squad before)
kessel.test("case_11.6063_a_conscript_that_would_be_replaced_is_eliminated", function()
  T.setup{ module = "rb", step = "escape", vars = { date = "18oct" }, units = {
    plain_squad("r1", "russian", "4-2-6", "2-2-6", "C5", { isolated = true }),
    T.sw("lmg", "russian", "LMG", "C5", { vars = { possessed_by = "r1" } }) } }
  kessel.inject_dice{ 5, 4, 2 }   -- 9 - 1 Russian + 1 squad = 9: Escapes, Replaced; then the LMG's dr 2
  local ok, ev = kessel.act{ kind = "escape", units = { "r1" } }
  expect.accepted(ok, ev)
  expect.eq(T.record(ev, "escape").result, "replaced")
  expect.eq(T.unit("r1").location, "eliminated")
  T.has_note(ev, "r1 is Eliminated (no lower quality to be Replaced by: it would become Disrupted, so it is Eliminated instead, footnote 2)")
  expect.eq(T.unit("lmg").location, "map")
  expect.eq(T.unit("lmg").vars.possessed_by, nil)
  T.has_note(ev, "lmg is left unpossessed in C5 (dr 2 <= 3 [9.6061])")
end)

-- [9.62023] the Setup/Move table's last row is Dusk (Germans set up first, British move first),
-- read from the table like any other date. Round 5 took the table to stop at Day III and noted the
-- Dusk row as "our reading"; the text has the row (round 6), and the note no longer says so
kessel.test("case_9.62023_dusk_germans_set_up_british_move_first", function()
  T.setup{ step = "commencement", vars = { date = "dusk" }, units = {} }
  local ev = T.resolve()
  T.has_note(ev, "[9.62023] dusk: the german set up first; the british move first")
  expect.eq(kessel.game.var("sets_up_first"), "german")
  expect.eq(kessel.game.var("moves_first"), "british")
  for _, e in ipairs(ev) do
    if e.event == "note" then expect.falsy(e.text:find("reading", 1, true), e.text) end
  end
end)

-- [9.6153] "it is necessary to note which SW/SMC are not part of a British Airborne formation": the
-- scenario's own British (the CG's Airborne OB: a 6-4-8, a leader, an LMG, none marked) stay after
-- Day II, where before every unmarked one was removed; a Day II commando (marked not Airborne when
-- it arrived) goes
kessel.test("case_9.6153_the_scenarios_own_british_are_airborne", function()
  T.setup{ step = "reinforcements", vars = { date = "day_iii", previous_date = "day_ii" }, units = {
    T.squad("para", "british", "6-4-8", "C3"), T.leader("bl", "british", "9-1", "C3"), T.sw("lmg", "british", "LMG", "C3", { vars = { possessed_by = "para" } }),
    T.squad("cdo", "british", "6-4-8", "C4", { vars = { airborne = false } }) } }
  local ev = T.resolve()
  for _, id in ipairs({ "para", "bl", "lmg" }) do expect.eq(T.unit(id).location, "map", id) end
  expect.eq(T.unit("cdo").location, "removed")
  T.has_note(ev, "[9.6153] cdo (not Airborne) is withdrawn and not Retained")
end)

-- [9.6153] the SW noted as not of the Airborne formation are withdrawn whoever holds them, and an
-- Airborne SW is not: a para's PIAT held by a commando stays (unpossessed, in the commando's hex),
-- a commando's LMG held by a para goes. Before, a SW went with its holder: the PIAT left with the
-- commando and the LMG stayed with the para
kessel.test("case_9.6153_a_sw_goes_by_its_own_formation_not_its_holders", function()
  T.setup{ step = "reinforcements", vars = { date = "day_iii", previous_date = "day_ii" }, units = {
    T.squad("para", "british", "6-4-8", "C3"),
    T.sw("cdo_lmg", "british", "LMG", "C3", { vars = { possessed_by = "para", airborne = false } }),
    T.squad("cdo", "british", "6-4-8", "C4", { vars = { airborne = false } }),
    T.sw("para_piat", "british", "PIAT", "C4", { vars = { possessed_by = "cdo" } }) } }
  local ev = T.resolve()
  expect.eq(T.unit("para").location, "map")
  expect.eq(T.unit("cdo_lmg").location, "removed")
  expect.eq(T.unit("cdo").location, "removed")
  local piat = T.unit("para_piat")
  expect.eq(piat.location, "map")
  expect.eq(piat.hex, "C4")
  expect.eq(piat.vars.possessed_by, nil)
  T.has_note(ev, "[9.6153] para_piat (Airborne) stays, unpossessed in C4: cdo is withdrawn without it")
end)

-- [11.615] "if no elite MMC is available, Reduce a First Line MMC, etc.": with no Assault Engineer
-- and no elite squad, the German 4-6-7 (First Line) is Reduced before the 4-4-7 (Second Line),
-- though the 4-4-7 comes first by id (before, every non-elite squad ranked alike)
kessel.test("case_11.615_original_six_reduces_the_best_class_left", function()
  T.setup{ module = "rb", step = "fort_removal", vars = { date = "18oct" },
    units = { T.squad("a2", "german", "4-4-7", "H3"), T.squad("b1", "german", "4-6-7", "H4") },
    markers = { { kind = "control", side = "german", at = "C3" }, { kind = "wire", side = "russian", at = "C3" } } }
  kessel.inject_dice{ 6 }
  local ok, ev = kessel.act{ kind = "remove_fortification", side = "german", marker = 1 }
  expect.accepted(ok, ev)
  T.has_note(ev, "Original dr 6: b1, a First Line MMC, suffers Casualty Reduction")
  expect.eq(T.unit("b1").step, 1)
  expect.eq(T.unit("a2").step, 0)
end)

-- [11.6142] "Each side makes a Secret dr ... for each friendly ... non-Isolated ... AFV Pltn (or part
-- thereof)": a German and a Russian platoon both called "1" are two platoons, each with its own
-- side's dr (they were one, rolled by the side met first); a platoon all of whose AFV are Isolated
-- makes no dr (it did)
kessel.test("case_11.6142_each_sides_platoons_roll_apart", function()
  T.setup{ module = "rb", step = "armor_withdrawal", vars = { date = "20oct" }, units = {
    T.vehicle("g1", "german", "PzKpfw IIIG", "C3", { vars = { platoon = "1", platoon_on_map = true } }),
    T.vehicle("r1", "russian", "T-34", "H3", { vars = { platoon = "1", platoon_on_map = true } }),
    T.vehicle("r2", "russian", "T-60", "H6", { vars = { platoon = "2", platoon_on_map = true, isolated = true } }) } }
  kessel.inject_dice{ 6, 1 }   -- the German platoon 1: Withdrawn; the Russian platoon 1: Retained
  local ev = T.resolve()
  T.has_note(ev, "german makes the Secret withdrawal dr for Platoon 1")
  T.has_note(ev, "russian makes the Secret withdrawal dr for Platoon 1")
  T.has_note(ev, "the russian Platoon 2 is all Isolated: no withdrawal dr")
  expect.eq(T.unit("g1").location, "eliminated")
  expect.eq(T.unit("r1").location, "map")
  expect.eq(T.unit("r2").vars.withdraw_pending, nil)
end)

-- [9.61421] "A disabled ... vehicular MG may be automatically repaired (even if disabled in step
-- 9.6142) by Eliminating a friendly SW LMG": the 9.6142 dr is made as step 9.614 ends, so the
-- exchange for an MG it Disabled is taken in the next step (before, it was refused there, and so
-- never possible); an MG Disabled in an earlier CG scenario is exchanged in 9.614 only
kessel.test("case_9.61421_an_mg_disabled_in_9.6142_may_still_be_exchanged", function()
  local area = { vars = { reph = { status = "retained", area = "A" } } }
  T.setup{ step = "repair", vars = { date = "day_i" }, units = {
    T.vehicle("pz", "german", "PzKpfw IVH", "C3", area),
    T.sw("cmg", "german", "MG", "C3", { vars = { vehicular = true, malfunctioned = true, mounted_on = "pz" } }),
    T.sw("old", "german", "MG", "C3", { vars = { vehicular = true, disabled = true, mounted_on = "pz" } }),
    T.sw("lmg", "german", "LMG", "C3", area), T.sw("lmg2", "german", "LMG", "C3", area) } }
  kessel.inject_dice{ 6 }   -- 6 - 1 vehicular - 2 repair # = 3 >= 2: Disabled
  T.has_note(T.resolve(), "cmg is Disabled (not repaired)")
  expect.eq(kessel.game.step().id, "reinforcements")
  local ok, ev = kessel.act{ kind = "mg_exchange", mg = "cmg", lmg = "lmg" }
  expect.accepted(ok, ev)
  expect.eq(T.unit("cmg").vars.disabled, nil)
  expect.eq(T.unit("lmg").location, "eliminated")
  local r
  ok, r = kessel.act{ kind = "mg_exchange", mg = "old", lmg = "lmg2" }
  expect.refused(ok, r, "9.61421", "only an MG its repair dr Disabled")
end)

-- [9.6162] [11.616] a scenario record of the wrong kind (`cvp_lost = { german = "twenty" }`, a SAN
-- given as a word, an Attack chit given as 1) is refused by `kessel check` naming the case; before,
-- it passed the check and stopped the rules with a Lua error at 9.616
kessel.test("case_9.6_scenario_records_of_the_wrong_kind_are_refused", function()
  local S = require("rules.sequence")
  T.setup{ step = "markers", vars = { date = "dawn", cvp_lost = { german = "twenty", british = 4 }, san = { british = "four" } } }
  local text = table.concat(S.record_problems(), "\n")
  expect.truthy(text:find("[9.6162] scenario var `cvp_lost`: the german value is `twenty`, not a number", 1, true), text)
  expect.truthy(text:find("[9.6122] scenario var `san`: the british value is `four`, not a number", 1, true), text)
  -- a CPP of 10.5 stopped 9.617's note ("CPP spent %d"); FPP may hold a half
  T.setup{ step = "markers", vars = { date = "dawn", cpp = { german = 10.5 }, fpp = { british = 7.5 } } }
  text = table.concat(S.record_problems(), "\n")
  expect.truthy(text:find("[9.616] scenario var `cpp`: the german value 10.5 is not a whole number", 1, true), text)
  expect.falsy(text:find("fpp", 1, true), text)
  T.setup{ module = "rb", step = "markers", vars = { date = "18oct", attack_chit = { german = 1 } } }
  text = table.concat(S.record_problems(), "\n")
  expect.truthy(text:find("[11.616] scenario var `attack_chit`: the german value is `1`, not true or false", 1, true), text)
  T.setup{ module = "rb", step = "markers", vars = { date = "18oct", attack_chit = { german = true }, cvp_lost = { german = 44, russian = 0 } } }
  expect.eq(#S.record_problems(), 0)
  -- tables of the right type holding the wrong things: each stopped the rules with a Lua error
  T.setup{ step = "markers", vars = { date = "dawn", cpp = { 30 }, entry_areas = { german = "A7" } } }
  text = table.concat(S.record_problems(), "\n")
  expect.truthy(text:find("[9.616] scenario var `cpp` is a list: it is given per side", 1, true), text)
  expect.truthy(text:find("[9.6052] scenario var `entry_areas`: the german entry is not a table of Entry Area names", 1, true), text)
  T.setup{ module = "rb", step = "markers", vars = { date = "18oct", win_loss = { russian = { wins = "one" } },
    isolated_areas = { { hexes = { "C3", "ZZ99" } }, { "C4" } } } }
  text = table.concat(S.record_problems(), "\n")
  expect.truthy(text:find("[11.6142] scenario var `win_loss`: the russian entry has wins `one`, not a number", 1, true), text)
  expect.truthy(text:find("[11.606] isolated_areas[1]: `ZZ99` is not a hex of this map", 1, true), text)
  expect.truthy(text:find("[11.606] isolated_areas[2] gives no `hexes` list", 1, true), text)
  -- a platoon record without its counts reads them as 0 (it stopped 11.6142)
  T.setup{ module = "rb", step = "armor_withdrawal", vars = { date = "20oct", win_loss = { russian = {} } },
    units = { T.vehicle("t1", "russian", "T-34", "C4", { vars = { platoon = "P1", platoon_on_map = true } }) } }
  kessel.inject_dice{ 1 }
  T.resolve()
end)

-- [9.6095] "All Isolated units/Equipment that would have been confined to setting up in Locations
-- ... from which a terrain Flame/Blaze has just been removed are Eliminated": an Isolated unit
-- sets up only in its Isolated Setup Area [9.62021], so a squad whose area holds hexes the fire
-- did not touch is not confined there and stays (it was Eliminated for standing in the burned
-- building); one whose area is the burned building alone is Eliminated
kessel.test("case_9.6095_only_isolated_units_confined_to_the_fire_are_eliminated", function()
  local areas = { hexes = { D4 = "british", D5 = "british", E5 = "british", E6 = "british" }, areas = { british = {
    { id = "B", hexes = { "D5", "E5", "E6" }, isolated = true }, { id = "C", hexes = { "D4" }, isolated = true } }, german = {} } }
  T.setup{ step = "blazes", vars = { setup_areas = areas },
    map = { terrain = { D4 = "wooden_building", D5 = "wooden_building" }, places = { { name = "Cafe", kind = "building", hexes = { "D4", "D5" } } } },
    markers = { { kind = "blaze", at = "D4" } },
    units = { T.squad("free", "british", "6-4-8", "D5", { vars = { isolated = true, reph = { status = "isolated", area = "B" } } }),
      T.squad("stuck", "british", "6-4-8", "D4", { vars = { isolated = true, reph = { status = "isolated", area = "C" } } }) } }
  local ev = T.resolve()
  expect.eq(T.unit("free").location, "map")
  T.has_note(ev, "free is Isolated in D5, but its Isolated Setup Area has Locations the fire did not consume: it stays")
  expect.eq(T.unit("stuck").location, "eliminated")
  T.has_note(ev, "stuck is Eliminated (Isolated, confined to setting up where the fire was)")
end)

-- [11.6096] "Each Isolated unit/Equipment confined to setting up in a Location now containing a
-- Blaze is Eliminated": a Flame flipped to its Blaze side makes its Location one (only the new
-- Blazes of adjacent hexes counted before)
kessel.test("case_11.6096_an_isolated_unit_under_a_flipped_flame_is_eliminated", function()
  T.setup{ module = "rb", step = "blazes", vars = { date = "18oct" }, map = { terrain = { C3 = "woods" } },
    markers = { { kind = "flame", at = "C3" } },
    units = { T.squad("iso", "german", "4-6-7", "C3", { vars = { isolated = true } }) } }
  local ev = T.resolve()
  expect.eq(T.unit("iso").location, "eliminated")
  T.has_note(ev, "iso is Eliminated (Isolated in a Location now Blazing)")
end)

-- [9.601] a Melee's outcome names Personnel of that Melee: a unit elsewhere, an unknown id, a
-- capture without its Guard or with a Guard of the same side are refused citing the case (they
-- were accepted, or stopped the rules); a Captured unit becomes an unarmed prisoner of the Guard's
-- side Guarded by it, so that 9.608 Eliminates it when its Guard is not Isolated (it was marked
-- with the Guard's id only and outlived 9.608)
kessel.test("case_9.601_a_melee_capture_makes_a_prisoner_for_9.608", function()
  T.setup{ step = "melee", units = { T.squad("g1", "german", "4-6-7", "C5"), T.squad("b1", "british", "6-4-8", "C5"),
    T.squad("b2", "british", "6-4-8", "C5"), T.squad("far", "british", "6-4-8", "H5") } }
  local ok, r = kessel.act{ kind = "melee_outcome", hex = "C5", eliminated = { "far" } }
  expect.refused(ok, r, "9.601", "no Personnel unit of the Melee in C5")
  ok, r = kessel.act{ kind = "melee_outcome", hex = "C5", eliminated = { "zz" } }
  expect.refused(ok, r, "9.601", "no Personnel unit of the Melee")
  ok, r = kessel.act{ kind = "melee_outcome", hex = "C5", captured = { { unit = "b1" } } }
  expect.refused(ok, r, "9.601", "names a unit and its Guard")
  ok, r = kessel.act{ kind = "melee_outcome", hex = "C5", captured = { { unit = "b1", guard = "b2" } } }
  expect.refused(ok, r, "9.601", "they are on one side")
  ok, r = kessel.act{ kind = "melee_outcome", hex = "C5", captured = 5 }
  expect.refused(ok, r, "9.601", "captured is a list")
  local ev
  ok, ev = kessel.act{ kind = "melee_outcome", hex = "C5", eliminated = { "b2" }, captured = { { unit = "b1", guard = "g1" } } }
  expect.accepted(ok, ev)
  expect.eq(T.unit("b1").vars.prisoner_of, "german")
  expect.eq(T.unit("b1").vars.guarded_by, "g1")
  expect.eq(T.unit("b2").location, "eliminated")
  -- on to 9.608: the Guard g1 is not Isolated, so its prisoner is Eliminated
  while kessel.game.step().id ~= "prisoners" do T.resolve() end
  T.has_note(T.resolve(), "b1 is Eliminated (prisoner of a non-Isolated Guard)")
end)

-- [9.611] Recombining (9.6111) comes before Heroes (9.6112): a Hero's owner who picks one of two
-- 2-4-7 HS of a 4-5-7 gets the squad they recombine into, Battle Hardened to a 4-5-8. The choice
-- was carried out at once, before Recombining: the picked HS became a 2-4-8, which no longer
-- recombined with the other 2-4-7
kessel.test("case_9.6112_a_heros_choice_waits_for_recombining", function()
  local a = { vars = { reph = { status = "retained", area = "A" } } }
  T.setup{ step = "hardening", vars = { date = "dawn" }, units = {
    T.hero("bh", "british", "C3", a), T.hs("h1", "british", "4-5-7", "C3", a), T.hs("h2", "british", "4-5-7", "C4", a) } }
  local ok, ev = kessel.act{ kind = "hero_harden", hero = "bh", unit = "h2" }
  expect.accepted(ok, ev)
  T.has_note(ev, "bh will Battle Harden h2 as the step ends (after Recombining, 9.6111)")
  expect.eq(T.C.face_label(T.unit("h2")), "2-4-7", "nothing happens before the step ends")
  ev = T.resolve()
  T.has_note(ev, "h1 and h2 Recombine into a squad (4-5-7)")
  T.has_note(ev, "h1 Battle Hardens from 4-5-7 to 4-5-8")
  expect.eq(T.C.face_label(T.unit("h1")), "4-5-8")
  expect.eq(T.unit("h1").step, 0)
  expect.eq(T.unit("h2").location, "removed")
  expect.eq(T.unit("bh").location, "eliminated")
end)

-- [9.601] "First, each unit currently on a Climb marker must be placed ... If the Location the unit
-- is placed in contains an enemy unit(s), mark them all with a Melee counter": no Melee outcome is
-- reported while a unit still climbs (one was, and the Melee its placement made went unresolved)
kessel.test("case_9.601_climbers_are_placed_before_any_melee", function()
  T.setup{ step = "melee", units = { T.squad("g1", "german", "4-6-7", "C5"), T.squad("b1", "british", "6-4-8", "C5"),
    T.squad("b2", "british", "6-4-8", "D5", { vars = { climb = { from = 0, to = 1 } } }) } }
  local ok, r = kessel.act{ kind = "melee_outcome", hex = "C5", eliminated = { "b1" } }
  expect.refused(ok, r, "9.601", "first place each unit on a Climb marker")
  ok, r = kessel.act{ kind = "climb_place", unit = "b2", reached = "no" }
  expect.refused(ok, r, "9.601", "reached is true")
  expect.accepted(kessel.act{ kind = "climb_place", unit = "b2", reached = false })
  expect.accepted(kessel.act{ kind = "melee_outcome", hex = "C5", eliminated = { "b1" } })
end)

-- [11.6114] [11.6113] each heroic leader Battle Hardens before the leader DR or a promotion made
-- in lieu of it: a heroic 8-1 will be a 9-1, and is no 8-1 to exchange (he was exchanged, and
-- his heroic status passed to the 8-0 he became)
kessel.test("case_11.6114_a_heroic_leader_is_not_promoted", function()
  local squads = {}
  for i = 1, 8 do squads[i] = T.squad("s" .. i, "german", "4-6-7", "H" .. i) end
  squads[#squads + 1] = T.leader("l", "german", "8-1", "C3", { vars = { heroic = true } })
  T.setup{ module = "rb", step = "hardening", vars = { date = "18oct" }, units = squads }
  local ok, r = kessel.act{ kind = "promote", leader = "l" }
  expect.refused(ok, r, "11.6114", "he Battle Hardens (11.6113) before any promotion")
end)

-- [9.6] "Those steps listed below preceded by a '!' are the only steps to be completed before
-- setting up to play a CG Initial Scenario": `start_refit{ initial = true }` plays 9.617-9.620 at
-- the scenario's own CG Date (the marks were kept as data only: the whole RePh was played, a new
-- CG Date and CPP among them); the next RePh is a whole one again
kessel.test("case_9.6_before_an_initial_scenario_only_the_marked_steps", function()
  T.setup{ main = true, vars = { date = "day_i", cpp = { german = 10 }, san = { british = 5, german = 2 } },
    units = { T.squad("b1", "british", "6-4-8", "C3") } }
  local ok, r = kessel.act{ kind = "start_refit", initial = "yes" }
  expect.refused(ok, r, "9.6", "initial is true or false")
  local ev
  ok, ev = kessel.act{ kind = "start_refit", initial = true }
  expect.accepted(ok, ev)
  T.has_note(ev, "before a CG Initial Scenario only the steps marked ! are completed: 9.617-9.620, on day_i")
  expect.eq(kessel.game.step().id, "rg_purchase")
  expect.accepted(kessel.act{ kind = "buy_rg", side = "german", rg = "I4", entry = "A7" })
  local seen = {}
  while kessel.game.step().mode == "refit" do
    seen[#seen + 1] = kessel.game.step().id
    T.resolve()
  end
  expect.eq(table.concat(seen, " "), "rg_purchase rg_strength fortifications commencement")
  -- then the Initial Scenario itself is played (round 10: the game ended here, before it)
  expect.eq(kessel.game.finished(), false)
  expect.eq(kessel.game.step().id, "scenario")
  expect.eq(kessel.game.var("date"), "day_i", "no new CG Date")
  expect.eq(kessel.game.var("cpp_german") or kessel.game.var("cpp").german, 5, "10 - 5, no replenishment")
  expect.eq(kessel.game.var("initial_reph"), nil)
  T.setup{ module = "rb", main = true, vars = { date = "18oct" } }
  ok, r = kessel.act{ kind = "start_refit", initial = true }
  expect.refused(ok, r, "11.6", "marks no steps for a CG Initial Scenario")
end)

-- [9.6181] [9.6178] an RG the Initial Scenario's OB gives (I1, Depleted by the OB: no Strength
-- DR, note e) is still allotted its SW [9.6182] and leader [9.6183] and gets its counters; it was
-- skipped (it had a strength already), and a given RG without a cost stopped 9.617's note
kessel.test("case_9.6181_a_given_initial_rg_gets_its_sw_and_leader", function()
  T.setup{ main = true, vars = { date = "night_i", cpp = { german = 0 },
    rg_record = { { date = "night_i", id = "I1", name = "Garrison Pltn", strength = "D", given = true, entry = "A7" } } } }
  expect.accepted(kessel.act{ kind = "start_refit", initial = true })
  T.resolve()   -- 9.617: nothing bought at Night
  kessel.inject_dice{ 1, 5, 3, 3 }   -- MMG dr 1 < 2: received; LMG dr 5 > 4: not; leader DR 6 + 2 + 1 = 9: 7-0
  local ev = T.resolve()
  T.has_note(ev, "I1 MMG: dr 1 (< 2 needed, a number in parentheses): received")
  T.has_note(ev, "I1 leader DR 6+3 = 9 (Personnel column): 7-0 (+2 Garrison Pltn, +1 Depleted RG)")
  local rec = kessel.game.var("rg_record")[1]
  expect.eq(#rec.units, 2, "a Depleted Garrison Pltn: two 4-3-6")
  expect.eq(rec.sw.MMG, 1)
  expect.eq(rec.sw.LMG, nil)
  expect.eq(rec.leaders[1], "7-0")
end)

-- [11.6138] "Each Low Ammo counter on each non-Isolated unit is removed": a Captured AFV's too (the
-- PB exception for captured vehicles, 9.61425, was applied in RB); [11.6139] Ammunition Shortage
-- is lifted from non-Isolated Infantry units and Weapons: a non-Isolated AFV's too, its Shortage
-- being its Weapons' (it kept it, and nothing later took it off); an Isolated AFV keeps it
kessel.test("case_11.6138_low_ammo_of_a_captured_afv_and_11.6139_afv_weapons", function()
  T.setup{ module = "rb", step = "repair", vars = { date = "18oct" }, units = {
    T.vehicle("cap", "russian", "PzKpfw IIIG", "C3", { vars = { captured = true, low_ammo = true } }),
    T.vehicle("afv", "german", "PzKpfw IIIG", "C4", { vars = { ammo_shortage = true, ammo_shortage_day = "17oct" } }),
    T.vehicle("iso", "german", "PzKpfw IIIG", "C6", { vars = { ammo_shortage = true, isolated = true } }),
    T.squad("inf", "german", "4-6-7", "C5", { vars = { ammo_shortage = true } }) } }
  local ev = T.resolve()
  T.has_note(ev, "cap: Low Ammo removed")
  expect.eq(T.unit("cap").vars.low_ammo, nil)
  expect.eq(T.unit("inf").vars.ammo_shortage, nil)
  expect.eq(T.unit("afv").vars.ammo_shortage, nil, "a non-Isolated AFV's Weapons are freed of it")
  expect.eq(T.unit("afv").vars.ammo_shortage_day, nil)
  T.has_note(ev, "[11.6139] afv: Ammunition Shortage lifted")
  expect.eq(T.unit("iso").vars.ammo_shortage, true, "an Isolated AFV keeps it")
end)

-- [9.6] [11.6] a choice of the other module's step is refused as such: a Shift or a Fortification
-- purchase in RB, a Fortification Removal in PB (the refusal said "done in RePh step 9.613, not
-- now", a step that never comes in that module)
kessel.test("case_9.6_a_step_of_the_other_module_is_refused_as_such", function()
  T.setup{ module = "rb", step = "fort_removal", vars = { date = "18oct" } }
  local ok, r = kessel.act{ kind = "shift", units = { "x" }, to = "A" }
  expect.refused(ok, r, "9.613", "Shift (9.613) is a Pegasus Bridge RePh step: the Red Barricades RePh has none")
  ok, r = kessel.act{ kind = "buy_fortification", side = "german", item = "foxhole_1s" }
  -- refused under RB's own case for a Fortification purchase, which our text does not give [11.621]
  expect.refused(ok, r, "11.621", "is a Pegasus Bridge RePh step")
  T.setup{ step = "fortifications", vars = { date = "day_i" } }
  ok, r = kessel.act{ kind = "remove_fortification", side = "german", marker = 0 }
  expect.refused(ok, r, "11.615", "Fortification Removal (11.615) is a Red Barricades RePh step: the Pegasus Bridge RePh has none")
end)

-- [11.6111] a Russian 4-4-7 made by the rules (a 4-2-6 Battle Hardened [11.6112]) has the same
-- half-squad, 2-3-7, as the 4-4-7 a scenario gives (the RB example's), so their HS Recombine; the
-- data gave it a 2-2-7 (the 5-2-7's), which never recombined with a scenario's 2-3-7
kessel.test("case_11.6111_a_hardened_russian_4_4_7_has_the_scenarios_half_squad", function()
  T.setup{ module = "rb", step = "hardening", vars = { date = "18oct" }, units = {
    plain_squad("r1", "russian", "4-2-6", "2-2-6", "C6") } }
  kessel.inject_dice{ 6, 6, 1, 1, 6, 6, 6, 6 }   -- German none; Russian 2 - 1 = 1: three MMC
  T.resolve()
  expect.eq(T.C.face_label(T.unit("r1")), "4-4-7")
  kessel.emit.step("r1", 1)
  expect.eq(T.C.face_label(T.unit("r1")), "2-3-7", "the Russian 4-4-7's HS, as the RB example scenario has it")
end)

-- [9.62021] "Each unit/Equipment piece set up in an Isolated Location is affected by Ammunition
-- Shortages": the LMG an Isolated squad holds, and a Gun in an Isolated Setup Area, as well as the
-- squad (only the units marked Isolated got it: a SW is not classified itself in 9.605)
kessel.test("case_9.62021_equipment_in_an_isolated_location_has_ammunition_shortage", function()
  local areas = { hexes = { C3 = "german", C4 = "german" }, areas = { german = { { id = "B", hexes = { "C3", "C4" }, isolated = true } }, british = {} } }
  T.setup{ step = "commencement", vars = { date = "day_i", setup_areas = areas }, units = {
    T.squad("g1", "german", "4-6-7", "C3", { vars = { isolated = true } }), T.sw("lmg", "german", "LMG", "C3", { vars = { possessed_by = "g1" } }),
    T.gun("pak", "german", "75L AT", "C4"), T.sw("free", "german", "LMG", "H8") } }
  local ev = T.resolve()
  for _, id in ipairs({ "g1", "lmg", "pak" }) do expect.eq(T.unit(id).vars.ammo_shortage, true, id) end
  expect.eq(T.unit("free").vars.ammo_shortage, nil)
  T.has_note(ev, "with Ammunition Shortage (A19.131): g1, lmg, pak")
end)

-- [9.617] the counters of a purchased RG are the German's secret: hidden from every other side,
-- the Russians of the ruleset too (hidden from the British only, `kessel view SAVE --as russian`
-- on a PB game listed them); a scenario's hidden unit likewise [9.602]
kessel.test("case_9.617_rg_counters_are_hidden_from_every_other_side", function()
  T.setup{ step = "rg_strength", vars = { date = "day_i", rg_record = { { date = "day_i", id = "I4", entry = "A7", cost = 5 } } } }
  T.resolve()
  local made = kessel.units.all{ side = "german" }
  expect.truthy(#made >= 4, "a PzGren Pltn's squads, SW and leader")
  for _, u in ipairs(made) do
    local from = table.concat(kessel.units.hidden_from(u.id), ",")
    expect.truthy(from:find("british", 1, true) and from:find("russian", 1, true), u.id .. " hidden from " .. from)
  end
  local ids = {}
  for _, u in ipairs(kessel.game.view("russian").units) do ids[#ids + 1] = u.id end
  expect.eq(#ids, 0, "the Russian view lists none: " .. table.concat(ids, ","))
end)

-- [9.617] [9.602] a unit hidden from a side is, to that side's actions, no unit: the British naming
-- a hidden German counter get the refusal an unknown id gets (it said "only its owner (german)
-- decides about g1", telling them the hidden counter exists: RG counters could be counted so)
kessel.test("case_9.617_a_hidden_unit_is_no_unit_to_the_other_side", function()
  T.setup{ step = "escape", vars = { date = "day_i" }, units = {
    T.squad("g1", "german", "4-6-7", "C5", { vars = { reph = { status = "must_escape" } } }) } }
  kessel.emit.hide("g1")
  local ok, r = kessel.act{ kind = "escape", units = { "g1" }, side = "british" }
  expect.refused(ok, r, "9.606", "g1 is not on the map")
  local ok2, r2 = kessel.act{ kind = "escape", units = { "zz" }, side = "british" }
  expect.refused(ok2, r2, "9.606", "zz is not on the map")
  ok, r = kessel.act{ kind = "deploy", unit = "g1", side = "british" }
  expect.refused(ok, r, "9.606", "is not Retained")
  expect.accepted(kessel.act{ kind = "escape", units = { "g1" }, side = "german" })
end)

-- [9.613] "Prior to its possessor's Shift (attempt), each SW may (must, if the unit exceeds its
-- allowed portage limit) be dropped"; [9.606] likewise before an Escape: `drop = { sw ids }`. A
-- squad holding an HMG and an MMG (9 PP, limit 5) was refused its Shift "drop SW first" with no
-- way to drop, and `escape`'s documented `drop` was ignored (the +PP DRM stayed)
kessel.test("case_9.613_9.606_sw_may_be_dropped_before_the_attempt", function()
  local area = { vars = { reph = { status = "retained", area = "A" } } }
  local spec = { step = "setup_areas", map = { columns = 14, rows = 12, tags = { strategic = { "C3", "C9", "M6" } }, areas = { A1 = { "A1" } } },
    markers = { { kind = "control", side = "german", at = "C3" }, { kind = "control", side = "german", at = "C9" }, { kind = "control", side = "british", at = "M6" } },
    units = { T.squad("g", "german", "4-6-7", "C3", area), T.sw("hmg", "german", "HMG", "C3", { vars = { possessed_by = "g" } }),
      T.sw("mmg", "german", "MMG", "C3", { vars = { possessed_by = "g" } }) },
    vars = { entry_areas = { german = { A1 = true } }, date = "day_i" } }
  T.setup(spec)
  while kessel.game.step().id ~= "shift" do T.resolve() end
  local ok, r = kessel.act{ kind = "shift", units = { "g" }, to = "A1" }
  expect.refused(ok, r, "9.613", "carries 9 PP, more than its limit of 5")
  ok, r = kessel.act{ kind = "shift", units = { "g" }, to = "A1", drop = { "zz" } }
  expect.refused(ok, r, "9.613", "is no SW or Gun held by the units making the attempt")
  local ev
  ok, ev = kessel.act{ kind = "shift", units = { "g" }, to = "A1", drop = { "mmg" } }
  expect.accepted(ok, ev)
  T.has_note(ev, "g drops mmg before its attempt: it is left unpossessed in C3")
  expect.eq(T.unit("mmg").location, "map")
  expect.eq(T.unit("mmg").vars.possessed_by, nil)
  expect.eq(T.unit("hmg").vars.possessed_by, "g")
  -- before an Escape: the HMG's 5 PP over the squad's IPC of 3 is +2; dropped, no DRM for it
  T.setup{ step = "escape", vars = { date = "day_i" }, units = {
    T.squad("e", "german", "4-6-7", "C5", { vars = { reph = { status = "must_escape" } } }), T.sw("h2", "german", "HMG", "C5", { vars = { possessed_by = "e" } }) } }
  kessel.inject_dice{ 3, 3 }
  ok, ev = kessel.act{ kind = "escape", units = { "e" }, drop = { "h2" } }
  expect.accepted(ok, ev)
  for _, m in ipairs(T.record(ev, "escape").modifiers) do expect.falsy(m.why:find("PP carried", 1, true), m.why) end
  expect.eq(T.unit("h2").vars.possessed_by, nil)
end)

-- [9.6113] a heroic leader of a grade the data do not list (a 7-1) is said to Battle Harden, with a
-- note for the GM (he lost his heroic status with no word of it before)
kessel.test("case_9.6113_a_leader_of_an_unlisted_grade_is_noted", function()
  T.setup{ step = "hardening", vars = { date = "dawn" }, units = { T.leader("l", "british", "7-1", "C3", { vars = { heroic = true } }) } }
  local ev = T.resolve()
  T.has_note(ev, "l (7-1) Battle Hardens, but the ruleset's data (leader_hardens_to) know no grade above 7-1: harden him by hand")
  expect.eq(T.unit("l").vars.heroic, nil)
end)
