-- expect: instruction budget
-- Methods reached through the string metatable are the bounded ones too.
local s = ("a"):rep(40)
while true do pcall(s.find, s, "a-a-a-a-a-a-a-a-a-a-a-a-b") end
