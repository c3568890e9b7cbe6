-- One declaration holding 2 MB (a name): copied into the engine's memory, which Lua's limit
-- does not see.
kessel.ruleset{ name = "huge", sides = { "red", "blue" } }
local name = string.rep("n", 2e6)
kessel.option{ id = "big", type = "bool", default = false, description = name, rule = "X" }
