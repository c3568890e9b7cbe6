-- expect: memory limit exceeded: the hexsets, movement fields and `legal` listings alive hold
-- line: 8
-- A hexset is a byte per hex of the map in the engine's memory, which Lua's memory limit does
-- not see (it sees a small userdata): a loop keeping copies of a set of the largest map filled
-- it at 80 MB a second until the wall clock stopped it, and kept them for the next call.
kessel.setup{ map = { columns = 99, rows = 99 } }
local s, kept = kessel.hexset(kessel.map.hexes()), {}
while true do kept[#kept + 1] = s:copy() end
