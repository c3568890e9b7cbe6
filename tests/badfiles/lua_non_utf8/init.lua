-- a rules file saved in Latin-1
kessel.ruleset{ name = "café", sides = { "red", "blue" } }
