-- expect: bad argument #3 to `kessel.emit.clock`: expected true or false, got a string
-- line: 8
-- A flag argument takes true or false only: the bindings read any value by its truth, so
-- `kessel.emit.clock(1, 0, "no")` ended the game and `emit.flag(u, f, 0)` set the flag.
kessel.setup{ map = { columns = 4, rows = 4 } }
local ok, e = pcall(kessel.setup, { map = { columns = 4, rows = 4 }, run_step_start = "yes" })
assert(not ok and tostring(e):find("`run_step_start` is the string \"yes\", not true or false", 1, true), tostring(e))
kessel.emit.clock(1, 0, "no")
