-- expect: hexsets dropped are given back
-- Sets no longer held are collected before a new one is refused: making far more than the limit
-- holds, one at a time, runs to the end.
kessel.setup{ map = { columns = 99, rows = 99 } }
local s = kessel.hexset(kessel.map.hexes())
for _ = 1, 40000 do local c = s:union(s) end
error("hexsets dropped are given back")
