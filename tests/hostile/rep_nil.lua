-- expect: bad argument #1 to 'string.rep'
-- line: 6
-- The sandbox's string.rep turned its first argument into a string: `string.rep(nil, 2)` gave
-- "nilnil" (and a table its address twice) where Lua refuses it, hiding a nil variable in a rule.
local name
local s = string.rep(name, 2)
