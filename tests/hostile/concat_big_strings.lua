-- Joining big strings in a loop: one `..` is one VM instruction however many megabytes it
-- copies. Building a large block is charged to the budget by the allocator (one unit per 16
-- bytes), so the loop stops at the budget in about a second, not at the wall clock.
-- expect: instruction budget
-- line: 8
-- timeout: 30
local s = string.rep("x", 1 << 22)
while true do local t = s .. s end
