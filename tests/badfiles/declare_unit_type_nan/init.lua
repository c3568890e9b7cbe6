-- A unit type's field of NaN (0/0) or an infinity was stored as null without a word: the type's
-- `movement` read back as the engine's null.
kessel.ruleset{ name = "unit_type_nan", sides = { "red", "blue" } }
kessel.unit_type{ id = "inf", class = "foot", name = "Infantry", movement = 0 / 0 }
