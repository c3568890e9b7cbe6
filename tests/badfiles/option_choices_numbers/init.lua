-- An option's choices are words: numbers were read as their digits, and the default 1 was then
-- refused as not one of "1", "2".
kessel.ruleset{ name = "option_choices", sides = { "red", "blue" } }
kessel.option{ id = "o", type = { 1, 2 }, default = 1, description = "a level", rule = "R1" }
