-- expect: instruction budget
-- A native search costs far more than the few instructions that call it: its work is charged.
kessel.setup{ map = { columns = 99, rows = 99 } }
while true do pcall(kessel.paths.reach, { from = "5050", budget = 1e9 }) end
