-- expect: bad argument #2 to `kessel.hex.distance`: expected a string, got a table
-- line: 8
-- A wrong argument given to an engine function inside a function another engine function
-- calls (a trace's step): the error names the inner function and its line, not the outer
-- call's (it said "line 6: bad argument #2 to `kessel.paths.trace`").
kessel.setup{ map = { columns = 4, rows = 4 } }
local r = kessel.paths.trace{ from = "0101", target = { "0102" }, step = function(a, b)
  return kessel.hex.distance(a, {})
end }
