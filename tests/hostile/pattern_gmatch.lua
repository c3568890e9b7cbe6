-- expect: instruction budget
local s = string.rep("ab", 30000)
for w in s:gmatch("(.-)%1x") do end
