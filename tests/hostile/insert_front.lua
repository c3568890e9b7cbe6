-- expect: instruction budget
local t = {}
while true do table.insert(t, 1, 0) end
