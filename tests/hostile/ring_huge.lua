-- expect: over the limit
-- line: 4
kessel.setup{ map = { columns = 9, rows = 9 } }
local hexes = kessel.hex.ring("0505", 2^31)
