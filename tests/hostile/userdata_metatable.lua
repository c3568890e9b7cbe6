-- expect: attempt to index a boolean value
-- line: 8
-- The metatable of the engine's own values (a HexSet, a movement field) is not the script's to
-- change: getmetatable gives no table, so no __gc or __index can be put on every set the
-- engine makes.
local s = kessel.hexset({})
local mt = getmetatable(s)
mt.__gc = function() while true do end end
