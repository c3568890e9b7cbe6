-- Regressions found by playing whole campaign games with `kessel simulate`: positions where the
-- rules enumerated nothing, or where the enumerators and the validators disagreed.
local expect = kessel.expect

local function rifle(id, at, extra)
  local u = { id = id, name = id, side = "soviet", type = "rifle", faces = { "3-3-6" }, at = at }
  for k, v in pairs(extra or {}) do u[k] = v end
  return u
end
local function reserve(id, formation)
  return { id = id, name = id, side = "soviet", type = "rifle", hidden = true, pool = "rifle", formation = formation }
end

local function count(kind, side)
  local n = 0
  for _, a in ipairs(kessel.legal(side)) do if a.kind == kind then n = n + 1 end end
  return n
end

-- Every overstacked hex must leave its owner something to do: a move away, or (once nothing can
-- move) an elimination. The engine's simulate loop stops when the rules enumerate nothing.
local function some_action_for(hex)
  for _, a in ipairs(kessel.legal()) do
    if a.kind == "eliminate_excess" then return true end
    if a.kind == "move" and a.units then
      local u = kessel.units.get(a.units[1])
      if u and u.hex == hex then return true end
    end
  end
  return false
end

-- Rule 7.1, 13.2: before the German's air markers are down the Soviet units only wait; the owner
-- of an overstacked set-up hex must not be pushed into eliminating units he can still move.
kessel.test("case_7_1_no_elimination_while_waiting_for_initial_air_markers", function()
  kessel.setup{ map = { columns = 10, rows = 8 }, step = "soviet_movement", turn = 1,
    units = { rifle("a", "0505"), rifle("b", "0505"), rifle("c", "0505"), rifle("d", "0505") },
    markers = { { kind = "air_interdiction", side = "german", count = 3 } },
    vars = { first_turn_16 = "move", first_turn_19 = "move" } }
  expect.eq(count("eliminate_excess"), 0, "nothing eliminated while the units only wait")
  expect.eq(count("end_air_placement"), 1)
  expect.accepted(kessel.act{ kind = "end_air_placement" })
  expect.eq(count("eliminate_excess"), 0, "the units can move now")
  expect.truthy(count("move") > 0)
end)

-- Rule 7.1, 6.1: units of one hex with different MP left. The stack as a whole reaches nothing
-- (one unit has ½ MP), but the others can leave alone: the move enumerator must offer them (split
-- moves), as the stacking rules count on them moving away before elimination is offered.
kessel.test("case_7_1_overstacked_stack_with_uneven_mp_can_split", function()
  kessel.setup{ map = { columns = 8, rows = 8 }, step = "soviet_movement", turn = 7,
    units = { rifle("a", "0404", { vars = { mp_spent = 11 } }), rifle("b", "0404"), rifle("c", "0404"), rifle("d", "0404") } }
  expect.truthy(some_action_for("0404"), "an action for the overstacked hex")
  local singles = 0
  for _, a in ipairs(kessel.legal("soviet")) do
    if a.kind == "move" and #a.units == 1 and a.units[1] ~= "a" then singles = singles + 1 end
  end
  expect.truthy(singles > 0, "single units may leave the stack")
  expect.eq(count("eliminate_excess"), 0, "not while units can move away")
  for _, a in ipairs(kessel.legal("soviet")) do
    if a.kind == "move" then expect.accepted(kessel.validate(a)); break end
  end
  expect.accepted(kessel.act{ kind = "move", units = { "b" }, path = { "0504" } })
  local ok, why = kessel.act{ kind = "end_phase" }
  expect.accepted(ok, why)
end)

