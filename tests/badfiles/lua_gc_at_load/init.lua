kessel.ruleset{ name = "gc", sides = { "red", "blue" } }
setmetatable({}, { __gc = function() while true do end end })
