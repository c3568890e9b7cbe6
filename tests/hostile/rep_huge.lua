-- expect: memory limit
-- line: 3
local s = string.rep("x", math.maxinteger)
