-- A results table whose cell is NaN (0/0) was accepted: `kessel odds 3 3 --table crt` then
-- printed the result as "-nan   100.0%". A word table refuses the same cell ("a cell: NaN is
-- not a storable number").
kessel.ruleset{ name = "results_nan", sides = { "red", "blue" } }
kessel.results_table{ id = "crt", kind = "ratio", columns = { "1-1" }, rows = { { 0 / 0 } } }
