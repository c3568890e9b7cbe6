-- Rule 6.5 and WBC09 #11: what an overrunning stack may do after it cleared the hex, and the
-- units an overrun stopped.

local expect = kessel.expect

local function pz(id, at) return { id = id, side = "german", type = "panzer", formation = "F" .. id, faces = { "7-7-10", "1-1-10" }, at = at } end
local function setup(wbc)
  kessel.setup{ map = { columns = 8, rows = 8 }, step = "german_movement", turn = 7,
    options = { wbc09_11_overrun_stack_may_split = wbc },
    units = {
      pz("a", "0303"), pz("b", "0303"), pz("c", "0101"),
      { id = "s", side = "soviet", type = "rifle", faces = { "1-1-6" }, at = "0403" },
      { id = "sup", side = "soviet", type = "leader", faces = { "0-5-10" }, attrs = { rating = 5 }, at = "0808" },
    } }
  kessel.inject_dice{ 1 } -- 14 halved 7 against 1: 7-1, roll 1: De
  expect.accepted(kessel.act{ kind = "overrun", units = { "a", "b" }, target = "0403" })
  expect.eq(kessel.units.get("a").hex, "0403", "the overrunners entered the cleared hex")
end

-- Rule 6.5: the stack that overran goes on as one stack.
kessel.test("case_6_5_overrun_group_moves_on_together", function()
  setup(false)
  local ok, r = kessel.act{ kind = "move", units = { "a" }, path = { "0503" } }
  expect.refused(ok, r, "6.5", "moves on together")
  expect.accepted(kessel.act{ kind = "move", units = { "a", "b" }, path = { "0503" } })
  expect.eq(kessel.units.get("b").hex, "0503")
end)

-- Rule 6.5: once another stack moves, the overrunners' move is over.
kessel.test("case_6_5_overrun_group_stops_when_another_stack_moves", function()
  setup(false)
  expect.accepted(kessel.act{ kind = "move", units = { "c" }, path = { "0102" } })
  expect.truthy(kessel.units.get("a").flags.stopped)
  local ok, r = kessel.act{ kind = "move", units = { "a", "b" }, path = { "0503" } }
  expect.refused(ok, r, "6.5", "stopped by its overrun")
end)

-- WBC09 #11: the stack may split after the overrun, but finishes before any other unit moves.
kessel.test("case_wbc09_11_overrun_stack_may_split_then_finishes_first", function()
  setup(true)
  expect.accepted(kessel.act{ kind = "move", units = { "a" }, path = { "0503" } })
  expect.accepted(kessel.act{ kind = "move", units = { "b" }, path = { "0404" } })
  expect.accepted(kessel.act{ kind = "move", units = { "c" }, path = { "0102" } })
  local ok, r = kessel.act{ kind = "move", units = { "a" }, path = { "0504" } }
  expect.refused(ok, r, "6.5", "stopped by its overrun")
end)

-- Rule 6.5: overrunners stopped by a split, Eng or loss may not move on by ordinary movement.
kessel.test("case_6_5_stopped_overrunners_may_not_move", function()
  kessel.setup{ map = { columns = 8, rows = 8 }, step = "german_movement", turn = 7,
    units = { { id = "a", side = "german", type = "panzer", formation = "Fa", faces = { "7-7-10", "1-1-10" }, at = "0303", flags = { "stopped" } } } }
  local ok, r = kessel.act{ kind = "move", units = { "a" }, path = { "0302" } }
  expect.refused(ok, r, "6.5", "stopped by its overrun")
end)

-- Rule 6.5: the list of legal moves never offers to split the overrun stack, and the group's
-- right to move on ends with the phase.
kessel.test("case_6_5_overrun_group_enumerated_whole_and_cleared_next_phase", function()
  setup(false)
  for _, a in ipairs(kessel.legal()) do
    if a.kind == "move" then
      local has_a, has_b = false, false
      for _, id in ipairs(a.units) do has_a = has_a or id == "a"; has_b = has_b or id == "b" end
      expect.truthy(has_a == has_b, "no listed move splits the overrun stack")
    end
  end
  expect.accepted(kessel.act{ kind = "end_phase" })
  expect.eq(kessel.game.var("overrun_group"), nil)
end)
