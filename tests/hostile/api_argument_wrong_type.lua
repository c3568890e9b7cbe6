-- expect: bad argument #1 to `kessel.hex.neighbors`: expected a string, got a table
-- line: 8
-- An engine function given an argument of the wrong type (here through a local alias): the
-- error names the function and says what it wanted and what it got, never the bindings' Rust
-- types ("error converting Lua table to String").
kessel.setup{ map = { columns = 4, rows = 4 } }
local around = kessel.hex.neighbors
around({ "0101" })
