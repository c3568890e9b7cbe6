-- Movement [6], ZOC effects on movement [6.22] [8], terrain [6.7], supply and interdiction effects
-- on movement [11.3] [13.3], disruption [6.6], reinforcement entry [14.3].
local expect = kessel.expect

local function pz(id, at, extra)
  local u = { id = id, name = id, side = "german", type = "panzer", formation = "7 Pz", faces = { "4-4-10", "2-2-10" }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function inf(id, at, extra)
  local u = { id = id, name = id, side = "german", type = "infantry", formation = id, faces = { "9-9-7", "4-4-7" }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function rifle(id, at, extra)
  local u = { id = id, name = id, side = "soviet", type = "rifle", faces = { "3-3-6" }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function leader(id, at, rating)
  return { id = id, name = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" }, attrs = { rating = rating }, at = at }
end

local function board(units, extra)
  local spec = {
    map = {
      columns = 12, rows = 9,
      terrain = { ["0603"] = "forest", ["0604"] = "forest" },
      hexsides = { { "0806", "0906", "river" } },
      links = { { kind = "road", path = { "0507", "0607", "0707", "0807" } } },
      areas = { C = { "0101", "0102", "0103" } },
    },
    units = units, step = "german_movement", turn = 7,
  }
  for k, v in pairs(extra or {}) do spec[k] = v end
  kessel.setup(spec)
end

local function mv(ids, path, extra)
  local a = { kind = "move", units = type(ids) == "table" and ids or { ids }, path = path }
  for k, v in pairs(extra or {}) do a[k] = v end
  return kessel.act(a)
end

-- Rule 6.1
kessel.test("case_6_1_move_spends_mp_and_moves_in_legs", function()
  board{ pz("p", "0105") }
  local M = require("rules.movement")
  expect.accepted(mv("p", { "0205", "0305", "0405" }))
  expect.eq(kessel.units.get("p").hex, "0405")
  expect.eq(M.mp_left(kessel.units.get("p")), 7, "10 MA - 3 clear hexes")
  -- a second leg, then nothing left for a third
  expect.accepted(mv("p", { "1105" }))
  expect.eq(M.mp_left(kessel.units.get("p")), 0)
  local ok, r = mv("p", { "1106" })
  expect.refused(ok, r, "6.1", "no movement points left")
end)

-- Rule 6.1
kessel.test("case_6_1_cannot_exceed_ma", function()
  board{ inf("i", "0101") }
  local ok, r = mv("i", { "0109" })
  expect.refused(ok, r, "6.1", "needs 8 MP, i has 7 MP left")
  ok, r = mv("i", { "0102", "0103", "0104", "0105", "0106", "0107", "0108", "0109" })
  expect.refused(ok, r, "6.1", "needs 8 MP")
  -- a path of the stack's own hex alone goes nowhere and is refused; out and back is a move
  ok, r = mv("i", { "0101" })
  expect.refused(ok, r, "6.1", "must leave 0101")
  expect.eq(kessel.units.get("i").hex, "0101")
  expect.accepted(mv("i", { "0102", "0101" }))
  expect.eq(kessel.queries.ask("mp_left", { unit = "i" }).spent, 2)
end)

-- Rule 6.1
kessel.test("case_6_1_no_entry_into_enemy_units", function()
  board{ pz("p", "0505"), rifle("r", "0507") }
  local ok, r = mv("p", { "0506", "0507" })
  -- 0506 is in the rifle's ZOC: the stop comes first
  expect.refused(ok, r, "6.22", "movement ends at 0506")
  board{ pz("p", "0506"), rifle("r", "0507") }
  ok, r = mv("p", { "0507" })
  expect.refused(ok, r, "6.22", "may not leave")
end)

-- Rule 6.22
kessel.test("case_6_22_stop_on_entering_enemy_zoc", function()
  board({ pz("p", "0101", { name = "25 Pz" }), rifle("r", "0105", { name = "100 Rifle" }) }, { map = { columns = 2, rows = 9 } })
  expect.accepted(mv("p", { "0104" }))
  kessel.undo()
  local ok, r = mv("p", { "0106" })
  expect.refused(ok, r, "6.22", "cannot reach 0106: movement ends at 0104, in the zone of control of 100 Rifle at 0105")
  ok, r = mv("p", { "0102", "0103", "0104", "0105" })
  expect.refused(ok, r, "6.22", "cannot enter 0105: movement ends at 0104, in the zone of control of 100 Rifle at 0105")
  ok, r = mv("p", { "0106" })
  expect.refused(ok, r, "6.22", "cannot reach 0106: movement ends at 0104, in the zone of control of 100 Rifle at 0105")
end)

-- Rule 6.22
kessel.test("case_6_22_no_voluntary_exit_from_enemy_zoc", function()
  board{ pz("p", "0104"), rifle("r", "0105") }
  local ok, r = mv("p", { "0103" })
  expect.refused(ok, r, "6.22", "may not leave it voluntarily")
  -- a disrupted enemy has no ZOC [6.6]
  board{ pz("p", "0104"), rifle("r", "0105", { flags = { "disrupted" } }) }
  expect.accepted(mv("p", { "0103" }))
end)

-- Rule 6.7
kessel.test("case_6_7_terrain_costs_by_class", function()
  -- forest: infantry 1, motorized 2
  board{ inf("i", "0602"), pz("p", "0602") }
  local ok, ev = mv("i", { "0603", "0604" })
  expect.accepted(ok, ev)
  expect.eq(ev[1].cost, 2, "infantry pays 1 per forest hex")
  ok, ev = mv("p", { "0603" })
  expect.accepted(ok, ev)
  expect.eq(ev[1].cost, 2, "motorized pays 2 for forest")
end)

-- Rule 6.7
kessel.test("case_6_7_roads_and_rivers", function()
  board{ pz("p", "0507"), inf("i", "0508") }
  local ok, ev = mv("p", { "0607", "0707", "0807" })
  expect.accepted(ok, ev)
  expect.eq(ev[1].cost, 1.5, "motorized ½ MP a road hex")
  -- river: German +2
  board{ pz("p", "0806") }
  ok, ev = mv("p", { "0906" })
  expect.accepted(ok, ev)
  expect.eq(ev[1].cost, 3, "1 + 2 for the river")
  -- Soviets +1
  board({ rifle("r", "0806") }, { step = "soviet_movement" })
  ok, ev = mv("r", { "0906" })
  expect.accepted(ok, ev)
  expect.eq(ev[1].cost, 2, "1 + 1 for the river")
end)

-- Rule 6.4
kessel.test("case_6_4_soviet_columns_01_02_closed_turns_1_to_6", function()
  board({ rifle("r", "0305") }, { step = "soviet_movement", turn = 6 })
  local ok, r = mv("r", { "0205" })
  expect.refused(ok, r, "6.4", "columns 01-02")
  board({ rifle("r", "0305") }, { step = "soviet_movement", turn = 7 })
  expect.accepted(mv("r", { "0205" }))
end)

-- Rule 6.22: the leader's escort into an enemy ZOC
kessel.test("case_6_22_leader_enters_enemy_zoc_only_with_attack_capable_unit", function()
  board({ leader("l", "0101", 3), rifle("r", "0101"), pz("p", "0105") }, { step = "soviet_movement" })
  local ok, r = mv("l", { "0104" })
  expect.refused(ok, r, "6.22", "attack-capable")
  expect.accepted(mv({ "l", "r" }, { "0104" }))
  -- a known 0-attack unit does not escort
  board({ leader("l", "0101", 3), rifle("r", "0101", { faces = { "0-1-6" } }), pz("p", "0105") }, { step = "soviet_movement" })
  ok, r = mv({ "l", "r" }, { "0104" })
  expect.refused(ok, r, "6.22", "attack-capable")
end)

-- Rule 6.6
kessel.test("case_6_6_disrupted_units_cannot_move", function()
  board{ pz("p", "0105", { flags = { "disrupted" } }) }
  local ok, r = mv("p", { "0106" })
  expect.refused(ok, r, "6.6", "disrupted")
end)

-- Rule 6.6
kessel.test("case_6_6_disruption_removed_in_owners_removal_phase", function()
  board({ pz("p", "0105", { flags = { "disrupted" } }), rifle("r", "0808", { flags = { "disrupted" } }) }, { step = "soviet_combat" })
  local events = expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.step().id, "soviet_disruption_removal")
  -- the log says whose disruption went, and where (ninth tester pass)
  local said = false
  for _, e in ipairs(events) do
    if e.text and e.rule == "6.6" and e.text:find("disruption removed", 1, true) and e.text:find("r at 0808", 1, true)
      and not e.text:find("p at", 1, true) then said = true end
  end
  expect.truthy(said, "a 6.6 note names r at 0808 and not p")
  expect.falsy(kessel.units.get("r").flags.disrupted, "Soviet disruption removed")
  expect.truthy(kessel.units.get("p").flags.disrupted, "German disruption stays until the German phase")
end)

-- Rule 4
kessel.test("case_4_mechanized_phase_only_mech_units", function()
  board({ pz("p", "0105"), inf("i", "0305") }, { step = "german_mech_movement" })
  local ok, r = mv("i", { "0306" })
  expect.refused(ok, r, "4", "not a mechanized unit")
  expect.accepted(mv("p", { "0106" }))
end)

-- Rule 4
kessel.test("case_4_only_phasing_side_moves", function()
  board{ rifle("r", "0808") }
  local ok, r = mv("r", { "0809" })
  expect.refused(ok, r, "4", "not the phasing player's unit")
  board({ pz("p", "0105") }, { step = "german_combat" })
  ok, r = mv("p", { "0106" })
  expect.refused(ok, r, "4", "Movement Phase")
end)

-- Rule 6.1: MP are fresh each Movement Phase
kessel.test("case_6_1_mp_reset_each_movement_phase", function()
  board({ pz("p", "0105", { vars = { mp_spent = 20 } }) }, { step = "german_combat" })
  local M = require("rules.movement")
  expect.eq(M.mp_left(kessel.units.get("p")), 0)
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.step().id, "german_mech_movement")
  expect.eq(M.mp_left(kessel.units.get("p")), 10)
end)

-- Rule 11.3
kessel.test("case_11_3_out_of_supply_halves_ma", function()
  board{ inf("i", "0105", { flags = { "oos" } }) }
  local M = require("rules.movement")
  expect.eq(M.ma(kessel.units.get("i")), 3, "7 halved, rounded down")
  local ok, r = mv("i", { "0505" })
  expect.refused(ok, r, "6.1", "needs 4 MP, i has 3 MP left")
end)

-- Rule 13.3
kessel.test("case_13_3_interdiction_marker_costs_one_more_mp", function()
  board({ pz("p", "0105") }, { markers = { { kind = "soviet_interdiction", side = "soviet", at = "0106" } } })
  local ok, ev = mv("p", { "0106" })
  expect.accepted(ok, ev)
  expect.eq(ev[1].cost, 2)
  -- own side's marker costs nothing
  board({ pz("p", "0105") }, { markers = { { kind = "air_interdiction", side = "german", at = "0106" } } })
  ok, ev = mv("p", { "0106" })
  expect.eq(ev[1].cost, 1)
end)

-- Rule 13.3 with 14.3: a reinforcement entering onto an enemy marker pays the +1 MP too
kessel.test("case_13_3_interdiction_marker_on_the_entry_hex", function()
  local M = require("rules.movement")
  local p = pz("p", nil, { enter = { turn = 3, area = "C" } })
  board({ p }, { turn = 3 })
  expect.accepted(mv("p", { "0102", "0202" }))
  expect.eq(M.mp_left(kessel.units.get("p")), 8, "1 to enter + 1")
  board({ p }, { turn = 3, markers = { { kind = "soviet_interdiction", side = "soviet", at = "0102" } } })
  expect.accepted(mv("p", { "0102", "0202" }))
  expect.eq(M.mp_left(kessel.units.get("p")), 7, "1 to enter + 1 for the marker + 1")
  -- the Soviet pays for a German marker on his entry hex
  local r = rifle("r", nil, { enter = { turn = 3, area = "C" } })
  board({ r }, { turn = 8, step = "soviet_movement", markers = { { kind = "air_interdiction", side = "german", at = "0103" } } })
  expect.accepted(mv("r", { "0103" }))
  expect.eq(M.mp_left(kessel.units.get("r")), 4, "6 - 1 - 1")
end)

-- Rule 6.1: a stack of two classes moves together, each paying its own costs
kessel.test("case_6_1_stack_moves_together", function()
  board{ pz("p", "0602"), inf("i", "0602") }
  local M = require("rules.movement")
  local ok, ev = mv({ "p", "i" }, { "0603", "0604" })
  expect.accepted(ok, ev)
  expect.eq(kessel.units.get("p").hex, "0604")
  expect.eq(kessel.units.get("i").hex, "0604")
  expect.eq(M.mp_left(kessel.units.get("p")), 6)
  expect.eq(M.mp_left(kessel.units.get("i")), 5)
  local ok2, r = mv({ "p", "i" }, { "0605" })
  expect.accepted(ok2, r)
  -- units not together can't move as a stack
  board{ pz("p", "0602"), inf("i", "0702") }
  ok, r = mv({ "p", "i" }, { "0603" })
  expect.refused(ok, r, "6.1", "with the rest of the stack")
end)

-- Rule 6.1: only units on the map move (reinforcements enter [14.3]). A move of an eliminated or
-- removed unit is refused saying where the unit is; it said "is not in nil with the rest of the
-- stack".
kessel.test("case_6_1_a_unit_off_the_map_does_not_move", function()
  board{ pz("p", "0602"), pz("dead", nil, { location = "eliminated" }), pz("gone", nil, { location = "removed" }) }
  for _, ids in ipairs{ { "dead" }, { "gone" }, { "p", "dead" }, { "dead", "p" } } do
    local off = ids[1] == "p" and ids[2] or ids[1]
    local ok, r = mv(ids, { "0603" })
    expect.refused(ok, r, "6.1", "is not on the map")
    expect.truthy(r[1].message:find(off, 1, true), r[1].message)
    expect.falsy(r[1].message:find("nil", 1, true), r[1].message)
  end
  local ok, r = mv({ "dead" }, { "0603" })
  expect.refused(ok, r, "6.1", "(eliminated)")
  ok, r = mv({ "gone" }, { "0603" })
  expect.refused(ok, r, "6.1", "(removed from play)")
end)

-- Rule 6.1: the field contract (used by overrun.lua)
kessel.test("case_6_1_field_contract", function()
  board({ pz("p", "0101"), rifle("r", "0105") }, { map = { columns = 2, rows = 9 } })
  local M = require("rules.movement")
  local f = M.field({ "p" })
  expect.eq(f:cost("0104"), 3)
  expect.truthy(f:stops("0104"))
  expect.eq(f:cost("0106"), nil)
  expect.eq(f:why_not("0106").rule, "6.22")
end)

-- Rule 4: a pending decision blocks movement
kessel.test("case_4_pending_decision_blocks_moves", function()
  board({ pz("p", "0101") }, { vars = { pending = { kind = "retreat", side = "soviet", prompt = "retreat 2 hexes", rule = "9.7" } } })
  local ok, r = mv("p", { "0102" })
  expect.refused(ok, r, "9.7", "retreat 2 hexes")
end)

-- Rule 14.3
kessel.test("case_14_3_reinforcements_enter_on_or_after_their_turn", function()
  local p = pz("p", nil, { enter = { turn = 2, area = "C" } })
  board({ p }, { turn = 1 })
  local ok, r = mv("p", { "0102", "0202" })
  expect.refused(ok, r, "14.3", "not earlier")
  board({ p }, { turn = 3 })
  ok, r = mv("p", { "0105" })
  expect.refused(ok, r, "14.3", "not in entry area C")
  local ok2, ev = mv("p", { "0102", "0202", "0302" })
  expect.accepted(ok2, ev)
  expect.eq(kessel.units.get("p").hex, "0302")
  local M = require("rules.movement")
  expect.eq(M.mp_left(kessel.units.get("p")), 7, "1 to enter + 2")
  expect.eq(kessel.units.get("p").vars.entered_turn, 3)
  board({ p }, { turn = 12 })
  ok, r = mv("p", { "0102" })
  expect.refused(ok, r, "14.3", "turn 12")
  board({ p }, { turn = 3, step = "german_mech_movement" })
  ok, r = mv("p", { "0102" })
  expect.refused(ok, r, "14.3", "Movement Phase")
end)

-- Rule 6.1: enumeration offers moves that validate
kessel.test("case_6_1_enumerated_moves_are_legal", function()
  board({ pz("p", "0505"), inf("i", "0505"), rifle("r", "0509"), pz("q", nil, { enter = { turn = 7, area = "C" } }) })
  local moves = {}
  for _, a in ipairs(kessel.legal("german")) do if a.kind == "move" then moves[#moves + 1] = a end end
  expect.truthy(#moves > 20, "many destinations")
  local entries = 0
  for i, a in ipairs(moves) do
    if a.units[1] == "q" then entries = entries + 1 end
    if i % 7 == 0 or a.units[1] == "q" then
      local ok, r = kessel.validate(a)
      expect.accepted(ok, r)
    end
  end
  expect.eq(entries, 3, "one entry per hex of area C")
end)

-- [6.4] ------------------------------------------------------------------------------------------
do
  local B = require("testing.board8")
  local expect, K, Z, S, L, M, V, pz, rifle, leader, board, attack, choose, retreat, mv, note, end_phases =
    B.expect, B.K, B.Z, B.S, B.L, B.M, B.V, B.pz, B.rifle, B.leader, B.board, B.attack, B.choose, B.retreat, B.mv, B.note, B.end_phases

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
end


-- [6.7] Terrain effects chart --------------------------------------------------------------------
do
  local B = require("testing.board8")
  local expect, K, Z, S, L, M, V, pz, rifle, leader, board, attack, choose, retreat, mv, note, end_phases =
    B.expect, B.K, B.Z, B.S, B.L, B.M, B.V, B.pz, B.rifle, B.leader, B.board, B.attack, B.choose, B.retreat, B.mv, B.note, B.end_phases

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
end

-- The computer player's compact listing (ai/narrowing.lua): one record per group whose entries,
-- made into actions by M.expand, are the full list's moves in the same order.
kessel.test("case_6_1_compact_moves_expand_to_the_full_list", function()
  board{ pz("p", "0506"), pz("q", "0506"), inf("i", "0506"), rifle("r", "0909") }
  local M = require("rules.movement")
  local C = require("rules.common")
  local base = M.side_base("german", true)
  local full = M.stack_moves("0506", base)
  local records = M.stack_moves("0506", base, nil, true)
  local made = {}
  for _, rec in ipairs(records) do
    expect.truthy(rec.dests, "a compact record lists its destinations")
    for i = 1, #rec.dests do made[#made + 1] = M.expand(rec, i) end
  end
  -- the whole stack and each unit alone
  expect.eq(#records, 4)
  expect.truthy(#full > 10, "the stack has somewhere to go")
  expect.eq(#made, #full)
  for i, a in ipairs(full) do
    expect.truthy(C.same_action(a, made[i]), "entry " .. i .. " is the full list's move")
  end
  -- a step the direct way cannot take is listed by its path, in both forms
  local any_long = false
  for _, a in ipairs(full) do if #a.path > 1 then any_long = true end end
  local kept_path = false
  for _, rec in ipairs(records) do
    for i = 1, #rec.dests do if rec.paths[i] ~= true then kept_path = true end end
  end
  expect.eq(kept_path, any_long)
end)
