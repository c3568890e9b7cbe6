-- expect: kessel.setup: unit `a`: step 99 but 1 face(s) (steps count from 0)
-- line: 12
-- kessel.setup accepted what a scenario file and the emit functions refuse: a unit on a step it
-- has no face for, a side the ruleset lacks (unit or marker), a turn after the last; each failed
-- later, at the first action that read it.
local function refused(spec, said)
  local ok, e = pcall(kessel.setup, spec)
  assert(not ok and tostring(e):find(said, 1, true), tostring(e))
end
refused({ map = { columns = 4, rows = 4 }, turn = 13, last_turn = 12 }, "turn = 13 is after last_turn = 12")
refused({ map = { columns = 4, rows = 4 }, markers = { { kind = "mine", side = "green", at = "0101" } } }, "side `green` is not a side")
kessel.setup{ map = { columns = 4, rows = 4 }, units = { { id = "a", side = "red", type = "inf", faces = { "3-3-4" }, step = 99, at = "0101" } } }
