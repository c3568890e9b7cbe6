-- expect: recursive table
-- line: 7
-- A table that contains itself, handed to the engine.
kessel.setup{ map = { columns = 4, rows = 4 } }
local t = {}
t[1] = t
kessel.emit.var("x", t)
