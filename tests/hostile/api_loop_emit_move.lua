-- expect: instruction budget
-- Converting a million-entry table for a call that is then refused, under pcall, forever.
kessel.setup{ map = { columns = 4, rows = 4 },
  units = { { id = "r", side = "red", type = "inf", faces = { "1-1-1" }, at = "0101" } } }
local path = {}
for i = 1, 1e6 do path[i] = (i % 2 == 0) and "0101" or "0102" end
while true do pcall(kessel.emit.move, "r", path) end
