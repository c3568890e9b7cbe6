kessel.ruleset{ name = "loop", sides = { "red", "blue" } }
local ok = pcall(function() while true do end end)
while true do pcall(error) end
