-- Rule tests that close the gaps found while writing docs/rules-coverage.md: every case, FAQ item,
-- WBC 2009 item and option listed there that no other test file exercised. Small inline maps,
-- injected dice; each test names the case it guards and asserts on that case in the reasons.
--
-- Geometry on the 8x8 maps (even columns sit half a hex lower):
--   0303: 0302 0402 0403 0304 0203 0202      0304: 0303 0305 0403 0404 0203 0204
--   0403: 0402 0503 0504 0404 0304 0303      0404: 0403 0405 0504 0505 0304 0305
--   0305: 0304 0306 0404 0405 0204 0205      0706 (supply leader): 0705 0707 0805 0806 0605 0606

local expect = kessel.expect
local K = require("rules.combat")
local Z = require("rules.zoc")
local S = require("rules.supply")
local L = require("rules.leaders")
local M = require("rules.movement")
local V = require("rules.victory")

-- Counters ---------------------------------------------------------------------------------------
local function pz(id, at, face, extra)
  local u = { id = id, name = id, side = "german", type = "panzer", formation = "F" .. id,
    faces = { face or "4-4-10", "1-1-10" }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function rifle(id, at, face, extra)
  local u = { id = id, name = id, side = "soviet", type = "rifle", faces = { face or "1-1-6" }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function leader(id, at, rating, extra)
  local u = { id = id, name = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" },
    attrs = { rating = rating }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end

-- An 8x8 position with a rating-5 Soviet leader in 0706 keeping Soviet units in supply [11.2].
local function board(units, extra)
  extra = extra or {}
  local list = { table.unpack(units) }
  if not extra.bare then list[#list + 1] = leader("sup", "0706", 5) end
  local spec = { map = { columns = 8, rows = 8 }, units = list, step = "german_combat", turn = 7 }
  for k, v in pairs(extra) do if k ~= "bare" then spec[k] = v end end
  kessel.setup(spec)
end

local function attack(units, targets) return kessel.act{ kind = "attack", units = units, targets = targets } end
local function choose(c, units) return kessel.act{ kind = "choose", choice = c, units = units } end
local function retreat(units, path) return kessel.act{ kind = "retreat", units = units, path = path } end
local function mv(ids, path) return kessel.act{ kind = "move", units = type(ids) == "table" and ids or { ids }, path = path } end
local function note(events, text)
  for _, e in ipairs(events) do
    if e.event == "note" and e.text and e.text:find(text, 1, true) then return e end
  end
  return nil
end
local function end_phases(n)
  for _ = 1, n do expect.accepted(kessel.act{ kind = "end_phase" }) end
end

-- [4] Sequence of play -------------------------------------------------------------------------

-- Rule 4: the nine phases come in the printed order and the turn advances after the German Air
-- Interdiction Phase.
kessel.test("case_4_sequence_of_play_order_and_turn_advance", function()
  board({}, { step = "soviet_movement", turn = 2, bare = true })
  local order = { "soviet_movement", "soviet_combat", "soviet_disruption_removal", "soviet_interdiction",
    "german_movement", "german_combat", "german_mech_movement", "german_disruption_removal",
    "german_air_interdiction" }
  for i, id in ipairs(order) do
    local st = kessel.game.step()
    expect.eq(st.id, id, "phase " .. i)
    expect.eq(kessel.game.turn(), 2)
    expect.accepted(kessel.act{ kind = "end_phase" })
  end
  expect.eq(kessel.game.step().id, "soviet_movement", "a new game-turn starts with the Soviet")
  expect.eq(kessel.game.turn(), 3)
end)

-- [6.4] ------------------------------------------------------------------------------------------

-- Rule 6.4: on turns 1-6 no Soviet unit enters columns 01-02, but lines of communication and
-- supply are still traced through them.
kessel.test("case_6_4_lines_traced_through_columns_01_02", function()
  board({ rifle("r", "0101", "3-3-6"), leader("l", "0301", 3) }, { step = "soviet_movement", turn = 3, bare = true })
  expect.truthy(L.in_command(kessel.units.get("r")), "the command radius runs through column 02")
  expect.truthy(S.in_supply("r", "combat"), "so does the line of communication")
  local ok, r = mv("l", { "0201" })
  expect.refused(ok, r, "6.4", "columns 01-02")
end)

-- Rule 6.4 / 9.8: on turns 1-6 a Soviet unit may not advance after combat into columns 01-02
-- either; from turn 7 it may.
kessel.test("case_6_4_no_soviet_advance_into_columns_01_02", function()
  for _, turn in ipairs{ 3, 7 } do
    board({ pz("g", "0203", "1-1-10"), rifle("s", "0303", "9-9-6"), leader("l", "0303", 5) },
      { step = "soviet_combat", turn = turn, bare = true })
    kessel.inject_dice{ 1 } -- 9 + 5 against 1: 10-1, roll 1: De
    expect.accepted(attack({ "s", "l" }, { "0203" }))
    expect.eq(kessel.units.get("g").location, "eliminated")
    local ok, r = kessel.act{ kind = "advance", units = { "s" }, path = { "0203" } }
    if turn <= 6 then
      expect.refused(ok, r, "9.8")
      expect.eq(kessel.game.var("pending"), nil, "no advance is offered")
    else
      expect.accepted(ok, r)
      expect.eq(kessel.units.get("s").hex, "0203")
    end
  end
end)

-- [6.5] Overrun ----------------------------------------------------------------------------------

-- Rule 6.5: a unit stopped by the ZOC of the unit it then overruns may still overrun from that
-- hex; once the hex is cleared it enters at no cost and may move on with its remaining MP.
kessel.test("case_6_5_overrun_from_enemy_zoc_then_move_on", function()
  board({ pz("a", "0401", "16-16-10"), rifle("s", "0403") }, { step = "german_movement" })
  expect.accepted(mv("a", { "0402" }))
  local ok, r = mv("a", { "0401" })
  expect.refused(ok, r, "6.22", "may not leave")
  kessel.inject_dice{ 1 } -- 16 halved 8 against 1: 8-1, roll 1: De
  local events = expect.accepted(kessel.act{ kind = "overrun", units = { "a" }, target = "0403" })
  expect.truthy(note(events, "overrun: attack 8 against defence 1 in 0403: odds 8-1, roll 1: De"))
  expect.eq(kessel.units.get("a").hex, "0403", "the cleared hex is entered")
  expect.eq(M.mp_left(kessel.units.get("a")), 6, "1 to move + 3 to overrun; entering is free")
  expect.accepted(mv("a", { "0503", "0603" }))
  expect.eq(kessel.units.get("a").hex, "0603", "the overrunner moves on")
end)

-- Rule 6.5 / 11.3: supply is judged at the instant of the overrun; out of supply halves first,
-- then the overrun halves the total (fractions dropped).
kessel.test("case_6_5_overrun_supply_judged_at_the_instant", function()
  kessel.setup{ map = { columns = 30, rows = 3 }, step = "german_movement", turn = 7,
    units = { pz("a", "2802", "8-8-10"), rifle("s", "2902", "1-1-6"), leader("sup", "3002", 5) } }
  local ok = S.in_supply("a", "combat")
  expect.falsy(ok, "27 MP from the west edge, no road")
  kessel.inject_dice{ 1 } -- 8 → 4 (supply) → 2 (overrun) against 1: 2-1, roll 1: D2
  local events = expect.accepted(kessel.act{ kind = "overrun", units = { "a" }, target = "2902" })
  expect.truthy(note(events, "out of supply, halved (4)"))
  expect.truthy(note(events, "overrun: attack 2 against defence 1 in 2902: odds 2-1, roll 1: D2"))
end)

-- [6.6] Disruption -------------------------------------------------------------------------------

-- Rule 6.6: a disrupted unit has no ZOC but defends normally.
kessel.test("case_6_6_disrupted_unit_defends_normally", function()
  board{ pz("g", "0303", "6-6-10"), rifle("s", "0403", "2-3-6", { flags = { "disrupted" } }) }
  expect.falsy(Z.zoc_of("soviet"):has("0503"), "no ZOC while disrupted")
  expect.eq(K.defence_of({ "0403" }), 3, "full defence strength")
  kessel.inject_dice{ 3 } -- 6 against 3: 2-1, roll 3: D1/A1
  local events = expect.accepted(attack({ "g" }, { "0403" }))
  expect.truthy(note(events, "attack 6 against defence 3 in 0403: odds 2-1"))
end)

-- [6.7] Terrain effects chart --------------------------------------------------------------------

-- Rule 6.7: swamp costs 2 MP to everyone; lake hexes and hexsides are closed; a road does not
-- bridge a river for movement (the river cost is paid on top of the road rate).
kessel.test("case_6_7_swamp_lake_and_road_over_river", function()
  local map = { columns = 8, rows = 8, terrain = { ["0602"] = "swamp", ["0605"] = "lake" },
    hexsides = { { "0303", "0403", "river" }, { "0505", "0506", "lake" } },
    links = { { kind = "road", path = { "0203", "0303", "0403" } } } }
  board({ pz("p", "0502"), { id = "i", side = "german", type = "infantry", formation = "6 Inf", faces = { "9-9-7" }, at = "0502" } },
    { step = "german_movement", map = map, bare = true })
  local ok, ev = mv("p", { "0602" })
  expect.accepted(ok, ev)
  expect.eq(ev[1].cost, 2, "swamp: motorized 2")
  ok, ev = mv("i", { "0602" })
  expect.accepted(ok, ev)
  expect.eq(ev[1].cost, 2, "swamp: infantry 2 too")
  board({ pz("p", "0505") }, { step = "german_movement", map = map, bare = true })
  local r
  ok, r = mv("p", { "0506" })
  expect.refused(ok, r, "6.7", "lake hexsides may not be crossed")
  ok, r = mv("p", { "0605" })
  expect.refused(ok, r, "6.7", "lake hexes may not be entered")
  board({ pz("p", "0203") }, { step = "german_movement", map = map, bare = true })
  ok, ev = mv("p", { "0303", "0403" })
  expect.accepted(ok, ev)
  expect.eq(ev[1].cost, 3, "½ + (½ + 2 for the river)")
end)

-- [6.37] Rail cuts -------------------------------------------------------------------------------

-- Rule 6.37: only a Soviet combat unit repairs a cut; a leader entering the hex leaves it.
kessel.test("case_6_37_leader_does_not_repair_rail_cut", function()
  local rail = {}
  for c = 3, 12 do rail[#rail + 1] = string.format("%02d02", c) end
  kessel.setup{ map = { columns = 14, rows = 4, links = { { kind = "railway", path = rail } } },
    step = "soviet_movement", turn = 7, units = { leader("l", "1003", 3), rifle("r", "1103") },
    markers = { { kind = "rail_cut", side = "german", at = "1002" } } }
  local RL = require("rules.rail")
  expect.accepted(mv("l", { "1002" }))
  expect.truthy(RL.cuts()["1002"], "still cut after the leader")
  local events = expect.accepted(mv("r", { "1002" }))
  expect.truthy(note(events, "repairs the railway at 1002"))
  expect.falsy(RL.cuts()["1002"])
end)

-- [8] Zones of control ---------------------------------------------------------------------------

-- Rule 8 / 10.2: leaders and untried units exert a ZOC like any other unit.
kessel.test("case_8_leaders_and_untried_units_exert_zoc", function()
  board({ leader("l", "0505", 2), { id = "u", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0202" },
    pz("p", "0502"), pz("q", "0205") }, { step = "german_movement", bare = true })
  local zoc = Z.zoc_of("soviet")
  expect.truthy(zoc:has("0504") and zoc:has("0604"), "around the leader")
  expect.truthy(zoc:has("0203") and zoc:has("0302"), "around the untried unit")
  local ok, r = mv("p", { "0503", "0504", "0604" })
  expect.refused(ok, r, "6.22", "enter")
  ok, r = mv("q", { "0204", "0203", "0103" })
  expect.refused(ok, r, "6.22", "enter")
end)

-- Rule 8: a ZOC extends across river hexsides but not across lake hexsides.
kessel.test("case_8_zoc_crosses_rivers_not_lake_hexsides", function()
  board({ rifle("s", "0403") }, { bare = true, map = { columns = 8, rows = 8,
    hexsides = { { "0403", "0503", "river" }, { "0403", "0504", "lake" } } } })
  local zoc = Z.zoc_of("soviet")
  expect.truthy(zoc:has("0503"), "across the river")
  expect.falsy(zoc:has("0504"), "not across the lake")
  expect.truthy(zoc:has("0404"))
end)

-- Rule 8: friendly units negate enemy ZOC for supply and lines, never for movement.
kessel.test("case_8_friendly_units_do_not_negate_zoc_for_movement", function()
  board({ rifle("r", "0505"), pz("f", "0504"), pz("p", "0502") }, { step = "german_movement", bare = true })
  local ok, r = mv("p", { "0503", "0504", "0403" })
  expect.refused(ok, r, "6.22", "0504")
  expect.accepted(mv("p", { "0503", "0504" }), "it may stop there, with its friend")
  local ok2, r2 = mv("p", { "0403" })
  expect.refused(ok2, r2, "6.22", "may not leave")
end)

-- [9.5] [9.6] Combat results -------------------------------------------------------------------

-- Rule 9.5: the results table as printed, cell by cell, with the odds capped at 10-1 and 1-3.
kessel.test("case_9_5_crt_matches_printed_table", function()
  board({}, { bare = true })
  local printed = {
    { "A1", "D1/A1", "D1", "D2", "D2", "D2", "D2", "De/A1", "De", "De", "De", "De" },
    { "A1", "Eng", "D1/A1", "D1", "D2", "D2", "D2", "De/A1", "De", "De", "De", "De" },
    { "A1", "A1", "D1/A1", "D1/A1", "D1", "D2/A1", "D2", "D2", "De/A1", "De", "De", "De" },
    { "A2", "A1", "Eng", "D1/A1", "D1/A1", "D1", "D2/A1", "D2", "D2", "D2", "De/A1", "De" },
    { "Ae", "A2", "A1", "Eng", "D1/A1", "D1/A1", "D1", "D2/A1", "D2", "D2", "D2", "De" },
    { "Ae", "Ae", "A2", "A1", "Eng", "Eng", "D1/A1", "D1", "D2/A1", "D2", "D2", "D2" },
  }
  local cols = kessel.tables.columns("crt")
  expect.eq(#cols, 12)
  expect.eq(cols[1], "1-3"); expect.eq(cols[12], "10-1")
  for roll = 1, 6 do
    for col = 1, 12 do
      expect.eq(kessel.tables.result("crt", col, roll), printed[roll][col], string.format("%s roll %d", cols[col], roll))
    end
  end
  expect.eq(kessel.tables.odds("crt", 5, 11).label, "1-3", "5 to 11 is worse than 1-2: rounds to 1-3")
  expect.eq(kessel.tables.odds("crt", 1, 20).label, "1-3", "below 1-3 is 1-3")
end)

-- Rule 9.6: Ae eliminates every attacking unit; the defender may advance into the vacated hex.
kessel.test("case_9_6_Ae_eliminates_attackers", function()
  board{ pz("g", "0303", "1-1-10"), pz("h", "0303", "1-1-10"), rifle("s", "0403", "8-8-6") }
  kessel.inject_dice{ 5 } -- 2 against 8: 1-3 (1-4 capped), roll 5: Ae
  local events = expect.accepted(attack({ "g", "h" }, { "0403" }))
  expect.truthy(note(events, "odds 1-3, roll 5: Ae"))
  expect.eq(kessel.units.get("g").location, "eliminated")
  expect.eq(kessel.units.get("h").location, "eliminated")
  local p = kessel.game.var("pending")
  expect.eq(p.kind, "advance")
  expect.eq(p.side, "soviet", "the defender may advance")
  expect.accepted(kessel.act{ kind = "advance", units = { "s" }, path = { "0303" } })
end)

-- FAQ (reference manual): German units cannot overstack in a retreat; the excess is eliminated.
kessel.test("case_7_2_faq_german_retreat_overstack_eliminates", function()
  board({ rifle("s", "0403", "9-9-6"), leader("l", "0403", 5), pz("g", "0303", "4-4-10"),
    pz("x1", "0304"), pz("x2", "0304"), pz("x3", "0304") },
    { step = "soviet_combat", map = { columns = 8, rows = 8,
      hexsides = { { "0303", "0302", "lake" }, { "0303", "0203", "lake" }, { "0303", "0202", "lake" } } } })
  kessel.inject_dice{ 3 } -- 9 + 5 against 4: 3-1, roll 3: D1
  expect.accepted(attack({ "s", "l" }, { "0303" }))
  expect.accepted(choose("retreat"))
  expect.eq(kessel.game.var("pending").side, "soviet", "the Soviet picks the German path")
  local events = expect.accepted(retreat({ "g" }, { "0304" }))
  expect.eq(kessel.units.get("g").location, "eliminated")
  expect.eq(#kessel.units.at("0304"), 3)
  local n = note(events, "retreated into an over-full hex")
  expect.truthy(n)
  expect.eq(n.rule, "7.2", "the German stacking case")
end)

-- FAQ (reference manual): retreated units exert a ZOC, even onto friends that have none, while
-- adding nothing to the defence of their new hex [9.73].
kessel.test("case_9_73_faq_retreated_units_exert_zoc", function()
  board({ pz("g", "0303", "6-6-10"), rifle("s", "0403", "2-2-6"), rifle("f", "0404", "2-3-6", { flags = { "disrupted" } }) },
    { map = { columns = 8, rows = 8, hexsides = { { "0403", "0503", "lake" }, { "0403", "0504", "lake" } } } })
  expect.falsy(Z.zoc_of("soviet"):has("0405"), "the disrupted friend has no ZOC")
  kessel.inject_dice{ 3 } -- 6 against 2: 3-1, roll 3: D1
  expect.accepted(attack({ "g" }, { "0403" }))
  expect.accepted(choose("retreat"))
  expect.accepted(retreat({ "s" }, { "0404" }))
  expect.truthy(kessel.units.get("s").flags.retreated_onto)
  expect.truthy(Z.zoc_of("soviet"):has("0405"), "the retreated unit exerts a ZOC")
  expect.eq(K.defence_of({ "0404" }), 3, "but adds nothing to the defence")
end)

-- [10] Leaders -----------------------------------------------------------------------------------

-- Rule 10.2: a leader has MA 10, moves as motorized on roads (½ MP) and as infantry in forest (1).
kessel.test("case_10_2_leader_movement_road_and_forest", function()
  board({ leader("l", "0203", 3) }, { step = "soviet_movement", bare = true, map = { columns = 12, rows = 8,
    terrain = { ["0603"] = "forest", ["0604"] = "forest" },
    links = { { kind = "road", path = { "0203", "0303", "0403", "0503" } } } } })
  expect.eq(M.ma(kessel.units.get("l")), 10)
  local ok, ev = mv("l", { "0303", "0403", "0503" })
  expect.accepted(ok, ev)
  expect.eq(ev[1].cost, 1.5, "½ MP a road hex")
  ok, ev = mv("l", { "0603", "0604" })
  expect.accepted(ok, ev)
  expect.eq(ev[1].cost, 2, "1 MP a forest hex")
end)

-- Rule 10.36: a leader adds to one attack only in a phase.
kessel.test("case_10_36_leader_adds_to_one_attack_only", function()
  board({ rifle("s1", "0403", "4-4-6"), rifle("s2", "0403", "4-4-6"), leader("l", "0403", 2),
    pz("g1", "0303", "4-4-10"), pz("g2", "0402", "4-4-10") }, { step = "soviet_combat" })
  kessel.inject_dice{ 4 } -- 4 + 2 against 4: 1-1, roll 4: Eng
  local events = expect.accepted(attack({ "s1", "l" }, { "0303" }))
  expect.truthy(note(events, "attack 6 against defence 4"))
  expect.accepted(choose(nil, { "s1" })) -- Eng: the Soviet names the unit that loses the step [9.6]
  local ok, r = attack({ "s2", "l" }, { "0402" })
  expect.refused(ok, r, "9.1", "already attacked")
  kessel.inject_dice{ 4 }
  expect.accepted(attack({ "s2" }, { "0402" }))
end)

-- Rule 10.4 (optional): an evacuated leader returns in entry area X at the start of the next
-- Soviet Movement Phase.
kessel.test("case_10_4_evacuated_leader_returns_at_x_next_turn", function()
  kessel.setup{ map = { columns = 8, rows = 8, areas = { X = { "0808" } } }, step = "soviet_movement", turn = 7,
    units = { leader("l", "0202", 2), pz("g1", "0302"), pz("g2", "0203"), pz("g3", "0101") },
    options = { leader_evacuation = true } }
  expect.accepted(kessel.act{ kind = "evacuate", leader = "l" })
  expect.eq(kessel.units.get("l").location, "pending")
  local ok, r = kessel.act{ kind = "evacuate", leader = "l" }
  expect.refused(ok, r, "10.4")
  end_phases(9)
  expect.eq(kessel.game.turn(), 8)
  expect.eq(kessel.game.step().id, "soviet_movement")
  local l = kessel.units.get("l")
  expect.eq(l.location, "map")
  expect.eq(l.hex, "0808", "back at X")
end)

-- [11] Supply ------------------------------------------------------------------------------------

-- Rule 11.13: roads carry German supply across rivers.
kessel.test("case_11_13_road_supply_crosses_rivers", function()
  local road = {}
  for c = 1, 15 do road[#road + 1] = string.format("%02d03", c) end
  local spec = { map = { columns = 40, rows = 5, links = { { kind = "road", path = road } },
      tags = { road_supply_source = { "0103" } },
      hexsides = { { "0802", "0903", "river" }, { "0803", "0903", "river" }, { "0803", "0904", "river" } } },
    units = { pz("g", "3503") }, step = "german_movement", turn = 5 }
  kessel.setup(spec)
  local ok, why = S.in_supply("g", "combat")
  expect.truthy(ok, "20 hexes from 1503, beyond the river on the road: " .. tostring(why))
  expect.truthy(why:find("road", 1, true), why)
end)

-- Rule 11.1 / 6.7: a German line of supply may enter swamp but not pass through it, and never
-- crosses a lake hexside.
kessel.test("case_11_1_supply_into_not_through_swamp_nor_across_lake", function()
  local function strip(at, terrain, hexsides)
    kessel.setup{ map = { columns = 12, rows = 1, terrain = terrain, hexsides = hexsides },
      units = { pz("g", at) }, step = "german_movement", turn = 5 }
  end
  strip("0501", {})
  expect.truthy(S.in_supply("g", "combat"), "4 MP from the west edge")
  strip("0501", { ["0301"] = "swamp" })
  local ok, why = S.in_supply("g", "combat")
  expect.falsy(ok, "the only line passes through swamp")
  expect.truthy(why:find("11.1", 1, true), why)
  strip("0301", { ["0301"] = "swamp" })
  expect.truthy(S.in_supply("g", "combat"), "a unit in the swamp hex itself is supplied")
  strip("0501", {}, { { "0201", "0301", "lake" } })
  expect.falsy(S.in_supply("g", "combat"), "no line across a lake hexside")
end)

-- Rule 11.3 / FAQ: units may stay out of supply indefinitely; nothing eliminates them for it.
kessel.test("case_11_3_faq_no_elimination_for_lack_of_supply", function()
  kessel.setup{ map = { columns = 30, rows = 3 }, step = "german_movement", turn = 5, units = { pz("g", "2802") } }
  expect.accepted(kessel.act{ kind = "end_phase" })
  end_phases(8) -- through the German turn and a Soviet turn, back to the German Movement Phase
  expect.eq(kessel.game.turn(), 6)
  expect.eq(kessel.game.step().id, "german_movement")
  local g = kessel.units.get("g")
  expect.eq(g.location, "map", "still on the map")
  expect.truthy(g.flags.oos, "and still out of supply")
end)

-- [14] [15] --------------------------------------------------------------------------------------

-- Rule 14.3: nothing enters on turn 12, South-Western Front divisions included.
kessel.test("case_14_3_no_south_western_front_on_turn_12", function()
  kessel.setup{ map = { columns = 12, rows = 4, links = { { kind = "railway", path = { "1002", "1003", "1004" } } },
      areas = { Z = { "0804" } } },
    units = { { id = "r", side = "soviet", type = "rifle", hidden = true, pool = "rifle" } },
    step = "soviet_movement", turn = 12, pools = { rifle = { "3-3-6" } } }
  local ok, r = kessel.act{ kind = "swf_call", hex = "1004" }
  expect.refused(ok, r, "14.3", "turn 12")
  kessel.setup{ map = { columns = 12, rows = 4, links = { { kind = "railway", path = { "1002", "1003", "1004" } } },
      areas = { Z = { "0804" } } },
    units = { { id = "r", side = "soviet", type = "rifle", hidden = true, pool = "rifle" } },
    step = "soviet_movement", turn = 11, pools = { rifle = { "3-3-6" } } }
  expect.accepted(kessel.act{ kind = "swf_call", hex = "1004" })
end)

-- Rule 15: the victory levels on German minus Soviet VP, at each boundary.
kessel.test("case_15_victory_level_boundaries", function()
  local cases = { { 0, "Soviet Decisive" }, { 1, "Soviet Strategic" }, { 25, "Soviet Strategic" },
    { 26, "Soviet Marginal" }, { 49, "Soviet Marginal" }, { 50, "German Marginal" }, { 79, "German Marginal" },
    { 80, "German Strategic" }, { 124, "German Strategic" }, { 125, "German Decisive" } }
  for _, c in ipairs(cases) do
    kessel.setup{ map = { columns = 8, rows = 8 }, step = "german_combat", turn = 7,
      units = { { id = "a", side = "german", type = "infantry", formation = "a", faces = { "9-9-7" }, at = "0403" } },
      vars = { objectives = { { name = "Town", vp = c[1], hexes = { "0403" } } } } }
    local r = V.score()
    expect.eq(r.difference, c[1])
    expect.eq(r.level, c[2], "difference " .. c[1])
  end
end)

-- WBC 2009 ---------------------------------------------------------------------------------------

-- Two Soviet stacks of two in 0403 and 0404 attacked together by a German unit in 0304; lakes
-- leave 0403 the exits 0402 and 0504 (unless `closed`), and 0404 only 0504.
local function two_stacks(options, closed)
  local sides = { { "0403", "0503", "lake" }, { "0403", "0404", "lake" }, { "0404", "0405", "lake" }, { "0404", "0505", "lake" } }
  if closed then sides[#sides + 1] = { "0403", "0402", "lake" } end
  board({ pz("g", "0304", "9-9-10"), rifle("a1", "0403"), rifle("a2", "0403"), rifle("b1", "0404"), rifle("b2", "0404") },
    { options = options, map = { columns = 8, rows = 8, hexsides = sides } })
  kessel.inject_dice{ 2 } -- 9 against 4: 2-1, roll 2: D1
  expect.accepted(attack({ "g" }, { "0403", "0404" }))
  expect.accepted(choose("retreat"))
  expect.eq(kessel.game.var("pending").kind, "retreat_path")
end

-- WBC09 #1 (simultaneity note, option wbc09_01c_simultaneous_retreats): the retreats of one combat
-- are simultaneous, so the opponent may not retreat one stack so as to cut off another stack of the
-- same combat that had a way out. Standard: he may.
kessel.test("case_wbc09_01c_simultaneous_retreats", function()
  for _, wbc in ipairs{ false, true } do
    two_stacks{ wbc09_01c_simultaneous_retreats = wbc }
    local ok, r = retreat({ "a1", "a2" }, { "0504" })
    if wbc then
      expect.refused(ok, r, "WBC09 #1", "simultaneous")
      expect.accepted(retreat({ "a1", "a2" }, { "0402" }))
      expect.accepted(retreat({ "b1", "b2" }, { "0504" }))
      expect.eq(kessel.units.get("b1").location, "map")
      expect.eq(kessel.units.get("b2").location, "map", "nobody cut off")
    else
      expect.accepted(ok, r)
      expect.accepted(retreat({ "b1", "b2" }, { "0504" }))
      local p = kessel.game.var("pending")
      expect.eq(p.kind, "retreat_excess", "the owner names the unit over the limit [7]")
      expect.eq(p.side, "soviet")
      local events = expect.accepted(kessel.act{ kind = "eliminate_excess", unit = "b2" })
      expect.eq(kessel.units.get("b2").location, "eliminated", "standard: the fourth unit dies for overstacking")
      expect.truthy(note(events, "over-full hex"))
    end
  end
end)

-- WBC09 #1 (simultaneity note): when not every unit of the combat can get out, the note does not
-- apply; the opponent still has a legal retreat to pick (no dead end), and the excess dies.
kessel.test("case_wbc09_01c_not_all_can_be_saved", function()
  two_stacks({ wbc09_01c_simultaneous_retreats = true }, true)
  local offered = 0
  for _, a in ipairs(kessel.legal("german")) do if a.kind == "retreat" then offered = offered + 1 end end
  expect.truthy(offered > 0, "a retreat is offered")
  expect.accepted(retreat({ "a1", "a2" }, { "0504" }))
  expect.accepted(retreat({ "b1", "b2" }, { "0504" }))
  expect.accepted(kessel.act{ kind = "eliminate_excess", unit = "b2" })
  expect.eq(#kessel.units.at("0504"), 3)
  expect.eq(kessel.units.get("b2").location, "eliminated")
end)

-- WBC09 #1 (simultaneity note): a retreat in an earlier combat MAY cut off units that a later
-- combat then forces to retreat.
kessel.test("case_wbc09_01c_prior_combat_may_cut_off", function()
  board({ pz("g", "0303", "9-9-10"), pz("h", "0305", "3-3-10"), rifle("a1", "0403"), rifle("a2", "0403"), rifle("a3", "0403"),
    rifle("t", "0404") }, { options = { wbc09_01c_simultaneous_retreats = true }, map = { columns = 8, rows = 8,
      hexsides = { { "0403", "0402", "lake" }, { "0403", "0503", "lake" }, { "0403", "0404", "lake" },
        { "0404", "0405", "lake" }, { "0404", "0505", "lake" } } } })
  kessel.inject_dice{ 3 } -- 9 against 3: 3-1, roll 3: D1
  expect.accepted(attack({ "g" }, { "0403" }))
  expect.accepted(choose("retreat"))
  expect.accepted(retreat({ "a1", "a2", "a3" }, { "0504" }), "fills t's only way out: allowed")
  expect.accepted(kessel.act{ kind = "advance", skip = true })
  kessel.inject_dice{ 3 } -- 3 against 1: 3-1, roll 3: D1
  expect.accepted(attack({ "h" }, { "0404" }))
  expect.accepted(choose("retreat"))
  expect.accepted(retreat({ "t" }, { "0504" }))
  expect.eq(kessel.units.get("t").location, "eliminated")
end)

-- WBC09 #4: a unit retreated (by an overrun) onto a disrupted unit adds nothing when that stack is
-- overrun later in the phase, and dies with any adverse result; in the following Combat Phase the
-- units defend normally together.
kessel.test("case_wbc09_04_later_overrun_and_next_combat_phase", function()
  local LAKES = { { "0403", "0503", "lake" }, { "0403", "0504", "lake" } }
  local function start(wbc)
    board({ pz("a", "0303", "7-7-10"), pz("b", "0305", "4-4-10"), rifle("s", "0403", "1-1-6"), rifle("f", "0404", "1-1-6") },
      { step = "german_movement", options = { wbc09_04_overrun_stack_defends_with_first = wbc },
        map = { columns = 8, rows = 8, hexsides = LAKES } })
    kessel.inject_dice{ 3 } -- 7/2 = 3 against 1: 3-1, roll 3: D1
    expect.accepted(kessel.act{ kind = "overrun", units = { "a" }, target = "0403" })
    expect.accepted(choose("retreat"))
    expect.accepted(retreat({ "s" }, { "0404" }))
  end
  start(true)
  kessel.inject_dice{ 2 } -- 4/2 = 2 against f's 1 only: 2-1, roll 2: D1
  local events = expect.accepted(kessel.act{ kind = "overrun", units = { "b" }, target = "0404" })
  expect.truthy(note(events, "attack 2 against defence 1 in 0404"))
  expect.accepted(choose("loss"))
  expect.eq(kessel.units.get("s").location, "eliminated", "the retreated unit dies")
  expect.eq(kessel.units.get("f").location, "map")
  -- standard reading: the retreated unit defends with the stack (2 against 2: 1-1)
  start(false)
  kessel.inject_dice{ 2 }
  events = expect.accepted(kessel.act{ kind = "overrun", units = { "b" }, target = "0404" })
  expect.truthy(note(events, "attack 2 against defence 2 in 0404"))
  -- WBC09 #4, second part: after the Movement Phase the stack defends as one
  start(true)
  expect.truthy(kessel.units.get("s").flags.retreated_onto)
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.step().id, "german_combat")
  expect.falsy(kessel.units.get("s").flags.retreated_onto)
  expect.eq(K.defence_of({ "0404" }), 2, "both units defend")
end)

-- [12.4] -----------------------------------------------------------------------------------------

-- Rule 12.3 / 12.4: a revealed 0-0-6 is removed into its own pile; only real casualties return from
-- the dead pile as reinforcements [14.1] [14.2].
kessel.test("case_12_4_duds_not_recycled_as_reinforcements", function()
  local R = require("rules.reinforcements")
  board({ pz("g", "0303", "6-6-10"), { id = "d", name = "d", side = "soviet", type = "rifle", hidden = true, pool = "rifle", at = "0403" },
    rifle("k", nil, "3-3-6", { location = "eliminated" }) }, { pools = { rifle = { "0-0-6" } } })
  kessel.inject_dice{ 1 }
  expect.accepted(attack({ "g" }, { "0403" }))
  expect.eq(kessel.units.get("d").location, "eliminated")
  expect.eq(kessel.game.var("dud_pile")[1], "d")
  local ids = {}
  for _, u in ipairs(R.available_rifles()) do ids[#ids + 1] = u.id end
  expect.eq(table.concat(ids, ","), "k", "the killed division may return, the dud may not")
end)
