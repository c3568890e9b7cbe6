-- expect: memory limit
-- line: 4
local s = string.rep("a", 1e6)
local r = s:gsub("", string.rep("b", 1000))
