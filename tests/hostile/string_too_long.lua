-- expect: string too long
-- expect: 16 MiB
-- line: 7
-- No string is longer than 16 MiB (comparing two of them is C work the budget cannot see):
-- the `..` that would make one is refused at its line, and pcall does not catch it.
local s = string.rep("x", 1 << 24)
local ok = pcall(function() return s .. "y" end)
return ok
