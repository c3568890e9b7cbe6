-- a ruleset that declares no hexside kinds, so a map may name any
kessel.ruleset{ name = "kinds", sides = { "red", "blue" } }
kessel.sequence{ { id = "move", side = "red" } }
