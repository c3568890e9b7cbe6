-- A table pasted twice: a variant (`when`) lays over the plain table on purpose, a second plain
-- table of the same id replaced the first without a word.
kessel.ruleset{ name = "twice", sides = { "red", "blue" } }
kessel.terrain{ id = "clear" }
kessel.option{ id = "mud", type = "bool", default = false, description = "Muddy weather", rule = "T1" }
kessel.dice_table{ id = "weather", bands = { { 1, "clear" }, { 5, "rain" } } }
kessel.dice_table{ id = "weather", bands = { { 1, "mud" } }, when = { mud = true } }
kessel.dice_table{ id = "weather", bands = { { 1, "clear" }, { 4, "rain" } } }
