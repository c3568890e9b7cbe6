-- A first row at the top of an i32 with a second row of the wrong length: naming that row's
-- roll overflowed, and a debug build panicked ("attempt to add with overflow").
kessel.ruleset{ name = "first_roll_overflow", sides = { "red", "blue" } }
kessel.results_table{ id = "crt", kind = "ratio", columns = { "1-1" }, rows = { { "x" }, { "x", "y" } },
  first_roll = 2147483647 }
