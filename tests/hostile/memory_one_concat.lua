-- expect: memory limit exceeded
-- line: 8
-- One `..` asks for all its memory at once, between two budget checks: the error still names
-- the line whose allocation was refused, not the last line the budget hook saw.
local s = string.rep("x", 1 << 24)
local n = 0
for i = 1, 5000 do n = n + i end
local t = s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s
return #t + n
