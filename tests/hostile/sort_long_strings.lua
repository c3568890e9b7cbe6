-- expect: instruction budget
-- line: 8
-- Sorting without a comparator compares strings in C, byte by byte, inside one call the hook
-- never sees: 20000 copies of one 64 MiB string took hours (this is 1 MB).
local s = string.rep("x", 1e6)
local t = {}
for i = 1, 20000 do t[i] = s end
table.sort(t)
