-- expect: instruction budget
local src = "return " .. string.rep("1 + ", 100000) .. "1"
while true do load(src) end
