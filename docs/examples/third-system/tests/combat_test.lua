-- Rule tests: combat [S5], terrain in combat [S6], results [S7], retreats [S8] and the frozen
-- river's combat [S12]. Run: kessel test docs/examples/third-system
local expect = kessel.expect
local H = require("tests.helpers")

-- crown c1 in 0202 and c2 in 0203 (4-4-4 each) next to league l in 0303 (3-4-4): 8 vs 4
local function two_on_one(extra)
  local units = { H.inf("c1", "crown", "0202"), H.inf("c2", "crown", "0203"), H.inf("l", "league", "0303") }
  for _, u in ipairs(extra or {}) do units[#units + 1] = u end
  H.valley{ units = units, step = "crown_combat" }
end

local function odds(units, target)
  return kessel.queries.ask("odds", { units = units, targets = { target } })
end

-- Rule S5
kessel.test("case_S5_attacks_only_in_the_combat_phase_and_next_to_the_target", function()
  H.valley{ units = { H.inf("c", "crown", "0202"), H.inf("l", "league", "0303"), H.inf("far", "crown", "0101") } }
  local ok, reasons = kessel.act{ kind = "attack", units = { "c" }, target = "0303" }
  expect.refused(ok, reasons, "S5", "combat phase")
  expect.accepted(kessel.act{ kind = "end_phase" })
  ok, reasons = kessel.act{ kind = "attack", units = { "far" }, target = "0303" }
  expect.refused(ok, reasons, "S5", "not adjacent")
  ok, reasons = kessel.act{ kind = "attack", units = { "c" }, target = "0201" }
  expect.refused(ok, reasons, "S5", "no enemy unit")
  -- a unit named by a table (a broken script) is said as such, not by the table's address
  ok, reasons = kessel.act{ kind = "attack", units = { { "c" } }, target = "0303" }
  expect.refused(ok, reasons, "S5", "no such unit: a table")
end)

-- Rule S5: odds round in the defender's favour, and past the table's ends read its end columns
kessel.test("case_S5_odds_round_down_and_stop_at_the_table_ends", function()
  two_on_one{}
  expect.eq(odds({ "c1", "c2" }, "0303").label, "2-1", "8 vs 4")
  H.valley{ step = "crown_combat", units = {
    H.inf("c1", "crown", "0202"), H.inf("c2", "crown", "0203", 1), H.inf("l", "league", "0303") } }
  expect.eq(odds({ "c1", "c2" }, "0303").label, "1-1", "6 vs 4 is 1-1, not 3-2")
  H.valley{ step = "crown_combat", units = { H.inf("c", "crown", "0202", 1), H.arm("la", "league", "0303"),
    H.inf("l", "league", "0303") } }
  local low = odds({ "c" }, "0303")
  expect.eq(low.label, "1-2", "2 vs 7 is read on 1-2")
  expect.truthy(low.below)
  H.valley{ step = "crown_combat", units = { H.arm("a1", "crown", "0202"), H.arm("a2", "crown", "0203"),
    H.arm("a3", "crown", "0403"), H.inf("l", "league", "0303", 1) } }
  local high = odds({ "a1", "a2", "a3" }, "0303")
  expect.eq(high.label, "5-1", "18 vs 2 is read on 5-1")
  expect.truthy(high.above)
end)

-- Rule S5: each unit attacks once a phase, each hex is attacked once a phase
kessel.test("case_S5_a_unit_attacks_once_and_a_hex_is_attacked_once", function()
  two_on_one{ H.inf("l2", "league", "0302") }
  kessel.inject_dice{ 3 }  -- 4 vs 4 on 1-1 (0303 is clear): --
  expect.accepted(kessel.act{ kind = "attack", units = { "c1" }, target = "0303" })
  local ok, reasons = kessel.act{ kind = "attack", units = { "c2" }, target = "0303" }
  expect.refused(ok, reasons, "S5", "already attacked this phase")
  ok, reasons = kessel.act{ kind = "attack", units = { "c1" }, target = "0302" }
  expect.refused(ok, reasons, "S5", "c1 already attacked")
  -- a new phase clears both
  for _ = 1, 4 do expect.accepted(kessel.act{ kind = "end_phase" }) end
  expect.eq(kessel.game.step().id, "crown_combat")
  kessel.inject_dice{ 3 }
  expect.accepted(kessel.act{ kind = "attack", units = { "c2" }, target = "0303" })
end)

-- Rule S5: what the rules offer, they accept
kessel.test("case_S5_enumerated_attacks_are_legal", function()
  two_on_one{ H.inf("l2", "league", "0302") }
  local n = 0
  for _, a in ipairs(kessel.legal("crown")) do
    if a.kind == "attack" then
      n = n + 1
      expect.truthy(kessel.validate(a), "attack on " .. a.target)
    end
  end
  expect.eq(n, 4, "c1 on 0302 and on 0303, c2 on 0303, and both together on 0303")
end)

-- Rule S6
kessel.test("case_S6_forest_hills_and_town_shift_one_column_left", function()
  H.valley{ step = "crown_combat", units = { H.inf("c", "crown", "0202"), H.inf("l", "league", "0302"),
    H.inf("c2", "crown", "0601"), H.inf("l2", "league", "0602"),
    H.inf("c3", "crown", "0605"), H.inf("l3", "league", "0604") } }
  for _, case in ipairs{ { "c", "0302", "forest" }, { "c2", "0602", "hills" }, { "c3", "0604", "town" } } do
    local o = odds({ case[1] }, case[2])
    expect.eq(o.label, "1-2", case[3] .. ": 4 vs 4 is 1-1, shifted to 1-2")
    expect.truthy(o.modifiers[1].message:find(case[3], 1, true), case[3] .. " named")
  end
end)

-- Rule S6: the river shifts only when every attacker is across it
kessel.test("case_S6_river_shifts_when_every_attacker_is_across", function()
  H.valley{ step = "crown_combat", units = { H.inf("c1", "crown", "0403"), H.inf("c2", "crown", "0504"),
    H.inf("l", "league", "0503") } }
  expect.eq(odds({ "c1" }, "0503").label, "1-2", "4 vs 4 across the river")
  expect.eq(odds({ "c1", "c2" }, "0503").label, "2-1", "c2 attacks from the same bank")
end)

-- Rule S12: frozen, the river gives no shift
kessel.test("case_S12_frozen_river_gives_no_shift", function()
  H.valley{ step = "crown_combat", options = { frozen_river = true },
    units = { H.inf("c1", "crown", "0403"), H.inf("l", "league", "0503") } }
  expect.eq(odds({ "c1" }, "0503").label, "1-1")
end)

-- Rule S7: AL, the first attacker named loses a step
kessel.test("case_S7_AL_first_named_attacker_loses_a_step", function()
  two_on_one{}
  kessel.inject_dice{ 1 }  -- 2-1, roll 1: AL
  local events = expect.accepted(kessel.act{ kind = "attack", units = { "c2", "c1" }, target = "0303" })
  expect.eq(kessel.units.get("c2").step, 1)
  expect.eq(kessel.units.get("c1").step, 0)
  expect.eq(kessel.units.get("l").step, 0)
  local rec
  for _, e in ipairs(events) do if e.event == "record" then rec = e end end
  expect.eq(rec.fields.result, "AL")
end)

-- Rule S7: DL, the defender with the most steps left loses one
kessel.test("case_S7_DL_falls_on_the_defender_with_most_steps", function()
  H.valley{ step = "crown_combat", units = { H.inf("c1", "crown", "0202"), H.inf("c2", "crown", "0203"),
    H.inf("worn", "league", "0303", 1), H.inf("fresh", "league", "0303") } }
  kessel.inject_dice{ 6 }  -- 8 vs 6 is 1-1, roll 6: DL
  expect.accepted(kessel.act{ kind = "attack", units = { "c1", "c2" }, target = "0303" })
  expect.eq(kessel.units.get("fresh").step, 1)
  expect.eq(kessel.units.get("worn").step, 1)
  expect.eq(kessel.units.get("worn").location, "map")
end)

-- Rule S7: EX, both sides lose a step; a unit with one step left is eliminated
kessel.test("case_S7_EX_both_lose_and_a_last_step_is_eliminated", function()
  two_on_one{}
  kessel.inject_dice{ 3 }  -- 2-1, roll 3: EX
  expect.accepted(kessel.act{ kind = "attack", units = { "c1", "c2" }, target = "0303" })
  expect.eq(kessel.units.get("c1").step, 1)
  expect.eq(kessel.units.get("l").step, 1)
  H.valley{ step = "crown_combat", units = { H.inf("c1", "crown", "0202"), H.inf("c2", "crown", "0203"),
    H.inf("l", "league", "0303", 1) } }
  kessel.inject_dice{ 1 }  -- 8 vs 2 is 4-1, roll 1: EX
  expect.accepted(kessel.act{ kind = "attack", units = { "c1", "c2" }, target = "0303" })
  expect.eq(kessel.units.get("l").location, "eliminated")
end)

-- Rule S8: DR waits for the defender's choice of hex, clear of enemy units and zones
kessel.test("case_S8_DR_the_defender_picks_a_hex_out_of_enemy_zones", function()
  two_on_one{}
  kessel.inject_dice{ 4 }  -- 2-1, roll 4: DR
  expect.accepted(kessel.act{ kind = "attack", units = { "c1", "c2" }, target = "0303" })
  local p = kessel.game.var("pending")
  expect.eq(p.side, "league")
  -- 0302 and 0304 are in the crown's zones, 0202 and 0203 hold crown units
  expect.eq(table.concat(p.hexes, " "), "0402 0403")
  expect.eq(#kessel.legal("crown"), 0, "nothing for the crown while the league chooses")
  local ok, reasons = kessel.act{ kind = "end_phase", side = "crown" }
  expect.refused(ok, reasons, "S8", "decision is waiting")
  ok, reasons = kessel.act{ kind = "retreat", to = "0304" }
  expect.refused(ok, reasons, "S8", "not a hex the stack may retreat to")
  ok, reasons = kessel.act{ kind = "retreat", to = { "0403" } }
  expect.refused(ok, reasons, "S8", "a table is not a hex the stack may retreat to")
  ok, reasons = kessel.act{ kind = "retreat", to = "0403", side = "crown" }
  expect.refused(ok, reasons, "S8", "league's to choose")
  expect.accepted(kessel.act{ kind = "retreat", to = "0403" })
  expect.eq(kessel.units.get("l").hex, "0403")
  expect.eq(kessel.game.var("pending"), nil)
  expect.accepted(kessel.act{ kind = "end_phase" })
end)

-- Rule S8: a stack retreats together, and not into a hex it would overstack
kessel.test("case_S8_a_stack_retreats_together_within_the_stacking_limit", function()
  H.valley{ step = "crown_combat", units = { H.arm("a1", "crown", "0202"), H.arm("a2", "crown", "0203"),
    H.inf("l1", "league", "0303"), H.inf("l2", "league", "0303"), H.inf("l3", "league", "0402") } }
  kessel.inject_dice{ 5 }  -- 12 vs 8 is 1-1, roll 5: DR
  expect.accepted(kessel.act{ kind = "attack", units = { "a1", "a2" }, target = "0303" })
  local p = kessel.game.var("pending")
  expect.eq(table.concat(p.hexes, " "), "0403", "0402 holds l3: two more would make three")
  expect.accepted(kessel.act{ kind = "retreat", to = "0403" })
  expect.eq(kessel.units.get("l1").hex, "0403")
  expect.eq(kessel.units.get("l2").hex, "0403")
end)

-- Rule S8: with no hex to go to, each unit loses a step where it stands
kessel.test("case_S8_no_retreat_costs_a_step_instead", function()
  two_on_one{ H.inf("c3", "crown", "0403") }
  kessel.inject_dice{ 4 }  -- 2-1, roll 4: DR; every neighbour of 0303 is enemy-held or in a zone
  expect.accepted(kessel.act{ kind = "attack", units = { "c1", "c2" }, target = "0303" })
  expect.eq(kessel.game.var("pending"), nil)
  expect.eq(kessel.units.get("l").hex, "0303")
  expect.eq(kessel.units.get("l").step, 1)
end)

-- Rule S7 and S8: D1R, a step lost and then the retreat
kessel.test("case_S7_D1R_loses_a_step_then_retreats", function()
  two_on_one{}
  kessel.inject_dice{ 6 }  -- 2-1, roll 6: D1R
  expect.accepted(kessel.act{ kind = "attack", units = { "c1", "c2" }, target = "0303" })
  expect.eq(kessel.units.get("l").step, 1)
  expect.eq(kessel.game.var("pending").kind, "retreat")
  expect.accepted(kessel.act{ kind = "retreat", to = "0402" })
  expect.eq(kessel.units.get("l").hex, "0402")
  expect.eq(kessel.replay_hash(), kessel.state_hash(), "replay from events")
end)
