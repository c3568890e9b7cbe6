-- Red Barricades steps of their own: 11.605-.606, 11.614, 11.615, 11.617, 11.618 (rules/rb.lua).
local T = require("testing.cg")
local expect = T.expect

local function rb(step, units, vars, markers)
  T.setup{ module = "rb", step = step, units = units, vars = vars or { date = "18oct" }, markers = markers }
end

-- [11.606] Isolated Area types A-D by what they hold; [11.6061] type B SMC must Escape, type C
-- enemy SMC too, C/D units get Ammunition Shortage; [11.6062] A/B become No Man's Land, C is
-- Controlled by its occupier
kessel.test("case_11.606_isolated_area_types_and_effects", function()
  rb("perimeter", {
    T.leader("smc", "german", "8-0", "B2"),
    T.squad("g", "german", "4-6-7", "D2"), T.leader("rl", "russian", "8-0", "D2"),
    T.squad("g2", "german", "4-6-7", "F2"), T.squad("r2", "russian", "4-4-7r", "F3"),
  }, { date = "18oct", isolated_areas = { { hexes = { "A5" } }, { hexes = { "B2" } }, { hexes = { "D2" } }, { hexes = { "F2", "F3" } } } },
    { { kind = "control", side = "german", at = "A5" }, { kind = "control", side = "russian", at = "D2" } })
  local ev = T.resolve()
  -- the notes say what 11.6061 did, unit by unit, for a GM to check
  T.has_note(ev, "[11.6061] Isolated Area 2 (type B): smc must attempt to Escape")
  T.has_note(ev, "[11.6061] Isolated Area 3 (type C): rl must attempt to Escape")
  T.has_note(ev, "[11.6061] Isolated Area 4 (type D): Ammunition Shortage next scenario for g2, r2")
  local areas = kessel.game.var("isolated_areas")
  expect.eq(areas[1].type .. areas[2].type .. areas[3].type .. areas[4].type, "ABCD")
  expect.eq(T.unit("smc").vars.must_escape, true)
  expect.eq(T.unit("rl").vars.must_escape, true, "an enemy SMC in a type C area")
  expect.eq(T.unit("g").vars.ammo_shortage, true)
  expect.eq(T.unit("g2").vars.isolated, true)
  -- A5's Control marker marks a Strategic Location [11.6052], which is never No Man's Land: it
  -- keeps it (round 10; it was removed) [11.6051]; D2 is German
  expect.eq(#kessel.markers.all{ kind = "control", side = "german", placed = true }, 2, "A5 keeps its marker; D2 is German")
  expect.eq(require("rules.areas").controller("D2", 0), "german")
end)

-- [11.6141] a Mobile non-Isolated AFV under Recall is Eliminated; [11.6142] a platoon withdrawal
-- dr of 6 Eliminates its non-Isolated AFV and the armor leader who entered with it; [11.6143]
-- its Isolated AFV roll for Recall next scenario
kessel.test("case_11.614_armor_withdrawal", function()
  local pl = { platoon = "V3a", platoon_on_map = true }
  rb("armor_withdrawal", {
    T.vehicle("rec", "german", "PzKpfw IVH", "C3", { vars = { recall = true } }),
    T.vehicle("t1", "german", "PzKpfw IVH", "C4", { vars = pl }),
    T.vehicle("t2", "german", "PzKpfw IVH", "C5", { vars = { platoon = "V3a", platoon_on_map = true, isolated = true } }),
    { id = "al", side = "german", type = "armor_leader", faces = { { morale = 9, drm = -1, label = "9-1" } }, at = "C4", vars = { platoon = "V3a" } },
  })
  kessel.inject_dice{ 6 }
  T.resolve()
  expect.eq(T.unit("rec").location, "eliminated")
  expect.eq(T.unit("t1").location, "eliminated")
  expect.eq(T.unit("t2").vars.withdraw_pending, true)
  expect.eq(T.unit("al").location, "eliminated")
end)

-- [11.6142] -1 when the side's win:loss ratio is <= 1:2 after two scenarios: 6 - 1 = 5 Retained
kessel.test("case_11.6142_losing_side_drm", function()
  rb("armor_withdrawal", { T.vehicle("t1", "russian", "T-34", "C4", { vars = { platoon = "P1", platoon_on_map = true } }) },
    { date = "20oct", win_loss = { russian = { wins = 1, losses = 2, completed = 3 } } })
  kessel.inject_dice{ 6 }
  T.resolve()
  expect.eq(T.unit("t1").location, "map")
end)

-- [11.615] removal of a Known minefield in a friendly-Controlled Location: dr <= 3; +2 in a Front
-- Line Location; one try per item; A-P mines first
kessel.test("case_11.615_fortification_removal", function()
  T.setup{ module = "rb", step = "fort_removal", vars = { date = "18oct" }, map = { tags = { front_line = { "D4" } } },
    markers = { { kind = "control", side = "german", at = "C3" }, { kind = "control", side = "german", at = "D4" },
      { kind = "ap_mine", side = "russian", at = "C3" }, { kind = "wire", side = "russian", at = "C3" },
      { kind = "wire", side = "russian", at = "D4" } } }
  local ok, r = kessel.act{ kind = "remove_fortification", side = "german", marker = 4 - 1 }
  expect.refused(ok, r, "11.615", "A-P mines must be Cleared")
  kessel.inject_dice{ 3 }
  expect.accepted(kessel.act{ kind = "remove_fortification", side = "german", marker = 2 })
  expect.eq(kessel.markers.all{ kind = "ap_mine" }[1].hex, nil, "Eliminated: off the map")
  kessel.inject_dice{ 2 }
  expect.accepted(kessel.act{ kind = "remove_fortification", side = "german", marker = 4 })
  expect.eq(kessel.markers.all{ kind = "wire" }[2].hex, "D4", "2 + 2 (Front Line) = 4: no effect")
  ok, r = kessel.act{ kind = "remove_fortification", side = "german", marker = 4 }
  expect.refused(ok, r, "11.615", "one attempt")
  ok, r = kessel.act{ kind = "remove_fortification", side = "russian", marker = 3 }
  expect.refused(ok, r, "11.615", "friendly-Controlled")
end)

-- [11.617] ELR: Final DR <= 2 raises it (max 4), >= 13 lowers it (min 0)
kessel.test("case_11.617_elr_loss_gain", function()
  rb("elr", {}, { date = "18oct", elr = { german = 3, russian = 1 }, scenarios_since_idle = { russian = 2 } })
  -- German 2 - 2 (hist) + 2 (the scenario just completed: no count given) = 2: up;
  -- Russian 10 - 1 + 4 (two scenarios) = 13: down
  kessel.inject_dice{ 1, 1, 5, 5 }
  T.resolve()
  expect.eq(kessel.game.var("elr").german, 4)
  expect.eq(kessel.game.var("elr").russian, 0)
end)

-- [11.618] weather DR (-1 after an Overcast day) and EC dr (-3 after Overcast, -1 in November)
kessel.test("case_11.618_weather_and_ec", function()
  rb("weather", {}, { date = "2nov", weather = "overcast", ec = "moist" })
  kessel.inject_dice{ 4, 3, 6 }
  local ev = T.resolve()
  expect.eq(kessel.game.var("weather"), "overcast", "7 - 1 = 6")
  expect.eq(kessel.game.var("ec"), "moist", "6 - 3 - 1 = 2")
  expect.eq(T.record(ev, "weather").ec_drm, -4)
  rb("weather", {}, { date = "20oct", weather = "clear", ec = "dry" })
  kessel.inject_dice{ 5, 5, 5 }
  T.resolve()
  expect.eq(kessel.game.var("weather"), "clear_gusty")
  expect.eq(kessel.game.var("ec"), "dry", "5 + 1 after a Dry day")
end)

-- [11.615] an Original dr of 6 Casualty Reduces a non-Isolated elite MMC, an Assault Engineer first
kessel.test("case_11.615_original_six_reduces_an_assault_engineer", function()
  T.setup{ module = "rb", step = "fort_removal", vars = { date = "18oct" },
    units = { T.squad("e", "german", "4-6-8", "H3"), T.squad("ae", "german", "8-3-8", "H4") },
    markers = { { kind = "control", side = "german", at = "C3" }, { kind = "wire", side = "russian", at = "C3" } } }
  kessel.inject_dice{ 6 }
  expect.accepted(kessel.act{ kind = "remove_fortification", side = "german", marker = 1 })
  expect.eq(T.unit("ae").step, 1)
  expect.eq(T.unit("e").step, 0)
end)

-- the dice events of a purpose in a side's view of the log: how many, how many without values, the
-- notes it reads, and how many runs of events it is shown nothing of (the other side's secret dice,
-- notes and records are such a run, one `withheld` event of kind "secret": not even their number)
local function dice_seen(side, purpose)
  local view = kessel.game.view(side, { log = true })
  local n, hidden, texts, secret = 0, 0, {}, 0
  for _, entry in ipairs(view.log) do
    for _, e in ipairs(entry.events) do
      if e.event == "dice" and e.purpose == purpose then
        n = n + 1
        if e.rolls == nil or #e.rolls == 0 then hidden = hidden + 1 end
      end
      if e.event == "note" and e.text and e.text ~= "" then texts[#texts + 1] = e.text end
      if e.event == "withheld" and e.kind == "secret" then secret = secret + 1 end
    end
  end
  return n, hidden, table.concat(texts, "\n"), secret
end

-- [11.6112] [11.6113] the Battle Hardening DRs are Secret DRs: each side reads (in a public note)
-- that the other rolled, not the dice, the value or the note with it; its own it reads
kessel.test("case_11.6112_11.6113_hardening_drs_are_secret", function()
  T.setup{ module = "rb", step = "hardening", units = {
    T.squad("g1", "german", "4-6-7", "C3"), T.leader("g91", "german", "9-1", "C4"),
    T.squad("r1", "russian", "4-2-6", "H8"), T.leader("r90", "russian", "9-0", "H9") } }
  kessel.inject_dice{ 6, 6, 6, 6, 2, 2, 3, 2 }
  T.resolve()
  local n, hidden, text, secret = dice_seen("russian", "mmc_hardening")
  expect.eq(n, 2, "the Russian's own DR (two dice); the German's dice do not show at all")
  expect.eq(hidden, 0, "his own he reads")
  expect.truthy(secret > 0, "the German's DR is a run of events the Russian is shown nothing of")
  expect.truthy(text:find("german makes its Secret MMC Battle Hardening DR", 1, true), "the Russian reads that the German rolled")
  expect.falsy(text:find("german MMC Battle Hardening DR", 1, true), "but not the German's DR")
  expect.truthy(text:find("russian MMC Battle Hardening DR 12", 1, true), "his own he reads")
  n, hidden, text = dice_seen("german", "leader_hardening")
  expect.eq(n, 2, "the German's own leader DR only")
  expect.eq(hidden, 0, "the Russian leader DR does not show to the German")
  expect.falsy(text:find("russian leader Battle Hardening DR", 1, true))
  T.replays()
end)

-- [11.616] the CPP Replenishment DR is a Secret DR: the value and the roster note are the side's own
kessel.test("case_11.616_cpp_replenishment_dr_is_secret", function()
  rb("cpp", {}, { date = "18oct", cpp = { german = 3, russian = 4 } })
  kessel.inject_dice{ 3, 4, 2, 2 }
  T.resolve()
  local n, hidden, text, secret = dice_seen("russian", "cpp")
  expect.eq(n, 2, "the Russian's own dice; the German CPP dice do not show to the Russian")
  expect.eq(hidden, 0)
  expect.truthy(secret > 0)
  expect.truthy(text:find("german makes its Secret CPP Replenishment DR", 1, true))
  expect.falsy(text:find("german CPP: DR", 1, true), "the Russian does not read the German DR")
  expect.truthy(text:find("russian CPP: DR 4", 1, true), "his own he reads")
end)

-- [11.6142] the AFV Platoon withdrawal dr is a Secret dr
kessel.test("case_11.6142_withdrawal_dr_is_secret", function()
  rb("armor_withdrawal", { T.vehicle("t1", "german", "PzKpfw IVH", "C4", { vars = { platoon = "V3a", platoon_on_map = true } }) })
  kessel.inject_dice{ 2 }
  T.resolve()
  local n, hidden, text, secret = dice_seen("russian", "afv_withdrawal")
  expect.eq(n, 0, "the Russian reads that the dr was made (the note), not the die")
  expect.eq(hidden, 0)
  expect.truthy(secret > 0, "the die and its note are events he is shown nothing of")
  expect.truthy(text:find("german makes the Secret withdrawal dr for Platoon V3a", 1, true))
  expect.falsy(text:find("withdrawal dr 2", 1, true))
  n, hidden = dice_seen("german", "afv_withdrawal")
  expect.eq(n, 1)
  expect.eq(hidden, 0, "the German reads his own dr")
end)

-- [11.615] "in any friendly-Controlled non-Isolated Location": wire in an empty Location of an
-- Isolated Area (isolated_areas) is not rolled for, though no Isolated unit stands in it
kessel.test("case_11.615_not_in_an_empty_isolated_location", function()
  T.setup{ module = "rb", step = "fort_removal", vars = { date = "18oct", isolated_areas = { { hexes = { "C3", "C4" } } } },
    markers = { { kind = "control", side = "german", at = "C3" }, { kind = "wire", side = "russian", at = "C3" } } }
  local ok, r = kessel.act{ kind = "remove_fortification", side = "german", marker = 1 }
  expect.refused(ok, r, "11.615", "Isolated Area 1")
end)

-- [11.6134] [11.615] the Russian 6-2-8 is an Assault Engineer squad, as the German 8-3-8 is
-- (chapter A squad data): a Russian DC removed on an effects DR of 8 is Retained with one 6-2-8
-- to set against it, and three non-Isolated 6-2-8s give the Russian removal dr its -1. Before,
-- only the face 8-3-8 counted: the DC was Eliminated ("no Assault Engineer squad left for it")
-- and the wire survived a dr of 4
kessel.test("case_11.6134_11.615_a_russian_6_2_8_is_an_assault_engineer", function()
  rb("repair", { T.squad("ae", "russian", "6-2-8", "C5"),
    T.sw("dc", "russian", "DC", nil, { location = "removed", vars = { removed_dr = 8 } }) })
  T.resolve()
  expect.eq(T.unit("dc").location, "pending", "Retained")
  T.setup{ module = "rb", step = "fort_removal", vars = { date = "18oct" },
    units = { T.squad("a1", "russian", "6-2-8", "B2"), T.squad("a2", "russian", "6-2-8", "B3"), T.squad("a3", "russian", "6-2-8", "B4") },
    markers = { { kind = "control", side = "russian", at = "C3" }, { kind = "wire", side = "german", at = "C3" } } }
  kessel.inject_dice{ 4 }
  local ok, events = kessel.act{ kind = "remove_fortification", side = "russian", marker = 1 }
  expect.accepted(ok, events)
  T.has_note(events, "-1 three or more non-Isolated Assault Engineer squads")
  expect.eq(kessel.markers.all{ kind = "wire" }[1].hex, nil, "4 - 1 = 3: Eliminated")
end)
