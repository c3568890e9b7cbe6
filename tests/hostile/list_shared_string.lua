-- expect: instruction budget
-- line: 7
-- A list argument whose items share one long string (Lua holds it once) was copied item by item
-- before anything was charged: twenty thousand copies of 512 KiB, ten gigabytes, for one call.
kessel.setup{ map = { columns = 2, rows = 2 } }
local s, hexes = string.rep("x", 1 << 19), {} for i = 1, 20000 do hexes[i] = s end
kessel.map.regions(hexes)
