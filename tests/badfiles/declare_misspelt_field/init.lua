kessel.ruleset{ name = "typos", sides = { "red", "blue" } }
kessel.terrain{ id = "clear", colour = "#ffffff" }
