-- One declaration holding 100 MB (a name): copied into the engine's memory, which Lua's limit
-- does not see.
kessel.ruleset{ name = "huge", sides = { "red", "blue" } }
local name = string.rep("n", 1e8)
kessel.option{ id = "big", type = "bool", default = false, description = name, rule = "X" }
