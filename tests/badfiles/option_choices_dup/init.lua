-- A choice listed twice (or empty, or holding a line break) was accepted.
kessel.ruleset{ name = "option_choices", sides = { "red", "blue" } }
kessel.option{ id = "o", type = { "strict", "loose", "strict" }, default = "strict",
  description = "a reading", rule = "R1" }
