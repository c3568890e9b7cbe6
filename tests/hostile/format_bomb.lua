-- expect: instruction budget
local s = string.rep("x", 1e6)
while true do local r = string.format("%s%s%s%s", s, s, s, s) end
