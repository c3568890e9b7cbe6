-- expect: instruction budget
local t = {}
for i = 1, 200000 do t[i] = (i * 7919) % 200000 end
while true do table.sort(t) end
