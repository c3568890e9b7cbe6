-- A query declared twice: refused, but without saying where the first was; and queries were
-- declared outside the ruleset's count and size limits.
kessel.ruleset{ name = "twice", sides = { "red", "blue" } }
kessel.terrain{ id = "clear" }
kessel.queries.declare{ id = "odds", description = "the odds", fn = function() return 1 end }
kessel.queries.declare{ id = "odds", description = "the odds again", fn = function() return 2 end }
