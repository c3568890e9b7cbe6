kessel.ruleset{ name = "no steps", sides = { "red", "blue" } }
kessel.terrain{ id = "clear" }

-- a main sequence without a step: play failed inside the rules, asking for the step's id
kessel.sequence{}
