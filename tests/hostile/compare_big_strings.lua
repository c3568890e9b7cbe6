-- Comparing two big strings (`<`, `==`) is one VM instruction that reads both in C, with no
-- allocation and no metamethod the sandbox can charge: a loop of them was stopped by the wall
-- clock alone. While a string of 1 MiB or more lives, every instruction is charged as if it
-- compared it, and no string is longer than 16 MiB, so this stops at the budget in a second.
-- expect: instruction budget
-- line: 8
local s = string.rep("x", 1 << 24)
local t = string.rep("x", (1 << 24) - 1) .. "y" while true do local _ = s < t end
