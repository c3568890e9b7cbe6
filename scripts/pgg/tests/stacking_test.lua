-- Stacking [7.1] [7.2], checkpoints (option german_stacking_checkpoint), excess elimination.
local expect = kessel.expect

local function rifle(id, at) return { id = id, name = id, side = "soviet", type = "rifle", faces = { "3-3-6" }, at = at } end
local function leader(id, at) return { id = id, name = id, side = "soviet", type = "leader", faces = { "0-3-10" }, attrs = { rating = 3 }, at = at } end
local function pz(id, at) return { id = id, name = id, side = "german", type = "panzer", faces = { "4-4-10", "2-2-10" }, at = at } end

local function board(units, step, options)
  kessel.setup{ map = { columns = 8, rows = 8 }, units = units, step = step or "soviet_movement", turn = 7, options = options }
end

-- Rule 7.1
kessel.test("case_7_1_soviet_limit_three_combat_or_four_with_leaders", function()
  local ST = require("rules.stacking")
  local u = function(n, l)
    local t = {}
    for i = 1, n do t[#t + 1] = { side = "soviet", type = "rifle" } end
    for i = 1, l do t[#t + 1] = { side = "soviet", type = "leader" } end
    return t
  end
  expect.truthy(ST.limit_ok("soviet", u(3, 1)), "3 + leader")
  expect.truthy(ST.limit_ok("soviet", u(2, 2)), "2 + 2 leaders (WBC09 #12)")
  local ok, why = ST.limit_ok("soviet", u(4, 0))
  expect.falsy(ok); expect.eq(why.rule, "7.1")
  ok, why = ST.limit_ok("soviet", u(3, 2))
  expect.falsy(ok); expect.truthy(why.message:find("limit 4"), why.message)
end)

-- Rule 7.2
kessel.test("case_7_2_german_limit_three", function()
  local ST = require("rules.stacking")
  local g = function(n) local t = {} for i = 1, n do t[i] = { side = "german", type = "panzer" } end return t end
  expect.truthy(ST.limit_ok("german", g(3)))
  local ok, why = ST.limit_ok("german", g(4))
  expect.falsy(ok); expect.eq(why.rule, "7.2")
end)

-- Rule 7.1
kessel.test("case_7_1_overstack_allowed_in_passing_checked_at_end_of_movement", function()
  board{ rifle("a", "0404"), rifle("b", "0404"), rifle("c", "0404"), rifle("d", "0403") }
  expect.accepted(kessel.act{ kind = "move", units = { "d" }, path = { "0404" } })
  local ok, r = kessel.act{ kind = "end_phase" }
  expect.refused(ok, r, "7.1", "hex 0404: 4 Soviet combat units")
  expect.accepted(kessel.act{ kind = "move", units = { "d" }, path = { "0405" } })
  expect.accepted(kessel.act{ kind = "end_phase" })
end)

-- Rule 7.1
kessel.test("case_7_1_excess_eliminated_by_owners_choice", function()
  board{ rifle("a", "0404"), rifle("b", "0404"), rifle("c", "0404"), rifle("d", "0404"), leader("l", "0404") }
  local ok, r = kessel.act{ kind = "eliminate_excess", unit = "l" }
  expect.refused(ok, r, "7.1", "would not bring hex 0404 nearer")
  expect.accepted(kessel.act{ kind = "eliminate_excess", unit = "b" })
  expect.eq(kessel.units.get("b").location, "eliminated")
  ok, r = kessel.act{ kind = "eliminate_excess", unit = "a" }
  expect.refused(ok, r, "7.1", "within the stacking limit")
  expect.accepted(kessel.act{ kind = "end_phase" })
end)

-- Rule 7.2 (option german_stacking_checkpoint)
kessel.test("case_7_2_german_checkpoint_option", function()
  local units = { pz("a", "0404"), pz("b", "0404"), pz("c", "0404"), pz("d", "0404") }
  board(units, "german_disruption_removal")
  expect.accepted(kessel.act{ kind = "end_phase" }, "default: only movement and combat are checkpoints")
  board(units, "german_disruption_removal", { german_stacking_checkpoint = "every_phase" })
  local ok, r = kessel.act{ kind = "end_phase" }
  expect.refused(ok, r, "7.2", "4 German units")
  board(units, "german_mech_movement")
  ok, r = kessel.act{ kind = "end_phase" }
  expect.refused(ok, r, "7.2", "4 German units")
  -- the Soviet is not checked in the German Movement Phase
  board({ rifle("a", "0404"), rifle("b", "0404"), rifle("c", "0404"), rifle("d", "0404") }, "german_movement")
  expect.accepted(kessel.act{ kind = "end_phase" })
end)

-- Rule 7.1
kessel.test("case_7_1_eliminate_offered_only_when_units_cannot_move", function()
  board{ rifle("a", "0404"), rifle("b", "0404"), rifle("c", "0404"), rifle("d", "0404") }
  for _, a in ipairs(kessel.legal("soviet")) do expect.truthy(a.kind ~= "eliminate_excess", "moves come first") end
  board({ rifle("a", "0404"), rifle("b", "0404"), rifle("c", "0404"), rifle("d", "0404") }, "soviet_combat")
  local n = 0
  for _, a in ipairs(kessel.legal("soviet")) do if a.kind == "eliminate_excess" then n = n + 1 end end
  expect.eq(n, 4)
end)
