-- expect: instruction budget
-- line: 6
-- The sandbox's own wrappers must not call library fields a mod can replace: with
-- math.tointeger swapped, string.rep once skipped its checks and looped in C for ever.
math.tointeger = tostring
local e = string.rep("", math.maxinteger)
