kessel.ruleset{ name = "queries", sides = { "red", "blue" } }

kessel.queries.declare{ id = "q", description = "d", params = { x = { type = "int", optional = 1 } }, fn = function() end }
