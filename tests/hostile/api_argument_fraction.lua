-- expect: bad argument #2 to `kessel.hex.range`: expected a whole number, got a number with a fraction
-- line: 6
-- A whole number given with a fraction: said as such, not as a Rust integer type ("i32") that
-- is "out of range".
kessel.setup{ map = { columns = 4, rows = 4 } }
local ring = kessel.hex.range("0202", 1.5)
