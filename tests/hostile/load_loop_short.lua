-- expect: instruction budget
-- timeout: 30
-- Compiling is charged per chunk, not only by its length: a loop loading the shortest text ran
-- into the wall clock (10 s of "work the instruction count does not see") before the budget.
while true do load("return 1") end
