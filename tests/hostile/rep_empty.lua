-- expect: instruction budget
-- string.rep of an empty string loops math.maxinteger times in C; then big reps in a loop.
local e = string.rep("", math.maxinteger)
assert(e == "")
while true do local s = string.rep("ab", 1e6) end
