-- expect: [load "load"]:2: to-be-closed variables
-- A <close> hidden in a string given to load.
local f = load("local a = 1\nlocal guard <close> = setmetatable({}, { __close = function() while true do end end })")
f()
