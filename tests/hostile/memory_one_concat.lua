-- expect: string too long
-- line: 9
-- One `..` asks for all its memory at once, between two budget checks: the error still names
-- the line whose allocation was refused, not the last line the budget hook saw. (18 MiB is
-- over the longest a string may be, refused like memory that ran out.)
local s = string.rep("x", (1 << 20) - 1)
local n = 0
for i = 1, 5000 do n = n + i end
local t = s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s .. s
return #t + n
