-- expect: longer than any move on this map
-- line: 8
kessel.setup{ map = { columns = 4, rows = 4 },
  units = { { id = "r", side = "red", type = "inf", faces = { "1-1-1" }, at = "0101" } } }
local path = {}
for i = 1, 1e6 do path[i] = (i % 2 == 0) and "0101" or "0102" end
-- a million-hex path, again and again
while true do kessel.emit.move("r", path) end
