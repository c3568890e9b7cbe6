-- expect: the whole map
-- A radius past the map's edges is clamped to the map, never allocated.
kessel.setup{ map = { columns = 9, rows = 9 } }
assert(#kessel.hex.range("0505", 5000) == 81)
assert(#kessel.hex.ring("0505", 9000) == 0)
error("the whole map, and nothing more")
