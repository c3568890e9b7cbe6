-- expect: over the limit
-- line: 4
kessel.setup{ map = { columns = 9, rows = 9 } }
local hexes = kessel.hex.range("0505", 4000000000)