-- Rule 14.3, 7.1: reinforcements enter a one-hex area in groups of three; two groups overstack the
-- entry hex, and the units must then be able to spread out (not only move on as one stack).
kessel.test("case_14_3_reinforcements_overstacking_their_entry_hex_can_spread", function()
  local units = {}
  for i = 1, 6 do units[i] = rifle("r" .. i, nil, { enter = { turn = 3, area = "X" } }) end
  kessel.setup{ map = { columns = 10, rows = 8, areas = { X = { "1004" } } }, step = "soviet_movement", turn = 3,
    units = units }
  expect.accepted(kessel.act{ kind = "move", units = { "r1", "r2", "r3" }, path = { "1004" } })
  expect.accepted(kessel.act{ kind = "move", units = { "r4", "r5", "r6" }, path = { "1004" } })
  local ok, why = kessel.act{ kind = "end_phase" }
  expect.refused(ok, why, "7.1", "6 Soviet combat units")
  expect.truthy(some_action_for("1004"))
  local singles = 0
  for _, a in ipairs(kessel.legal("soviet")) do
    if a.kind == "move" and #a.units == 1 then singles = singles + 1 end
  end
  expect.truthy(singles > 0, "single units may leave the crowded entry hex")
  expect.eq(count("eliminate_excess"), 0, "the units can still move")
  expect.accepted(kessel.act{ kind = "move", units = { "r1" }, path = { "0904" } })
  expect.accepted(kessel.act{ kind = "move", units = { "r2" }, path = { "0903" } })
  expect.accepted(kessel.act{ kind = "move", units = { "r3" }, path = { "0905" } })
  expect.accepted(kessel.act{ kind = "end_phase" })
end)

-- Rule 14.1, 14.2: the provisional divisions and the South-Western Front each draw their own
-- reserve (formation), so one never uses up the other's counters.
kessel.test("case_14_1_14_2_reserves_drawn_by_formation", function()
  local rail = {}
  for c = 5, 20 do rail[#rail + 1] = string.format("%02d06", c) end
  rail[#rail + 1] = "2007"; rail[#rail + 1] = "2008"
  local function board(step)
    kessel.setup{ map = { columns = 30, rows = 8,
        links = { { kind = "railway", path = rail } },
        areas = { P1 = { "0301" }, P2 = { "1001" }, P3 = { "2001" }, P4 = { "1208" }, P5 = { "0808" }, P6 = { "0308" }, Z = { "0808" } } },
      units = { reserve("p1", "Provisional"), reserve("s1", "South-Western Front") },
      step = step, turn = 3, pools = { rifle = { "3-3-6" } } }
  end
  board("soviet_movement")
  expect.accepted(kessel.act{ kind = "swf_call", hex = "2008" })
  expect.eq(kessel.units.get("s1").hex, "2008", "the South-Western Front's own reserve")
  expect.eq(kessel.units.get("p1").location, "pending")
  board("german_air_interdiction")
  kessel.inject_dice{ 3 }
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.units.get("p1").hex, "2001", "the provisional reserve")
  expect.eq(kessel.units.get("s1").location, "pending")
end)

-- Rule 6.1, 6.7: a one-hex path to an ADJACENT hex is the single step into it, while the move
-- enumerator reached that hex by the cheapest way (a road around a river). It must list a move
-- that `move` accepts: the road path itself (seed 109 of the campaign stopped on this).
kessel.test("case_6_1_adjacent_destination_reached_the_long_way_is_listed_with_its_path", function()
  kessel.setup{ map = { columns = 10, rows = 10,
      hexsides = { { "0505", "0506", "river" } },
      links = { { kind = "road", path = { "0505", "0605", "0506" } } } },
    step = "german_movement", turn = 3,
    units = { { id = "g", name = "g", side = "german", type = "panzer", faces = { "4-4-10", "2-2-10" }, at = "0505",
      vars = { mp_spent = 17 } } } }
  local ok, why = kessel.act{ kind = "move", units = { "g" }, path = { "0506" } }
  expect.refused(ok, why, "6.1", "needs 3 MP")
  local found
  for _, a in ipairs(kessel.legal("german")) do
    if a.kind == "move" and a.path[#a.path] == "0506" then found = a end
  end
  expect.truthy(found, "0506 is reachable by road")
  expect.eq(table.concat(found.path, ","), "0605,0506", "listed with the road path")
  for _, a in ipairs(kessel.legal("german")) do
    if a.kind == "move" then expect.accepted(kessel.validate(a)) end
  end
  expect.accepted(kessel.act(found))
end)
