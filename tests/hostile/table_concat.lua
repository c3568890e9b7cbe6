-- expect: instruction budget
local t = {}
for i = 1, 100000 do t[i] = "x" end
while true do local s = table.concat(t) end
