-- expect: instruction budget
-- Each call does native work over the whole map: a loop of them is charged to the budget.
kessel.setup{ map = { columns = 99, rows = 99 } }
local all = kessel.map.hexes()
while true do kessel.map.enclosed(all) end
