-- Tests of the battle stand-in (battle.lua, cases PBX-1..PBX-5) on the Dawn set-up, and of its
-- hand-over to the Refit Phase [9.6]. Run: kessel test scenarios/pegasus-bridge/tests --scenario
-- scenarios/pegasus-bridge/dawn.toml

local expect = kessel.expect

local function to_step(id)
  while kessel.game.step().id ~= id do expect.accepted(kessel.act{ kind = "pbx_end" }) end
end

kessel.test("case_PBX-1_the_germans_act_first_and_the_refit_waits_for_the_last_turn", function()
  expect.eq(kessel.game.step().id, "german_turn")
  local ok, reasons = kessel.act{ kind = "start_refit" }
  expect.refused(ok, reasons, "9.6", "still being played")
  local ok2, reasons2 = kessel.act{ kind = "pbx_move", unit = "b1", to = "J5" }
  expect.refused(ok2, reasons2, "PBX-2", "not of the side")
end)

kessel.test("case_PBX-2_a_man_moves_one_hex_once_and_never_into_water", function()
  expect.accepted(kessel.act{ kind = "pbx_move", unit = "g3", to = "F7" })
  expect.eq(kessel.units.get("g3").hex, "F7")
  local ok, reasons = kessel.act{ kind = "pbx_move", unit = "g3", to = "G7" }
  expect.refused(ok, reasons, "PBX-2", "has moved")
  ok, reasons = kessel.act{ kind = "pbx_move", unit = "g5", to = "C5" }
  expect.refused(ok, reasons, "PBX-2", "adjacent")
end)

kessel.test("case_PBX-3_fire_kills_reduces_or_misses_by_the_table", function()
  -- g3 at E7 with its 8-1 leader fires at H6 (open, 3 hexes): 2d6 - 1 for the leader
  kessel.inject_dice{ 1, 2 }               -- 3 - 1 = 2: killed
  expect.accepted(kessel.act{ kind = "pbx_fire", unit = "g3", target = "H6" })
  expect.eq(kessel.units.get("b5").location, "eliminated")
  expect.eq(kessel.game.var("cvp_lost").british, 1, "PBX-4: a half-squad is 1 CVP")
  local ok, reasons = kessel.act{ kind = "pbx_fire", unit = "g3", target = "I6" }
  expect.refused(ok, reasons, "PBX-3", "has fired")
  -- g4 (4-4-7, no leader) at F6 fires at the cafe, a stone building: 6 + 2 = 8, no effect
  kessel.inject_dice{ 3, 3 }
  expect.accepted(kessel.act{ kind = "pbx_fire", unit = "g4", target = "I6" })
  expect.eq(kessel.units.get("b2").step, 0, "no effect")
  -- g6 at R8 fires at Horsa Bridge (brush): 4, a casualty reduction, which falls on the squad
  kessel.inject_dice{ 2, 2 }
  expect.accepted(kessel.act{ kind = "pbx_fire", unit = "g6", target = "P6" })
  expect.eq(kessel.units.get("b4").step, 1, "the squad is now its half-squad")
  expect.eq(kessel.units.get("bl2").location, "map", "the leader with it is spared")
  ok, reasons = kessel.act{ kind = "pbx_fire", unit = "g5", target = "J6" }
  expect.refused(ok, reasons, "PBX-3", "within 3")
  expect.eq(kessel.replay_hash(), kessel.state_hash())
end)

kessel.test("case_PBX-5_and_9.6_the_last_turn_hands_over_to_the_refit_phase", function()
  for _ = 1, 5 do expect.accepted(kessel.act{ kind = "pbx_end" }) end
  expect.eq(kessel.game.turn(), 3)
  expect.eq(kessel.game.step().id, "british_turn")
  local ok, reasons = kessel.act{ kind = "pbx_end" }
  expect.refused(ok, reasons, "PBX-1", "Refit Phase follows")
  expect.accepted(kessel.act{ kind = "start_refit" })
  expect.eq(kessel.game.step().mode, "refit")
  expect.eq(kessel.game.step().id, "melee")
  ok, reasons = kessel.act{ kind = "pbx_move", unit = "b1", to = "J5" }
  expect.refused(ok, reasons, "PBX-2", "over")
end)

-- [9.6122] the SAN the scenario starts with (dawn.toml [vars]: British 4, German 3) is the one the
-- Refit Phase adjusts: the British SAN of 4 makes its adjustment dr (a 6: 4 -> 2), the German 3
-- stays 3; neither is taken for 0 and "raised to 2"
kessel.test("case_9.6122_the_scenario_san_is_adjusted", function()
  for _ = 1, 5 do expect.accepted(kessel.act{ kind = "pbx_end" }) end
  expect.accepted(kessel.act{ kind = "start_refit" })
  while kessel.game.step().id ~= "date_san" do expect.accepted(kessel.act{ kind = "end_step" }) end
  kessel.inject_dice{ 6 }
  local ok, events = kessel.act{ kind = "end_step" }
  expect.accepted(ok, events)
  local texts = {}
  for _, e in ipairs(events) do if e.event == "note" then texts[#texts + 1] = e.text end end
  local all = table.concat(texts, "\n")
  expect.truthy(all:find("british SAN adjustment dr 6+0 = 6: SAN 4 -> 2", 1, true), all)
  expect.falsy(all:find("raised to 2", 1, true), all)
  expect.eq(kessel.game.var("san").british, 2)
  expect.eq(kessel.game.var("san").german, 3)
end)

-- [9.6122] a SAN no adjustment changed is still the new CG Date's SAN: the game holds it (so a
-- campaign carries it to the next CG scenario), not only the finished scenario's [vars]
kessel.test("case_9.6122_an_unchanged_san_is_kept_for_the_next_date", function()
  for _ = 1, 5 do expect.accepted(kessel.act{ kind = "pbx_end" }) end
  expect.accepted(kessel.act{ kind = "start_refit" })
  while kessel.game.step().id ~= "date_san" do expect.accepted(kessel.act{ kind = "end_step" }) end
  kessel.inject_dice{ 1 }
  expect.accepted(kessel.act{ kind = "end_step" })
  local san = kessel.game.var("san")
  expect.truthy(san ~= nil, "the SAN is a game variable after 9.612")
  expect.eq(san.british, 4, "dr 1: British SAN 4 unchanged")
  expect.eq(san.german, 3)
end)
