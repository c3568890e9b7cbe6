-- Rule tests: sequence of play [S1], movement [S2], stacking [S3], zones of control [S4] and the
-- frozen river's movement [S12]. Run: kessel test docs/examples/third-system
local expect = kessel.expect
local H = require("tests.helpers")

-- Rule S1
kessel.test("case_S1_turn_is_crown_move_combat_then_league_move_combat", function()
  H.valley{ units = { H.inf("c", "crown", "0101"), H.inf("l", "league", "0806") } }
  local seen = {}
  for _ = 1, 4 do
    seen[#seen + 1] = kessel.game.step().id
    expect.accepted(kessel.act{ kind = "end_phase" })
  end
  expect.eq(table.concat(seen, " "), "crown_move crown_combat league_move league_combat")
  expect.eq(kessel.game.turn(), 2, "the fourth phase ends the turn")
  expect.eq(kessel.game.step().id, "crown_move")
end)

-- Rule S1
kessel.test("case_S1_only_the_phasing_side_moves_in_its_movement_phase", function()
  H.valley{ units = { H.inf("c", "crown", "0101"), H.inf("l", "league", "0806") } }
  local ok, reasons = kessel.act{ kind = "move", unit = "l", path = { "0805" } }
  expect.refused(ok, reasons, "S1", "phasing side")
  expect.accepted(kessel.act{ kind = "end_phase" })
  ok, reasons = kessel.act{ kind = "move", unit = "c", path = { "0102" } }
  expect.refused(ok, reasons, "S1", "movement phase")
end)

-- Rule S1: the game ends after the last turn's last phase
kessel.test("case_S1_game_ends_after_the_last_turn", function()
  H.valley{ units = { H.inf("c", "crown", "0101") }, turn = 6, step = "league_combat" }
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.truthy(kessel.game.finished(), "turn 6 was the last")
  local ok, reasons = kessel.act{ kind = "end_phase" }
  expect.refused(ok, reasons, "S1", "over")
end)

-- Rule S2: every hex a move names is one of the map (the unit goes the cheapest way to the last),
-- and a refusal says a table is one, never its address
kessel.test("case_S2_a_path_naming_a_hex_off_the_map_or_a_table_is_refused", function()
  H.valley{ units = { H.inf("c", "crown", "0603"), H.inf("l", "league", "0806") } }
  local ok, reasons = kessel.act{ kind = "move", unit = "c", path = { "9999", "0604" } }
  expect.refused(ok, reasons, "S2", "9999 is not a hex of this map")
  ok, reasons = kessel.act{ kind = "move", unit = "c", path = { {}, "0604" } }
  expect.refused(ok, reasons, "S2", "a table is not a hex of this map")
  ok, reasons = kessel.act{ kind = "move", unit = { "c" }, path = { "0604" } }
  expect.refused(ok, reasons, "S2", "no such unit: a table")
  expect.eq(kessel.units.get("c").hex, "0603", "nothing moved")
  expect.accepted(kessel.act{ kind = "move", unit = "c", path = { "0603", "0604" } })
  expect.eq(kessel.units.get("c").hex, "0604")
end)

-- Rule S2
kessel.test("case_S2_forest_costs_foot_two_and_tracks_three", function()
  H.valley{ units = { H.inf("c", "crown", "0202"), H.arm("a", "crown", "0201") } }
  local events = expect.accepted(kessel.act{ kind = "move", unit = "c", path = { "0302" } })
  expect.eq(events[1].cost, 2, "infantry into forest")
  events = expect.accepted(kessel.act{ kind = "move", unit = "a", path = { "0302" } })
  expect.eq(events[1].cost, 3, "armour into forest")
end)

-- Rule S2
kessel.test("case_S2_hills_cost_two", function()
  H.valley{ units = { H.inf("c", "crown", "0601") } }
  local events = expect.accepted(kessel.act{ kind = "move", unit = "c", path = { "0602" } })
  expect.eq(events[1].cost, 2)
end)

-- Rule S2
kessel.test("case_S2_crossing_the_river_costs_two_more", function()
  H.valley{ units = { H.inf("c", "crown", "0405") } }
  local events = expect.accepted(kessel.act{ kind = "move", unit = "c", path = { "0505" } })
  expect.eq(events[1].cost, 3, "1 for clear and 2 for the river")
end)

-- Rule S2: a road costs half an MP and bridges the river
kessel.test("case_S2_road_costs_half_and_bridges_the_river", function()
  H.valley{ units = { H.inf("c", "crown", "0103") } }
  local events = expect.accepted(kessel.act{ kind = "move", unit = "c", path = { "0803" } })
  expect.eq(events[1].cost, 3.5, "seven road hexes, the river crossed on the road")
  expect.eq(#events[1].path, 7)
end)

-- Rule S2
kessel.test("case_S2_a_move_within_the_allowance_only_and_once_a_phase", function()
  H.valley{ units = { H.inf("c", "crown", "0101") } }
  local ok, reasons = kessel.act{ kind = "move", unit = "c", path = { "0106" } }
  expect.refused(ok, reasons, nil, "needs 5 MP, has 4 MP")
  expect.accepted(kessel.act{ kind = "move", unit = "c", path = { "0102" } })
  ok, reasons = kessel.act{ kind = "move", unit = "c", path = { "0103" } }
  expect.refused(ok, reasons, "S2", "already moved")
end)

-- Rule S3
kessel.test("case_S3_no_third_unit_in_a_hex", function()
  H.valley{ units = { H.inf("c1", "crown", "0202"), H.inf("c2", "crown", "0202"), H.inf("c3", "crown", "0201") } }
  local ok, reasons = kessel.act{ kind = "move", unit = "c3", path = { "0202" } }
  expect.refused(ok, reasons, "S3", "already holds 2")
  for _, a in ipairs(kessel.legal("crown")) do
    if a.kind == "move" then expect.falsy(a.path[1] == "0202", "a full hex is not offered") end
  end
  expect.accepted(kessel.act{ kind = "move", unit = "c3", path = { "0203" } })
end)

-- Rule S4: entering an enemy zone of control ends the move
kessel.test("case_S4_an_enemy_zone_of_control_stops_movement", function()
  -- l in 0302: its zone covers 0201 and 0301, on the only way to 0401 within 4 MP
  H.valley{ units = { H.inf("c", "crown", "0101"), H.inf("l", "league", "0302") } }
  local ok, reasons = kessel.act{ kind = "move", unit = "c", path = { "0401" } }
  expect.refused(ok, reasons, "S4", "entered an enemy zone of control at 0201")
  expect.accepted(kessel.act{ kind = "move", unit = "c", path = { "0201" } })
end)

-- Rule S4: a unit starting in an enemy zone may leave it, and stops in the next one it enters
kessel.test("case_S4_a_unit_may_leave_an_enemy_zone", function()
  H.valley{ units = { H.inf("c", "crown", "0203"), H.inf("l", "league", "0303") } }
  local events = expect.accepted(kessel.act{ kind = "move", unit = "c", path = { "0101" } })
  expect.eq(events[1].to, "0101")
  kessel.undo()
  -- and may go from one hex of the zone straight into another
  expect.accepted(kessel.act{ kind = "move", unit = "c", path = { "0202" } })
end)

-- Rule S4
kessel.test("case_S4_no_unit_enters_an_enemy_hex", function()
  H.valley{ units = { H.inf("c", "crown", "0203"), H.inf("l", "league", "0303") } }
  local ok, reasons = kessel.act{ kind = "move", unit = "c", path = { "0303" } }
  expect.refused(ok, reasons, "S4", "enemy units")
end)

-- Rule S4: the zone does not reach across the river
kessel.test("case_S4_no_zone_of_control_across_the_river", function()
  -- l at 0503 across the river from 0402 and 0403: a crown unit walks along the west bank
  H.valley{ units = { H.inf("c", "crown", "0401"), H.inf("l", "league", "0503") } }
  local events = expect.accepted(kessel.act{ kind = "move", unit = "c", path = { "0405" } })
  expect.eq(events[1].cost, 4, "0402, 0403, 0404, 0405 without a stop")
end)

-- Rule S12: frozen, the river costs nothing to cross and the zone reaches across it
kessel.test("case_S12_frozen_river_costs_nothing_and_carries_zones", function()
  H.valley{ units = { H.inf("c", "crown", "0402") }, options = { frozen_river = true } }
  local events = expect.accepted(kessel.act{ kind = "move", unit = "c", path = { "0502" } })
  expect.eq(events[1].cost, 1, "clear only")
  H.valley{ units = { H.inf("c", "crown", "0401"), H.inf("l", "league", "0503") }, options = { frozen_river = true } }
  local ok, reasons = kessel.act{ kind = "move", unit = "c", path = { "0405" } }
  expect.refused(ok, reasons, "S4", "zone of control")
end)

-- the editor's reach query agrees with the move rules
kessel.test("reach_query_lists_what_move_accepts", function()
  H.valley{ units = { H.inf("c", "crown", "0101"), H.inf("l", "league", "0302") } }
  local r = kessel.queries.ask("reach", { units = { "c" } })
  expect.eq(r.movers[1], "c")
  local listed = {}
  for _, e in ipairs(r.reachable) do listed[e.hex] = e.cost end
  expect.eq(listed["0201"], 1)
  expect.eq(listed["0401"], nil, "behind the zone")
  local l = kessel.queries.ask("reach", { units = { "l" } })
  expect.eq(l.refused[1].rule, "S1")
end)
