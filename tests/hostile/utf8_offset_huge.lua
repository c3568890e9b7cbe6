-- utf8.offset walks the string to the character asked for, all inside one C call: a loop of
-- it on a 100 MB string (1 MB here) was stopped only by the wall clock (19 s). It is charged by the length
-- of the string now.
-- expect: instruction budget
-- line: 8
-- timeout: 30
local s = string.rep("a", 1e6)
while true do local _ = utf8.offset(s, 999999) end
