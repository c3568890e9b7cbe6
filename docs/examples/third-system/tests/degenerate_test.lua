-- Degenerate actions a careless script sends: refused naming the unit and citing the case, never
-- accepted to fail when applied.
local expect = kessel.expect
local H = require("tests.helpers")

-- [S2] a unit moves to its path's last hex: a path that ends where the unit stands, named alone or
-- after a loop, goes nowhere (it was accepted and failed when applied, on an empty path); a path
-- naming a hex twice is no path
kessel.test("case_S2_a_move_that_ends_where_it_starts_or_repeats_a_hex_is_refused", function()
  H.valley{ units = { H.inf("c1", "crown", "0203"), H.inf("l1", "league", "0703") } }
  local ok, why = kessel.act{ kind = "move", unit = "c1", path = { "0203" } }
  expect.refused(ok, why, "S2", "c1 is already in 0203")
  ok, why = kessel.act{ kind = "move", unit = "c1", path = { "0103", "0203" } }
  expect.refused(ok, why, "S2", "c1 is already in 0203")
  ok, why = kessel.act{ kind = "move", unit = "c1", path = { "0103", "0103" } }
  expect.refused(ok, why, "S2", "names 0103 twice")
  expect.eq(kessel.units.get("c1").flags.moved, nil, "the unit may still move")
  expect.accepted(kessel.act{ kind = "move", unit = "c1", path = { "0103" } })
end)

-- [S2] a destination beyond the unit's allowance is refused citing S2 (the search's reason cited
-- no case)
kessel.test("case_S2_a_move_out_of_reach_cites_s2", function()
  H.valley{ units = { H.inf("c1", "crown", "0106") } }
  local ok, why = kessel.act{ kind = "move", unit = "c1", path = { "0806" } }
  expect.refused(ok, why, "S2", "out of reach")
end)
