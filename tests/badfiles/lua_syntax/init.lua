kessel.ruleset{ name = "syntax", sides = { "red", "blue" } }

local x = = 1
