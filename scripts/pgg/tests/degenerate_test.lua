-- Degenerate actions a careless script or a buggy client sends: each is refused naming the field
-- or the unit and citing the action's case, never accepted to do nothing, to count a unit twice,
-- or to fail later inside the rules. The list check is `C.shape_reason` (rules/common.lua).
local expect = kessel.expect
local B = require("testing.board10")

local function refused(a, rule, text)
  local ok, why = kessel.validate(a)
  expect.refused(ok, why, rule, text)
end

-- [6.1] [6.3] [6.5] [9.1] a unit named twice in `units` would pay its MP twice (a move, an
-- overrun's +3) or be read twice: refused naming the unit, and the stack's MP are untouched
kessel.test("case_6_1_a_unit_named_twice_in_units_is_refused_naming_it", function()
  B.setup({ B.pz("g", "0303", "8-8-10"), B.pz("h", "0306", "4-4-10"), B.rifle("s", "0403", "1-1-6"), B.leader("L", "0803", 3) }, { step = "german_movement" })
  refused({ kind = "move", units = { "h", "h" }, path = { "0307" } }, "6.1", "`units` names h twice")
  refused({ kind = "overrun", units = { "g", "g" }, target = "0403" }, "6.5", "`units` names g twice")
  expect.eq(kessel.units.get("g").vars.mp_spent, nil, "nothing was spent")
  expect.eq(kessel.units.get("h").vars.mp_spent, nil, "nothing was spent")
  expect.accepted(kessel.act{ kind = "move", units = { "h" }, path = { "0307" } })
  expect.eq(kessel.units.get("h").vars.mp_spent, 2, "one clear hex is one MP, paid once")
  B.setup({ B.rifle("a", "0503"), B.leader("L", "0503", 3) }, { step = "soviet_movement" })
  refused({ kind = "rail_move", units = { "a", "a" }, path = { "0603" } }, "6.3", "`units` names a twice")
  refused({ kind = "select_returning", units = { "a", "a" } }, "WBC09 #14", "`units` names a twice")
  B.setup({ B.pz("g", "0303", "8-8-10"), B.rifle("s", "0403", "1-1-6"), B.leader("L", "0503", 3) })
  refused({ kind = "attack", units = { "g", "g" }, targets = { "0403" } }, "9.1", "`units` names g twice")
end)

-- [9.72] [9.8] the same in a retreat or an advance after combat; [9.6] a loss may name a unit once
-- a step, so there a unit named twice is two steps (refused only beyond its steps)
kessel.test("case_9_retreat_and_advance_naming_a_unit_twice_are_refused", function()
  B.setup({ B.pz("g", "0303", "8-8-10"), B.rifle("s", "0403", "2-2-6"), B.leader("sup", "0706", 5) })
  kessel.inject_dice{ 1 } -- 8 against 2: 4-1, roll 1: D2
  expect.accepted(B.attack({ "g" }, { "0403" }))
  refused({ kind = "choose", choice = "loss", units = { "s", "s" } }, "9.6", "s has only 1 step")
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat" })
  refused({ kind = "retreat", units = { "s", "s" }, path = { "0503", "0603" } }, "9.72", "`units` names s twice")
  expect.accepted(B.retreat({ "s" }, { "0503", "0603" }))
  refused({ kind = "advance", units = { "g", "g" }, path = { "0403" } }, "9.8", "`units` names g twice")
  expect.accepted(B.advance({ "g" }, { "0403" }))
  expect.eq(B.where("g"), "0403")
end)

-- [9.6] a choice that names a unit outside the decision is refused, a retreat too (the unit named
-- was ignored and the defender's stack retreated)
kessel.test("case_9_6_a_choice_naming_a_unit_not_in_the_decision_is_refused", function()
  B.setup({ B.pz("g", "0303", "8-8-10"), B.rifle("s", "0403", "2-2-6"), B.rifle("t", "0404", "2-2-6"), B.leader("sup", "0706", 5) })
  kessel.inject_dice{ 1 } -- D2
  expect.accepted(B.attack({ "g" }, { "0403" }))
  refused({ kind = "choose", choice = "retreat", units = { "t" } }, "9.6", "`t` is not one of the units")
  refused({ kind = "choose", choice = "loss", units = { "t" } }, "9.6", "`t` is not one of the units")
  refused({ kind = "choose", choice = "retreat", units = { "s", "s" } }, "9.6", "`units` names s twice")
  expect.eq(B.pending().kind, "loss_or_retreat", "the decision still waits")
  expect.accepted(kessel.act{ kind = "choose", choice = "retreat", units = { "s" } })
  expect.eq(B.pending().kind, "retreat_path")
end)
