-- A first row past an i32 was said with the type's range ("expected a whole number, got a
-- number with a fraction, or out of range"), and one near it overflowed naming a later row.
kessel.ruleset{ name = "first_roll_huge", sides = { "red", "blue" } }
kessel.results_table{ id = "crt", kind = "ratio", columns = { "1-1" }, rows = { { "x" } },
  first_roll = 1e12 }
