-- expect: instruction budget exceeded
-- line: 12
-- A created unit given no id takes `<type>.<n>`, the first n free from the unit count. Ids given
-- by hand just above that count make each creation walk past all of them: work in the engine the
-- instruction count did not see, so only the wall clock stopped it, at a point that depended on
-- the machine. Each id tried is charged now, and the budget stops it the same way everywhere.
local units = {}
for i = 1, 20000 do
  units[i] = { id = "inf." .. (20000 + i), side = "red", type = "inf", faces = { "1-1-1" }, at = "0101" }
end
kessel.setup{ map = { columns = 4, rows = 4 }, units = units }
while true do kessel.emit.create_unit{ side = "red", type = "inf", faces = { "1-1-1" } } end
