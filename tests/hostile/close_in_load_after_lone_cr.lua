-- expect: to-be-closed variables
-- A comment ends at a lone carriage return, as Lua reads it; the <close> after it is code.
local f = load("-- a comment\rlocal guard <close> = setmetatable({}, { __close = function() while true do end end })\rwhile true do end")
f()
