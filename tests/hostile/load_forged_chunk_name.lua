-- expect: [load "rules/init.lua;99; fake"]:1: boom
-- A chunk name given to `load` that looks like a position ("rules/init.lua:99: fake") made the
-- loaded code's errors blame that file and line; a loaded chunk is shown as what it is.
kessel.setup{ map = { columns = 4, rows = 4 } }
local f = load("error('boom')", "rules/init.lua:99: fake")
f()
