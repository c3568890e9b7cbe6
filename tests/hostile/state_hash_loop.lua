-- expect: instruction budget
-- line: 9
-- timeout: 40
-- kessel.state_hash writes the whole state out to hash it: a loop of it over a big game is work
-- the budget counts by the state's size, not one cheap call each (it ran past the wall clock).
local units = {}
for i = 1, 20000 do units[i] = { id = "u" .. i, side = "red", type = "inf", faces = { "1-1-1" }, at = "0101" } end
kessel.setup{ map = { columns = 99, rows = 99 }, units = units }
while true do kessel.state_hash() end
