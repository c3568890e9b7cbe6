-- Joining big strings in a loop: one `..` is one VM instruction however many megabytes it
-- copies, so the instruction budget alone would take hours; the wall-clock limit stops it.
-- expect: time limit exceeded
-- line: 6
local s = string.rep("x", 1 << 22)
while true do local t = s .. s end
