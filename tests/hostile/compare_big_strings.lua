-- Comparing two big strings (`<`, `==`) is one VM instruction that reads both, with no
-- allocation and no metamethod the sandbox can charge: only the wall-clock limit stops a loop
-- of them. This case keeps that safety net tested.
-- expect: time limit exceeded
-- line: 8
local s = string.rep("x", 1 << 26)
local t = s .. "y"
while true do local _ = s < t end
