-- Converting a string to a number reads every digit (and strtod reads them again): tonumber,
-- math.tointeger and arithmetic on a string ("1..1" + 0) on a 20 MB string (1 MB here), in a loop, were
-- stopped only by the wall clock. Each is charged by the length of the string now.
-- expect: instruction budget
-- line: 9
-- timeout: 30
local s = string.rep("1", 1e6)
local n = 0
while true do n = n + (s + 0) // 1e300 + tonumber(s) // 1e300 + (math.tointeger(s) or 0) end
