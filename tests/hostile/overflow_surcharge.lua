-- expect: no overflow
-- Costs that saturate instead of wrapping (an overflow panicked here before).
kessel.setup{ map = { columns = 6, rows = 5 }, units = { { id = 'r', side = 'red', type = 'inf', faces = { '3-3-4' }, at = '0101' } } }
local f = kessel.paths.field{ from = '0101', budget = 1e300, class = 'foot', side = 'red',
  surcharge = { { set = { '0102' }, mp = 1/0 }, { set = { '0102' }, mp = 1e300 } } }
-- (a negative strength is refused by name: the extremes here are the largest strength and shifts)
local o = kessel.tables.odds("crt", 2147483647, 1, 2147483647)
kessel.tables.odds("crt", 0, 2147483647, -2147483648)
local r = kessel.tables.result("crt", 1, -2147483648)
error("no overflow: " .. tostring(f:cost("0103")) .. " " .. o.column .. " " .. tostring(r))
