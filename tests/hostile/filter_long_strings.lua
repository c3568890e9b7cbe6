-- expect: instruction budget
-- line: 6
-- A unit or marker filter holding a megabyte of text, new each time: reading and keeping it was
-- native work the budget did not see, so the loop ran into the wall clock.
local big = string.rep("x", 1000000)
for i = 1, 1e9 do kessel.units.all{ formation = big .. i } end
