-- expect: faces is over the limit (64)
-- line: 7
-- A unit's faces are kept in Rust memory: their number is bounded.
kessel.setup{ map = { columns = 4, rows = 4 } }
local faces = {}
for i = 1, 100000 do faces[i] = "1-1-1" end
kessel.emit.create_unit{ side = "red", type = "inf", faces = faces }
