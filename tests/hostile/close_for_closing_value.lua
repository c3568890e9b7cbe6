-- expect: instruction budget
-- line: 9
-- A generic for's fourth value is closed as a <close> variable is, and its __close may be put in
-- its metatable after setmetatable looked. Stopped by the budget inside the loop, Lua closed it
-- inside the budget hook, with the hooks off: the loop in __close ran for ever.
local mt = {}
local closer = setmetatable({}, mt)
mt.__close = function() while true do end end
for _ in function() return 1 end, nil, nil, closer do while true do end end
