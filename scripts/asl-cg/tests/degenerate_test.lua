-- Degenerate actions a careless script or a buggy client sends: refused naming what is wrong and
-- citing the case, never accepted to do nothing.
local T = require("testing.cg")
local expect = T.expect

-- [9.601] a Melee outcome that names nobody eliminated, captured or withdrawn leaves both sides in
-- the Location: it was accepted and changed nothing, and the same Melee stayed first [9.6011]
kessel.test("case_9.601_a_melee_outcome_naming_no_unit_is_refused", function()
  T.setup{ units = {
    T.squad("g1", "german", "4-6-7", "B10"), T.squad("b1", "british", "6-4-8", "B10"),
    T.squad("g2", "german", "4-6-7", "C9"), T.squad("b2", "british", "6-4-8", "C9"),
  } }
  local ok, why = kessel.act{ kind = "melee_outcome", hex = "B10" }
  expect.refused(ok, why, "9.601", "names no unit eliminated, captured or withdrawn")
  ok, why = kessel.act{ kind = "melee_outcome", hex = "B10", eliminated = {}, captured = {}, withdrawn = {} }
  expect.refused(ok, why, "9.601", "names no unit")
  expect.accepted(kessel.act{ kind = "melee_outcome", hex = "B10", eliminated = { "b1" } })
  -- the next Melee is C9's
  ok, why = kessel.act{ kind = "melee_outcome", hex = "B10", eliminated = { "g1" } }
  expect.refused(ok, why, "9.6011", "C9 comes first")
  -- a Melee both sides survive is left for end_step, which notes it unresolved
  local events = T.resolve()
  T.has_note(events, "left unresolved")
  T.replays()
end)
