-- expect: instruction budget
kessel.setup{ map = { columns = 99, rows = 99 } }
local list = {}
for i = 1, 200000 do list[i] = "0101" end
while true do kessel.hexset(list) end
