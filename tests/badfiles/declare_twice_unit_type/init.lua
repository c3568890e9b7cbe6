-- A mod's file declares a unit type its base already has: the second declaration replaced the
-- first without a word, so whichever loaded last won.
kessel.ruleset{ name = "twice", sides = { "red", "blue" } }
kessel.terrain{ id = "clear" }
kessel.unit_type{ id = "inf", class = "foot", name = "Infantry" }
require("rules.extra")
