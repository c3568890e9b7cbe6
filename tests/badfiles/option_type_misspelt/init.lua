-- An option type the engine does not have was named by its Lua type: `type = "float"` gave
-- `option `o`: type is "bool", "int" or a list of choices, not "string"`.
kessel.ruleset{ name = "option_type", sides = { "red", "blue" } }
kessel.option{ id = "o", type = "float", default = 1, description = "a ratio", rule = "R1" }
