-- expect: string too long
-- line: 10
-- A C function (table.concat, string.format, string.upper) that runs out of memory raises with
-- no position: the error names the script line that called it.
local s = string.rep("x", (1 << 20) - 1)
local parts = {}
for i = 1, 18 do parts[i] = s end
local n = 0
for i = 1, 5000 do n = n + i end
local t = table.concat(parts)
return #t + n
