-- expect: over the size limit
-- line: 6
-- A marker's value is kept in Rust memory: its size is bounded.
kessel.setup{ map = { columns = 4, rows = 4 } }
local id = kessel.emit.create_marker{ kind = "x" }
kessel.emit.marker_value(id, string.rep("x", 100000))
