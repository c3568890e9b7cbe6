-- Declarations: unit types, terrain, the charts the RePh text prints (word and dice tables), and
-- the scenario data for charts the text leaves to the module (RB RG chart, TC numbers, ...).
-- Charts are transcribed as data, not copied as prose; each cites its case.

-- Units ------------------------------------------------------------------------------------------
-- A squad's faces are "6-4-8" (firepower-range-morale): face 1 the squad, face 2 its half-squad,
-- so Casualty Reduction is one step [A7.302] and recombining two HS gives step 0 back [9.6111].
local fpm = { "firepower", "range", "morale" }
kessel.unit_type{ id = "squad", name = "Squad (MMC)", face_fields = fpm, mmc = true, symbol = "infantry" }
kessel.unit_type{ id = "crew", name = "Crew (MMC)", face_fields = fpm, mmc = true, crew = true, symbol = "infantry" }
kessel.unit_type{ id = "hero", name = "Hero (SMC)", face_fields = fpm, smc = true, symbol = "leader" }
-- leaders: faces are tables { morale = 9, drm = -1, label = "9-1" } (a "6+1" has drm = +1)
kessel.unit_type{ id = "leader", name = "Leader (SMC)", smc = true, symbol = "leader" }
kessel.unit_type{ id = "armor_leader", name = "Armor leader (SMC)", smc = true, symbol = "leader" }
-- Support weapons and Guns: faces { weapon = "LMG", pp = 1, repair = 2 }; vars.possessed_by
kessel.unit_type{ id = "sw", name = "Support weapon", equipment = true }
kessel.unit_type{ id = "gun", name = "Gun", equipment = true, symbol = "artillery" }
-- What kind of SW a weapon name is, where a rule reads the kind (RB 11.6132's "-1 If Russian
-- MG/ATR"): the SW machine guns and the A-T Rifle, by the names the ruleset and its scenarios use.
-- A scenario's SW of another name declares its kind on its face (`{ weapon = "DP", kind = "mg" }`).
-- A vehicular MG (BMG, CMG, AAMG, an MG main armament) is no SW: it is not looked up here.
kessel.constant("sw_kinds", { LMG = "mg", MMG = "mg", HMG = "mg", ["dm MMG"] = "mg", ["dm HMG"] = "mg", ATR = "atr" })
-- vehicles: faces { name = "PzKpfw IVH" }; vars immobile, abandoned, recall, stun, captured, ...
kessel.unit_type{ id = "vehicle", name = "Vehicle", equipment = true, vehicle = true, symbol = "armour" }

kessel.terrain{ id = "open", name = "Open ground", color = "#e8e0b8" }
kessel.terrain{ id = "grain", name = "Grain", color = "#e0d070" }
kessel.terrain{ id = "brush", name = "Brush", color = "#b8c890" }
kessel.terrain{ id = "orchard", name = "Orchard", color = "#a8c880", marks = "trees" }
kessel.terrain{ id = "woods", name = "Woods", color = "#5a8a4a", marks = "trees" }
kessel.terrain{ id = "wooden_building", name = "Wooden building", color = "#b07a48" }
kessel.terrain{ id = "stone_building", name = "Stone building", color = "#8a8a90" }
kessel.terrain{ id = "factory", name = "Factory", color = "#707078" }
kessel.terrain{ id = "wooden_rubble", name = "Wooden rubble", color = "#c09a70" }
kessel.terrain{ id = "stone_rubble", name = "Stone rubble", color = "#a8a8a8" }
kessel.terrain{ id = "shellholes", name = "Shellholes", color = "#c8b890" }
kessel.terrain{ id = "water", name = "Water", color = "#6f9fd8" }
kessel.place_kind{ id = "building", name = "Building", symbol = "square" }

-- Dates ------------------------------------------------------------------------------------------
kessel.constant("pb_dates", { "night_i", "night_ii", "night_iii", "dawn", "day_i", "day_ii", "day_iii", "dusk" })
kessel.constant("rb_days", { "17oct", "18oct", "19oct", "20oct", "21oct", "22oct", "23oct", "24oct", "25oct",
  "26oct", "27oct", "28oct", "29oct", "30oct", "31oct", "1nov", "2nov", "3nov", "4nov", "5nov", "6nov", "7nov",
  "8nov", "9nov", "10nov", "11nov", "12nov", "13nov", "14nov", "15nov" })

-- [9.6161] German CPP Base # per CG Date (nil: none)
kessel.word_table{ id = "cpp_base", rows = { "night_ii", "night_iii", "dawn", "day_i", "day_ii", "day_iii", "dusk" },
  columns = { "german" }, cells = { { nil }, { nil }, { 25 }, { 32 }, { 30 }, { 20 }, { nil } } }

-- [9.62023] who sets up first and who moves first on each CG Date
kessel.word_table{ id = "setup_move", rows = { "night_i", "night_ii", "night_iii", "dawn", "day_i", "day_ii", "day_iii", "dusk" },
  columns = { "sets_up_first", "moves_first" },
  cells = { { "german", "british" }, { "german", "german" }, { "german", "british" }, { "british", "german" },
    { "british", "german" }, { "german", "british" }, { "german", "british" }, { "german", "british" } } }

-- [9.617] German RG chart. `units` per strength: { face, count } lists; `sw` the 9.6182 column.
local function u(face, n) return { face = face, n = n } end
kessel.word_table{ id = "rg_chart",
  rows = { "I1", "I2", "I3", "I4", "I5", "V1", "V2", "V3", "V4", "V5", "V6", "V7", "V8", "V9", "V10", "V11", "M1" },
  columns = { "name", "kind", "full", "depleted", "cost", "date_max", "cg_max", "notes" },
  cells = {
    { "Garrison Pltn", "I", { u("4-3-6", 3) }, { u("4-3-6", 2) }, nil, nil, nil, { "a", "e" } },
    { "PzPionier Pltn", "I", { u("4-4-7", 4) }, {}, nil, nil, nil, { "a", "e" } },
    { "PzPionier Coy", "I", { u("4-4-7", 12) }, { u("4-4-7", 9) }, nil, nil, nil, { "a", "b", "e" } },
    { "PzGrenadier Pltn", "I", { u("4-6-7", 2), u("4-6-8", 2) }, { u("4-6-7", 2), u("4-6-8", 1) }, 5, 2, 3, {} },
    { "PzGrenadier Coy", "I", { u("4-6-7", 12) }, { u("4-6-7", 9) }, 13, 1, 4, { "b", "d" } },
    { "Lt Tank Pltn I", "V", { u("FT-17 730(f)", 2), u("FT-17 730m(f)", 1) }, { u("FT-17 730(f)", 1), u("FT-17 730m(f)", 1) }, 3, 2, 2, {} },
    { "Lt Tank Pltn II", "V", { u("38H 735(f)", 3), u("35-S 739(f)", 1) }, { u("38H 735(f)", 2), u("35-S 739(f)", 1) }, 6, 1, 1, { "c" } },
    { "Med Tank Pltn", "V", { u("PzKpfw IVH", 3) }, { u("PzKpfw IVH", 2) }, 14, 2, 3, { "d" } },
    { "TD Pltn I", "V", { u("SPW S307(f)", 3) }, { u("SPW S307(f)", 2) }, 5, 1, 2, {} },
    { "TD Pltn II", "V", { u("Marder", 3) }, { u("Marder", 2) }, 5, 2, 2, {} },
    { "TD Pltn III", "V", { u("GSW 39H PaK(f)", 3) }, { u("GSW 39H PaK(f)", 2) }, 7, 1, 2, {} },
    { "SPA Pltn I", "V", { u("PzA LrS (f)", 2) }, { u("PzA LrS (f)", 1) }, 6, 1, 1, {} },
    { "SPA Pltn II", "V", { u("CSW 39H(f)", 2) }, { u("CSW 39H(f)", 1) }, 6, 1, 2, {} },
    { "SPA Pltn III", "V", { u("mSPW S307(f)", 2) }, { u("mSPW S307(f)", 1) }, 7, 1, 2, {} },
    { "StaffCar", "V", { u("Kfz 1", 2) }, { u("Kfz 1", 1) }, 1, 2, 2, { "no_aamg" } },
    { "AAtr Pltn", "V", { u("3.7cm FlaK LKW", 2), u("2cm FlaK LKW", 2) }, { u("3.7cm FlaK LKW", 1), u("2cm FlaK LKW", 1) }, 4, 2, 2, {} },
    { "Fortifications", "M", { u("FPP", 15) }, { u("FPP", 15) }, 1, 2, 10, {} },
  } }

-- [9.6182] Infantry-type SW chart: a number is received outright (Full); { p = n } is a number in
-- parentheses (one SW on a dr <= n when Full, < n when Depleted).
kessel.word_table{ id = "sw_chart", rows = { "I1", "I2", "I3", "I4", "I5" }, columns = { "HMG", "MMG", "LMG", "LtMTR" },
  cells = {
    { nil, { p = 2 }, 1, nil },
    { nil, { p = 2 }, 1, nil },
    { { p = 2 }, 1, 1, nil },
    { nil, { p = 2 }, 1, { p = 2 } },
    { { p = 3 }, 1, 2, 1 },
  } }

-- [9.61741] CPP entry cost per German Entry Arrow (scenario data may replace it: `entry_costs`)
kessel.constant("pb_entry_costs", { A7 = 0, J0 = 2, U1 = 4, KK1 = 6 })

-- [9.6183] leader tables (Final DR); "none" means no leader
kessel.dice_table{ id = "leader_personnel", rule = "9.6183", bands = { { 1, "10-2,8-1" }, { 2, "10-2,7-0" }, { 3, "9-2" },
  { 4, "9-1" }, { 5, "8-1" }, { 7, "8-0" }, { 9, "7-0" }, { 11, "6+1" }, { 13, "none" } } }
kessel.dice_table{ id = "leader_armor", rule = "9.6183", bands = { { 1, "10-2" }, { 2, "9-2" }, { 3, "9-1" }, { 4, "8-1" }, { 5, "none" } } }

-- [9.6181] RG strength
kessel.dice_table{ id = "rg_strength", rule = "9.6181", bands = { { 2, "full" }, { 10, "depleted" } } }

-- [9.6152] British OB-given reinforcements per CG Date: { face/kind, n } and FPP
local function r(kind, what, n) return { kind = kind, what = what, n = n or 1 } end
kessel.word_table{ id = "pb_reinforcements", rows = { "night_ii", "night_iii", "dawn", "day_i", "day_ii", "day_iii", "dusk" },
  columns = { "entry", "units", "fpp" },
  cells = {
    { "note", { r("squad", "6-4-8"), r("squad", "4-5-8"), r("hs", "2-4-8"), r("leader", "7-0"), r("sw", "LMG") }, 10 },
    { "note", { r("squad", "6-4-8", 18), r("leader", "10-2"), r("leader", "9-2"), r("leader", "9-1"), r("leader", "8-0", 2),
      r("leader", "7-0"), r("sw", "LMG", 5), r("sw", "PIAT", 4) }, 20 },
    { "note", { r("squad", "6-4-8", 4), r("leader", "8-0"), r("sw", "LMG"), r("sw", "PIAT"), r("gun", "57L AT", 2),
      r("crew", "2-2-8", 2) }, 15 },
    { nil, {}, 15 },
    { "TT4", { r("squad", "6-4-8", 15), r("leader", "10-3"), r("leader", "9-1"), r("leader", "8-1"), r("leader", "8-0", 2),
      r("sw", "LMG", 4), r("sw", "PIAT", 2), r("sw", "FT"), r("vehicle", "Sherman V (DD)") }, 15 },
    { nil, {}, 15 },
    { "TT14", { r("squad", "4-5-8", 10), r("squad", "4-5-7", 15), r("crew", "2-2-8"), r("leader", "9-1"), r("leader", "8-1"),
      r("leader", "8-0"), r("leader", "7-0", 2), r("sw", "dm HMG", 2), r("sw", "dm MMG", 2), r("sw", "LMG", 4), r("sw", "51 MTR", 2),
      r("sw", "PIAT", 4), r("vehicle", "Churchill VII", 6), r("vehicle", "Stuart V(a)", 3), r("vehicle", "Carrier C", 3),
      r("vehicle", "Carrier 3 in."), r("vehicle", "Lloyd Carrier"), r("gun", "57L AT") }, 10 },
  } }

-- [9.619] fortification purchase costs in FPP, and the items the table marks British Only (the
-- mines). No item is limited to the Night dates (the table has no such column: the German HIP
-- limit at Dusk, note h, and the daytime HIP limit, note c, are checked with the purchase)
kessel.word_table{ id = "fortification_costs", rows = { "foxhole_3s", "foxhole_2s", "foxhole_1s", "ap_mine", "at_mine",
  "question_mark", "hip_squad", "hip_hs", "hip_smc", "hip_counter", "san_increase", "starshell_increase" },
  columns = { "cost", "british_only" },
  cells = { { 3 }, { 2 }, { 1 }, { 1.5, true }, { 3, true }, { 1 }, { 3 }, { 2 }, { 1 }, { 5 }, { 10 }, { 10 } } }

-- Squads per nationality (the side: german, british, russian), by full-strength face: the
-- half-squad face, the squad it is Replaced by, the squad it Battle Hardens to, and whether it is
-- elite (an elite MMC becomes Fanatic when it Battle Hardens [9.6112]), and whether it is an
-- Assault Engineer squad (the German 8-3-8 and the Russian 6-2-8, which 11.6134 and 11.615 count;
-- our text names no Assault Engineer squad, so this is a declared data choice, named in each note
-- that counts them: `C.assault_engineer_basis`). These come from chapter A
-- (A1.31, A15.3, A19.13), outside the RePh text: ruleset data. The 9.6061 example fixes the German
-- 4-6-7 -> 4-4-7 and the 4-4-7 HS (2-3-7). Keyed by nationality because one face is two squads:
-- a Russian 4-4-7 is first line (Replaced by a 4-2-6 Conscript, hardens to a 4-5-8), a German one
-- second line (Replaced by a 4-3-6, hardens to a 4-6-7); a Russian 4-5-8 is Replaced by a 4-4-7, a
-- British one by a 4-5-7. A Russian 4-4-7's half-squad is a 2-3-7, as the RB example scenario
-- gives it (2-2-7 is the 5-2-7's).
kessel.constant("squads", {
  german = {
    ["8-3-8"] = { hs = "3-3-8", replaced_by = "4-6-8", elite = true, assault_engineer = true },
    ["5-4-8"] = { hs = "2-4-8", replaced_by = "4-6-8", elite = true },
    ["4-6-8"] = { hs = "2-4-8", replaced_by = "4-6-7", elite = true },
    ["4-6-7"] = { hs = "2-4-7", replaced_by = "4-4-7", hardens_to = "4-6-8" },
    ["4-4-7"] = { hs = "2-3-7", replaced_by = "4-3-6", hardens_to = "4-6-7" },
    ["4-3-6"] = { hs = "2-2-6", hardens_to = "4-4-7" },
  },
  british = {
    ["6-4-8"] = { hs = "3-4-8", replaced_by = "4-5-8", elite = true },
    ["4-5-8"] = { hs = "2-4-8", replaced_by = "4-5-7", elite = true },
    ["4-5-7"] = { hs = "2-4-7", replaced_by = "4-4-7", hardens_to = "4-5-8" },
    ["4-4-7"] = { hs = "2-3-7", replaced_by = "4-3-6", hardens_to = "4-5-7" },
    ["4-3-6"] = { hs = "2-2-6", hardens_to = "4-4-7" },
  },
  russian = {
    ["6-2-8"] = { hs = "3-2-8", replaced_by = "5-2-7", elite = true, assault_engineer = true },
    ["4-5-8"] = { hs = "2-4-8", replaced_by = "4-4-7", elite = true },
    ["5-2-7"] = { hs = "2-2-7", replaced_by = "4-2-6", hardens_to = "6-2-8" },
    ["4-4-7"] = { hs = "2-3-7", replaced_by = "4-2-6", hardens_to = "4-5-8" },
    ["4-2-6"] = { hs = "2-2-6", hardens_to = "4-4-7" },   -- a Conscript: nothing lower [9.606] footnote 2
  },
})
-- [9.6113] a heroic leader Battle Hardens one grade (A15.3 via footnote 21: ruleset data)
kessel.constant("leader_hardens_to", { ["6+1"] = "7-0", ["7-0"] = "8-0", ["8-0"] = "8-1", ["8-1"] = "9-1",
  ["9-0"] = "10-0", ["9-1"] = "9-2", ["9-2"] = "10-2", ["10-2"] = "10-3" })
-- Inherent Portage Capacity [A4.42] and the escape/shift portage limits [9.606] [9.613]
kessel.constant("ipc", { squad = 3, crew = 2, hs = 2, smc = 1 })
-- The Personnel stacking limit of a side in one Location, each level of a hex its own [A5.1]: three
-- squads or their equivalent (a HS or crew half of one, A5.5) and four SMC; A5.1 lets no set-up
-- exceed it. Chapter A, outside our text, which names Overstacking (9.606) without its numbers: the
-- ruleset's data. A vehicle's crew, a prisoner and Equipment are not counted (our reading).
kessel.constant("stacking_limit", { squads = 3, smc = 4 })

-- Scenario data for what the text leaves to charts we do not have -----------------------------
kessel.scenario_var{ id = "date", type = "string", default = "dawn", description = "CG Date of the scenario just played [9.6121]" }
kessel.scenario_var{ id = "entry_areas", type = "table", default = {},
  description = "Eligible Entry Areas per side: { german = { A7 = true } } naming map areas [9.6052]" }
kessel.scenario_var{ id = "entry_costs", type = "table", default = {},
  description = "CPP cost per Entry Arrow [9.61741]; empty: the PB table" }
kessel.scenario_var{ id = "walking_wounded", type = "int", default = 0, min = 0, max = 100,
  description = "WW MMC the British recover this RePh per CG SSR 17 (not in the text) [9.6102]" }
kessel.scenario_var{ id = "german_controls_ii13", type = "bool",
  description = "the Germans Control the building in II13 (for a map without it; unset: read from the map) [9.61222]" }
-- what a CG scenario's end leaves for its RePh (the players' records), declared so `kessel info`
-- lists them with their meaning and `kessel check` checks their type (none has a default here:
-- the rules say what an unset one means)
local function record(id, type, description) kessel.scenario_var{ id = id, type = type, description = description } end
record("next_date", "string", "the CG Date after this scenario, when not the next of the date list [9.6121] [11.6121]")
record("last_date", "string", "the CG ends after this CG Date's RePh [9.6] [11.6121]")
record("previous_date", "string", "the CG Date before this one (17oct: this is CG I's Initial Scenario) [11.617]")
record("cg", "string", "which PB CG is played (\"II\": no Night II-Dawn reinforcements, Note 2) [9.6152]")
record("attacker", "string", "the side that moved first in the scenario, the ATTACKER in RePh Melee [9.601]")
record("scenario_winner", "string", "RB: the winner of the scenario just played [11.6031]")
record("initial_scenario", "bool", "RB: the scenario just played was a CG Initial Scenario (the German Attack chit is assumed) [11.617]")
record("cvp_lost", "table", "Casualty VP each side lost in the scenario just played: { german = n, british = n } (PB: not the British MMC put in the WW Box, counted when received [9.6102]) [9.6162] [11.616]")
record("cvp_amassed", "table", "RB: CVP each side amassed, when not the enemy's cvp_lost [11.6112]")
record("cpp", "table", "CPP each side holds at the start of the RePh (PB: the German's; RB: unspent, the Start) [9.616] [11.6162]")
record("fpp", "table", "FPP each side holds at the start of the RePh [9.619]")
record("san", "table", "each side's SAN [9.6122] [11.6122]")
record("elr", "table", "RB: each side's ELR [11.617]")
record("booby_trap", "string", "RB: the Booby Trap Level in effect (A, B or C) [11.6123]")
record("weather", "string", "RB: the previous CG Day's weather (fog_mist, overcast, clear, clear_gusty) [11.618]")
record("ec", "string", "RB: the previous CG Day's EC (wet, moist, moderate, dry) [11.618]")
record("isolated_areas", "list", "RB: the Isolated Areas the players' Perimeters give: [{ hexes = [...] }, ...]; a non-ground-level Pocket also names its Location levels, levels = [1, 2] (11.6057) [11.605] [11.606]")
record("no_mans_land", "list", "RB: the hexes the players' Perimeters leave outside both Perimeter Areas, No Man's Land [11.6051]: no side Controls them [11.6059], so the Equipment there is not cleared and no side Retains it [11.607] [11.6072]")
record("massacre", "bool", "RB: prisoners were executed in the last RePh, so Massacre (A20.4) is in effect for this CG scenario; the next RePh ends it [11.608]")
record("attack_chit", "table", "RB: the sides that chose the Attack chit on the previous CG Day: { german = true } [11.616] [11.617]")
record("idle_days", "table", "RB: Idle Days per side since the last completed scenario (idle_day counts them; not carried past a completed scenario) [11.617]")
record("scenarios_since_idle", "table", "RB: scenarios completed since the CG start or the last Idle Day, this one included (unset: counted) [11.617]")
record("bought_previous_day", "table", "RB: { side = { elite_coys = n, first_line = n, afv_pltns = n } } bought on the previous CG Day: elite Infantry Coys, first-line Infantry Coys, AFV Pltns other than SPW Pltns [11.617]")
record("win_loss", "table", "RB: { side = { wins, losses, completed } } CG scenarios before this one; the rules add this one's result when its winner is determined [11.6031] [11.6142]")
record("leader_hardening_drm", "table", "RB: the winner's DRM taken on the leader Battle Hardening DR (0, -1 or -2) [11.6113]")
record("rg_record", "list", "the German RG Purchase Record; an Initial Scenario's OB lists its RG here with given = true (I1-I3 with strength F or D) [9.6178] [9.6181]")
record("entry_order", "table", "the Entry Areas of each side in order along the map edge, for the 'next' Entry Area of a Shift [9.613]")
record("friendly_distance", "table", "RB: hexes from each escaping unit to a friendly-Controlled non-Isolated hex, when given (else found on the map: the nearest hex the side Controls outside the listed Isolated Areas) [11.6063]")

kessel.scenario_var{ id = "balance_drm", type = "table", default = {},
  description = "CPP Replenishment DRM per side from the CG balance provision in effect (11.32, not in the text), as the provision gives it: { russian = -1 } [11.616]" }

-- [11.6161] RB historical DRM per CG Day and side
do
  local g = { -2, -2, -1, 0, -1, -2, -1, -1, -1, 0, -1, 0, 1, 1, 0, 1, 2, 1, 1, 1, 1, 0, 0, -1, -2, -3, -1, 0, 1, 1 }
  local ru = { -1, -1, 0, 0, -1, 0, -1, -1, 0, 0, -1, -1, 0, 1, -2, -1, 0, 1, 1, 1, 0, 0, 0, -1, -1, -1, 0, 0, 1, 1 }
  local cells = {}
  for i = 1, #g do cells[i] = { g[i], ru[i] } end
  kessel.word_table{ id = "historical_drm", rows = { "17oct", "18oct", "19oct", "20oct", "21oct", "22oct", "23oct",
    "24oct", "25oct", "26oct", "27oct", "28oct", "29oct", "30oct", "31oct", "1nov", "2nov", "3nov", "4nov", "5nov",
    "6nov", "7nov", "8nov", "9nov", "10nov", "11nov", "12nov", "13nov", "14nov", "15nov" },
    columns = { "german", "russian" }, cells = cells }
end
