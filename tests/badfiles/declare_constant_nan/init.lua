-- A constant of NaN (0/0) was stored as null without a word: `kessel.game.constant("ratio")`
-- then gave the engine's null, not a number. Actions, variables and markers refuse a number
-- that is not finite; a declaration should too.
kessel.ruleset{ name = "constant_nan", sides = { "red", "blue" } }
kessel.constant("ratio", 0 / 0)
