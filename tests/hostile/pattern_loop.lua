-- expect: instruction budget
-- A quadratic pattern, again and again under pcall.
local s = string.rep("a", 20000)
while true do pcall(string.find, s, ".-.-b") end
