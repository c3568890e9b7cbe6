-- Rule tests for combat [9.1]-[9.6] (rules/combat.lua). Small inline maps, injected dice.
-- Geometry used below (8x8 map): 0303's neighbours are 0302 0402 0403 0304 0203 0202;
-- 0403's are 0402 0503 0504 0404 0304 0303; 0304 touches both 0403 and 0404.

local expect = kessel.expect
local K = require("rules.combat")
-- these tests add a variant's modifiers and flags in play, each taking its own back after
K.declarations_in_play = true

local function pz(id, at, face, extra)
  local u = { id = id, side = "german", type = "panzer", formation = "F" .. id, faces = face and { face, "1-1-10" } or { "4-4-10", "2-2-10" }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function inf(id, at) -- German infantry division, four steps
  return { id = id, side = "german", type = "infantry", formation = id, faces = { "9-9-7", "4-4-7", "2-2-7", "1-1-7" }, at = at }
end
local function rifle(id, at, face, extra)
  local u = { id = id, side = "soviet", type = "rifle", faces = { face or "2-2-6" }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function leader(id, at, rating)
  return { id = id, side = "soviet", type = "leader", faces = { "0-" .. rating .. "-10" }, attrs = { rating = rating }, at = at }
end

-- A Soviet leader near the east edge keeps Soviet units in supply [11.2] unless `bare` is set.
local function setup(units, extra)
  extra = extra or {}
  local list = { table.unpack(units) }
  if not extra.bare then list[#list + 1] = leader("sup", "0706", 5) end
  local spec = { map = { columns = 8, rows = 8 }, units = list, step = "german_combat", turn = 7 }
  for k, v in pairs(extra) do if k ~= "bare" then spec[k] = v end end
  kessel.setup(spec)
end

local function attack(units, targets)
  return kessel.act{ kind = "attack", units = units, targets = targets }
end

local function find_note(events, text)
  for _, e in ipairs(events) do
    if e.text and string.find(e.text, text, 1, true) then return e end
  end
  return nil
end

-- Rule 9.1: attacks only in the phasing player's Combat Phase.
kessel.test("case_9_1_attack_only_in_combat_phase", function()
  setup({ pz("g", "0303"), rifle("s", "0403") }, { step = "german_movement" })
  local ok, r = attack({ "g" }, { "0403" })
  expect.refused(ok, r, "9.1", "Combat Phase")
end)

-- Rule 9.1: only the phasing side's units attack, and only adjacent hexes holding enemy units.
kessel.test("case_9_1_attacker_must_be_phasing_and_adjacent", function()
  setup{ pz("g", "0303"), rifle("s", "0403"), rifle("s2", "0606") }
  local ok, r = attack({ "s" }, { "0303" })
  expect.refused(ok, r, "9.1", "phasing player")
  -- the German panzer in 0303 is the Soviet rifle's enemy: the reason names whose enemy is meant
  expect.refused(ok, r, "9.1", "0303 holds no Soviet unit for the German to attack")
  ok, r = attack({ "g" }, { "0606" })
  expect.refused(ok, r, "9.1", "not next to 0606")
  ok, r = attack({ "g" }, { "0302" })
  expect.refused(ok, r, "9.1", "0302 holds no Soviet unit for the German to attack")
end)

-- Rule 9.1: each unit attacks at most once a phase; each unit is attacked at most once a phase.
kessel.test("case_9_1_attack_once_and_attacked_once_per_phase", function()
  setup{ pz("g", "0303", "9-9-10"), pz("h", "0304", "9-9-10"), rifle("s", "0403", "8-7-6"), rifle("s2", "0403", "1-1-6") }
  kessel.inject_dice{ 4 } -- 9 against 8: 1-1, roll 4: Eng (one Soviet unit survives)
  expect.accepted(attack({ "g" }, { "0403" }))
  expect.accepted(kessel.act{ kind = "choose", units = { "s2" } }) -- the Soviet names his Eng loss [9.6]
  local ok, r = attack({ "g" }, { "0403" })
  expect.refused(ok, r, "9.1", "already attacked this phase")
  ok, r = attack({ "h" }, { "0403" })
  expect.refused(ok, r, "9.1", "s in 0403 has already been attacked this phase")
  -- the marks go with the phase
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.falsy(kessel.units.get("g").flags.attacked, "attacked flag cleared at the end of the step")
end)

-- Rule 9.1 / 6.6: disrupted units cannot attack.
kessel.test("case_6_6_disrupted_units_cannot_attack", function()
  setup{ pz("g", "0303", nil, { flags = { "disrupted" } }), rifle("s", "0403") }
  local ok, r = attack({ "g" }, { "0403" })
  expect.refused(ok, r, "6.6", "disrupted")
end)

-- Rule 10.35: a Soviet combat unit attacks only within a working leader's command radius.
kessel.test("case_10_35_soviet_attack_needs_leader_radius", function()
  setup({ rifle("s", "0403", "4-4-6"), pz("g", "0303") }, { step = "soviet_combat", bare = true })
  local ok, r = attack({ "s" }, { "0303" })
  expect.refused(ok, r, "10.35", "command radius")
  setup({ rifle("s", "0403", "4-4-6"), leader("l", "0603", 2), pz("g", "0303") }, { step = "soviet_combat", bare = true })
  kessel.inject_dice{ 4 }
  expect.accepted(attack({ "s" }, { "0303" }))
  -- a disrupted leader commands nobody [6.6]
  kessel.setup{ map = { columns = 8, rows = 8 }, step = "soviet_combat", turn = 7, units = {
    rifle("s", "0403", "4-4-6"), pz("g", "0303"),
    { id = "l", side = "soviet", type = "leader", faces = { "0-2-10" }, attrs = { rating = 2 }, at = "0603", flags = { "disrupted" } } } }
  ok, r = attack({ "s" }, { "0303" })
  expect.refused(ok, r, "10.35")
end)

-- Rule 12.3: a 0-1-6 may only defend; an attack including one is refused.
kessel.test("case_12_3_zero_attack_unit_only_defends", function()
  setup({ rifle("s", "0403", "0-1-6"), rifle("t", "0404", "3-3-6"), leader("l", "0403", 3), pz("g", "0304") }, { step = "soviet_combat" })
  local ok, r = attack({ "s", "t" }, { "0304" })
  expect.refused(ok, r, "12.3", "may only defend")
end)

-- Rule 9.23: several defending hexes in one combat, defence summed; every attacker next to each.
kessel.test("case_9_23_multi_hex_attack", function()
  setup{ pz("g", "0304", "8-8-10"), pz("h", "0303", "4-4-10"), rifle("a", "0403", "2-2-6"), rifle("b", "0404", "2-2-6") }
  local ok, r = attack({ "g", "h" }, { "0403", "0404" })
  expect.refused(ok, r, "9.23", "every attacker must be next to every defending hex")
  kessel.inject_dice{ 6 } -- 8 against 2+2 = 2-1, roll 6: A1
  local events = expect.accepted(attack({ "g" }, { "0403", "0404" }))
  expect.truthy(find_note(events, "attack 8 against defence 4 in 0403+0404: odds 2-1, roll 6: A1"))
  expect.eq(kessel.game.var("pending").kind, "loss_or_retreat")
  expect.eq(kessel.game.var("pending").side, "german")
end)

-- Rule 9.3: no attack across a lake hexside.
kessel.test("case_9_3_no_attack_across_lake_hexside", function()
  setup({ pz("g", "0303"), rifle("s", "0403") }, { map = { columns = 8, rows = 8, hexsides = { { "0303", "0403", "lake" } } } })
  local ok, r = attack({ "g" }, { "0403" })
  expect.refused(ok, r, "9.3", "lake hexside")
end)

-- Rule 9.3: forest and major city double, solely across a river doubles, and they add (×3).
kessel.test("case_9_3_terrain_multipliers_add", function()
  setup({ pz("g", "0303"), pz("h", "0304"), rifle("s", "0403", "2-3-6") }, { map = { columns = 8, rows = 8,
    terrain = { ["0403"] = "forest" },
    hexsides = { { "0303", "0403", "river" }, { "0304", "0403", "river" } } } })
  expect.eq(K.defence_of({ "0403" }, { attacker_hexes = { "0303", "0304" } }), 9, "forest + river: 3 × 3")
  expect.eq(K.defence_of({ "0403" }, { attacker_hexes = { "0303" } }), 9, "one attacker, across the river")
  -- not solely across the river: one attacking hex is not across it
  setup({ pz("g", "0303"), pz("h", "0304"), rifle("s", "0403", "2-3-6") }, { map = { columns = 8, rows = 8,
    terrain = { ["0403"] = "forest" }, hexsides = { { "0303", "0403", "river" } } } })
  expect.eq(K.defence_of({ "0403" }, { attacker_hexes = { "0303", "0304" } }), 6, "forest only")
  setup({ pz("g", "0303"), rifle("s", "0403", "2-3-6") }, { map = { columns = 8, rows = 8,
    places = { { name = "Orsha", kind = "major_city", hexes = { "0403" } } } } })
  expect.eq(K.defence_of({ "0403" }, { attacker_hexes = { "0303" } }), 6, "major city doubles")
  kessel.inject_dice{ 3 }
  local events = expect.accepted(attack({ "g" }, { "0403" }))
  expect.truthy(find_note(events, "major city (Orsha) doubles the defender"))
end)

-- Rule 11.3: out of supply halves (fractions dropped, never below 1); option supply_halving_order.
kessel.test("case_11_3_out_of_supply_halving_and_order", function()
  setup({ pz("g", "0303", "5-5-10"), rifle("s", "0403", "3-3-6"), rifle("t", "0503", "1-1-6") },
    { map = { columns = 8, rows = 8, terrain = { ["0403"] = "forest" } } })
  local oos = { in_supply = function() return false end }
  expect.eq(K.attack_strength(kessel.units.get("g"), oos), 2, "5 halved, fraction dropped")
  expect.eq(K.attack_strength(kessel.units.get("t"), oos), 1, "never below 1")
  -- defence 3 in forest out of supply: supply first 3→1 ×2 = 2; terrain first 6 → 3
  expect.eq(K.defence_of({ "0403" }, { in_supply = oos.in_supply }), 2, "supply_then_terrain")
  kessel.setup{ map = { columns = 8, rows = 8, terrain = { ["0403"] = "forest" } }, step = "german_combat",
    units = { pz("g", "0303", "5-5-10"), rifle("s", "0403", "3-3-6") }, options = { supply_halving_order = "terrain_then_supply" } }
  expect.eq(K.defence_of({ "0403" }, { in_supply = oos.in_supply }), 3, "terrain_then_supply")
end)

-- Rule 9.4 / 9.5: odds rounded in the defender's favour; above 10-1 is 10-1, below 1-3 is 1-3.
kessel.test("case_9_4_odds_rounding_and_caps", function()
  setup{ pz("g", "0303", "5-5-10"), rifle("s", "0403", "2-2-6") }
  expect.eq(kessel.tables.odds("crt", 5, 2).label, "2-1", "2.5-1 rounds down to 2-1")
  expect.eq(kessel.tables.odds("crt", 40, 2).label, "10-1")
  expect.eq(kessel.tables.odds("crt", 1, 9).label, "1-3")
  kessel.inject_dice{ 5 } -- 5 vs 2: 2-1, roll 5 = Eng
  local events = expect.accepted(attack({ "g" }, { "0403" }))
  expect.truthy(find_note(events, "odds 2-1, roll 5: Eng"))
end)

-- Rule 9.5: the die-roll-2 row follows option crt_row2 (printed: 6-1 De/A1; transcribed: 6-1 D2).
kessel.test("case_9_5_crt_row2_option", function()
  setup{ pz("g", "0303", "6-6-10"), rifle("s", "0403", "1-1-6") }
  kessel.inject_dice{ 2 }
  local events = expect.accepted(attack({ "g" }, { "0403" }))
  expect.truthy(find_note(events, "odds 6-1, roll 2: De/A1"), "printed row")
  setup({ pz("g", "0303", "6-6-10"), rifle("s", "0403", "1-1-6") }, { options = { crt_row2 = "transcribed" } })
  kessel.inject_dice{ 2 }
  events = expect.accepted(attack({ "g" }, { "0403" }))
  expect.truthy(find_note(events, "odds 6-1, roll 2: D2"), "transcribed row")
end)

-- Rule 9.6: De eliminates every defender; Soviet dead go to the dead pile [12.4].
kessel.test("case_9_6_De_eliminates_defenders", function()
  setup{ inf("g", "0303"), rifle("s", "0403", "1-1-6") }
  kessel.inject_dice{ 1 } -- 9-1, roll 1: De
  expect.accepted(attack({ "g" }, { "0403" }))
  expect.eq(kessel.units.get("s").location, "eliminated")
  expect.eq(kessel.game.var("dead_pile")[1], "s")
  expect.eq(kessel.game.var("pending").kind, "advance", "the victor may advance")
end)

-- Rule 9.6: a loss result taken as steps: German two-step units flip, infantry steps down.
kessel.test("case_9_6_step_losses_flip_and_step_down", function()
  setup({ rifle("s", "0403", "8-8-6"), leader("l", "0403", 3), inf("g", "0303") }, { step = "soviet_combat" })
  kessel.inject_dice{ 6 } -- 8+3 = 11 vs 9: 1-1, roll 6: A2 (attacker)
  expect.accepted(attack({ "s", "l" }, { "0303" }))
  kessel.undo()
  kessel.inject_dice{ 1 } -- 1-1 roll 1: D1 on the German infantry division
  expect.accepted(attack({ "s", "l" }, { "0303" }))
  local p = kessel.game.var("pending")
  expect.eq(p.kind, "loss_or_retreat")
  expect.eq(p.side, "german", "the owner decides")
  local ok, r = kessel.act{ kind = "end_phase" }
  expect.refused(ok, r, "9.6", "decision is waiting")
  expect.accepted(kessel.act{ kind = "choose", choice = "loss" })
  local g = kessel.units.get("g")
  expect.eq(g.defence, 4, "9-9-7 steps down to 4-4-7")
  expect.eq(g.steps_left, 3)
  expect.eq(kessel.game.var("pending"), nil)
end)

-- Rule 9.6: Eng — each side loses one step, no retreat, no advance.
kessel.test("case_9_6_engaged_both_lose_a_step", function()
  setup{ pz("g", "0303", "4-4-10"), rifle("s", "0403", "4-4-6") }
  kessel.inject_dice{ 4 } -- 1-1 roll 4: Eng
  expect.accepted(attack({ "g" }, { "0403" }))
  expect.eq(kessel.units.get("g").step, 1, "German flipped")
  expect.eq(kessel.units.get("s").location, "eliminated", "Soviet one-step unit gone")
  expect.eq(kessel.game.var("pending"), nil, "no advance after Eng")
end)

-- Rule 9.6: split result — defender first; an attacker who takes the step may advance.
kessel.test("case_9_6_split_defender_first_then_attacker", function()
  setup{ pz("g", "0303", "6-6-10"), rifle("s", "0403", "2-2-6") }
  kessel.inject_dice{ 4 } -- 3-1 roll 4: D1/A1
  expect.accepted(attack({ "g" }, { "0403" }))
  local p = kessel.game.var("pending")
  expect.eq(p.side, "soviet", "defender decides first")
  expect.accepted(kessel.act{ kind = "choose", choice = "loss" })
  p = kessel.game.var("pending")
  expect.eq(p.side, "german", "then the attacker")
  expect.eq(p.who, "attacker")
  expect.accepted(kessel.act{ kind = "choose", choice = "loss" })
  p = kessel.game.var("pending")
  expect.eq(p.kind, "advance", "a step taken: the attacker may advance")
  expect.accepted(kessel.act{ kind = "advance", units = { "g" }, path = { "0403" } })
  expect.eq(kessel.units.get("g").hex, "0403")
  expect.truthy(kessel.units.get("g").flags.advanced)
end)

-- Rule 9.6: split result — an attacker who retreats may not advance; the defender then may.
kessel.test("case_9_6_split_attacker_retreat_no_advance", function()
  setup{ pz("g", "0303", "6-6-10"), rifle("s", "0403", "2-2-6"), rifle("t", "0404", "3-3-6") }
  kessel.inject_dice{ 4 }
  expect.accepted(attack({ "g" }, { "0403" }))
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  expect.eq(kessel.game.var("pending").kind, "retreat_path")
  expect.eq(kessel.game.var("pending").side, "german", "the opponent picks the path")
  expect.accepted(kessel.act{ kind = "retreat", units = { "s" }, path = { "0503" } })
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  expect.eq(kessel.game.var("pending").side, "soviet")
  expect.accepted(kessel.act{ kind = "retreat", units = { "g" }, path = { "0202" } })
  local p = kessel.game.var("pending")
  expect.truthy(p == nil or p.side ~= "german", "the retreating attacker does not advance")
end)

-- Rule 10.36: a leader adds up to its rating, capped at the strength of its hex's attacking units;
-- leaders have no attack of their own.
kessel.test("case_10_36_leader_bonus_capped", function()
  setup({ rifle("s", "0403", "2-2-6"), leader("l", "0403", 5), pz("g", "0303", "4-4-10") }, { step = "soviet_combat" })
  local total = K.attack_total({ kessel.units.get("s"), kessel.units.get("l") })
  expect.eq(total, 4, "2 + min(5, 2)")
  local ok, r = attack({ "l" }, { "0303" })
  expect.refused(ok, r, "10.2", "no attack strength")
end)

-- The odds hook used by `kessel odds`: flags for terrain, supply, integrity, overrun and leaders.
kessel.test("case_9_3_odds_hook_flags", function()
  local m = K.odds_modifiers(9, 3, { "forest", "river" })
  expect.eq(m.defence, 9)
  m = K.odds_modifiers(8, 3, { "integrity", "out_of_supply", "overrun" })
  expect.eq(m.attack, 4, "[7.3]: 8 doubled 16, halved 8, overrun 4")
  m = K.odds_modifiers(3, 3, { "integrity", "out_of_supply" })
  expect.eq(m.attack, 3, "[7.3]: 3 doubled 6, halved 3")
  m = K.odds_modifiers(3, 3, { "defender_integrity", "defender_out_of_supply", "forest" })
  expect.eq(m.defence, 6, "[7.3]: 3 doubled 6, halved 3, forest 6")
  kessel.setup{ map = { columns = 4, rows = 4 }, units = {}, options = { supply_halving_before_integrity = true } }
  m = K.odds_modifiers(3, 3, { "integrity", "out_of_supply" })
  expect.eq(m.attack, 2, "source-conflict option: 3 halved 1, doubled 2")
  m = K.odds_modifiers(3, 3, { "defender_integrity", "defender_out_of_supply", "forest" })
  expect.eq(m.defence, 4, "source-conflict option: 3 halved 1, doubled 2, forest 4")
  m = K.odds_modifiers(4, 2, { "city" })
  expect.eq(m.defence, 4, "`city` is the major city flag")
  expect.falsy(pcall(K.odds_modifiers, 4, 2, { "citty" }), "an unknown flag is an error, not ignored")
  m = K.odds_modifiers(3, 3, { "out_of_supply", "leader=5" })
  expect.eq(m.attack, 2, "3 → 1, leader adds at most 1")
  m = K.odds_modifiers(4, 3, { "major_city", "defender_out_of_supply" })
  expect.eq(m.defence, 2, "3 → 1 then ×2")
end)

-- [9.4] [12.3] `kessel odds A 0` showed the 10-1 column and its chances, but in play no die is
-- rolled against a defence of 0: a 0-0 is removed on its reveal and the empty hex is entered. The
-- hook says so instead; a defence halved out of supply stays at least 1 and is rolled for. The
-- same for an attack of 0 (`kessel odds 0 D` showed 1-3): nothing attacks with no strength.
kessel.test("case_9_4_odds_hook_says_no_die_is_rolled_for_an_attack_or_a_defence_of_0", function()
  local ok, err = pcall(K.odds_modifiers, 5, 0, {})
  expect.falsy(ok, "a defence of 0 is no column of the table")
  expect.truthy(tostring(err):find("no die is rolled", 1, true) and tostring(err):find("[12.3]", 1, true), tostring(err))
  ok, err = pcall(K.odds_modifiers, 5, 0, { "forest" })
  expect.falsy(ok, "doubling nothing is still nothing to roll against")
  local m = K.odds_modifiers(5, 1, { "defender_out_of_supply" })
  expect.eq(m.defence, 1, "halving never goes below 1 [11.3]: rolled for at 5-1")
  -- nor is a die rolled for an attack of 0 (1-3, below the table, before)
  ok, err = pcall(K.odds_modifiers, 0, 4, {})
  expect.falsy(ok, "no attack is made with no attack strength")
  expect.truthy(tostring(err):find("no die is rolled", 1, true) and tostring(err):find("[12.3]", 1, true), tostring(err))
  -- an overrun's halving may take a 1 to 0, which is rolled for at 1-3 (see
  -- case_6_5_overrun_halving_takes_a_one_factor_to_zero_read_at_one_to_three)
  m = K.odds_modifiers(1, 4, { "overrun" })
  expect.eq(m.attack, 0, "1 halved, fractions dropped")
end)

-- Every enumerated combat action is valid (the AI and editor use the same lists).
kessel.test("case_9_1_enumerated_actions_are_valid", function()
  setup{ pz("g", "0303", "8-8-10"), pz("h", "0304", "4-4-10"), rifle("a", "0403", "1-1-6"), rifle("b", "0404", "1-1-6") }
  local legal = kessel.legal("german")
  local attacks = 0
  for _, a in ipairs(legal) do
    if a.kind == "attack" then attacks = attacks + 1 end
    expect.truthy(kessel.validate(a), "valid: " .. a.kind)
  end
  expect.truthy(attacks >= 3, "single and two-hex attacks offered")
  kessel.inject_dice{ 1 } -- 12 against 2: 6-1... g and h against 0403 only
  expect.accepted(attack({ "g", "h" }, { "0403" }))
  for _, a in ipairs(kessel.legal()) do expect.truthy(kessel.validate(a), "valid during a decision: " .. a.kind) end
end)

-- Rules 9.1 and 9.23 in the action list: every group of the units that may attack a hex is listed
-- (here three units from two hexes: seven groups), each legal, and no unit that may not attack.
kessel.test("case_9_1_every_group_of_attackers_is_listed", function()
  setup{ pz("g", "0303", "8-8-10"), pz("h", "0303", "4-4-10"), pz("k", "0304", "4-4-10"),
    pz("done", "0304", "4-4-10", { flags = { "attacked" } }), rifle("a", "0403", "1-1-6") }
  local groups = {}
  for _, a in ipairs(kessel.legal("german")) do
    if a.kind == "attack" and #a.targets == 1 and a.targets[1] == "0403" then
      expect.truthy(kessel.validate(a), "listed attack is legal")
      local ids = {}
      for _, id in ipairs(a.units) do ids[#ids + 1] = id end
      table.sort(ids)
      groups[table.concat(ids, "+")] = true
    end
  end
  local n = 0
  for _ in pairs(groups) do n = n + 1 end
  expect.eq(n, 7, "seven groups")
  for _, want in ipairs({ "g+h+k", "g+h", "g+k", "h+k", "g", "h", "k" }) do
    expect.truthy(groups[want], want .. " listed")
  end
  expect.falsy(groups["done"], "a unit that attacked this phase is not offered again")
end)

-- [9.6] Engaged: the owner picks the unit that loses the step ----------------------------------
do
  local B = require("testing.board8_combat")
  local expect, V, pz, inf, rifle, leader, board, attack, choose, retreat, offered, has_retreat =
    B.expect, B.V, B.pz, B.inf, B.rifle, B.leader, B.board, B.attack, B.choose, B.retreat, B.offered, B.has_retreat

  -- Rule 9.6: on Eng each side loses one step and its owner names the unit (defender first). The
  -- automatic pick would take the unit with most steps left (the infantry division, the first
  -- rifle division); the owners name others.
  kessel.test("case_9_6_engaged_owner_picks_the_step", function()
    board{ pz("p", "0303", "4-4-10"), inf("i", "0304"), rifle("s1", "0403", "8-8-6"), rifle("s2", "0403", "5-5-6") }
    kessel.inject_dice{ 4 } -- 4 + 9 = 13 against 13: 1-1, roll 4: Eng
    local events = expect.accepted(attack({ "p", "i" }, { "0403" }))
    local p = kessel.game.var("pending")
    expect.eq(p.kind, "eng_loss")
    expect.eq(p.side, "soviet", "the defender names his loss first")
    expect.eq(kessel.units.get("s1").location, "map", "nothing is taken before the owner picks")
    expect.eq(kessel.units.get("s2").location, "map")
    -- every legal pick is offered to the owner, and only to him
    local picks = offered("soviet", "choose")
    expect.eq(#picks, 2, "one choice per defending unit")
    expect.eq(picks[1].units[1], "s1")
    expect.eq(picks[2].units[1], "s2")
    expect.eq(#offered("german", "choose"), 0, "the German does not decide the Soviet loss")
    local ok, r = choose("retreat")
    expect.refused(ok, r, "9.6", "no retreat")
    ok, r = choose("loss", { "s1", "s2" })
    expect.refused(ok, r, "9.6", "exactly one unit")
    ok, r = choose("loss", { "p" })
    expect.refused(ok, r, "9.6", "not one of the defender's units")
    ok, r = kessel.act{ kind = "end_phase" }
    expect.refused(ok, r, "9.6", "decision is waiting")
    expect.accepted(choose("loss", { "s2" }))
    expect.eq(kessel.units.get("s2").location, "eliminated", "the owner's pick loses its step")
    expect.eq(kessel.units.get("s1").location, "map")
    -- then the attacker names his
    p = kessel.game.var("pending")
    expect.eq(p.kind, "eng_loss")
    expect.eq(p.side, "german")
    picks = offered("german", "choose")
    expect.eq(#picks, 2)
    expect.accepted(kessel.act{ kind = "choose", units = { "p" } }) -- `choice` may be left out
    expect.eq(kessel.units.get("p").step, 1, "the panzer regiment flips")
    expect.eq(kessel.units.get("i").step, 0, "the infantry division keeps its four steps")
    expect.eq(kessel.game.var("pending"), nil, "no retreat and no advance after Eng")
    expect.truthy(events, "attack accepted")
  end)

  -- Rule 9.6 / FAQ 7: a leader in the combat may be the one that absorbs the Eng step; a side with
  -- a single unit has no choice to make.
  kessel.test("case_9_6_engaged_leader_may_absorb_and_single_unit_needs_no_choice", function()
    board{ pz("g", "0303", "4-4-10"), rifle("s", "0403", "2-2-6"), leader("l", "0403", 2) }
    kessel.inject_dice{ 4 } -- 4 against 2 + 2: 1-1, roll 4: Eng
    expect.accepted(attack({ "g" }, { "0403" }))
    local picks = offered("soviet", "choose")
    expect.eq(#picks, 2, "the rifle division or the leader")
    expect.accepted(choose("loss", { "l" }))
    expect.eq(kessel.units.get("l").location, "eliminated")
    expect.eq(kessel.units.get("s").location, "map")
    expect.eq(kessel.units.get("g").step, 1, "the lone German unit took its step without a decision")
    expect.eq(kessel.game.var("pending"), nil)
  end)
end


-- [6.6] Disruption -------------------------------------------------------------------------------
do
  local B = require("testing.board8")
  local expect, K, Z, S, L, M, V, pz, rifle, leader, board, attack, choose, retreat, mv, note, end_phases =
    B.expect, B.K, B.Z, B.S, B.L, B.M, B.V, B.pz, B.rifle, B.leader, B.board, B.attack, B.choose, B.retreat, B.mv, B.note, B.end_phases

  -- Rule 6.6: a disrupted unit has no ZOC but defends normally.
  kessel.test("case_6_6_disrupted_unit_defends_normally", function()
    board{ pz("g", "0303", "6-6-10"), rifle("s", "0403", "2-3-6", { flags = { "disrupted" } }) }
    expect.falsy(Z.zoc_of("soviet"):has("0503"), "no ZOC while disrupted")
    expect.eq(K.defence_of({ "0403" }), 3, "full defence strength")
    kessel.inject_dice{ 3 } -- 6 against 3: 2-1, roll 3: D1/A1
    local events = expect.accepted(attack({ "g" }, { "0403" }))
    expect.truthy(note(events, "attack 6 against defence 3 in 0403: odds 2-1"))
  end)
end


-- [9.5] [9.6] Combat results -------------------------------------------------------------------
do
  local B = require("testing.board8")
  local expect, K, Z, S, L, M, V, pz, rifle, leader, board, attack, choose, retreat, mv, note, end_phases =
    B.expect, B.K, B.Z, B.S, B.L, B.M, B.V, B.pz, B.rifle, B.leader, B.board, B.attack, B.choose, B.retreat, B.mv, B.note, B.end_phases

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
end

-- Rule 9.5: every rolled combat leaves a `combat` record with its totals, modifiers, odds, roll
-- and result as data (docs/lua-api.md, "Records"), beside the note players read.
kessel.test("case_9_5_combat_record_holds_the_resolution", function()
  kessel.setup{ map = { columns = 8, rows = 8, terrain = { ["0403"] = "forest" } }, step = "german_combat", turn = 7, units = {
    { id = "g", side = "german", type = "panzer", formation = "F1", faces = { "6-6-10", "1-1-10" }, at = "0303" },
    { id = "s", side = "soviet", type = "rifle", faces = { "2-2-6" }, at = "0403" },
    { id = "sup", side = "soviet", type = "leader", faces = { "0-5-10" }, attrs = { rating = 5 }, at = "0706" },
  } }
  kessel.inject_dice{ 6 }
  local ok, events = kessel.act{ kind = "attack", units = { "g" }, targets = { "0403" } }
  expect.accepted(ok, events)
  local rec = kessel.log.records{ kind = "combat" }
  expect.eq(#rec, 1)
  local f = rec[1].fields
  expect.eq(rec[1].rule, "9.5")
  expect.eq(f.type, "attack")
  expect.eq(f.attack, 6)
  expect.eq(f.defence, 4, "forest doubles [9.3]")
  expect.eq(f.odds, "1-1")
  expect.eq(f.roll, 6)
  expect.eq(f.result, "A2")
  expect.eq(f.defenders[1], "s")
  expect.eq(f.defence_modifiers[1].rule, "9.3")
  expect.eq(kessel.replay_hash(), kessel.state_hash(), "records change nothing")
end)

-- The extension point for a variant's defence modifiers (K.add_defence_modifier, for a house rule
-- in a scenario's script): what it returns is added to the unit's defence after the rules' own
-- [9.3] [11.3], in the attack's roll and its combat record, with its reason. Each test clears the
-- list it leaves, since a test file's tests share the loaded rules.
kessel.test("variant_defence_modifier_counts_in_the_attack", function()
  setup{ pz("g", "0303", "6-4-10"), rifle("s", "0403", "2-2-6") }
  K.add_defence_modifier(function(u, hex, d)
    if u.id == "s" then return 1, { rule = "X1", message = "house rule: +1 at " .. hex .. " on " .. d } end
  end)
  local ok, info = pcall(function()
    kessel.inject_dice{ 6 }
    expect.accepted(attack({ "g" }, { "0403" }))
    return kessel.log.records{ kind = "combat", last = 1 }[1].fields
  end)
  K.defence_modifier_fns = {}
  if not ok then error(info, 0) end
  expect.eq(info.defence, 3, "2 + the variant's 1")
  expect.eq(info.odds, "2-1", "6 against 3")
  local line
  for _, m in ipairs(info.defence_modifiers) do if m.rule == "X1" then line = m end end
  expect.truthy(line, "the variant's reason is among the defence modifiers")
  expect.eq(line.message, "house rule: +1 at 0403 on 2", "the function gets the unit, its hex and its defence so far")
end)

-- A variant's modifier that is no whole number, or comes without its reason, is an error that
-- says so, not a strength the table cannot read; and none registered leaves the defence as printed.
kessel.test("variant_defence_modifier_errors", function()
  setup{ pz("g", "0303", "6-4-10"), rifle("s", "0403", "2-2-6") }
  local plain = kessel.queries.ask("odds", { units = { "g" }, targets = { "0403" } })
  expect.eq(plain.defence, 2, "no variant: the printed defence")
  K.add_defence_modifier(function() return 0.5, { rule = "X1", message = "half" } end)
  local ok, err = pcall(K.defence_of, { "0403" }, {})
  K.defence_modifier_fns = {}
  expect.falsy(ok, "a fractional modifier is refused")
  expect.truthy(tostring(err):find("whole numbers", 1, true), "the error says why: " .. tostring(err))
  K.add_defence_modifier(function() return 1 end)
  ok, err = pcall(K.defence_of, { "0403" }, {})
  K.defence_modifier_fns = {}
  expect.falsy(ok, "a modifier without its reason is refused")
  expect.truthy(tostring(err):find("reason", 1, true), "the error says why: " .. tostring(err))
  ok, err = pcall(K.add_defence_modifier, 3)
  expect.falsy(ok, "only a function is taken")
end)

-- What a broken variant's modifier returns is refused naming the line that added it, never read as
-- some other defence: a number past any table's column (math.maxinteger wrapped and read as 0), a
-- string, a reason whose rule is no rule. A whole number written as a float (2.0) is a whole number.
kessel.test("variant_defence_modifier_refuses_nonsense_at_its_line", function()
  setup{ pz("g", "0303", "6-4-10"), rifle("s", "0403", "2-2-6") }
  local function with(fn)
    K.add_defence_modifier(fn)
    local ok, r = pcall(K.defence_of, { "0403" }, {})
    K.defence_modifier_fns = {}
    return ok, tostring(r)
  end
  local why = { rule = "X1", message = "x" }
  for _, n in ipairs({ math.maxinteger, math.mininteger, 2147483648, -2147483648 }) do
    local ok, err = with(function() return n, why end)
    expect.falsy(ok, "a modifier of " .. n .. " is refused")
    expect.truthy(err:find("no table reads", 1, true), err)
    expect.truthy(err:find("combat_test.lua:%d+"), "names the line that added it: " .. err)
  end
  -- each unit's within reach, the hex's sum past it: said, naming the modifiers
  setup{ pz("g", "0303", "6-4-10"), rifle("s", "0403", "2-2-6"), rifle("s2", "0403", "2-2-6") }
  local ok, err = with(function(_, _, d) return 2147483647 - d, why end)
  expect.falsy(ok, "a sum past any table is refused")
  expect.truthy(err:find("adds up to 4294967294", 1, true), err)
  expect.truthy(err:find("combat_test.lua:%d+"), "names the line that added it: " .. err)
  setup{ pz("g", "0303", "6-4-10"), rifle("s", "0403", "2-2-6") }
  ok, err = with(function() return "3", why end)
  expect.falsy(ok)
  expect.truthy(err:find('the string "3"', 1, true), err)
  expect.truthy(err:find("combat_test.lua:%d+"), "names the line that added it: " .. err)
  for _, n in ipairs({ 0 / 0, math.huge, -math.huge }) do
    ok, err = with(function() return n, why end)
    expect.falsy(ok, tostring(n) .. " is refused")
    expect.truthy(err:find("whole numbers", 1, true), err)
  end
  ok, err = with(function() return "3\n", why end)
  expect.truthy(err:find('the string "3\\10"', 1, true), "a line break shown, not made: " .. err)
  ok, err = with(function() return 1, { rule = {}, message = "m" } end)
  expect.falsy(ok, "a rule that is no string is refused")
  expect.truthy(err:find("rule", 1, true), err)
  ok, err = with(function() return 1, { rule = "X1\n", message = "m" } end)
  expect.falsy(ok, "a rule with a line break is refused")
  local d
  ok, d = pcall(function()
    K.add_defence_modifier(function() return 2.0, why end)
    return (K.defence_of({ "0403" }, {}))
  end)
  K.defence_modifier_fns = {}
  expect.truthy(ok, "2.0 is a whole number: " .. tostring(d))
  expect.eq(d, 4, "2 + 2.0")
  expect.eq(math.type(d), "integer", "the total stays a whole number")
end)

-- A variant's modifier that changes the game from inside the odds query, or raises its own error,
-- stops the query and the attack with its message, and leaves the game as it was.
kessel.test("variant_defence_modifier_that_writes_or_fails_leaves_the_game_alone", function()
  setup{ pz("g", "0303", "6-4-10"), rifle("s", "0403", "2-2-6") }
  local hash, records = kessel.state_hash(), #kessel.log.records{}
  local function with(fn, f)
    K.add_defence_modifier(fn)
    local ok, r = pcall(f)
    K.defence_modifier_fns = {}
    return ok, tostring(r)
  end
  local function ask() return kessel.queries.ask("odds", { units = { "g" }, targets = { "0403" } }) end
  local ok, err = with(function(u) kessel.emit.eliminate(u.id) end, ask)
  expect.falsy(ok, "a query may not change the game")
  expect.truthy(err:find("may only read the game", 1, true), err)
  expect.eq(kessel.units.get("s").location, "map", "the defender is still there")
  ok, err = with(function() error("house rule broke") end, ask)
  expect.falsy(ok)
  expect.truthy(err:find("house rule broke", 1, true), err)
  ok, err = with(function() error("house rule broke") end, function() return attack({ "g" }, { "0403" }) end)
  expect.falsy(ok, "the attack stops with the modifier's error")
  expect.truthy(err:find("house rule broke", 1, true), err)
  expect.eq(kessel.state_hash(), hash, "nothing changed")
  expect.eq(#kessel.log.records{}, records, "nothing recorded")
  expect.eq(kessel.replay_hash(), kessel.state_hash(), "the log replays to the state")
end)

-- A variant adds its modifiers and flags while the rules load, as it registers its hooks: one added
-- in play is no part of the game state (it outlives an undo), so the same position would defend
-- otherwise.
kessel.test("variant_modifiers_and_flags_are_added_while_the_rules_load_only", function()
  setup{ pz("g", "0303", "6-4-10"), rifle("s", "0403", "2-2-6") }
  local before = #K.ODDS_FLAGS
  K.declarations_in_play = false
  local m_ok, m_err = pcall(function()
    K.add_defence_modifier(function() return 1, { rule = "X1", message = "late" } end)
  end)
  local f_ok, f_err = pcall(K.add_odds_flag, "late_flag")
  K.declarations_in_play = true
  local added = #K.defence_modifier_fns
  K.defence_modifier_fns = {}
  while #K.ODDS_FLAGS > before do table.remove(K.ODDS_FLAGS) end
  expect.falsy(m_ok, "a modifier added in play is refused")
  expect.truthy(tostring(m_err):find("while the rules load", 1, true), tostring(m_err))
  expect.truthy(tostring(m_err):find("combat_test.lua:%d+"), "at the line that called it: " .. tostring(m_err))
  expect.eq(added, 0, "and not added")
  expect.falsy(f_ok, "a flag added in play is refused")
  expect.truthy(tostring(f_err):find("while the rules load", 1, true), tostring(f_err))
end)

-- A variant's `kessel odds` flag (K.add_odds_flag): refused as unknown before it is added, then
-- listed and let through unchanged for the variant's own odds hook; a flag the rules have already
-- is refused, so a variant cannot take one over.
kessel.test("variant_odds_flag_is_listed_and_let_through", function()
  local ok, err = pcall(K.odds_modifiers, 6, 3, { "house_x" })
  expect.falsy(ok, "unknown before it is added")
  expect.truthy(tostring(err):find("unknown odds flag `house_x`", 1, true), tostring(err))
  local before = #K.ODDS_FLAGS
  K.add_odds_flag("house_x")
  local r
  ok, r = pcall(K.odds_modifiers, 6, 3, { "major_city", "house_x" })
  local listed = pcall(K.odds_modifiers, 6, 3, { "list" }) and K.odds_modifiers(6, 3, { "list" }).modifiers[1].message
  local dup_ok = pcall(K.add_odds_flag, "house_x")
  local city_ok = pcall(K.add_odds_flag, "city")
  local clear_ok = pcall(K.add_odds_flag, "clear")
  while #K.ODDS_FLAGS > before do table.remove(K.ODDS_FLAGS) end
  expect.truthy(ok, "let through once added: " .. tostring(r))
  expect.eq(r.defence, 6, "the rules' own modifiers only: the major city doubles [9.3]")
  expect.truthy(listed and listed:find("house_x", 1, true), "listed by --flag list")
  expect.falsy(dup_ok, "a flag added twice is refused")
  expect.falsy(city_ok, "an alias of the rules' is refused")
  expect.falsy(clear_ok, "a no-effect terrain word of the rules' is refused")
end)

-- A variant's flag may not pass for one of the rules': `leader` (the word of `leader=N`), a word of
-- the rules' in other capitals, or a variant's word twice in other capitals; nor hold anything but
-- letters, digits and _ (a line break or an escape would garble `--flag list`).
kessel.test("variant_odds_flag_named_like_the_rules_is_refused", function()
  local before = #K.ODDS_FLAGS
  local results = {}
  for _, w in ipairs({ "leader", "Forest", "MAJOR_CITY", "City", "Overrun", "List", "LAKE", "x\ny", "x\27[31m", "", "leader=3" }) do
    results[#results + 1] = { w, pcall(K.add_odds_flag, w) }
  end
  local first = pcall(K.add_odds_flag, "house_y")
  local again = pcall(K.add_odds_flag, "House_Y")
  while #K.ODDS_FLAGS > before do table.remove(K.ODDS_FLAGS) end
  for _, r in ipairs(results) do
    expect.falsy(r[2], string.format("%q is refused", r[1]))
  end
  expect.truthy(first, "a word of its own is taken")
  expect.falsy(again, "the same word in other capitals is refused")
end)
