-- rawequal of two different strings of the same 1 MB compares every byte in one C call.
-- expect: instruction budget
-- line: 7
-- timeout: 30
local s = string.rep("a", 1e6)
local t = string.rep("a", 1e6 - 1) .. "a"
while true do local _ = rawequal(s, t) end
