-- expect: bad argument #1 to 'table.insert' (table expected, got nil)
-- line: 6
-- A library function the sandbox wraps, called wrongly: the error names the script's line and
-- the function's public name, never the wrapper's place (`sandbox:130`) or private name.
local parts = nil
table.insert(parts, "x")
