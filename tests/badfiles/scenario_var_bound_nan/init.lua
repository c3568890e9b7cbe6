-- A scenario variable's bound of NaN (0/0) was taken as no bound: `[vars] v = 99999999` then
-- passed `kessel check`. (An infinite `max` was taken the same way.) The bounds are numbers the
-- variable must lie within; one that is no number is a mistake, said where it is.
kessel.ruleset{ name = "var_bound_nan", sides = { "red", "blue" } }
kessel.scenario_var{ id = "v", type = "int", default = 1, description = "a count",
  min = 0 / 0 }
