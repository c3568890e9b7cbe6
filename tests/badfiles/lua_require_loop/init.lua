kessel.ruleset{ name = "require_loop", sides = { "red", "blue" } }

local movement = require("rules.movement")
